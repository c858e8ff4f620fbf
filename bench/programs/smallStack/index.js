"use strict";
/**
 * A small real stack in deployment 1001, as a team starts with: 4 `UserRole`s (members 100000 to 100003,
 * bench/support/fixtures.ts), one `UserRoles` of 20 members (100004 to 100023), 2 `WorkflowProvisioning`s,
 * 2 `ScmWebhookSubscription`s and 1 `ScmApp` (its request and one-time code from the stack config), declared
 * (stack config `bench:provider`) with the package's dynamic resources (`dynamic`), the generated Node SDK
 * on the native plugin (`native`), or not at all (`empty`: the CLI's own fixed cost). Plain JavaScript, so
 * that no TypeScript compile adds the same constant to every side.
 */
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const which = config.require("provider");
const deploymentId = "1001";
const member = (i) => String(100_000 + i);

if (which === "dynamic" || which === "native") {
  const codesec = which === "native" ? require("@pulumi-codesec/codesec") : require("pulumi-codesec");
  for (let i = 0; i < 4; i++) {
    new codesec.UserRole(`role-${i}`, {
      deploymentId,
      userId: member(i),
      role: "ORG_ROLE_ADMIN",
      roleOnDestroy: "ORG_ROLE_MEMBER",
    });
  }
  const roles = {};
  for (let i = 4; i < 24; i++) roles[member(i)] = "ORG_ROLE_ADMIN";
  new codesec.UserRoles("team", { deploymentId, roles, roleOnDestroy: "ORG_ROLE_MEMBER" });
  new codesec.WorkflowProvisioning("ci-active", {
    deploymentId,
    filters: { codeAccess: true, archived: false, setup: true },
    excludeIds: ["7005"],
    ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
  });
  new codesec.WorkflowProvisioning("ci-listed", {
    deploymentId,
    filters: { ids: ["7001", "7002"] },
    ghaOptions: { prEnabled: true, pushEnabled: false },
  });
  new codesec.ScmWebhookSubscription("hooks-a", { deploymentId, configId: "scmcfg-1001-a" });
  new codesec.ScmWebhookSubscription("hooks-b", { deploymentId, configId: "scmcfg-1001-b" });
  new codesec.ScmApp("app", {
    deploymentId,
    requestId: config.require("scmAppRequestId"),
    code: config.requireSecret("scmAppCode"),
  });
} else if (which !== "empty") {
  throw new Error(`bench:provider must be dynamic, native or empty, got ${which}`);
}
