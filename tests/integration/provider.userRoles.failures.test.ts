/**
 * `codesec.UserRoles` when writes fail or the ground moves: a demotion of the caller in an update, a
 * failed demotion, a failed re-assertion or move, a re-pointed or renamed connection, a user who left the
 * deployment, two maps holding one user. Each case ends with the platform as the program declares, after
 * at most one more `pulumi up` (the engine records a failed step's `properties` and updates again).
 */
import { expect } from "chai";
import type * as pulumi from "@pulumi/pulumi";
import type { EmulatorHandle } from "../../emulator/index";
import type { UserRolesState } from "../../provider/resources/userRoles/definition";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";

type Props = Record<string, unknown>;
const provider = dynamicProviderOf("UserRoles") as Required<
  pulumi.dynamic.ResourceProvider<Props, UserRolesState>
>;
const roleOf = (h: EmulatorHandle, userId: string) =>
  h.control.state().users.find((u) => u.id === userId)?.roles[h.deploymentId];
const writes = (h: EmulatorHandle) =>
  h.control
    .requests()
    .filter((r) => r.operation === "updateUserRole")
    .map((r) => `${r.path.split("/")[6]}:${r.status}`);
const map = (roles: Record<string, string>, more: Props = {}) => ({ deploymentId: "1001", roles, ...more });
/** The error a step threw (with the `properties` a partial failure records), or undefined. */
const failureOf = <T>(p: Promise<T>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as Error & { properties?: UserRolesState },
  );

