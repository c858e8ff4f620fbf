/**
 * `codesec.UserRoles` against the emulator: only the entries that change are written (one updateUserRole
 * call each); a partial failure records exactly what was applied, and the next update writes only the rest;
 * removals demote with the role on leaving; refresh reads the caller's own entry; a user is managed by a
 * UserRole or a UserRoles, never both.
 */
import { expect } from "chai";
import type { EmulatorHandle } from "../../emulator/index";
import { UserRolesPartialFailure } from "../../provider/errors";
import type { UserRolesState } from "../../provider/resources/userRoles/definition";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";
import { userRoleProvider } from "../support/dynamicProviders";
import type * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;
const provider = dynamicProviderOf("UserRoles") as Required<
  pulumi.dynamic.ResourceProvider<Props, UserRolesState>
>;

function writes(h: EmulatorHandle): string[] {
  return h.control
    .requests()
    .filter((r) => r.operation === "updateUserRole")
    .map((r) => `${r.path.split("/")[6]}:${r.status}`)
    .sort();
}

function roleOf(h: EmulatorHandle, userId: string): string | undefined {
  return h.control.state().users.find((u) => u.id === userId)?.roles[h.deploymentId];
}

describe("codesec.UserRoles against the emulator", () => {
  const emulator = useEmulator();

  beforeEach(async () => {
    const h = emulator();
    await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
  });

  const map = (roles: Record<string, string>, more: Props = {}) => ({ deploymentId: "1001", roles, ...more });

  it("create writes every entry once and records the map as applied", async () => {
    const h = emulator();
    const roles = { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_READONLY" };
    const created = await provider.create(map(roles));
    expect(created.id).to.match(/^1001\/userroles-[0-9a-f-]{36}$/);
    expect(created.outs!.roles).to.deep.equal(roles);
    expect(writes(h)).to.deep.equal(["502:200", "503:200", "504:200"]);
    for (const [userId, role] of Object.entries(roles)) expect(roleOf(h, userId)).to.equal(role);
  });

  it("an update writes only the entries that change, and demotes only the removed users with a role on leaving", async () => {
    const h = emulator();
    const created = await provider.create(
      map(
        { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_MEMBER" },
        {
          roleOnDestroy: "ORG_ROLE_READONLY",
          rolesOnDestroy: { "503": "ORG_ROLE_MEMBER" },
        },
      ),
    );
    h.control.clearRequests();
    // 502 changes, 503 leaves (per-user role on leaving), 504 stays as it is.
    const news = map(
      { "502": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_MEMBER" },
      { roleOnDestroy: "ORG_ROLE_READONLY" },
    );
    expect(await provider.diff(created.id, created.outs!, news)).to.deep.include({
      changes: true,
      replaces: [],
    });
    const updated = await provider.update(created.id, created.outs!, news);
    expect(writes(h)).to.deep.equal(["502:200", "503:200"]);
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_MEMBER");
    expect(updated.outs!.roles).to.deep.equal({ "502": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_MEMBER" });
    h.control.clearRequests();
    // Without a role on leaving, a removed user keeps the role.
    const kept = await provider.update(created.id, updated.outs!, map({ "504": "ORG_ROLE_MEMBER" }));
    expect(writes(h)).to.deep.equal([]);
    expect(roleOf(h, "502")).to.equal("ORG_ROLE_MEMBER");
    expect(kept.outs!.roles).to.deep.equal({ "504": "ORG_ROLE_MEMBER" });
  });

  it("a partial failure records exactly the entries applied; the next update writes only the rest", async () => {
    const h = emulator();
    h.control.addFault({ path: "/api/agent/deployments/1001/users/503/roles", status: 403, count: 10 });
    const roles = { "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN", "504": "ORG_ROLE_ADMIN" };
    const failure = await provider.create(map(roles)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).to.be.instanceOf(UserRolesPartialFailure);
    const partial = failure as UserRolesPartialFailure;
    expect(partial.properties.roles).to.deep.equal({ "502": "ORG_ROLE_ADMIN", "504": "ORG_ROLE_ADMIN" });
    expect(partial.properties.platform).to.equal(h.baseUrl);
    expect(partial.message).to.include("1 of 3 role write(s) failed").and.include("user 503");
    h.control.clearFaults();
    h.control.clearRequests();
    // The engine keeps the resource with those properties and runs an update with the same inputs.
    const finished = await provider.update(partial.id, partial.properties as UserRolesState, map(roles));
    expect(writes(h)).to.deep.equal(["503:200"]);
    expect(finished.outs!.roles).to.deep.equal(roles);
  });

  it("refresh reads back the caller's own entry and keeps the others", async () => {
    const h = emulator();
    const created = await provider.create(map({ "501": "ORG_ROLE_ADMIN", "502": "ORG_ROLE_MEMBER" }));
    h.control.setUserRole("501", { deploymentId: "1001", role: "ORG_ROLE_MEMBER" });
    h.control.setUserRole("502", { deploymentId: "1001", role: "ORG_ROLE_READONLY" });
    const read = await provider.read(created.id, created.outs);
    expect(read.props!.roles).to.deep.equal({ "501": "ORG_ROLE_MEMBER", "502": "ORG_ROLE_MEMBER" });
    expect((read.inputs as Props).roles).to.deep.equal({
      "501": "ORG_ROLE_MEMBER",
      "502": "ORG_ROLE_MEMBER",
    });
  });

  it("destroy gives each user the role on leaving, except a user the same run declares again", async () => {
    const h = emulator();
    const created = await provider.create(
      map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_ADMIN" }, { roleOnDestroy: "ORG_ROLE_READONLY" }),
    );
    // 503 moves to a UserRole in this run.
    await userRoleProvider.check({} as never, {
      deploymentId: "1001",
      userId: "503",
      role: "ORG_ROLE_ADMIN",
    });
    h.control.clearRequests();
    await provider.delete(created.id, created.outs!);
    expect(writes(h)).to.deep.equal(["502:200"]);
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_ADMIN");
  });

  it("a change to the credentials' own role is written after every other entry, so a demotion cannot cut the rest off", async () => {
    const h = emulator();
    const me = h.control.state().users.find((u) => u.id === "501");
    expect(me?.roles["1001"], "the emulator's API token acts as user 501, an admin").to.equal(
      "ORG_ROLE_ADMIN",
    );
    const created = await provider.create(
      map(
        {
          "501": "ORG_ROLE_ADMIN",
          "502": "ORG_ROLE_ADMIN",
          "503": "ORG_ROLE_MEMBER",
          "504": "ORG_ROLE_MEMBER",
        },
        { roleOnDestroy: "ORG_ROLE_READONLY", rolesOnDestroy: { "502": "ORG_ROLE_ADMIN" } },
      ),
    );
    h.control.clearRequests();
    await provider.delete(created.id, created.outs!);
    const order = h.control
      .requests()
      .filter((r) => r.operation === "updateUserRole")
      .map((r) => `${r.path.split("/")[6]}:${r.status}`);
    expect(order.slice(0, 3).sort()).to.deep.equal(["502:200", "503:200", "504:200"]);
    expect(order.slice(3)).to.deep.equal(["501:200"]);
    expect(roleOf(h, "501")).to.equal("ORG_ROLE_READONLY");
    expect(roleOf(h, "503")).to.equal("ORG_ROLE_READONLY");
  });

  it("check refuses a user declared by a UserRole too, and keys that are no user id, naming them", async () => {
    await userRoleProvider.check({} as never, {
      deploymentId: "1001",
      userId: "503",
      role: "ORG_ROLE_ADMIN",
    });
    const twice = await provider.check({}, map({ "502": "ORG_ROLE_ADMIN", "503": "ORG_ROLE_MEMBER" }));
    expect(twice.failures?.map((f) => (f as { path?: string }).path)).to.deep.equal(['roles["503"]']);
    expect(twice.failures?.[0].reason).to.include("declared both by a UserRole and by a UserRoles");
    const badKeys = await provider.check(
      {},
      map({ "a/b": "ORG_ROLE_ADMIN" }, { rolesOnDestroy: { " x": "ORG_ROLE_MEMBER" } }),
    );
    expect(badKeys.failures?.map((f) => f.reason)).to.deep.equal([
      'roles["a/b"]: a key of roles is a user id, which must not contain "/"',
      'rolesOnDestroy[" x"]: a key of rolesOnDestroy is a user id, which must not start or end with spaces',
    ]);
    const badRole = await provider.check({}, map({ "502": "ORG_ROLE_OWNER" }));
    expect(badRole.failures?.[0].reason).to.match(/^roles\.502 must be one of ORG_ROLE_ADMIN/);
  });

  it("check failures show a user id's control and bidirectional characters escaped", async () => {
    const reversed = "50\u202e3";
    await userRoleProvider.check({} as never, {
      deploymentId: "1001",
      userId: reversed,
      role: "ORG_ROLE_ADMIN",
    });
    const twice = await provider.check({}, map({ [reversed]: "ORG_ROLE_MEMBER" }));
    expect(twice.failures?.map((f) => [(f as { path?: string }).path, f.reason])).to.deep.equal([
      [
        'roles["50\\u202e3"]',
        "user 50\\u202e3 of deployment 1001 is declared both by a UserRole and by a UserRoles: manage each " +
          'user in one place (docs/resources/UserRoles.md, "Moving users between UserRole and UserRoles").',
      ],
    ]);
    const badKey = await provider.check({}, map({ "x\u007f": "ORG_ROLE_MEMBER" }));
    expect(badKey.failures?.map((f) => [(f as { path?: string }).path, f.reason])).to.deep.equal([
      [
        'roles["x\\u007f"]',
        'roles["x\\u007f"]: a key of roles is a user id, which must not contain control characters',
      ],
    ]);
  });

  it("a UserRole checked after a UserRoles declaring the same user is refused too", async () => {
    await provider.check({}, map({ "502": "ORG_ROLE_ADMIN" }));
    const result = await userRoleProvider.check({} as never, {
      deploymentId: "1001",
      userId: "502",
      role: "ORG_ROLE_ADMIN",
    });
    expect(result.failures?.[0].reason).to.include("declared both by a UserRoles and by a UserRole");
  });
});
