import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const scan = codesec.getScan({
    deploymentId: "1001",
    scanId: "3001",
});
export const latestScanStatus = scan.then(scan => scan.status);
export const findings = scan.then(scan => scan.findingsCounts.total);
