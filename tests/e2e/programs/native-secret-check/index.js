// Values the native provider's checks refuse, so that a test can see that the failure never prints them:
// e2e:mode "badCode" gives an ScmApp a one-time code with a stray newline or space; "badToken" gives an
// explicit Provider a token with one; "badBaseUrl" gives it the base URL e2e:badBaseUrl (not a secret: a
// password in it must stay out of the output all the same); "stackConfig" uses the default provider,
// configured by stack config codesec:baseUrl and codesec:token. e2e:providerName names the Provider
// (default "org"). Driven by tests/e2e/nativeSecretCheck.test.ts.
"use strict";
const pulumi = require("@pulumi/pulumi");
const codesec = require("@pulumi-codesec/codesec");

const cfg = new pulumi.Config("e2e");
const mode = cfg.require("mode");
const provider =
  mode === "stackConfig"
    ? undefined
    : new codesec.Provider(cfg.get("providerName") ?? "org", {
        baseUrl: mode === "badBaseUrl" ? cfg.require("badBaseUrl") : cfg.require("baseUrl"),
        token: mode === "badToken" ? cfg.requireSecret("badValue") : cfg.requireSecret("token"),
      });
new codesec.ScmApp(
  "github",
  {
    deploymentId: "1001",
    requestId: "apprq-1001-a",
    code: mode === "badCode" ? cfg.requireSecret("badValue") : cfg.requireSecret("code"),
  },
  provider === undefined ? {} : { provider },
);
