// An explicit Provider whose token is known only at apply (it comes from a resource this run creates, as a
// token read from a secret store would): at preview its configuration is unknown, and the resources on it
// are planned without calling the platform. Driven by tests/e2e/nativeUnknownConfig.test.ts.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("@pulumi-codesec/codesec");

const cfg = new pulumi.Config("e2e");
const baseUrl = cfg.require("baseUrl");
// A resource of the default provider, created in this run: its id is unknown at the first preview.
const hooks = new codesec.ScmWebhookSubscription("hooks", {
  deploymentId: "1001",
  configId: "scmcfg-1001-a",
});
const token = pulumi.all([hooks.id, cfg.requireSecret("token")]).apply(([, value]) => value);
const late = new codesec.Provider("late", { baseUrl, token });

const member = new codesec.UserRole(
  "member",
  { deploymentId: "1001", userId: "502", role: codesec.OrgRole.Readonly },
  { provider: late, customTimeouts: { update: cfg.get("memberUpdateTimeout") || "5m" } },
);
exports.memberRole = member.role;
exports.memberPlatform = member.platform;
