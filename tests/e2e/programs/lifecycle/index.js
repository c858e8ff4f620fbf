"use strict";
// Plain JavaScript on purpose: it is what an untyped caller passes, and needs no compile step.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const baseUrl = new pulumi.Config("codesec").require("baseUrl");
const deploymentId = cfg.require("deploymentId");

const member = new codesec.UserRole("member", {
  deploymentId,
  userId: cfg.require("memberUserId"),
  role: cfg.require("memberRole"),
  roleOnDestroy: "ORG_ROLE_MEMBER",
});
const ci = new codesec.WorkflowProvisioning("ci", {
  deploymentId,
  filters: { ids: cfg.requireObject("projectIds") },
  ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
});
const hooks = new codesec.ScmWebhookSubscription("hooks", {
  deploymentId,
  configId: cfg.require("scmConfigId"),
});
const app = new codesec.ScmApp("app", {
  deploymentId,
  requestId: cfg.require("scmAppRequestId"),
  code: cfg.requireSecret("scmAppCode"),
});
if (cfg.getBoolean("importLegacyApp")) {
  // No code: adopt the app that is already connected (the engine's `import` option cannot reach dynamic providers).
  new codesec.ScmApp("legacy", { deploymentId, requestId: "apprq-1001-done" });
}

exports.memberRole = member.role;
exports.workflowFiles = ci.repoFileUrls;
exports.provisionErrors = ci.errors;
exports.subscribedEvents = hooks.events;
exports.scmUrl = hooks.scmUrl;
exports.appSlug = app.slug;
exports.currentUser = codesec.getCurrentUserOutput({}).login;
exports.scanStatus = codesec.getScanOutput({ deploymentId, scanId: cfg.require("scanId") }).status;
exports.branchName = codesec.getBranchOutput({
  deploymentId,
  projectId: cfg.require("projectId"),
  branchId: cfg.require("branchId"),
}).name;
// Read after the app is connected (its output is unknown during a first preview).
exports.scmAppFromFunction = codesec.getScmAppOutput({ deploymentId, requestId: app.requestId }).scmName;
exports.joinableOrgs = codesec
  .getJoinableOrganizationsOutput({}, { connection: { baseUrl, token: cfg.requireSecret("userJwt") } })
  .orgs.apply((orgs) => orgs.map((o) => o.id));
exports.problemRules = codesec
  .getNotificationRulesOutput({ deploymentId, limit: 2 })
  .rulesWithProblems.apply((rules) => rules.map((r) => r.id));
