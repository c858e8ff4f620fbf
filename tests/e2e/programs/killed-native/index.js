// Two plugin processes with a role write each: the default provider's and an explicit Provider's. Driven by
// tests/e2e/killedCli.test.ts, which kills `pulumi up` while the writes wait for their answers.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("@pulumi-codesec/codesec");

const cfg = new pulumi.Config("e2e");
const org = new codesec.Provider("org", {
  baseUrl: cfg.require("baseUrl"),
  token: cfg.requireSecret("token"),
});
new codesec.UserRole("member", { deploymentId: "1001", userId: "502", role: codesec.OrgRole.Readonly });
new codesec.UserRole(
  "auditor",
  { deploymentId: "1001", userId: "503", role: codesec.OrgRole.Member },
  { provider: org },
);
