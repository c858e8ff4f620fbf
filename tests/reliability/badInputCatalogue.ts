/**
 * The bad-input catalogue: inputs a user (or an untyped program) gets wrong, each with the field that
 * must be named. Every case runs through both sides of a preview/apply pair (badInput.test.ts):
 * - a resource input: the provider's `check` (preview, and again at `up`) and the client calls the
 *   provider makes with those inputs at apply;
 * - a function argument: the function and the client method behind it;
 * - a client argument or option: the client alone (it is its own preview and apply).
 * Accepted cases prove the reverse: what one side accepts, the other accepts too.
 */

import type { ResourceKind } from "../../provider/resources/registry";

export type { ResourceKind };
export type FunctionName =
  | "getScan"
  | "getBranch"
  | "getScmApp"
  | "getCurrentUser"
  | "getJoinableOrganizations"
  | "getNotificationRules";
export type ClientCall =
  | "updateUserRole"
  | "provisionWorkflows"
  | "completeScmAppRequest"
  | "listNotificationRules"
  | "listAllNotificationRules"
  | "getScan"
  | "new CodeSecClient";

export type CatalogueCase =
  | {
      surface: "resource";
      target: ResourceKind;
      name: string;
      inputs: Record<string, unknown>;
      field?: string;
    }
  | {
      surface: "function";
      target: FunctionName;
      name: string;
      args: unknown;
      options?: object;
      field?: string;
    }
  | { surface: "client"; target: ClientCall; name: string; args: unknown; field?: string };

const role = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" };
const provisioning = { deploymentId: "1001" };
const hooks = { deploymentId: "1001", configId: "scmcfg-1001-a" };
const app = { deploymentId: "1001", requestId: "apprq-1001-a", code: "otc-1001-a-7Hq2Zp9L" };
const scan = { deploymentId: "1001", scanId: "3001" };
const branch = { deploymentId: "1001", projectId: "7001", branchId: "9101" };
const rules = { deploymentId: "1001" };

function resource(
  target: ResourceKind,
  base: object,
  name: string,
  patch: object,
  field?: string,
): CatalogueCase {
  const inputs: Record<string, unknown> = { ...base, ...patch };
  for (const [key, value] of Object.entries(patch)) if (value === undefined) delete inputs[key];
  return { surface: "resource", target, name, inputs, ...(field === undefined ? {} : { field }) };
}

function fn(
  target: FunctionName,
  name: string,
  args: unknown,
  field?: string,
  options?: object,
): CatalogueCase {
  return {
    surface: "function",
    target,
    name,
    args,
    ...(options === undefined ? {} : { options }),
    ...(field === undefined ? {} : { field }),
  };
}

function client(target: ClientCall, name: string, args: unknown, field?: string): CatalogueCase {
  return { surface: "client", target, name, args, ...(field === undefined ? {} : { field }) };
}

const tooManyIds = Array.from({ length: 1001 }, (_, i) => String(7000 + i));