describe("codesec.UserRoles when writes fail or the ground moves", () => {
  const emulator = useEmulator();
  beforeEach(async () => {
    const h = emulator();
    await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
  });

  it("an update demotes the caller leaving the map after every other write of the same update", async () => {
    const h = emulator();
    const created = await provider.create(
      map(
        {
          "501": "ORG_ROLE_ADMIN",
          "502": "ORG_ROLE_ADMIN",
          "503": "ORG_ROLE_MEMBER",
          "504": "ORG_ROLE_MEMBER",
        },
        { roleOnDestroy: "ORG_ROLE_READONLY" },
      ),
    );
    h.control.clearRequests();
    const news = map(
      { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN", "504": "ORG_ROLE_ADMIN" },
      { roleOnDestroy: "ORG_ROLE_READONLY" },
    );
    await provider.update(created.id, created.outs!, news);
    expect(writes(h).slice(0, 2).sort()).to.deep.equal(["503:200", "504:200"]);
    expect(writes(h).slice(2)).to.deep.equal(["501:200"]);
    expect(roleOf(h, "501")).to.equal("ORG_ROLE_READONLY");
  });

  it("a failed demotion keeps the user's own role on leaving, and the next up applies it", async () => {
    const h = emulator();
    const created = await provider.create(
      map(
        { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" },
        { rolesOnDestroy: { "503": "ORG_ROLE_READONLY" } },
      ),
    );
    // 503 leaves the map, and its role on leaving goes with it (the natural edit).
    const news = map({ "502": "ORG_ROLE_ADMIN" });
    h.control.addFault({ path: "/api/agent/deployments/1001/users/503/roles", status: 403, count: 10 });
    const failure = await failureOf(provider.update(created.id, created.outs!, news));
    expect(failure?.message).to.include("user 503");
    expect(failure?.properties?.roles).to.have.property("503");
    expect(failure?.properties?.rolesOnDestroy).to.deep.equal({ "503": "ORG_ROLE_READONLY" });
    h.control.clearFaults();
    h.control.clearRequests();
    const next = await provider.update(created.id, failure!.properties!, news);
    expect(writes(h)).to.deep.equal(["503:200"]);
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_READONLY");
    expect(next.outs?.roles).to.deep.equal({ "502": "ORG_ROLE_ADMIN" });
    expect(next.outs?.rolesOnDestroy).to.equal(undefined);
  });

  it("destroy stops, writing nothing, when the connection now points to another platform", async () => {
    const h = emulator();
    const created = await provider.create(
      map({ "502": "ORG_ROLE_ADMIN" }, { roleOnDestroy: "ORG_ROLE_READONLY" }),
    );
    // The same server under another base URL: another platform as far as ownership goes.
    await configureStack({
      "codesec:baseUrl": h.baseUrl.replace("127.0.0.1", "localhost"),
      "codesec:token": h.apiToken,
    });
    h.control.clearRequests();
    const failure = await failureOf(provider.delete(created.id, created.outs!));
    expect(failure?.name).to.equal("PlatformMismatchError");
    expect(writes(h)).to.deep.equal([]);
    expect(roleOf(h, "502")).to.equal("ORG_ROLE_ADMIN");
  });

  it("two maps holding the same user are refused at check, naming the user", async () => {
    await provider.check({}, map({ "502": "ORG_ROLE_ADMIN" }));
    const second = await provider.check({}, map({ "502": "ORG_ROLE_MEMBER", "503": "ORG_ROLE_MEMBER" }));
    expect(second.failures?.map((f) => f.reason)).to.deep.equal([
      'user 502 of deployment 1001 is declared by two UserRoles maps: manage each user in one place (docs/resources/UserRoles.md, "Moving users between UserRole and UserRoles").',
    ]);
  });

  it("destroy completes when a user has left the deployment, saying so", async () => {
    const h = emulator();
    const created = await provider.create(
      map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" }, { roleOnDestroy: "ORG_ROLE_READONLY" }),
    );
    h.control.setUserRole("503", { deploymentId: "1001", role: null });
    await provider.delete(created.id, created.outs!);
    expect(roleOf(h, "502")).to.equal("ORG_ROLE_READONLY");
    expect(roleOf(h, "503")).to.equal(undefined);
  });

  it("an update on a renamed connection (same platform) demotes with the program's connection", async () => {
    const h = emulator();
    const conn = { baseUrl: h.baseUrl, token: h.apiToken };
    await configureStack({ "codesec:connections": JSON.stringify({ old: conn }) });
    const created = await provider.create(
      map(
        { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN", "504": "ORG_ROLE_ADMIN" },
        { connection: "old", roleOnDestroy: "ORG_ROLE_READONLY" },
      ),
    );
    await configureStack({ "codesec:connections": JSON.stringify({ renamed: conn }) });
    h.control.clearRequests();
    const news = map(
      { "502": "ORG_ROLE_MEMBER", "503": "ORG_ROLE_MEMBER" },
      { connection: "renamed", roleOnDestroy: "ORG_ROLE_READONLY" },
    );
    const state = await provider.update(created.id, created.outs!, news);
    expect(writes(h).sort()).to.deep.equal(["502:200", "503:200", "504:200"]);
    expect(roleOf(h, "504")).to.equal("ORG_ROLE_READONLY");
    expect(state.outs?.roles).to.deep.equal({ "502": "ORG_ROLE_MEMBER", "503": "ORG_ROLE_MEMBER" });
  });

  it("a re-assertion (new triggers) whose write failed is written by the next up", async () => {
    const h = emulator();
    const created = await provider.create(map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" }));
    h.control.setUserRole("503", { deploymentId: "1001", role: "ORG_ROLE_READONLY" }); // changed in the UI
    h.control.addFault({ path: "/api/agent/deployments/1001/users/503/roles", status: 403, count: 10 });
    const news = map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" }, { triggers: "2026-11" });
    const failure = await failureOf(provider.update(created.id, created.outs!, news));
    expect(failure?.message).to.include("user 503");
    h.control.clearFaults();
    h.control.clearRequests();
    const diff = await provider.diff(created.id, failure!.properties!, news);
    expect(diff.changes, "the next preview shows the write still to make").to.equal(true);
    await provider.update(created.id, failure!.properties!, news);
    expect(writes(h)).to.deep.equal(["503:200"]);
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_ADMIN");
  });

  it("a move to another platform whose write failed is written there by the next up", async () => {
    const h = emulator();
    const created = await provider.create(map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" }));
    await configureStack({
      "codesec:baseUrl": h.baseUrl.replace("127.0.0.1", "localhost"),
      "codesec:token": h.apiToken,
      "codesec:movedFrom": h.baseUrl,
    });
    h.control.setUserRole("503", { deploymentId: "1001", role: "ORG_ROLE_READONLY" }); // the new platform differs
    h.control.addFault({ path: "/api/agent/deployments/1001/users/503/roles", status: 403, count: 10 });
    const news = map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" });
    const failure = await failureOf(provider.update(created.id, created.outs!, news));
    expect(failure?.message).to.include("user 503");
    h.control.clearFaults();
    h.control.clearRequests();
    await provider.update(created.id, failure!.properties!, news);
    expect(writes(h)).to.deep.equal(["503:200"]);
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_ADMIN");
  });
});
