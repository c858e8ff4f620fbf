import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const hooks = new codesec.ScmWebhookSubscription("github-hooks", {
    deploymentId: "1001",
    configId: "scmcfg-1001-a",
});
export const subscribedEvents = hooks.events;
