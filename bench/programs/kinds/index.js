"use strict";
/**
 * One resource of each of the four codesec kinds, on the emulator's default fixtures, declared
 * (stack config `bench:provider`) either as the package declares them (`stub`: the serialized stub that
 * loads the implementation by package name) or the naive way (`byValue`: the implementation object itself
 * handed to `pulumi.dynamic.Resource`, so the engine serializes its methods and everything they close
 * over). The by-value implementation is a copy of the package's built code in ./impl (bench/stateSize.ts
 * puts it there): the installed package's exports map forbids the deep paths the serializer would need to
 * require its modules by name, so the naive way only works from the program's own files. Credentials:
 * codesec:baseUrl/token for the stub; the by-value provider never receives the stack config, so it reads
 * CODESEC_BASE_URL/CODESEC_TOKEN.
 */
const pulumi = require("@pulumi/pulumi");

const bench = new pulumi.Config("bench");
const which = bench.require("provider");
const deploymentId = "1001";

const ARGS = {
  UserRole: { deploymentId, userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
  WorkflowProvisioning: {
    deploymentId,
    filters: { codeAccess: true, archived: false, setup: true },
    excludeIds: ["7005"],
    ghaOptions: { prEnabled: true, pushEnabled: true, pushBranches: ["main"] },
  },
  ScmWebhookSubscription: { deploymentId, configId: "scmcfg-1001-a" },
  ScmApp: {
    deploymentId,
    requestId: bench.require("scmAppRequestId"),
    code: bench.requireSecret("scmAppCode"),
  },
};

for (const [kind, args] of Object.entries(ARGS)) {
  if (which === "stub") {
    new (require("pulumi-codesec")[kind])(`one-${kind}`, args);
  } else if (which === "byValue") {
    const implementation = require("./impl/provider/dynamic").provider(kind);
    new pulumi.dynamic.Resource(
      implementation,
      `one-${kind}`,
      args,
      { additionalSecretOutputs: ["code"] },
      "byValue",
      kind,
    );
  } else {
    throw new Error(`bench:provider must be stub or byValue, got ${which}`);
  }
}
