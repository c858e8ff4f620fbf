// A program written for pulumi-codesec 0.4.0, unchanged: the four dynamic kinds of that release, the
// credentials from stack config codesec:baseUrl / codesec:token, the SCM app's one-time code a secret.
// tests/e2e/migration.test.ts runs it on 0.4.0's own package (tests/e2e/fixtures) and on this one.
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

const cfg = new pulumi.Config();
const deploymentId = "1001";

const member = new codesec.UserRole("member-502", {
  deploymentId,
  userId: "502",
  role: "ORG_ROLE_READONLY",
  roleOnDestroy: "ORG_ROLE_MEMBER",
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

export const memberRole = member.role;
export const workflowFiles = ci.repoFileUrls;
export const subscribedEvents = hooks.events;
export const appSlug = app.slug;
