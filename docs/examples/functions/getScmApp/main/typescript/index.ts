import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config();
const scmAppCode = config.requireSecret("scmAppCode");
const github = new codesec.ScmApp("github", {
    deploymentId: "1001",
    requestId: "apprq-1001-a",
    code: scmAppCode,
});
// The output-only requestId: unknown until the app is connected, so a first preview does not ask too early.
const app = codesec.getScmAppOutput({
    deploymentId: "1001",
    requestId: github.requestId,
});
export const appName = app.scmName;
