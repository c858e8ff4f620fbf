/**
 * The fewest calls at organization scale, counted in the emulator's request log: a refresh of many
 * UserRoles gets the current user once per connection (shared with the credential check) and confirms the
 * deployment of the caller's own role once, only when the role read back is new, and a diff calls nothing.
 * Each test mints a fresh token, so its connection is one this process has not used yet.
 */
import { expect } from "chai";
import { userRoleProvider } from "../support/dynamicProviders";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulator } from "../../emulator/index";
import { CodeSecClient, MAX_REQUESTS_PER_SECOND, RateLimiter } from "../../client";
import { useEmulator } from "../support/emulator";
import { fixturesWithMembers, scaleMemberIds } from "../support/largeFixtures";
import { configureStack } from "../support/stackConfig";
import type { EmulatorHandle } from "../../emulator/index";
import type * as pulumi from "@pulumi/pulumi";

async function freshConnection(h: EmulatorHandle, config: Record<string, string> = {}): Promise<void> {
  const { credential } = await h.control.mintCredential({
    deploymentId: h.deploymentId,
    userId: h.sample.userId,
    kind: "apiToken",
  });
  await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": credential, ...config });
}

function operations(h: EmulatorHandle): string[] {
  return h.control.requests().map((r) => `${r.operation}:${r.status}`);
}

const userRolesProvider = dynamicProviderOf("UserRoles") as Required<pulumi.dynamic.ResourceProvider>;

describe("calls at organization scale", () => {
  const emulator = useEmulator();
  const role = (h: EmulatorHandle, userId: string) => ({
    deploymentId: h.deploymentId,
    userId,
    role: "ORG_ROLE_MEMBER" as const,
  });

  it("a refresh of many UserRoles gets the current user once for the connection, concurrently, and confirms its deployment once", async () => {
    const h = emulator();
    await freshConnection(h);
    const users = h.control.state().users.map((u) => u.id);
    expect(users.length).to.be.greaterThan(2);
    const results = await Promise.all(
      users.map((userId) => userRoleProvider.read(`${h.deploymentId}/${userId}`, role(h, userId))),
    );
    // The caller's own role is read back from that one answer, once the platform confirms the deployment
    // as the credentials' own (listing its notification rules); the others keep their state.
    expect(operations(h)).to.deep.equal(["getCurrentUser:200", "listNotificationRules:200"]);
    const own = results[users.indexOf(h.sample.userId)];
    expect(own.props!.role).to.equal("ORG_ROLE_ADMIN");
  });

  it("a failed read is not kept: the next refresh of the connection asks again", async () => {
    const h = emulator();
    await freshConnection(h, { "codesec:retries": "0" });
    const id = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_ADMIN" as const };
    h.control.addFault({ operation: "getCurrentUser", status: 503, count: 1 });
    let failed = false;
    await userRoleProvider.read(id, admin).catch(() => (failed = true));
    expect(failed).to.equal(true);
    const after = await userRoleProvider.read(id, admin);
    expect(after.props!.role).to.equal("ORG_ROLE_ADMIN");
    // The role read back equals the state: nothing new to record, so no confirmation of the deployment.
    expect(operations(h)).to.deep.equal(["getCurrentUser:503", "getCurrentUser:200"]);
  });

  it("a failed confirmation of the deployment is not kept: the next refresh asks again, and records nothing before", async () => {
    const h = emulator();
    await freshConnection(h, { "codesec:retries": "0" });
    const id = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_MEMBER" as const };
    h.control.addFault({ operation: "listNotificationRules", status: 503, count: 1 });
    const failure = await userRoleProvider.read(id, admin).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).to.include("503");
    const after = await userRoleProvider.read(id, admin);
    expect(after.props!.role).to.equal("ORG_ROLE_ADMIN");
    expect(operations(h)).to.deep.equal([
      "getCurrentUser:200",
      "listNotificationRules:503",
      "listNotificationRules:200",
    ]);
  });

  it("a role write makes the next read ask again, and it sees the write", async () => {
    const h = emulator();
    await freshConnection(h);
    const id = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_ADMIN" as const };
    await userRoleProvider.read(id, admin);
    // Another admin first, so the platform lets the caller step down.
    h.control.setUserRole(h.sample.memberUserId, { deploymentId: h.deploymentId, role: "ORG_ROLE_ADMIN" });
    await userRoleProvider.update(id, admin, { ...admin, role: "ORG_ROLE_MEMBER" });
    const after = await userRoleProvider.read(id, { ...admin, role: "ORG_ROLE_MEMBER" });
    expect(after.props!.role).to.equal("ORG_ROLE_MEMBER");
    // Each read back equals its state: no confirmation of the deployment is needed.
    expect(operations(h)).to.deep.equal(["getCurrentUser:200", "updateUserRole:200", "getCurrentUser:200"]);
  });

  it("a write of another user's role keeps the caller's own: a later read of it calls nothing", async () => {
    const h = emulator();
    await freshConnection(h);
    const ownId = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_ADMIN" as const };
    const third = h.control
      .state()
      .users.map((u) => u.id)
      .find((id) => id !== h.sample.userId && id !== h.sample.memberUserId)!;
    await userRoleProvider.read(ownId, admin);
    await userRoleProvider.create(role(h, h.sample.memberUserId));
    await userRolesProvider.create({
      deploymentId: h.deploymentId,
      roles: { [h.sample.memberUserId]: "ORG_ROLE_READONLY", [third]: "ORG_ROLE_MEMBER" },
    });
    const after = await userRoleProvider.read(ownId, admin);
    expect(after.props!.role).to.equal("ORG_ROLE_ADMIN");
    expect(operations(h)).to.deep.equal([
      "getCurrentUser:200",
      "updateUserRole:200",
      "updateUserRole:200",
      "updateUserRole:200",
    ]);
  });

  it("a UserRoles write that includes the caller's own role makes the next read ask again", async () => {
    const h = emulator();
    await freshConnection(h);
    const ownId = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_ADMIN" as const };
    await userRoleProvider.read(ownId, admin);
    await userRolesProvider.create({
      deploymentId: h.deploymentId,
      roles: { [h.sample.memberUserId]: "ORG_ROLE_ADMIN", [h.sample.userId]: "ORG_ROLE_MEMBER" },
    });
    const after = await userRoleProvider.read(ownId, admin);
    expect(after.props!.role).to.equal("ORG_ROLE_MEMBER");
    // The role read back differs from the state: the deployment is confirmed before it is recorded.
    expect(operations(h)).to.deep.equal([
      "getCurrentUser:200",
      "updateUserRole:200",
      "updateUserRole:200",
      "getCurrentUser:200",
      "listNotificationRules:200",
    ]);
  });

  it("diffs call nothing, with or without changes; check proves the connection once for all resources", async () => {
    const h = emulator();
    await freshConnection(h);
    const users = h.control.state().users.map((u) => u.id);
    await Promise.all(
      users.map(async (userId) => {
        const olds = role(h, userId);
        await userRoleProvider.diff("id", olds, { ...olds });
        await userRoleProvider.diff("id", olds, { ...olds, role: "ORG_ROLE_READONLY" });
      }),
    );
    expect(operations(h)).to.deep.equal([]);
    await Promise.all(users.map((userId) => userRoleProvider.check(role(h, userId), role(h, userId))));
    expect(operations(h)).to.deep.equal(["getCurrentUser:200"]);
  });
});

