import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config();
const scmAppCode = config.requireSecret("scmAppCode");
// roleOnDestroy: demoted again by `pulumi destroy`.
const member = new codesec.UserRole("member-502", {
    deploymentId: "1001",
    userId: "502",
    role: codesec.OrgRole.Admin,
    roleOnDestroy: codesec.OrgRole.Member,
});
// Project 7005 is a local-scan project: no repository to write a workflow into.
const ci = new codesec.WorkflowProvisioning("ci", {
    deploymentId: "1001",
    filters: {
        codeAccess: true,
        archived: false,
        setup: true,
    },
    excludeIds: ["7005"],
    ghaOptions: {
        prEnabled: true,
        pushEnabled: true,
        pushBranches: ["main"],
    },
});
const hooks = new codesec.ScmWebhookSubscription("hooks", {
    deploymentId: "1001",
    configId: "scmcfg-1001-a",
});
const github = new codesec.ScmApp("github", {
    deploymentId: "1001",
    requestId: "apprq-1001-a",
    code: scmAppCode,
});
const notificationRules = codesec.getNotificationRules({
    deploymentId: "1001",
});
export const workflowFiles = ci.repoFileUrls;
export const appSlug = github.slug;
export const misconfiguredRules = notificationRules.then(notificationRules => notificationRules.rules.filter(rule => rule.configError != "").map(rule => (rule.name)));
