// The program of tests/e2e/programs/migration moved to the native provider: the same resources under the
// same names, on the generated Node.js SDK and the default provider (the same stack config). Nothing else:
// the SDK's aliases (pulumi-nodejs:dynamic/codesec:<Kind>) carry each resource over. With e2e:stripAliases
// set, a stack transformation removes them, to show what the engine would do without them.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("@pulumi-codesec/codesec");

const cfg = new pulumi.Config();
if (new pulumi.Config("e2e").getBoolean("stripAliases")) {
  pulumi.runtime.registerStackTransformation((args) => ({
    props: args.props,
    opts: { ...args.opts, aliases: [] },
  }));
}
const deploymentId = "1001";

const member = new codesec.UserRole("member-502", {
  deploymentId,
  userId: "502",
  role: codesec.OrgRole.Readonly,
  roleOnDestroy: codesec.OrgRole.Member,
});
const ci = new codesec.WorkflowProvisioning("ci", {
  deploymentId,
  filters: { ids: ["7001", "7002"] },
  ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
});
const hooks = new codesec.ScmWebhookSubscription("hooks", { deploymentId, configId: "scmcfg-1001-a" });
const app = new codesec.ScmApp("github", {
  deploymentId,
  requestId: "apprq-1001-a",
  code: cfg.requireSecret("scmAppCode"),
});

exports.memberRole = member.role;
exports.workflowFiles = ci.repoFileUrls;
exports.subscribedEvents = hooks.events;
exports.appSlug = app.slug;
