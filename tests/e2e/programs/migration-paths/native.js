"use strict";
// The program of dynamic.js moved to the native provider (@pulumi-codesec/codesec): the same resources under
// the same names, the SDK's aliases carrying each over. The second organization's resources keep
// `connection: "org2"` on the default provider (the same stack config), or, with e2e:explicitProvider set,
// move in the same step to an explicit Provider with that connection's base URL and token. With
// e2e:org2RoleOnDestroy set, the second organization's UserRole demotes 601 to that role on destroy.
const pulumi = require("@pulumi/pulumi");
const codesec = require("@pulumi-codesec/codesec");

const cfg = new pulumi.Config("e2e");
const org2RoleOnDestroy = cfg.get("org2RoleOnDestroy");
let org2Args = { connection: "org2" };
let org2Opts = {};
if (cfg.getBoolean("explicitProvider")) {
  const org2 = new codesec.Provider("org2", {
    baseUrl: cfg.require("org2BaseUrl"),
    token: cfg.requireSecret("org2Token"),
  });
  org2Args = {};
  org2Opts = { provider: org2 };
}

const team = new codesec.UserRoles("team", {
  deploymentId: "1001",
  roles: cfg.requireObject("teamRoles"),
  roleOnDestroy: codesec.OrgRole.Member,
});
const app = new codesec.ScmApp("github", {
  deploymentId: "1001",
  requestId: "apprq-1001-a",
  code: cfg.requireSecret("scmAppCode"),
});
const org2Admin = new codesec.UserRole(
  "org2-admin",
  {
    deploymentId: "2002",
    userId: "601",
    role: codesec.OrgRole.Admin,
    ...(org2RoleOnDestroy ? { roleOnDestroy: org2RoleOnDestroy } : {}),
    ...org2Args,
  },
  org2Opts,
);
const org2Hooks = new codesec.ScmWebhookSubscription(
  "org2-hooks",
  { deploymentId: "2002", configId: "scmcfg-2002-a", ...org2Args },
  org2Opts,
);

exports.teamRoles = team.roles;
exports.appSlug = app.slug;
exports.org2Role = org2Admin.role;
exports.org2Events = org2Hooks.events;