describe("one client-side rate limiter per platform for the whole process", () => {
  it("a stack limited to the platform's rate sets off no 429, however many resources write at once", async function () {
    this.timeout(60_000);
    const rate = 10;
    const h = await startEmulator({ quiet: true, fixtures: fixturesWithMembers(40), rateLimit: rate });
    try {
      await configureStack({
        "codesec:baseUrl": h.baseUrl,
        "codesec:token": h.apiToken,
        "codesec:requestsPerSecond": String(rate),
      });
      await Promise.all(
        scaleMemberIds(40).map((userId) =>
          userRoleProvider.create({ deploymentId: h.deploymentId, userId, role: "ORG_ROLE_READONLY" }),
        ),
      );
      expect(h.control.requestCounts().byOperation).to.deep.equal({ updateUserRole: { "200": 40 } });
    } finally {
      await h.close();
    }
  });

  it("a UserRoles of 300 entries at the default rate sets off no 429 from a platform limited to that rate, its bucket mostly spent", async function () {
    this.timeout(60_000);
    // The platform's documented limit, which the client's default pace (and its burst) must stay within.
    const h = await startEmulator({ quiet: true, fixtures: fixturesWithMembers(300), rateLimit: 100 });
    try {
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      const users = scaleMemberIds(300);
      const roles = Object.fromEntries(users.map((userId) => [userId, "ORG_ROLE_READONLY"]));
      // Another client on the same token spends 80 of the bucket's 100 tokens just before: what is left
      // holds the client's burst (10) with room for network jitter, not a burst of a second's worth.
      const other = new CodeSecClient({
        baseUrl: h.baseUrl,
        token: h.apiToken,
        rateLimiter: new RateLimiter({ requestsPerSecond: MAX_REQUESTS_PER_SECOND, maxInFlight: 80 }),
      });
      await Promise.all(Array.from({ length: 80 }, () => other.getCurrentUser()));
      const created = await dynamicProviderOf("UserRoles").create({ deploymentId: h.deploymentId, roles });
      expect(Object.keys((created.outs as { roles: object }).roles)).to.have.length(300);
      expect(h.control.requestCounts().byStatus).to.not.have.property("429");
      expect(h.control.requestCounts().byOperation.updateUserRole).to.deep.equal({ "200": 300 });
    } finally {
      await h.close();
    }
  });

  it("connections to the same platform share the in-flight cap (codesec:maxInFlight)", async () => {
    // A platform that answers `getCurrentUser` after a pause, counting the requests it holds at once.
    let open = 0;
    let most = 0;
    const server = http.createServer((req, res) => {
      open += 1;
      most = Math.max(most, open);
      req.resume();
      setTimeout(() => {
        open -= 1;
        const user = {
          id: "501",
          name: "A",
          email: "a@x.test",
          login: "a",
          authDetails: [],
          orgRole: "ORG_ROLE_ADMIN",
        };
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ user }));
      }, 30);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await configureStack({
        "codesec:connections": {
          a: { baseUrl, token: "token-of-connection-a" },
          b: { baseUrl, token: "token-of-connection-b" },
        },
        "codesec:maxInFlight": "1",
      });
      const reads = ["a", "b", "a", "b"].map((connection, i) =>
        userRoleProvider.read(`1001/u-${i}`, {
          deploymentId: "1001",
          userId: `u-${i}`,
          role: "ORG_ROLE_MEMBER",
          connection,
        }),
      );
      await Promise.all(reads);
      expect(most).to.equal(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
