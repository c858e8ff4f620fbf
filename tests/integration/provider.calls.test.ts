/**
 * The fewest calls at organization scale, counted in the emulator's request log: a refresh of many
 * UserRoles reads operation 8 once per connection (shared with the credential check), and a diff calls
 * nothing. Each test mints a fresh token, so its
 * connection is one this process has not used yet.
 */
import { expect } from "chai";
import { userRoleProvider } from "../../provider/resources/userRole/provider";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";
import type { EmulatorHandle } from "../../emulator/index";

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

describe("calls at organization scale", () => {
  const emulator = useEmulator();
  const role = (h: EmulatorHandle, userId: string) => ({
    deploymentId: h.deploymentId,
    userId,
    role: "ORG_ROLE_MEMBER" as const,
  });

  it("a refresh of many UserRoles reads operation 8 once for the connection, concurrently", async () => {
    const h = emulator();
    await freshConnection(h);
    const users = h.control.state().users.map((u) => u.id);
    expect(users.length).to.be.greaterThan(2);
    const results = await Promise.all(
      users.map((userId) => userRoleProvider.read!(`${h.deploymentId}/${userId}`, role(h, userId))),
    );
    expect(operations(h)).to.deep.equal(["getCurrentUser:200"]);
    // The caller's own role is still read back from that one answer; the others keep their state.
    const own = results[users.indexOf(h.sample.userId)];
    expect(own.props!.role).to.equal("ORG_ROLE_ADMIN");
  });

  it("a role write makes the next read ask again, and it sees the write", async () => {
    const h = emulator();
    await freshConnection(h);
    const id = `${h.deploymentId}/${h.sample.userId}`;
    const admin = { ...role(h, h.sample.userId), role: "ORG_ROLE_ADMIN" as const };
    await userRoleProvider.read!(id, admin);
    // Another admin first, so the platform lets the caller step down.
    h.control.setUserRole(h.sample.memberUserId, { deploymentId: h.deploymentId, role: "ORG_ROLE_ADMIN" });
    await userRoleProvider.update!(id, admin, { ...admin, role: "ORG_ROLE_MEMBER" });
    const after = await userRoleProvider.read!(id, { ...admin, role: "ORG_ROLE_MEMBER" });
    expect(after.props!.role).to.equal("ORG_ROLE_MEMBER");
    expect(operations(h)).to.deep.equal(["getCurrentUser:200", "updateUserRole:200", "getCurrentUser:200"]);
  });

  it("diffs call nothing, with or without changes; check proves the connection once for all resources", async () => {
    const h = emulator();
    await freshConnection(h);
    const users = h.control.state().users.map((u) => u.id);
    await Promise.all(
      users.map(async (userId) => {
        const olds = role(h, userId);
        await userRoleProvider.diff!("id", olds, { ...olds });
        await userRoleProvider.diff!("id", olds, { ...olds, role: "ORG_ROLE_READONLY" });
      }),
    );
    expect(operations(h)).to.deep.equal([]);
    await Promise.all(users.map((userId) => userRoleProvider.check!(role(h, userId), role(h, userId))));
    expect(operations(h)).to.deep.equal(["getCurrentUser:200"]);
  });
});
