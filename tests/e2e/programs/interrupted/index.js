"use strict";
// Plain JavaScript, like tests/e2e/programs/lifecycle: no compile step, so an interrupted run is
// interrupted while it applies resources, not while it compiles.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");
const role = cfg.require("role");
const roleOnDestroy = cfg.require("roleOnDestroy");

// Declared first, so that it is normally created before an interruption (state that must survive it).
new codesec.WorkflowProvisioning("ci", {
  deploymentId,
  filters: { ids: cfg.requireObject("projectIds") },
  ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
});
// One role per user: many independent writes of `updateUserRole`, so that an `up` can be interrupted mid-way.
for (const userId of cfg.requireObject("userIds")) {
  new codesec.UserRole(`role-${userId}`, { deploymentId, userId, role, roleOnDestroy });
}
// Declared last, so that it is normally still to do when the run is interrupted.
new codesec.ScmWebhookSubscription("hooks", { deploymentId, configId: cfg.require("scmConfigId") });
