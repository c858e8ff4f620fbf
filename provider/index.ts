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
export { UserRole, type UserRoleArgs } from "./resources/userRole/resource";
export { UserRoles, type UserRolesArgs } from "./resources/userRoles/resource";
export { UserRolesPartialFailure } from "./resources/userRoles/implementation";
export {
  WorkflowProvisioning,
  type WorkflowProvisioningArgs,
} from "./resources/workflowProvisioning/resource";
export {
  ScmWebhookSubscription,
  type ScmWebhookSubscriptionArgs,
} from "./resources/scmWebhookSubscription/resource";
export { ScmApp, type ScmAppArgs } from "./resources/scmApp/resource";
export { ProvisioningPartialFailure } from "./resources/workflowProvisioning/implementation";

export { OrgRole } from "./enums";

export { getScan, getScanOutput, type GetScanArgs, type GetScanResult } from "./functions/getScan";
export { getBranch, getBranchOutput, type GetBranchArgs, type GetBranchResult } from "./functions/getBranch";
export { getScmApp, getScmAppOutput, type GetScmAppArgs, type GetScmAppResult } from "./functions/getScmApp";
export {
  getCurrentUser,
  getCurrentUserOutput,
  type GetCurrentUserArgs,
  type GetCurrentUserResult,
} from "./functions/getCurrentUser";
export {
  getJoinableOrganizations,
  getJoinableOrganizationsOutput,
  type GetJoinableOrganizationsArgs,
  type GetJoinableOrganizationsResult,
} from "./functions/getJoinableOrganizations";
export {
  getNotificationRules,
  getNotificationRulesOutput,
  type GetNotificationRulesArgs,
  type GetNotificationRulesResult,
} from "./functions/getNotificationRules";
export type { CodeSecInvokeOptions, CodeSecInvokeOutputOptions } from "./functions/invokeOptions";

export {
  CodeSecConnectionError,
  MissingCredentialsError,
  type Connection,
  type ConnectionInput,
} from "./connection";
export type { JoinableOrganization, NotificationRule } from "../api/schemas";
