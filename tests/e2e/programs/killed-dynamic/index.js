// Two dynamic UserRoles, each with a role write, served by Pulumi's dynamic-provider host. Driven by
// tests/e2e/killedCli.test.ts, which kills `pulumi up` while the writes wait for their answers.
"use strict";
const codesec = require("pulumi-codesec");

new codesec.UserRole("member", { deploymentId: "1001", userId: "502", role: "ORG_ROLE_READONLY" });
new codesec.UserRole("auditor", { deploymentId: "1001", userId: "503", role: "ORG_ROLE_MEMBER" });
