import { expect } from "chai";
import {
  scmAppProvider,
  scmWebhookSubscriptionProvider,
  userRoleProvider,
  workflowProvisioningProvider,
} from "../support/dynamicProviders";
import { UNKNOWN_VALUE } from "../../provider/resources/lifecycle";
import { PlatformMismatchError } from "../../provider/errors";
import { configureStack } from "../support/stackConfig";

/** The platform every state below was created on (nobody listens there: diff makes no call). */
const platform = "http://127.0.0.1:1";
const connection = { baseUrl: platform, token: "old-token" };
const rotated = { baseUrl: platform, token: "new-token" };

describe("diff: identity replaces, mutable updates, credentials and outputs never differ", () => {
  const role = { deploymentId: "1001", userId: "user-bob", role: "ORG_ROLE_MEMBER", connection, platform };

  before(async () => {
    await configureStack({
      "codesec:baseUrl": platform,
      "codesec:token": "default-token",
      "codesec:connections": JSON.stringify({ org2: connection, org3: rotated }),
    });
  });

  it("UserRole: no change for equal inputs", async () => {
    const result = await userRoleProvider.diff(
      "1001/user-bob",
      { ...role, __provider: "x" } as never,
      { ...role, __provider: "x" } as never,
    );
    expect(result.changes).to.equal(false);
  });

  it("a state the native provider wrote (no __provider, moved back by an alias): an update in place", async () => {
    // Without it the state would keep no __provider in its outputs, and refresh and destroy could not
    // load the provider (tests/e2e/migrationPaths.test.ts runs the move back).
    const result = await userRoleProvider.diff(
      "1001/user-bob",
      role as never,
      { ...role, __provider: "x" } as never,
    );
    expect(result).to.deep.include({ changes: true, replaces: [] });
  });

  it("UserRole: a role change is an in-place update", async () => {
    const result = await userRoleProvider.diff(
      "1001/user-bob",
      role as never,
      { ...role, role: "ORG_ROLE_ADMIN" } as never,
    );
    expect(result).to.deep.include({ changes: true, replaces: [] });
  });

  it("UserRole: userId or deploymentId changes replace", async () => {
    const a = await userRoleProvider.diff(
      "1001/user-bob",
      role as never,
      { ...role, userId: "user-carol" } as never,
    );
    expect(a.replaces).to.deep.equal(["userId"]);
    const b = await userRoleProvider.diff(
      "1001/user-bob",
      role as never,
      { ...role, deploymentId: "2002" } as never,
    );
    expect(b.replaces).to.deep.equal(["deploymentId"]);
  });

  it("UserRole: an identity value unknown at preview is a possible replacement", async () => {
    const result = await userRoleProvider.diff(
      "1001/user-bob",
      role as never,
      { ...role, userId: UNKNOWN_VALUE } as never,
    );
    expect(result.replaces).to.deep.equal(["userId"]);
  });

  it("a rotated token is never a diff", async () => {
    const cases: [typeof userRoleProvider, object][] = [
      [userRoleProvider, role],
      [workflowProvisioningProvider as never, { deploymentId: "1001", connection, platform }],
      [
        scmWebhookSubscriptionProvider as never,
        { deploymentId: "1001", configId: "c1", connection, platform },
      ],
      [scmAppProvider as never, { deploymentId: "1001", requestId: "r1", connection, platform }],
    ];
    for (const [provider, olds] of cases) {
      const changed = await provider.diff("id", olds as never, { ...olds, connection: rotated } as never);
      expect(changed.changes).to.equal(false);
      const named = { ...olds, connection: "org2" };
      const sameName = await provider.diff("id", named as never, { ...named } as never);
      expect(sameName.changes).to.equal(false);
    }
  });

  it("another platform is no diff but a refusal, naming both platforms (provider/ownership.ts)", async () => {
    const elsewhere = { baseUrl: "http://127.0.0.1:2", token: "old-token" };
    for (const [provider, olds] of [
      [userRoleProvider, role],
      [workflowProvisioningProvider, { deploymentId: "1001", connection, platform }],
      [scmWebhookSubscriptionProvider, { deploymentId: "1001", configId: "c1", connection, platform }],
      [scmAppProvider, { deploymentId: "1001", requestId: "r1", connection, platform }],
    ] as const) {
      const error = await provider
        .diff("id", olds as never, { ...olds, connection: elsewhere } as never)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(PlatformMismatchError);
      expect((error as Error).message)
        .to.include(`created on the platform at ${platform}`)
        .and.include("now points to http://127.0.0.1:2")
        .and.include("pulumi config set codesec:movedFrom http://127.0.0.1:1");
    }
  });

  it("a state that recorded no platform (before 0.5.0) is an update, which records it", async () => {
    const { platform: _none, ...unrecorded } = role;
    const result = await userRoleProvider.diff("id", unrecorded as never, unrecorded as never);
    expect(result).to.deep.include({ changes: true, replaces: [] });
  });

  it("moving to another connection source is an update, never a replacement (the stored token goes)", async () => {
    const olds = { ...role, connection };
    for (const next of ["org2", undefined]) {
      const result = await userRoleProvider.diff("id", olds as never, { ...olds, connection: next } as never);
      expect(result.changes, String(next)).to.equal(true);
      expect(result.replaces, String(next)).to.deep.equal([]);
    }
    const renamed = await userRoleProvider.diff(
      "id",
      { ...role, connection: "org2" } as never,
      { ...role, connection: "org3" } as never,
    );
    expect(renamed.changes).to.equal(true);
  });

  it("WorkflowProvisioning: filters, excludeIds, ghaOptions and triggers update; outputs never differ", async () => {
    const olds = {
      deploymentId: "1001",
      filters: { search: "pay", codeAccess: true },
      repoFileUrls: { "3001": "https://scm/x" },
      errors: [],
      platform,
    };
    const same = await workflowProvisioningProvider.diff("id", olds, {
      deploymentId: "1001",
      filters: { codeAccess: true, search: "pay" },
    });
    expect(same.changes, "key order and outputs must not matter").to.equal(false);
    for (const change of [
      { filters: { search: "web" } },
      { excludeIds: ["3002"] },
      { ghaOptions: { prEnabled: true } },
      { triggers: "2" },
    ]) {
      const result = await workflowProvisioningProvider.diff("id", olds, {
        deploymentId: "1001",
        filters: olds.filters,
        ...change,
      });
      expect(result, JSON.stringify(change)).to.deep.include({ changes: true, replaces: [] });
    }
    const moved = await workflowProvisioningProvider.diff("id", olds, { ...olds, deploymentId: "2002" });
    expect(moved.replaces).to.deep.equal(["deploymentId"]);
  });

  it("ScmWebhookSubscription: triggers update, configId replaces, events never differ", async () => {
    const olds = { deploymentId: "1001", configId: "c1", scmUrl: "https://scm", events: ["push"], platform };
    const news = { deploymentId: "1001", configId: "c1" };
    expect((await scmWebhookSubscriptionProvider.diff("id", olds, news)).changes).to.equal(false);
    const triggered = await scmWebhookSubscriptionProvider.diff("id", olds, { ...news, triggers: 1 });
    expect(triggered).to.deep.include({ changes: true, replaces: [] });
    const other = await scmWebhookSubscriptionProvider.diff("id", olds, { ...news, configId: "c2" });
    expect(other.replaces).to.deep.equal(["configId"]);
  });

  it("ScmApp: a new code alone is no change; requestId replaces", async () => {
    const app = { id: "a1", slug: "x", requestId: "r1" };
    const olds = {
      deploymentId: "1001",
      requestId: "r1",
      scmAppId: "a1",
      slug: "x",
      appliedApp: app,
      platform,
    };
    const code = await scmAppProvider.diff("id", olds as never, {
      deploymentId: "1001",
      requestId: "r1",
      code: "new",
    });
    expect(code.changes).to.equal(false);
    const other = await scmAppProvider.diff("id", olds as never, { deploymentId: "1001", requestId: "r2" });
    expect(other.replaces).to.deep.equal(["requestId"]);
  });
});
