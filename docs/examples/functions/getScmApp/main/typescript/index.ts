import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config();
const scmAppCode = config.requireSecret("scmAppCode");
const github = new codesec.ScmApp("github", {
    deploymentId: "1001",
    requestId: "apprq-1001-a",
    code: scmAppCode,
});
// github.requestId, not the literal: the call depends on the app's resource, so it runs once the app is
// connected; at a preview before that, its result is unknown and nothing is asked (no 404).
const app = codesec.getScmAppOutput({
    deploymentId: "1001",
    requestId: github.requestId,
});
export const appName = app.scmName;