/** Inputs every side must refuse, naming `field`. */
export const REJECTED: readonly CatalogueCase[] = [
  // UserRole: ids and roles
  resource("UserRole", role, 'deploymentId "abc"', { deploymentId: "abc" }, "deploymentId"),
  resource("UserRole", role, "deploymentId empty", { deploymentId: "" }, "deploymentId"),
  resource("UserRole", role, "deploymentId blank", { deploymentId: "   " }, "deploymentId"),
  resource("UserRole", role, "deploymentId as a number", { deploymentId: 1001 }, "deploymentId"),
  resource("UserRole", role, "deploymentId of 21 digits", { deploymentId: "1".repeat(21) }, "deploymentId"),
  resource("UserRole", role, 'deploymentId "-1"', { deploymentId: "-1" }, "deploymentId"),
  resource("UserRole", role, "deploymentId missing", { deploymentId: undefined }, "deploymentId"),
  resource("UserRole", role, 'userId "."', { userId: "." }, "userId"),
  resource("UserRole", role, "userId blank", { userId: "   " }, "userId"),
  resource("UserRole", role, "userId with a C1 control character", { userId: "a\u0085b" }, "userId"),
  resource("UserRole", role, "userId with a C0 control character", { userId: "a\u0007b" }, "userId"),
  resource("UserRole", role, 'userId ".."', { userId: ".." }, "userId"),
  resource("UserRole", role, 'userId "a/b"', { userId: "a/b" }, "userId"),
  resource("UserRole", role, 'userId "%2F"', { userId: "%2F" }, "userId"),
  resource("UserRole", role, 'userId "a?b"', { userId: "a?b" }, "userId"),
  resource("UserRole", role, 'userId "a#b"', { userId: "a#b" }, "userId"),
  resource("UserRole", role, "userId with a backslash", { userId: "a\\b" }, "userId"),
  resource("UserRole", role, "userId with a leading space", { userId: " alice" }, "userId"),
  resource("UserRole", role, "userId of 201 characters", { userId: "x".repeat(201) }, "userId"),
  resource("UserRole", role, "userId with a lone surrogate", { userId: "a\uD800" }, "userId"),
  resource("UserRole", role, "userId as a number", { userId: 502 }, "userId"),
  resource("UserRole", role, "userId null", { userId: null }, "userId"),
  resource("UserRole", role, 'role "ADMIN"', { role: "ADMIN" }, "role"),
  resource("UserRole", role, "role in lower case", { role: "org_role_admin" }, "role"),
  resource("UserRole", role, "role empty", { role: "" }, "role"),
  resource("UserRole", role, "role as a number", { role: 1 }, "role"),
  resource("UserRole", role, "role missing", { role: undefined }, "role"),
  resource("UserRole", role, 'roleOnDestroy "OWNER"', { roleOnDestroy: "OWNER" }, "roleOnDestroy"),
  resource("UserRole", role, "roleOnDestroy null", { roleOnDestroy: null }, "roleOnDestroy"),
  resource("UserRole", role, 'misspelt input "rol"', { rol: "ORG_ROLE_ADMIN" }, "rol"),
  // Connections (the deprecated object form, and names)
  resource(
    "UserRole",
    role,
    "connection.baseUrl not a URL",
    { connection: { baseUrl: "not a url", token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection.baseUrl ftp://",
    { connection: { baseUrl: "ftp://h", token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection.baseUrl with credentials",
    { connection: { baseUrl: "https://u:p@h", token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection.baseUrl with a query",
    { connection: { baseUrl: "https://h/?q=1", token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection.baseUrl ending in /api",
    { connection: { baseUrl: "https://h/api", token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection.token blank",
    { connection: { baseUrl: "https://h", token: "   " } },
    "connection.token",
  ),
  resource(
    "UserRole",
    role,
    "connection.token missing",
    { connection: { baseUrl: "https://h" } },
    "connection.token",
  ),
  resource(
    "UserRole",
    role,
    "connection.token with a space inside",
    { connection: { baseUrl: "https://h", token: "a b" } },
    "connection.token",
  ),
  resource(
    "UserRole",
    role,
    "connection.baseUrl missing",
    { connection: { token: "t" } },
    "connection.baseUrl",
  ),
  resource(
    "UserRole",
    role,
    "connection with a misspelt field",
    { connection: { baseUrl: "https://h", tokn: "t" } },
    "connection.tokn",
  ),
  resource("UserRole", role, "connection name with a space", { connection: "org 2" }, "connection"),
  resource("UserRole", role, "connection name not defined", { connection: "org9" }, "connection"),
  resource("UserRole", role, "connection as a number", { connection: 42 }, "connection"),
  // WorkflowProvisioning
  resource(
    "WorkflowProvisioning",
    provisioning,
    'misspelt input "filter"',
    { filter: { ids: ["7001"] } },
    "filter",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'misspelt input "excludeIDs"',
    { excludeIDs: ["7002"] },
    "excludeIDs",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.ids with a number",
    { filters: { ids: [7001] } },
    "filters.ids[0]",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'filters.ids with "abc"',
    { filters: { ids: ["abc"] } },
    "filters.ids[0]",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.ids with an empty id",
    { filters: { ids: ["7001", ""] } },
    "filters.ids[1]",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.ids with 1001 ids",
    { filters: { ids: tooManyIds } },
    "filters.ids",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.lastScanSince 2025-02-30",
    { filters: { lastScanSince: "2025-02-30T00:00:00Z" } },
    "filters.lastScanSince",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.lastScanSince 2025-02-29 (not a leap year)",
    { filters: { lastScanSince: "2025-02-29T12:00:00Z" } },
    "filters.lastScanSince",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'filters.lastScanSince "yesterday"',
    { filters: { lastScanSince: "yesterday" } },
    "filters.lastScanSince",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.lastScanSince without a time",
    { filters: { lastScanSince: "2026-01-02" } },
    "filters.lastScanSince",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.lastScanSince at hour 25",
    { filters: { lastScanSince: "2026-01-02T25:00:00Z" } },
    "filters.lastScanSince",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.tagId 1.5",
    { filters: { tagId: 1.5 } },
    "filters.tagId",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'filters.tagId "7"',
    { filters: { tagId: "7" } },
    "filters.tagId",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'filters.codeAccess "yes"',
    { filters: { codeAccess: "yes" } },
    "filters.codeAccess",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters with a misspelt field",
    { filters: { idz: ["7001"] } },
    "filters.idz",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "filters.search as a number",
    { filters: { search: 5 } },
    "filters.search",
  ),
  resource("WorkflowProvisioning", provisioning, "filters null", { filters: null }, "filters"),
  resource("WorkflowProvisioning", provisioning, 'excludeIds "7001"', { excludeIds: "7001" }, "excludeIds"),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "excludeIds with a number",
    { excludeIds: [7001] },
    "excludeIds[0]",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'ghaOptions.prEnabled "true"',
    { ghaOptions: { prEnabled: "true" } },
    "ghaOptions.prEnabled",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'ghaOptions.pushBranches "main"',
    { ghaOptions: { pushBranches: "main" } },
    "ghaOptions.pushBranches",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "ghaOptions.pushBranches with a number",
    { ghaOptions: { pushBranches: [1] } },
    "ghaOptions.pushBranches[0]",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "ghaOptions with a misspelt field",
    { ghaOptions: { cron: true } },
    "ghaOptions.cron",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    'allowPartialFailure "yes"',
    { allowPartialFailure: "yes" },
    "allowPartialFailure",
  ),
  resource(
    "WorkflowProvisioning",
    provisioning,
    "a body above the platform's limit",
    { filters: { search: "x".repeat(70_000) } },
    "body",
  ),
  // ScmWebhookSubscription
  resource("ScmWebhookSubscription", hooks, "configId empty", { configId: "" }, "configId"),
  resource("ScmWebhookSubscription", hooks, 'configId "a/b"', { configId: "a/b" }, "configId"),
  resource("ScmWebhookSubscription", hooks, 'configId ".."', { configId: ".." }, "configId"),
  resource("ScmWebhookSubscription", hooks, "configId blank", { configId: "   " }, "configId"),
  resource("ScmWebhookSubscription", hooks, "configId as a number", { configId: 5 }, "configId"),
  resource("ScmWebhookSubscription", hooks, 'deploymentId "x"', { deploymentId: "x" }, "deploymentId"),
  resource(
    "ScmWebhookSubscription",
    hooks,
    'misspelt input "configID"',
    { configID: "scmcfg-1001-a" },
    "configID",
  ),
  // ScmApp
  resource("ScmApp", app, "code blank", { code: "   " }, "code"),
  resource("ScmApp", app, "code empty", { code: "" }, "code"),
  resource("ScmApp", app, "code as a number", { code: 12345678 }, "code"),
  resource("ScmApp", app, "code with a trailing newline", { code: "otc-1001-a-7Hq2Zp9L\n" }, "code"),
  resource("ScmApp", app, 'requestId "."', { requestId: "." }, "requestId"),
  resource("ScmApp", app, 'requestId "a%2Fb"', { requestId: "a%2Fb" }, "requestId"),
  resource("ScmApp", app, "requestId empty", { requestId: "" }, "requestId"),
  resource("ScmApp", app, "requestId missing", { requestId: undefined }, "requestId"),
  // Functions
  fn("getScan", "arguments null", null, "args"),
  fn("getScan", "arguments undefined", undefined, "args"),
  fn("getScan", "arguments a string", "3001", "args"),
  fn("getScan", "scanId missing", { deploymentId: "1001" }, "scanId"),
  fn("getScan", 'scanId "abc"', { ...scan, scanId: "abc" }, "scanId"),
  fn("getScan", 'misspelt argument "scanID"', { deploymentId: "1001", scanID: "3001" }, "scanID"),
  fn("getScan", "connection without a token", scan, "connection.token", {
    connection: { baseUrl: "http://127.0.0.1:9" },
  }),
  fn("getBranch", 'projectId "p"', { ...branch, projectId: "p" }, "projectId"),
  fn("getBranch", "branchId as a number", { ...branch, branchId: 9101 }, "branchId"),
  fn("getScmApp", 'requestId ".."', { deploymentId: "1001", requestId: ".." }, "requestId"),
  fn("getCurrentUser", "an unknown argument", { user: "501" }, "user"),
  fn("getJoinableOrganizations", "userId empty", { userId: "" }, "userId"),
  fn("getJoinableOrganizations", 'misspelt argument "user"', { user: "501" }, "user"),
  fn("getNotificationRules", "limit 0", { ...rules, limit: 0 }, "limit"),
  fn("getNotificationRules", "limit 101", { ...rules, limit: 101 }, "limit"),
  fn("getNotificationRules", 'limit "10"', { ...rules, limit: "10" }, "limit"),
  fn(
    "getNotificationRules",
    "filters with a misspelt field",
    { ...rules, filters: { enabled: true } },
    "filters.enabled",
  ),
  fn(
    "getNotificationRules",
    'misspelt argument "filter"',
    { ...rules, filter: { is_enabled: true } },
    "filter",
  ),
  fn("getNotificationRules", "deploymentId of 16 digits", { deploymentId: "9".repeat(16) }, "deploymentId"),
  fn("getNotificationRules", "cursor empty", { ...rules, cursor: "" }, "cursor"),
  fn("getNotificationRules", "maxPages 0", { ...rules, maxPages: 0 }, "maxPages"),
  // The client on its own
  client(
    "provisionWorkflows",
    'misspelt argument "filter" (it widened the write to every repository)',
    { deploymentId: "1001", filter: { ids: ["7001"] } },
    "filter",
  ),
  client(
    "provisionWorkflows",
    'misspelt argument "excludeIDs"',
    { deploymentId: "1001", excludeIDs: ["7002"] },
    "excludeIDs",
  ),
  client(
    "provisionWorkflows",
    "a body above the platform's limit",
    { deploymentId: "1001", filters: { search: "x".repeat(70_000) } },
    "body",
  ),
  client(
    "updateUserRole",
    'newRole "OWNER"',
    { deploymentId: "1001", userId: "502", newRole: "OWNER" },
    "newRole",
  ),
  client("updateUserRole", "arguments undefined", undefined, "args"),
  client("completeScmAppRequest", "code blank", { requestId: "apprq-1001-a", code: "   " }, "code"),
  client("listNotificationRules", "limit 1.5", { deploymentId: "1001", limit: 1.5 }, "limit"),
  client("listAllNotificationRules", "pageSize 500", { deploymentId: "1001", pageSize: 500 }, "pageSize"),
  client("getScan", "an extra argument", { ...scan, include: "findings" }, "include"),
  client("new CodeSecClient", 'misspelt option "timeout"', { timeout: 5000 }, "timeout"),
  client("new CodeSecClient", "retries 11", { retries: 11 }, "retries"),
];

/** Inputs every side must accept: the edges of the same rules, from the accepting side. */
export const ACCEPTED: readonly CatalogueCase[] = [
  resource("UserRole", role, "userId with dots, dashes and accents", { userId: "ana.maría-1" }),
  resource("UserRole", role, "userId with a space inside", { userId: "ana maria" }),
  resource("UserRole", role, "userId with an emoji (a surrogate pair)", { userId: "ana\uD83D\uDE00" }),
  resource("UserRole", role, "roleOnDestroy set", { roleOnDestroy: "ORG_ROLE_READONLY" }),
  resource("UserRole", role, "a named connection", { connection: "org2" }),
  resource("UserRole", role, "connection object with a trailing slash", {
    connection: { baseUrl: "https://h/", token: "t" },
  }),
  resource("WorkflowProvisioning", provisioning, "lastScanSince on 2024-02-29 with an offset", {
    filters: { lastScanSince: "2024-02-29T23:59:59.5+05:30" },
  }),
  resource("WorkflowProvisioning", provisioning, "1000 ids", { filters: { ids: tooManyIds.slice(0, 1000) } }),
  resource("ScmApp", app, "code with a space inside", { code: "otc 1001" }),
  resource("ScmApp", app, "no code (adopt)", { code: undefined }),
  fn("getCurrentUser", "no arguments at all", undefined),
  fn("getJoinableOrganizations", "null arguments (all optional)", null),
  fn("getNotificationRules", "limit 100 and maxPages 1", { ...rules, limit: 100, maxPages: 1 }),
  client("listNotificationRules", "deploymentId of 15 digits", { deploymentId: "9".repeat(15) }),
];
