"use strict";
// The dynamic resources (pulumi-codesec): a team's roles as one UserRoles map and an SCM app on the default
// connection (stack config codesec:baseUrl / codesec:token), a UserRole and a webhook subscription of a
// second organization through the named connection "org2" (stack config codesec:connections.org2).
// With e2e:backAliases set, each carries an alias to its native type: how a stack moved to the native
// provider comes back (docs/migrating-to-native.md, "Moving back"). With e2e:org2RoleOnDestroy set, the second
// organization's UserRole demotes 601 to that role on destroy.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const back = cfg.getBoolean("backAliases");
const org2RoleOnDestroy = cfg.get("org2RoleOnDestroy");
const opts = (kind) => (back ? { aliases: [{ type: `codesec:index:${kind}` }] } : {});

const team = new codesec.UserRoles(
  "team",
  { deploymentId: "1001", roles: cfg.requireObject("teamRoles"), roleOnDestroy: "ORG_ROLE_MEMBER" },
  opts("UserRoles"),
);
const app = new codesec.ScmApp(
  "github",
  { deploymentId: "1001", requestId: "apprq-1001-a", code: cfg.requireSecret("scmAppCode") },
  opts("ScmApp"),
);
const org2Admin = new codesec.UserRole(
  "org2-admin",
  {
    deploymentId: "2002",
    userId: "601",
    role: "ORG_ROLE_ADMIN",
    connection: "org2",
    ...(org2RoleOnDestroy ? { roleOnDestroy: org2RoleOnDestroy } : {}),
  },
  opts("UserRole"),
);
const org2Hooks = new codesec.ScmWebhookSubscription(
  "org2-hooks",
  { deploymentId: "2002", configId: "scmcfg-2002-a", connection: "org2" },
  opts("ScmWebhookSubscription"),
);

exports.teamRoles = team.roles;
exports.appSlug = app.slug;
exports.org2Role = org2Admin.role;
exports.org2Events = org2Hooks.events;
