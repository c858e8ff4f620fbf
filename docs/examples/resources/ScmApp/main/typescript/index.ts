import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config();
const scmAppCode = config.requireSecret("scmAppCode");
const github = new codesec.ScmApp("github", {
    deploymentId: "1001",
    requestId: "apprq-1001-a",
    code: scmAppCode,
});
// Adopt an app that is already connected (its request completed elsewhere): no code, create reads it.
const legacy = new codesec.ScmApp("legacy", {
    deploymentId: "1001",
    requestId: "apprq-1001-done",
});
export const appSlug = github.slug;
