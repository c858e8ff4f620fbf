"use strict";
// Plain JavaScript on purpose: it needs no compile step. Two organizations: the default connection
// (stack config codesec:baseUrl / codesec:token) and a named one, "org2", from codesec:connections.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");

new codesec.UserRole("member", {
  deploymentId,
  userId: cfg.require("memberUserId"),
  role: "ORG_ROLE_READONLY",
  roleOnDestroy: "ORG_ROLE_MEMBER",
});
// The credentials' own user: refresh reads this role back from the platform.
new codesec.UserRole("self", { deploymentId, userId: cfg.require("adminUserId"), role: "ORG_ROLE_ADMIN" });
new codesec.UserRole("org2-admin", {
  deploymentId: cfg.require("org2DeploymentId"),
  userId: cfg.require("org2AdminUserId"),
  role: "ORG_ROLE_ADMIN",
  connection: "org2",
});
new codesec.ScmApp("app", {
  deploymentId,
  requestId: cfg.require("scmAppRequestId"),
  code: cfg.requireSecret("scmAppCode"),
});
if (cfg.getBoolean("legacyConnection")) {
  // The deprecated object form: its token is stored (encrypted) with the resource.
  new codesec.ScmWebhookSubscription("legacy", {
    deploymentId,
    configId: cfg.require("scmConfigId"),
    connection: {
      baseUrl: new pulumi.Config("codesec").require("baseUrl"),
      token: cfg.requireSecret("legacyToken"),
    },
  });
}

// Off where a test needs the resources' own preview checks alone to speak.
if (cfg.getBoolean("functions") !== false) {
  exports.me = codesec.getCurrentUserOutput().login;
  exports.org2Me = codesec.getCurrentUserOutput({}, { connection: "org2" }).login;
  exports.joinable = codesec
    .getJoinableOrganizationsOutput({}, { connection: "user" })
    .orgs.apply((orgs) => orgs.map((o) => o.id));
}
