import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const notificationRules = codesec.getNotificationRules({
    deploymentId: "1001",
    limit: 20,
});
export const rulesWithProblems = notificationRules.then(notificationRules => notificationRules.rulesWithProblems.map(rule => (rule.name)));
export const misconfiguredRules = notificationRules.then(notificationRules => notificationRules.rules.filter(rule => rule.configError != "").map(rule => (rule.name)));
