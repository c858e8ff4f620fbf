import { expect } from "chai";
import {
  scmAppProvider,
  scmWebhookSubscriptionProvider,
  userRoleProvider,
  workflowProvisioningProvider,
} from "../support/dynamicProviders";
import { UNKNOWN_VALUE } from "../../provider/resources/lifecycle";
import { configureStack } from "../support/stackConfig";

async function failuresOf(provider: { check?: (o: never, n: never) => Promise<unknown> }, news: object) {
  const result = (await provider.check!({} as never, news as never)) as {
    failures?: { property: string; reason: string; path: string }[];
  };
  return result.failures ?? [];
}

describe("check: every bad input fails with the property named", () => {
  // These tests are about inputs: the credential check at preview is switched off, and the base URL
  // is a port nobody listens on, so an attempted call would fail the test.
  before(async () => {
    await configureStack({
      "codesec:baseUrl": "http://127.0.0.1:9",
      "codesec:token": "unused-token",
      "codesec:skipCredentialsValidation": "true",
    });
  });

  const role = { deploymentId: "1001", userId: "user-bob", role: "ORG_ROLE_MEMBER" };

  it("accepts valid UserRole inputs and drops the engine's __provider key", async () => {
    const result = await userRoleProvider.check({} as never, { ...role, __provider: "stub" } as never);
    expect(result.failures ?? []).to.deep.equal([]);
    expect(result.inputs).to.deep.equal(role);
  });

  it("names an unknown role and lists the allowed values", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, role: "ORG_ROLE_OWNER" });
    expect(failures).to.have.length(1);
    expect(failures[0].property).to.equal("role");
    expect(failures[0].reason).to.include("ORG_ROLE_ADMIN").and.include('"ORG_ROLE_OWNER"');
  });

  it("names a bad roleOnDestroy", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, roleOnDestroy: "nobody" });
    expect(failures.map((f) => f.property)).to.deep.equal(["roleOnDestroy"]);
  });

  it("requires numeric deployment ids", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, deploymentId: "acme" });
    expect(failures[0]).to.deep.include({ property: "deploymentId" });
    expect(failures[0].reason).to.match(/numeric id/);
  });

  it("rejects a userId that would escape the URL path", async () => {
    for (const userId of ["a/b", "..", "x\u0000", ""]) {
      const failures = await failuresOf(userRoleProvider, { ...role, userId });
      expect(
        failures.map((f) => f.property),
        userId,
      ).to.deep.equal(["userId"]);
    }
  });

  it("reports each missing required field", async () => {
    const failures = await failuresOf(userRoleProvider, {});
    expect(failures.map((f) => f.property).sort()).to.deep.equal(["deploymentId", "role", "userId"]);
    expect(failures[0].reason).to.match(/is required/);
  });

  it("rejects wrong types from untyped JavaScript callers, naming the type", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, deploymentId: 1001, userId: 502 });
    expect(failures.map((f) => f.property)).to.deep.equal(["deploymentId", "userId"]);
    expect(failures[0].reason).to.equal(
      "deploymentId must be a string (a numeric id (digits only)), got 1001 (an integer)",
    );
    expect(failures[1].reason).to.match(/^userId must be a string .*got 502 \(an integer\)$/);
    const flags = await failuresOf(workflowProvisioningProvider, {
      deploymentId: "1001",
      allowPartialFailure: "yes",
    });
    expect(flags[0].reason).to.equal('allowPartialFailure must be a boolean, got "yes"');
  });

  it("rejects an unknown input and lists the allowed ones", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, rol: "x" });
    expect(failures[0]).to.include({ property: "", path: "rol" });
    expect(failures[0].reason).to.equal(
      'rol is not an input of codesec:UserRole (did you mean "role"?); its inputs are deploymentId, userId, role, roleOnDestroy, triggers, connection',
    );
  });

  it("accepts values that are unknown during preview", async () => {
    const failures = await failuresOf(userRoleProvider, { ...role, userId: UNKNOWN_VALUE });
    expect(failures).to.deep.equal([]);
  });

  it("validates the shapes of filters and ghaOptions", async () => {
    const failures = await failuresOf(workflowProvisioningProvider, {
      deploymentId: "1001",
      filters: { tagId: "7", codeAccess: "yes", bogus: 1 },
      ghaOptions: { pushBranches: "main" },
      excludeIds: [1],
    });
    expect(failures.map((f) => f.path).sort()).to.deep.equal([
      "excludeIds[0]",
      "filters.bogus",
      "filters.codeAccess",
      "filters.tagId",
      "ghaOptions.pushBranches",
    ]);
  });

  it("validates lastScanSince as a date-time", async () => {
    const failures = await failuresOf(workflowProvisioningProvider, {
      deploymentId: "1001",
      filters: { lastScanSince: "yesterday" },
    });
    expect(failures.map((f) => f.path)).to.deep.equal(["filters.lastScanSince"]);
  });

  it("accepts any triggers value", async () => {
    for (const triggers of ["v2", 3, { rotate: true }, [1, 2]]) {
      expect(
        await failuresOf(workflowProvisioningProvider, { deploymentId: "1001", triggers }),
      ).to.deep.equal([]);
      expect(
        await failuresOf(scmWebhookSubscriptionProvider, { deploymentId: "1001", configId: "c1", triggers }),
      ).to.deep.equal([]);
    }
  });

  it("never echoes a secret value in a failure", async () => {
    const failures = await failuresOf(scmAppProvider, {
      deploymentId: "1001",
      requestId: "req-1",
      code: 12345678,
      connection: { baseUrl: "http://x", token: 987654321 },
    });
    expect(failures.map((f) => f.path).sort()).to.deep.equal(["code", "connection.token"]);
    expect(failures.map((f) => f.property)).to.deep.equal(["", ""]);
    const text = JSON.stringify(failures);
    expect(text).not.to.include("12345678");
    expect(text).not.to.include("987654321");
  });
});
