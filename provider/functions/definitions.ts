/**
 * The one definition of each data-source function, and their registry (in the order the docs list them).
 * Everything else about a function (its Promise and Output forms, the plugin's Invoke, the schema, the
 * docs) is derived from these.
 */
import { describeOperation } from "../../api/operations";
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
  operations: describeOperation("getScan"),
  maturity: "beta",
  args: GetScanArgs,
  argsOptional: false,
  result: Scan,
  example: `const scan = await codesec.getScan({ deploymentId: "1001", scanId: "3001" });
console.log(scan.status, scan.findingsCounts.total);`,
  outputExample: `export const scanStatus = codesec.getScanOutput({ deploymentId: "1001", scanId: "3001" }).status;`,
  invoke: (client, args) => client.getScan(args),
});

export const getBranchDefinition = defineFunction({
  name: "getBranch",
  description: "Reads one branch of a project.",
  operations: describeOperation("getBranch"),
  maturity: "experimental",
  args: GetBranchArgs,
  argsOptional: false,
  result: Branch,
  example: `const branch = await codesec.getBranch({ deploymentId: "1001", projectId: "7001", branchId: "9101" });
console.log(branch.name); // refs/heads/main`,
  outputExample: `export const branchName = codesec.getBranchOutput({
  deploymentId: "1001",
  projectId: "7001",
  branchId: "9101",
}).name;`,
  invoke: (client, args) => client.getBranch(args),
});

export const getScmAppDefinition = defineFunction({
  name: "getScmApp",
  description: "Reads an SCM app by the request id it was connected with.",
  operations: describeOperation("getScmApp"),
  maturity: "experimental",
  args: GetScmAppArgs,
  argsOptional: false,
  result: ScmApp,
  example: `const app = await codesec.getScmApp({ deploymentId: "1001", requestId: "apprq-1001-done" });
console.log(app.slug, app.codeAccess);`,
  outputExample: `const app = new codesec.ScmApp("legacy", { deploymentId: "1001", requestId: "apprq-1001-done" });
// Waits for the app: at preview, while it is yet to be created, the result is unknown.
export const appSlug = codesec.getScmAppOutput({ deploymentId: "1001", requestId: app.requestId }).slug;`,
  invoke: (client, args) => client.getScmApp(args),
});

export const getCurrentUserDefinition = defineFunction({
  name: "getCurrentUser",
  description:
    "The user behind the credentials: role, e-mail, authentication details. With an API token this is the " +
    "token's owner.",
  operations: describeOperation("getCurrentUser"),
  maturity: "experimental",
  args: NoArguments,
  argsOptional: true,
  result: CurrentUser,
  example: `const me = await codesec.getCurrentUser();
console.log(me.login, me.orgRole);`,
  outputExample: `export const whoami = codesec.getCurrentUserOutput().login;`,
  invoke: (client) => client.getCurrentUser(),
});

export const getJoinableOrganizationsDefinition = defineFunction({
  name: "getJoinableOrganizations",
  description:
    "Organizations (deployments) the user can join. The platform accepts only a user JWT here: with an API " +
    "token it answers 403, and the error says so.",
  operations: describeOperation("listJoinableOrganizations"),
  maturity: "experimental",
  args: ListJoinableOrganizationsArgs,
  argsOptional: true,
  result: JoinableOrganizationsResponse,
  example: `// codesec:connections.user holds the user's JWT (pulumi config set --secret --path ...).
const { orgs } = await codesec.getJoinableOrganizations({}, { connection: "user" });`,
  outputExample: `export const joinable = codesec.getJoinableOrganizationsOutput({}, { connection: "user" }).orgs;`,
  invoke: (client, args) => client.listJoinableOrganizations(args),
});

export const getNotificationRulesDefinition = defineFunction({
  name: "getNotificationRules",
  description:
    "Notification rules of a deployment, following further pages when the platform returns a cursor, with " +
    "the rules that need attention (a configuration error, or disabled) listed apart.",
  operations: describeOperation("listNotificationRules"),
  maturity: "experimental",
  args: GetNotificationRulesArgs,
  argsOptional: false,
  result: GetNotificationRulesResult,
  more: { rule: NotificationRule },
  example: `const { rulesWithProblems } = await codesec.getNotificationRules({ deploymentId: "1001" });
for (const rule of rulesWithProblems) console.log(rule.name, rule.config_error || "disabled");`,
  outputExample: `export const brokenRules = codesec.getNotificationRulesOutput({ deploymentId: "1001" }).rulesWithProblems;`,
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
