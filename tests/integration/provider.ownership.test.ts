/**
 * A resource belongs to the platform it was created on (provider/ownership.ts): a connection re-pointed at
 * another platform reads, writes and drops nothing until the user moves the stack on purpose
 * (`codesec:movedFrom`). Two emulators stand for two organizations' platforms.
 */
import { expect } from "chai";
import {
  scmAppProvider,
  scmWebhookSubscriptionProvider,
  userRoleProvider,
  workflowProvisioningProvider,
} from "../support/dynamicProviders";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { OPERATIONS, isMutating } from "../../api/operations";
import { PlatformMismatchError } from "../../provider/errors";
import { configureStack } from "../support/stackConfig";

function calls(handle: EmulatorHandle): string[] {
  return handle.control.requests().map((r) => `${r.operation ?? r.path}:${r.status}`);
}

function writes(handle: EmulatorHandle): string[] {
  return calls(handle).filter((call) => {
    const operation = call.split(":")[0] as keyof typeof OPERATIONS;
    return Object.hasOwn(OPERATIONS, operation) && isMutating(OPERATIONS[operation]);
  });
}

function roleOf(handle: EmulatorHandle, userId: string): string | undefined {
  return handle.control.state().users.find((u) => u.id === userId)?.roles[handle.deploymentId];
}

