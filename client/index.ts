/**
 * Public entry point of the typed client (`pulumi-codesec/sdk`): the client, its errors, the
 * operation catalogue, and every API shape (TypeBox schemas and their derived types).
 */
export {
  CodeSecClient,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRY_DELAY_MS,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  MAX_RETRIES,
  type CodeSecClientOptions,
} from "./client";
export type { DeadlineLabel } from "./errors";
export type { SettingNames } from "./settingNames";
export { normalizeBaseUrl, type TransportRule } from "./baseUrl";
export {
  BURST_WINDOW_MS,
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_REQUESTS_PER_SECOND,
  MAX_IN_FLIGHT_LIMIT,
  MAX_REQUESTS_PER_SECOND,
  RateLimiter,
  type LimiterClock,
  type RateLimiterOptions,
  type ReleaseSlot,
} from "./rateLimiter";
export {
  CodeSecApiError,
  CodeSecError,
  CodeSecInputError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  CodeSecResponseError,
  CodeSecTimeoutError,
  type ApiErrorDetails,
  type AttemptInfo,
  type OperationRef,
  type OutcomeUnknownFailure,
} from "./errors";
export {
  OPERATIONS,
  isMutating,
  REQUEST_BODY_LIMIT_BYTES,
  type RetryClass,
  type AuthScheme,
  type HttpMethod,
  type OperationKey,
  type OperationSpec,
  type PathParamKind,
} from "../api/operations";
export type { UpdateUserRoleArgs, ListJoinableOrganizationsArgs } from "./operations/users";
export type { ProvisionWorkflowsArgs } from "./operations/provisioning";
export type { CompleteScmAppRequestArgs, GetScmAppArgs, SubscribeScmWebhookArgs } from "./operations/scm";
export type { GetScanArgs, GetBranchArgs } from "./operations/scans";
export {
  DEFAULT_MAX_PAGES,
  type ListAllNotificationRulesArgs,
  type ListNotificationRulesArgs,
  type NotificationRulesPage,
} from "./operations/notificationRules";
export { MAX_NESTING_DEPTH } from "../api/nestingDepth";
export * from "../api/schemas";
