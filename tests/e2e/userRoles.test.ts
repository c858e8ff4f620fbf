/**
 * `codesec.UserRoles` through the real CLI: a team's roles as one map, written entry by entry only where
 * they change; removals with and without a role on leaving; a partial failure recorded exactly and
 * finished by the next `up`; refresh of the caller's own entry; the conflict with a UserRole; destroy.
 */
import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { writes } from "../support/emulator";
import { fixturesWithMembers, scaleMemberIds } from "../support/largeFixtures";
import { createStack, prepareProgram, requirePulumiCli, runPulumi, stateResource } from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/userRoles");
const [u1, u2, u3, u4, u5, u6, u7, u8, u9, u10] = scaleMemberIds(10);
const ADMIN = "ORG_ROLE_ADMIN";
const MEMBER = "ORG_ROLE_MEMBER";
const READONLY = "ORG_ROLE_READONLY";

/** Every write the emulator answered since the last clear, as `<user>:<status>`, sorted. */
function roleWrites(emulator: EmulatorHandle): string[] {
  const userWrites = writes(emulator, (r) => `${r.path.split("/")[6]}:${r.status}`).sort();
  emulator.control.clearRequests();
  return userWrites;
}

function rolesOf(emulator: EmulatorHandle, userIds: string[]): Record<string, string | undefined> {
  const users = emulator.control.state().users;
  return Object.fromEntries(
    userIds.map((id) => [id, users.find((u) => u.id === id)?.roles[emulator.deploymentId]]),
  );
}

async function pulumi(stack: Stack, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return runPulumi(stack, [...args, "--color", "never"], "e2e-user-roles");
}

async function setMap(stack: Stack, roles: Record<string, string>, more: Record<string, unknown> = {}) {
  await stack.setAllConfig({ "e2e:roles": { value: JSON.stringify(roles) } });
  for (const key of ["roleOnDestroy", "rolesOnDestroy", "singles"]) {
    const value = more[key];
    if (value === undefined) await stack.removeConfig(`e2e:${key}`);
    else
      await stack.setConfig(`e2e:${key}`, {
        value: typeof value === "string" ? value : JSON.stringify(value),
      });
  }
}

async function recordedRoles(stack: Stack): Promise<Record<string, string>> {
  const team = await stateResource(stack, "team");
  return (team.outputs as { roles: Record<string, string> }).roles;
}

