/**
 * The one definition of each data-source function, and their registry (in the order the docs list them).
 * Everything else about a function (its Promise and Output forms, the plugin's Invoke, the schema, the
 * docs) is derived from these.
 */
import { Type } from "../../api/typeBuilder";
import { Branch, GetBranchArgs, GetScanArgs, Scan } from "../../api/schemas/scans";
import { GetScmAppArgs, ScmApp } from "../../api/schemas/scm";
import {
  CurrentUser,
  JoinableOrganizationsResponse,
  ListJoinableOrganizationsArgs,
} from "../../api/schemas/users";
import {
  GetNotificationRulesArgs,
  GetNotificationRulesResult,
  NotificationRule,
} from "../../api/schemas/notificationRules";
import { defineFunction, type FunctionDefinition } from "./definition";

/** The arguments of a function that takes none: an empty object, and nothing in it. */
export const NoArguments = Type.Object({}, { additionalProperties: false });

export const getScanDefinition = defineFunction({
  name: "getScan",
  description: "Reads one scan: its status, commit, timing and numbers of findings.",
  operations: "operation 6 (`GET /api/v2/deployments/{deploymentId}/scans/{scanId}`, beta)",
  maturity: "beta",
  args: GetScanArgs,
  argsOptional: false,
  result: Scan,
  invoke: (client, args) => client.getScan(args),
});

export const getBranchDefinition = defineFunction({
  name: "getBranch",
  description: "Reads one branch of a project.",
  operations:
    "operation 7 (`GET /api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}`, experimental)",
  maturity: "experimental",
  args: GetBranchArgs,
  argsOptional: false,
  result: Branch,
  invoke: (client, args) => client.getBranch(args),
});

export const getScmAppDefinition = defineFunction({
  name: "getScmApp",
  description: "Reads an SCM app by the request id it was connected with.",
  operations: "operation 4 (`GET /api/scm/deployments/{deploymentId}/scm_apps/{requestId}`, experimental)",
  maturity: "experimental",
  args: GetScmAppArgs,
  argsOptional: false,
  result: ScmApp,
  invoke: (client, args) => client.getScmApp(args),
});

export const getCurrentUserDefinition = defineFunction({
  name: "getCurrentUser",
  description:
    "The user behind the credentials: role, e-mail, authentication details. With an API token this is the " +
    "token's owner.",
  operations: "operation 8 (`GET /api/auth/users/current`, experimental)",
  maturity: "experimental",
  args: NoArguments,
  argsOptional: true,
  result: CurrentUser,
  invoke: (client) => client.getCurrentUser(),
});

export const getJoinableOrganizationsDefinition = defineFunction({
  name: "getJoinableOrganizations",
  description:
    "Organizations (deployments) the user can join. The platform accepts only a user JWT here: with an API " +
    "token it answers 403, and the error says so.",
  operations: "operation 9 (`GET /api/auth/users/current/deployments/joinable`, experimental)",
  maturity: "experimental",
  args: ListJoinableOrganizationsArgs,
  argsOptional: true,
  result: JoinableOrganizationsResponse,
  invoke: (client, args) => client.listJoinableOrganizations(args),
});

export const getNotificationRulesDefinition = defineFunction({
  name: "getNotificationRules",
  description:
    "Notification rules of a deployment, following further pages when the platform returns a cursor, with " +
    "the rules that need attention (a configuration error, or disabled) listed apart.",
  operations: "operation 10 (`POST /api/agent/deployments/{deploymentId}/actions/list`, experimental)",
  maturity: "experimental",
  args: GetNotificationRulesArgs,
  argsOptional: false,
  result: GetNotificationRulesResult,
  more: { rule: NotificationRule },
  invoke: async (client, { limit, ...rest }) => {
    const rules = await client.listAllNotificationRules({
      ...rest,
      ...(limit === undefined ? {} : { pageSize: limit }),
    });
    return {
      deploymentId: rest.deploymentId,
      rules,
      rulesWithProblems: rules.filter((rule) => rule.config_error !== "" || !rule.is_enabled),
    };
  },
});

export const FUNCTION_DEFINITIONS = {
  getScan: getScanDefinition,
  getBranch: getBranchDefinition,
  getScmApp: getScmAppDefinition,
  getCurrentUser: getCurrentUserDefinition,
  getJoinableOrganizations: getJoinableOrganizationsDefinition,
  getNotificationRules: getNotificationRulesDefinition,
} as const satisfies Record<string, FunctionDefinition>;

export type FunctionName = keyof typeof FUNCTION_DEFINITIONS;
