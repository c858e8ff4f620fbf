"use strict";
// What the tests vary comes from stack config `e2e:*`, so one stack goes through every step.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");
const mode = cfg.get("mode") ?? "stack";

if (mode === "badCode") {
  // A one-time code that check refuses, passed as a plain value (a trailing newline, a leading space).
  new codesec.ScmApp("bad-code", { deploymentId, requestId: "apprq-1001-a", code: cfg.require("badCode") });
} else if (mode === "misspeltCode") {
  new codesec.ScmApp("misspelt-code", {
    deploymentId,
    requestId: "apprq-1001-a",
    Code: cfg.require("badCode"),
  });
} else if (mode === "pendingApp") {
  // Connect a pending app and read it back in the same program: the read must wait for the connection.
  const app = new codesec.ScmApp("pending", {
    deploymentId,
    requestId: cfg.require("scmAppRequestId"),
    code: cfg.requireSecret("scmAppCode"),
  });
  module.exports.connectedSlug = codesec.getScmAppOutput({ deploymentId, requestId: app.requestId }).slug;
} else {
  const member = {
    deploymentId,
    userId: cfg.require("memberUserId"),
    role: "ORG_ROLE_ADMIN",
    roleOnDestroy: "ORG_ROLE_MEMBER",
  };
  // The re-assertion recipe (docs/resources/UserRole.md): only the scheduled job sets the variable.
  const reassertAt = process.env.CODESEC_REASSERT_AT;
  const reassert = { triggers: reassertAt };
  const reassertOptions = { ignoreChanges: reassertAt ? [] : ["triggers"] };
  if (cfg.getBoolean("inComponent")) {
    // Moved into a component without an alias: the engine sees a new resource and a deleted one.
    const team = new pulumi.ComponentResource("e2e:index:Team", "admins");
    new codesec.UserRole("member", { ...member, ...reassert }, { ...reassertOptions, parent: team });
  } else {
    new codesec.UserRole("member", { ...member, ...reassert }, reassertOptions);
  }
  new codesec.WorkflowProvisioning(
    "ci",
    { deploymentId, filters: { ids: [cfg.require("projectId")] } },
    { customTimeouts: { update: "3s" } },
  );
  new codesec.ScmWebhookSubscription("hooks", { deploymentId, configId: cfg.require("scmConfigId") });
  new codesec.ScmApp("app", { deploymentId, requestId: cfg.require("connectedRequestId") });
}