describe("codesec.UserRoles through the real CLI", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true, fixtures: fixturesWithMembers(10) });
    stack = await createStack(prepareProgram(PROGRAM), "team", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "e2e:deploymentId": { value: emulator.deploymentId },
    });
  });
  after(async () => {
    await emulator?.close();
  });

  it("create writes every entry once; a preview right after changes nothing", async () => {
    const roles = { "501": ADMIN, [u1]: ADMIN, [u2]: ADMIN, [u3]: ADMIN, [u4]: ADMIN, [u5]: ADMIN };
    for (const id of [u6, u7, u8, u9, u10]) roles[id] = READONLY;
    await setMap(stack, roles);
    const up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal(
      Object.keys(roles)
        .map((id) => `${id}:200`)
        .sort(),
    );
    expect(rolesOf(emulator, Object.keys(roles))).to.deep.equal(roles);
    const preview = await pulumi(stack, "preview", "--expect-no-changes");
    expect(preview.code, preview.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([]);
  });

  it("a change of 5 entries previews per user and writes exactly those 5", async () => {
    const roles = await recordedRoles(stack);
    for (const id of [u1, u2, u3, u4, u5]) roles[id] = MEMBER;
    await setMap(stack, roles);
    const preview = await pulumi(stack, "preview", "--diff");
    expect(preview.code, preview.output).to.equal(0);
    for (const id of [u1, u2, u3, u4, u5])
      expect(preview.output).to.match(new RegExp(`~ "?${id}"?\\s*: "${ADMIN}" => "${MEMBER}"`));
    expect(roleWrites(emulator)).to.deep.equal([]);
    const up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([u1, u2, u3, u4, u5].map((id) => `${id}:200`));
  });

  it("removing users demotes only those with a role on leaving; the others keep their roles", async () => {
    const roles = await recordedRoles(stack);
    for (const id of [u8, u9, u10]) delete roles[id];
    await setMap(stack, roles, { rolesOnDestroy: { [u8]: MEMBER } });
    let up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([`${u8}:200`]);
    expect(rolesOf(emulator, [u8, u9, u10])).to.deep.equal({ [u8]: MEMBER, [u9]: READONLY, [u10]: READONLY });

    delete roles[u7];
    await setMap(stack, roles, { roleOnDestroy: MEMBER });
    up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([`${u7}:200`]);
    expect(rolesOf(emulator, [u7])).to.deep.equal({ [u7]: MEMBER });
    expect(Object.keys(await recordedRoles(stack)).sort()).to.deep.equal(Object.keys(roles).sort());
  });

  it("a partial failure records exactly what was applied, and the next up writes only the rest", async () => {
    const roles = await recordedRoles(stack);
    for (const id of [u1, u2, u3, u4]) roles[id] = ADMIN;
    await setMap(stack, roles, { roleOnDestroy: MEMBER });
    for (const id of [u2, u3]) {
      emulator.control.addFault({
        method: "PATCH",
        path: `/api/agent/deployments/${emulator.deploymentId}/users/${id}/roles`,
        status: 500,
      });
    }
    const failed = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(failed.code).not.to.equal(0);
    // The engine prints a failed step's reasons: one line per user whose write failed.
    expect(failed.output).to.include("2 errors occurred");
    for (const id of [u2, u3]) expect(failed.output).to.match(new RegExp(`\\* user ${id}: .*HTTP 500`));
    expect(roleWrites(emulator)).to.deep.equal([`${u1}:200`, `${u2}:500`, `${u3}:500`, `${u4}:200`]);
    const recorded = await recordedRoles(stack);
    expect([u1, u2, u3, u4].map((id) => recorded[id])).to.deep.equal([ADMIN, MEMBER, MEMBER, ADMIN]);

    const again = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(again.code, again.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([`${u2}:200`, `${u3}:200`]);
    expect(rolesOf(emulator, [u1, u2, u3, u4])).to.deep.equal({
      [u1]: ADMIN,
      [u2]: ADMIN,
      [u3]: ADMIN,
      [u4]: ADMIN,
    });
  });

  it("refresh shows the caller's own entry changed on the platform, and only reads", async () => {
    emulator.control.setUserRole("501", { deploymentId: emulator.deploymentId, role: READONLY });
    emulator.control.clearRequests();
    const refresh = await pulumi(stack, "refresh", "--preview-only", "--expect-no-changes", "--diff");
    expect(refresh.code).not.to.equal(0);
    expect(refresh.output).to.match(new RegExp(`~ "?501"?\\s*: "${ADMIN}" => "${READONLY}"`));
    expect(roleWrites(emulator)).to.deep.equal([]);
    emulator.control.setUserRole("501", { deploymentId: emulator.deploymentId, role: ADMIN });
    const clean = await pulumi(stack, "refresh", "--preview-only", "--expect-no-changes");
    expect(clean.code, clean.output).to.equal(0);
  });

  it("the same user in a UserRole and the map is refused at preview, before any write", async () => {
    const roles = await recordedRoles(stack);
    await setMap(stack, roles, { roleOnDestroy: MEMBER, singles: { [u1]: MEMBER } });
    const preview = await pulumi(stack, "preview");
    expect(preview.code).not.to.equal(0);
    expect(preview.output).to.include(`user ${u1} of deployment ${emulator.deploymentId} is declared both`);
    expect(roleWrites(emulator)).to.deep.equal([]);
  });

  it("users move from the map to UserRoles and back in one up each, and nobody is demoted", async () => {
    const roles = await recordedRoles(stack);
    const moving = { [u5]: ADMIN, [u6]: READONLY };
    const rest = Object.fromEntries(Object.entries(roles).filter(([id]) => !(id in moving)));
    // Out of the map (whose role on leaving is member) into UserRoles the map depends on.
    await setMap(stack, rest, { roleOnDestroy: MEMBER, singles: moving });
    let up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(up.output).to.include(`was not applied to user(s) ${u5}, ${u6}`);
    expect(roleWrites(emulator)).to.deep.equal([`${u5}:200`, `${u6}:200`]);
    expect(rolesOf(emulator, [u5, u6])).to.deep.equal(moving);
    // Back into the map: the UserRoles' deletes (role on destroy: member) skip users the map declares.
    await setMap(stack, { ...rest, ...moving }, { roleOnDestroy: MEMBER });
    up = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(up.code, up.output).to.equal(0);
    expect(roleWrites(emulator)).to.deep.equal([`${u5}:200`, `${u6}:200`]);
    expect(rolesOf(emulator, [u5, u6])).to.deep.equal(moving);
    expect(await recordedRoles(stack)).to.deep.equal({ ...rest, ...moving });
  });

  it("destroy gives every user the role on leaving, the caller's own last, and records nothing for the rest", async () => {
    const roles = await recordedRoles(stack);
    // u1 stays an admin on destroy, so the caller is not the last admin when it is demoted.
    await setMap(stack, roles, { roleOnDestroy: MEMBER, rolesOnDestroy: { [u1]: ADMIN } });
    const record = await pulumi(stack, "up", "--yes", "--skip-preview");
    expect(record.code, record.output).to.equal(0);
    expect(roleWrites(emulator), "a change to the roles on destroy is recorded only").to.deep.equal([]);
    const destroy = await pulumi(stack, "destroy", "--yes", "--skip-preview");
    expect(destroy.code, destroy.output).to.equal(0);
    const order = emulator.control
      .requests()
      .filter((r) => r.operation === "updateUserRole")
      .map((r) => r.path.split("/")[6]);
    expect(order.at(-1), "the caller's own demotion comes last").to.equal("501");
    expect(order.slice().sort()).to.deep.equal(Object.keys(roles).sort());
    const expected = Object.fromEntries(Object.keys(roles).map((id) => [id, id === u1 ? ADMIN : MEMBER]));
    expect(rolesOf(emulator, Object.keys(roles))).to.deep.equal(expected);
  });
});
