// The native provider (pulumi-resource-codesec) through its generated Node.js SDK: two organizations
// through two explicit Provider resources, all four kinds, and the six functions in both forms (see
// tests/e2e/native.test.ts, which drives it). Its tsconfig maps the SDK to sdk/nodejs for lint only: in
// the test's copy that path does not exist, and the SDK resolves from node_modules (the packed SDK).
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const cfg = new pulumi.Config("e2e");
const baseUrl = cfg.require("baseUrl");

const acme = new codesec.Provider("acme", { baseUrl, token: cfg.requireSecret("acmeToken") });
const globex = new codesec.Provider("globex", { baseUrl, token: cfg.requireSecret("globexToken") });
// The admin's own JWT on acme: listing the joinable organizations accepts nothing else.
const acmeJwt = new codesec.Provider("acme-jwt", { baseUrl, token: cfg.requireSecret("acmeJwt") });

const member = new codesec.UserRole(
  "member",
  {
    deploymentId: "1001",
    userId: "502",
    role: cfg.require<codesec.OrgRole>("memberRole"),
    roleOnDestroy: codesec.OrgRole.Member,
  },
  { provider: acme, customTimeouts: { update: cfg.get("memberUpdateTimeout") ?? "5m" } },
);
const ci = new codesec.WorkflowProvisioning(
  "ci",
  { deploymentId: "1001", filters: { ids: ["7001", "7002"] }, ghaOptions: { prEnabled: true } },
  { provider: acme },
);
const hooks = new codesec.ScmWebhookSubscription(
  "hooks",
  { deploymentId: "1001", configId: "scmcfg-1001-a" },
  { provider: acme },
);
const app = new codesec.ScmApp(
  "app",
  { deploymentId: "1001", requestId: "apprq-1001-a", code: cfg.requireSecret("appCode") },
  { provider: acme },
);
// A team's roles as one map, through the same plugin with no code of its own.
const team = new codesec.UserRoles(
  "team",
  {
    deploymentId: "1001",
    roles: { "503": codesec.OrgRole.Member, "504": codesec.OrgRole.Readonly },
    roleOnDestroy: codesec.OrgRole.Member,
  },
  { provider: acme },
);
const globexAdmin = new codesec.UserRole(
  "globex-admin",
  { deploymentId: "2002", userId: "601", role: codesec.OrgRole.Admin },
  { provider: globex },
);
const globexHooks = new codesec.ScmWebhookSubscription(
  "globex-hooks",
  { deploymentId: "2002", configId: "scmcfg-2002-a" },
  { provider: globex },
);

export const memberRole = member.role;
export const teamRoles = team.roles;
export const workflowFiles = ci.repoFileUrls;
export const subscribedEvents = hooks.events;
export const appSlug = app.slug;
export const globexRole = globexAdmin.role;
export const globexEvents = globexHooks.events;

// Promise forms.
export const globexUser = codesec.getCurrentUser({ provider: globex }).then((user) => user.login);
export const acmeScan = codesec
  .getScan({ deploymentId: "1001", scanId: "3001" }, { provider: acme })
  .then((scan) => scan.status);
export const joinable = codesec
  .getJoinableOrganizations({}, { provider: acmeJwt })
  .then((result) => result.orgs.map((org) => org.id));
// Output forms.
export const acmeUser = codesec.getCurrentUserOutput({ provider: acme }).login;
export const branchName = codesec.getBranchOutput(
  { deploymentId: "1001", projectId: "7001", branchId: "9101" },
  { provider: acme },
).name;
export const appFromFunction = codesec.getScmAppOutput(
  { deploymentId: "1001", requestId: app.requestId },
  { provider: acme },
).slug;
const notificationRules = codesec.getNotificationRulesOutput(
  { deploymentId: "1001", limit: 2 },
  { provider: acme },
);
export const problemRules = notificationRules.rulesWithProblems.apply((rules) =>
  rules.map((rule) => rule.id),
);
export const problemErrors = notificationRules.rulesWithProblems.apply((rules) =>
  rules.map((rule) => rule.configError),
);
