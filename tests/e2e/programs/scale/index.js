// One UserRole per member id in config (e2e:firstUserId, e2e:count), demoted back to member on destroy.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const config = new pulumi.Config("e2e");
const deploymentId = config.require("deploymentId");
const first = config.requireNumber("firstUserId");
const count = config.requireNumber("count");
const role = config.get("role") ?? "ORG_ROLE_READONLY";
// The first `changed` members get `changedRole` instead (an update of exactly that many resources).
const changed = config.getNumber("changed") ?? 0;
const changedRole = config.get("changedRole") ?? role;

for (let i = 0; i < count; i++) {
  const userId = String(first + i);
  new codesec.UserRole(`member-${userId}`, {
    deploymentId,
    userId,
    role: i < changed ? changedRole : role,
    roleOnDestroy: "ORG_ROLE_MEMBER",
  });
}
