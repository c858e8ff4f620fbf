"use strict";
// The map and its options come from stack config `e2e:*`, so one stack goes through every step.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");

// Users managed one by one (userId -> role), each demoted to member on destroy.
const singles = Object.entries(cfg.getObject("singles") ?? {}).map(
  ([userId, role]) =>
    new codesec.UserRole(`single-${userId}`, {
      deploymentId,
      userId,
      role,
      roleOnDestroy: "ORG_ROLE_MEMBER",
    }),
);

// Users moving out of the map into UserRoles: the map waits for them (docs/resources/UserRoles.md).
new codesec.UserRoles(
  "team",
  {
    deploymentId,
    roles: cfg.requireObject("roles"),
    roleOnDestroy: cfg.get("roleOnDestroy"),
    rolesOnDestroy: cfg.getObject("rolesOnDestroy"),
  },
  { dependsOn: singles },
);
