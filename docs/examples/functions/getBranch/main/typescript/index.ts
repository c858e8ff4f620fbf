import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const branch = codesec.getBranch({
    deploymentId: "1001",
    projectId: "7001",
    branchId: "9101",
});
export const branchName = branch.then(branch => branch.name);
