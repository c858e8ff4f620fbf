import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

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
        prSendComments: true,
        pushEnabled: true,
        pushBranches: ["main"],
    },
});
export const workflowFiles = ci.repoFileUrls;