/** The inputs a state holds (the state without its `platform` output). */
function withoutPlatform<T extends { platform?: string }>(state: T): Omit<T, "platform"> {
  const { platform: _platform, ...inputs } = state;
  return inputs;
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe("ownership: a resource is only ever read, written or removed on its own platform", () => {
  let a: EmulatorHandle;
  let b: EmulatorHandle;

  before(async () => {
    [a, b] = await Promise.all([startEmulator({ quiet: true }), startEmulator({ quiet: true })]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });
  beforeEach(() => {
    a.control.reset();
    b.control.reset();
  });

  const pointAt = (handle: EmulatorHandle, extra: Record<string, string> = {}) =>
    configureStack({ "codesec:baseUrl": handle.baseUrl, "codesec:token": handle.apiToken, ...extra });

  /** One project that provisions without errors on either platform. */
  const provisioningInputs = () => ({ deploymentId: a.deploymentId, filters: { ids: [a.sample.projectId] } });

  /** One resource of each kind, created on A; returns their states. */
  async function createAllOnA() {
    await pointAt(a);
    const role = await userRoleProvider.create({
      deploymentId: a.deploymentId,
      userId: a.sample.memberUserId,
      role: "ORG_ROLE_ADMIN",
      roleOnDestroy: "ORG_ROLE_MEMBER",
    });
    const provisioning = await workflowProvisioningProvider.create(provisioningInputs());
    const hooks = await scmWebhookSubscriptionProvider.create({
      deploymentId: a.deploymentId,
      configId: a.sample.scmConfigId,
    });
    const app = await scmAppProvider.create({
      deploymentId: a.deploymentId,
      requestId: a.sample.scmAppRequestId,
      code: a.sample.scmAppCode,
    });
    return { role, provisioning, hooks, app };
  }

  it("every kind records the platform it was created on", async () => {
    const created = await createAllOnA();
    for (const result of Object.values(created)) {
      expect((result.outs as { platform?: string }).platform).to.equal(a.baseUrl);
    }
  });

  it("re-pointed elsewhere: plan, refresh and destroy stop naming both platforms, and nothing reaches either", async () => {
    const { role, provisioning, hooks, app } = await createAllOnA();
    a.control.clearRequests();
    const memberRoleOnB = roleOf(b, b.sample.memberUserId);
    await pointAt(b);

    const steps: [string, Promise<unknown>][] = [
      ["UserRole diff", userRoleProvider.diff(role.id, role.outs!, withoutPlatform(role.outs!))],
      [
        "WorkflowProvisioning diff",
        workflowProvisioningProvider.diff(provisioning.id, provisioning.outs!, provisioningInputs()),
      ],
      [
        "ScmWebhookSubscription diff",
        scmWebhookSubscriptionProvider.diff(hooks.id, hooks.outs!, {
          deploymentId: a.deploymentId,
          configId: a.sample.scmConfigId,
        }),
      ],
      [
        "ScmApp diff",
        scmAppProvider.diff(app.id, app.outs!, {
          deploymentId: a.deploymentId,
          requestId: a.sample.scmAppRequestId,
        }),
      ],
      ["UserRole refresh", userRoleProvider.read(role.id, role.outs)],
      ["ScmApp refresh (would drop it after a 404 there)", scmAppProvider.read(app.id, app.outs)],
      ["WorkflowProvisioning refresh", workflowProvisioningProvider.read(provisioning.id, provisioning.outs)],
      ["UserRole destroy (roleOnDestroy)", userRoleProvider.delete(role.id, role.outs!)],
    ];
    for (const [label, step] of steps) {
      const error = await rejection(step);
      expect(error, label).to.be.instanceOf(PlatformMismatchError);
      expect((error as Error).message, label)
        .to.include(`created on the platform at ${a.baseUrl}`)
        .and.include(`now points to ${b.baseUrl}`)
        .and.include("stack config (codesec:baseUrl and codesec:token)")
        .and.include(`pulumi config set codesec:movedFrom ${a.baseUrl}`);
    }
    expect(calls(b), "nothing sent to the new platform").to.deep.equal([]);
    expect(calls(a), "nothing sent to the old one").to.deep.equal([]);
    expect(roleOf(b, b.sample.memberUserId)).to.equal(memberRoleOnB);
  });

  it("a delete that calls nothing (no delete endpoint) still removes the resource, with nothing sent", async () => {
    const { provisioning, hooks, app } = await createAllOnA();
    await pointAt(b);
    await workflowProvisioningProvider.delete(provisioning.id, provisioning.outs!);
    await scmWebhookSubscriptionProvider.delete(hooks.id, hooks.outs!);
    await scmAppProvider.delete(app.id, app.outs!);
    expect(calls(b)).to.deep.equal([]);
  });

  it("codesec:movedFrom names the recorded platform: the update applies each kind again on the new one", async () => {
    const { role, provisioning, hooks, app } = await createAllOnA();
    // The app must be connected on the new platform under the same request to be adopted there.
    await pointAt(b);
    await scmAppProvider.create({
      deploymentId: b.deploymentId,
      requestId: b.sample.scmAppRequestId,
      code: b.sample.scmAppCode,
    });
    b.control.clearRequests();
    await pointAt(b, { "codesec:movedFrom": `${a.baseUrl}/` });

    const roleInputs = {
      deploymentId: a.deploymentId,
      userId: a.sample.memberUserId,
      role: "ORG_ROLE_ADMIN" as const,
      roleOnDestroy: "ORG_ROLE_MEMBER" as const,
    };
    expect((await userRoleProvider.diff(role.id, role.outs!, roleInputs)).changes).to.equal(true);
    // A refresh while moving reads nothing: the new platform does not hold the resource yet.
    expect((await userRoleProvider.read(role.id, role.outs)).props).to.deep.equal(role.outs);
    expect(calls(b)).to.deep.equal([]);

    const movedRole = await userRoleProvider.update(role.id, role.outs!, roleInputs);
    const movedProvisioning = await workflowProvisioningProvider.update(
      provisioning.id,
      provisioning.outs!,
      provisioningInputs(),
    );
    const movedHooks = await scmWebhookSubscriptionProvider.update(hooks.id, hooks.outs!, {
      deploymentId: a.deploymentId,
      configId: a.sample.scmConfigId,
    });
    const movedApp = await scmAppProvider.update(app.id, app.outs!, {
      deploymentId: a.deploymentId,
      requestId: a.sample.scmAppRequestId,
    });
    for (const result of [movedRole, movedProvisioning, movedHooks, movedApp]) {
      expect((result.outs as { platform?: string }).platform).to.equal(b.baseUrl);
    }
    expect(calls(b)).to.deep.equal([
      "updateUserRole:200",
      "provisionWorkflows:200",
      "subscribeScmWebhook:200",
      "getScmApp:200",
    ]);
    expect(roleOf(b, b.sample.memberUserId)).to.equal("ORG_ROLE_ADMIN");
    // Recorded on B now: no change, whatever movedFrom still says.
    expect((await userRoleProvider.diff(role.id, movedRole.outs!, roleInputs)).changes).to.equal(false);
  });

  it("codesec:movedFrom naming a third platform moves nothing", async () => {
    const { role } = await createAllOnA();
    await pointAt(b, { "codesec:movedFrom": "https://elsewhere.example.com" });
    const error = await rejection(userRoleProvider.delete(role.id, role.outs!));
    expect(error).to.be.instanceOf(PlatformMismatchError);
    expect((error as Error).message).to.include(
      'stack config codesec:movedFrom is "https://elsewhere.example.com", which is not the platform',
    );
    expect(writes(b)).to.deep.equal([]);
  });

  it("a state from before 0.5.0 (no platform) records the current one with no call", async () => {
    await pointAt(a);
    const inputs = {
      deploymentId: a.deploymentId,
      userId: a.sample.memberUserId,
      role: "ORG_ROLE_MEMBER" as const,
    };
    expect((await userRoleProvider.diff("1001/502", inputs, inputs)).changes).to.equal(true);
    const updated = await userRoleProvider.update("1001/502", inputs, inputs);
    expect(updated.outs).to.deep.equal({ ...inputs, platform: a.baseUrl });
    expect(calls(a)).to.deep.equal([]);
  });
});

describe("a delete never demotes a user that the same run declares", () => {
  let h: EmulatorHandle;
  before(async () => {
    h = await startEmulator({ quiet: true });
  });
  after(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.control.reset();
    await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
  });

  const member = () => ({
    deploymentId: h.deploymentId,
    userId: h.sample.memberUserId,
    role: "ORG_ROLE_ADMIN" as const,
    roleOnDestroy: "ORG_ROLE_READONLY" as const,
  });

  it("a replacement (or a move without an alias) declared in this run keeps the declared role", async () => {
    const old = await userRoleProvider.create(member());
    // The engine checks the program's resources, creates the replacement, then deletes the old one.
    await userRoleProvider.check({} as never, member());
    await userRoleProvider.create(member());
    h.control.clearRequests();
    await userRoleProvider.delete(old.id, old.outs!);
    expect(calls(h), "no demotion sent").to.deep.equal([]);
    expect(roleOf(h, h.sample.memberUserId)).to.equal("ORG_ROLE_ADMIN");
  });

  it("a user the program no longer declares is demoted", async () => {
    const old = await userRoleProvider.create(member());
    // Another user is declared; this one is not.
    await userRoleProvider.check({} as never, { ...member(), userId: h.sample.userId });
    await userRoleProvider.delete(old.id, old.outs!);
    expect(roleOf(h, h.sample.memberUserId)).to.equal("ORG_ROLE_READONLY");
  });

  it("the same user on another platform is not the same user", async () => {
    const other = await startEmulator({ quiet: true });
    try {
      const old = await userRoleProvider.create(member());
      await userRoleProvider.check({} as never, {
        ...member(),
        connection: { baseUrl: other.baseUrl, token: other.apiToken },
      });
      await userRoleProvider.delete(old.id, old.outs!);
      expect(roleOf(h, h.sample.memberUserId)).to.equal("ORG_ROLE_READONLY");
    } finally {
      await other.close();
    }
  });
});

describe("UserRole triggers: a re-assertion of a role the platform cannot read back", () => {
  let h: EmulatorHandle;
  before(async () => {
    h = await startEmulator({ quiet: true });
  });
  after(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    h.control.reset();
    await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
  });

  it("new triggers are an update that sets the declared role again (`updateUserRole`), same triggers none", async () => {
    const inputs = {
      deploymentId: h.deploymentId,
      userId: h.sample.memberUserId,
      role: "ORG_ROLE_ADMIN" as const,
    };
    const created = await userRoleProvider.create({ ...inputs, triggers: "2026-11-01" });
    // Someone demoted the user in the platform's UI: nothing can read it back.
    h.control.setUserRole(h.sample.memberUserId, { deploymentId: h.deploymentId, role: "ORG_ROLE_READONLY" });
    h.control.clearRequests();
    expect(
      (await userRoleProvider.diff(created.id, created.outs!, { ...inputs, triggers: "2026-11-01" })).changes,
    ).to.equal(false);
    const next = { ...inputs, triggers: "2026-11-23" };
    expect(await userRoleProvider.diff(created.id, created.outs!, next)).to.deep.include({
      changes: true,
      replaces: [],
    });
    await userRoleProvider.update(created.id, created.outs!, next);
    expect(calls(h)).to.deep.equal(["updateUserRole:200"]);
    expect(roleOf(h, h.sample.memberUserId)).to.equal("ORG_ROLE_ADMIN");
  });
});
