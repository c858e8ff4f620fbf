"use strict";
// The two kinds whose refresh reads the platform back, so a change made in the platform's UI shows up.
const pulumi = require("@pulumi/pulumi");
const codesec = require("pulumi-codesec");

const cfg = new pulumi.Config("e2e");
const deploymentId = cfg.require("deploymentId");

new codesec.ScmApp("app", {
  deploymentId,
  requestId: cfg.require("scmAppRequestId"),
  code: cfg.requireSecret("scmAppCode"),
});
// The credentials' own user: the one user whose role refresh can read back (`getCurrentUser`).
new codesec.UserRole("me", {
  deploymentId,
  userId: cfg.require("userId"),
  role: "ORG_ROLE_ADMIN",
});
// A lookup by id of an app connected elsewhere: read on every run, never managed.
const lookupRequestId = cfg.get("lookupRequestId");
if (lookupRequestId) codesec.ScmApp.get("looked-up", `${deploymentId}/${lookupRequestId}`);
