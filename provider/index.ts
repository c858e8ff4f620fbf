/**
 * pulumi-codesec: manage a code-security platform's organization configuration with Pulumi.
 *
 * Resources: {@link UserRole}, {@link WorkflowProvisioning}, {@link ScmWebhookSubscription}, {@link ScmApp}.
 * Functions (Promise and Output forms): getScan, getBranch, getScmApp, getCurrentUser,
 * getJoinableOrganizations, getNotificationRules.
 * Credentials: stack config `codesec:baseUrl` and `codesec:token` (secret), else `CODESEC_BASE_URL` and
 * `CODESEC_TOKEN`, and an explicit `connection` argument wins over both.
 *
 * @packageDocumentation
 */
export { UserRole, type UserRoleArgs } from "./generated/resources/UserRole";
export { UserRoles, type UserRolesArgs } from "./generated/resources/UserRoles";
export {
  WorkflowProvisioning,
  type WorkflowProvisioningArgs,
} from "./generated/resources/WorkflowProvisioning";
export {
  ScmWebhookSubscription,
  type ScmWebhookSubscriptionArgs,
} from "./generated/resources/ScmWebhookSubscription";
export { ScmApp, type ScmAppArgs } from "./generated/resources/ScmApp";

export { OrgRole } from "./enums";

export { getScan, getScanOutput, type GetScanArgs, type GetScanResult } from "./generated/functions/getScan";
export {
  getBranch,
  getBranchOutput,
  type GetBranchArgs,
  type GetBranchResult,
} from "./generated/functions/getBranch";
export {
  getScmApp,
  getScmAppOutput,
  type GetScmAppArgs,
  type GetScmAppResult,
} from "./generated/functions/getScmApp";
export {
  getCurrentUser,
  getCurrentUserOutput,
  type GetCurrentUserArgs,
  type GetCurrentUserResult,
} from "./generated/functions/getCurrentUser";
export {
  getJoinableOrganizations,
  getJoinableOrganizationsOutput,
  type GetJoinableOrganizationsArgs,
  type GetJoinableOrganizationsResult,
} from "./generated/functions/getJoinableOrganizations";
export {
  getNotificationRules,
  getNotificationRulesOutput,
  type GetNotificationRulesArgs,
  type GetNotificationRulesResult,
} from "./generated/functions/getNotificationRules";
export type { CodeSecInvokeOptions, CodeSecInvokeOutputOptions } from "./functions/invokeOptions";

export {
  CodeSecConnectionError,
  MissingCredentialsError,
  ProvisioningPartialFailure,
  UserRolesPartialFailure,
} from "./errors";
export type { Connection, ConnectionInput } from "./connection";
export type { JoinableOrganization, NotificationRule } from "../api/schemas";
