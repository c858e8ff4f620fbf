import { expect } from "chai";
import {
  scmAppProvider,
  scmWebhookSubscriptionProvider,
  userRoleProvider,
  workflowProvisioningProvider,
} from "../support/dynamicProviders";
import { ProvisioningPartialFailure } from "../../provider/errors";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";
import type { EmulatorHandle } from "../../emulator/index";

/** Operations the emulator answered since the last reset, without control-surface calls. */
function calls(handle: EmulatorHandle): string[] {
  return handle.control.requests().map((r) => `${r.operation ?? r.path}:${r.status}`);
}

function roleOf(handle: EmulatorHandle, userId: string): string | undefined {
  return handle.control.state().users.find((u) => u.id === userId)?.roles[handle.deploymentId];
}

describe("dynamic providers against the emulator", () => {
  const emulator = useEmulator();
  let connection: { baseUrl: string; token: string };

  beforeEach(async () => {
    const handle = emulator();
    connection = { baseUrl: handle.baseUrl, token: handle.apiToken };
    // Resources without an explicit connection use the stack config handed to configure.
    await configureStack({ "codesec:baseUrl": handle.baseUrl, "codesec:token": handle.apiToken });
  });

  describe("UserRole", () => {
    it("create sets the role with one call to `updateUserRole` and returns deploymentId/userId", async () => {
      const h = emulator();
      const member = h.sample.memberUserId;
      const result = await userRoleProvider.create({
        deploymentId: h.deploymentId,
        userId: member,
        role: "ORG_ROLE_READONLY",
      });
      expect(result.id).to.equal(`${h.deploymentId}/${member}`);
      expect(result.outs).to.deep.equal({
        deploymentId: h.deploymentId,
        userId: member,
        role: "ORG_ROLE_READONLY",
        platform: h.baseUrl,
      });
      expect(roleOf(h, member)).to.equal("ORG_ROLE_READONLY");
      expect(calls(h)).to.deep.equal(["updateUserRole:200"]);
    });

    it("update calls `updateUserRole` once for a new role and not at all for roleOnDestroy alone", async () => {
      const h = emulator();
      const olds = {
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_MEMBER" as const,
      };
      await userRoleProvider.update("id", olds, { ...olds, roleOnDestroy: "ORG_ROLE_READONLY" });
      expect(calls(h)).to.deep.equal([]);
      const result = await userRoleProvider.update("id", olds, { ...olds, role: "ORG_ROLE_ADMIN" });
      expect(result.outs?.role).to.equal("ORG_ROLE_ADMIN");
      expect(roleOf(h, olds.userId)).to.equal("ORG_ROLE_ADMIN");
      expect(calls(h)).to.deep.equal(["updateUserRole:200"]);
    });

    it("read refreshes the caller's own role (`getCurrentUser`), showing drift", async () => {
      const h = emulator();
      const member = h.sample.memberUserId;
      const { credential } = await h.control.mintCredential({
        deploymentId: h.deploymentId,
        userId: member,
        kind: "apiToken",
      });
      h.control.setUserRole(member, { deploymentId: h.deploymentId, role: "ORG_ROLE_READONLY" });
      const state = {
        deploymentId: h.deploymentId,
        userId: member,
        role: "ORG_ROLE_MEMBER" as const,
        connection: { baseUrl: h.baseUrl, token: credential },
      };
      const result = await userRoleProvider.read(`${h.deploymentId}/${member}`, state);
      expect(result.props?.role).to.equal("ORG_ROLE_READONLY");
      expect(result.props?.connection).to.deep.equal(state.connection);
    });

    it("read keeps the state of another user (the platform cannot read it)", async () => {
      const h = emulator();
      const state = {
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_ADMIN" as const,
        platform: h.baseUrl,
      };
      const result = await userRoleProvider.read(`${h.deploymentId}/${state.userId}`, state);
      expect(result).to.deep.equal({ id: `${h.deploymentId}/${state.userId}`, props: state });
      expect(calls(h)).to.deep.equal(["getCurrentUser:200"]);
    });

    it("a refresh of the caller's own role records it only in the deployment the platform confirms as the credentials', and keeps the state elsewhere", async () => {
      const h = emulator();
      const own = { deploymentId: "2002", userId: h.sample.userId, role: "ORG_ROLE_MEMBER" as const };
      const kept = await userRoleProvider.read(`2002/${own.userId}`, own);
      expect(kept.props).to.deep.equal({ ...own, platform: h.baseUrl });
      const lookup = await userRoleProvider.read(`${h.deploymentId}/${own.userId}`, {
        ...own,
        deploymentId: h.deploymentId,
      });
      expect(lookup.props?.role).to.equal("ORG_ROLE_ADMIN");
      expect(calls(h)).to.include.members(["listNotificationRules:403", "listNotificationRules:200"]);
    });

    it("an id with control characters is refused before any call, shown escaped", async () => {
      const h = emulator();
      const error = await userRoleProvider.read("1001/\u001b[31mRED\u001b[0m", undefined as never).then(
        () => expect.fail("the read should fail"),
        (failure: Error) => failure,
      );
      expect(error.message).to.equal(
        'codesec:UserRole: id "1001/\\u001b[31mRED\\u001b[0m" is not of the form <deploymentId>/<userId>: its ' +
          "userId must not contain control characters",
      );
      expect(calls(h)).to.deep.equal([]);
    });

    it("delete applies roleOnDestroy, and without it makes no call", async () => {
      const h = emulator();
      const member = h.sample.memberUserId;
      await userRoleProvider.delete("id", {
        deploymentId: h.deploymentId,
        userId: member,
        role: "ORG_ROLE_MEMBER",
      });
      expect(calls(h)).to.deep.equal([]);
      expect(roleOf(h, member)).to.equal("ORG_ROLE_MEMBER");
      await userRoleProvider.delete("id", {
        deploymentId: h.deploymentId,
        userId: member,
        role: "ORG_ROLE_MEMBER",
        roleOnDestroy: "ORG_ROLE_READONLY",
      });
      expect(roleOf(h, member)).to.equal("ORG_ROLE_READONLY");
      expect(calls(h)).to.deep.equal(["updateUserRole:200"]);
    });

    it("an explicit connection wins over stack config", async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": "http://127.0.0.1:9", "codesec:token": "wrong" });
      await userRoleProvider.create({
        deploymentId: h.deploymentId,
        userId: h.sample.memberUserId,
        role: "ORG_ROLE_READONLY",
        connection,
      });
      expect(roleOf(h, h.sample.memberUserId)).to.equal("ORG_ROLE_READONLY");
    });

    it("the platform's refusal reaches the user with the token nowhere in it", async () => {
      const h = emulator();
      let error: Error | undefined;
      await userRoleProvider
        .create({
          deploymentId: h.deploymentId,
          userId: "no-such-user",
          role: "ORG_ROLE_MEMBER",
        })
        .catch((e: Error) => (error = e));
      expect(error?.message).to.match(/404/);
      expect(`${error?.message}${error?.stack}${JSON.stringify(error)}`).not.to.include(h.apiToken);
    });
  });

  describe("WorkflowProvisioning", () => {
    it("create provisions matching repositories and records their workflow file URLs", async () => {
      const h = emulator();
      const result = await workflowProvisioningProvider.create({
        deploymentId: h.deploymentId,
        filters: { codeAccess: true, archived: false, isScmRepository: true },
        ghaOptions: { prEnabled: true, pushBranches: ["main"] },
      });
      expect(result.id).to.match(new RegExp(`^${h.deploymentId}/provisioning-[0-9a-f-]{36}$`));
      expect(Object.keys(result.outs!.repoFileUrls).length).to.be.greaterThan(0);
      expect(result.outs!.errors).to.deep.equal([]);
      const provisioned = h.control.state().projects.filter((p) => p.workflow);
      expect(provisioned.map((p) => p.id).sort()).to.deep.equal(
        Object.keys(result.outs!.repoFileUrls).sort(),
      );
      expect(calls(h)).to.deep.equal(["provisionWorkflows:200"]);
    });

    it("ids are unique per resource", async () => {
      const h = emulator();
      const a = await workflowProvisioningProvider.create({
        deploymentId: h.deploymentId,
        filters: { ids: ["7001"] },
      });
      const b = await workflowProvisioningProvider.create({
        deploymentId: h.deploymentId,
        filters: { ids: ["7001"] },
      });
      expect(a.id).not.to.equal(b.id);
    });

    it("fails listing every error's code, message and ids, keeping what was provisioned as the failed resource's state", async () => {
      const h = emulator();
      let error: ProvisioningPartialFailure | undefined;
      await workflowProvisioningProvider
        .create({
          deploymentId: h.deploymentId,
          filters: { ids: ["7001", "7004", "9999"] },
          __provider: "stub",
        } as never)
        .catch((e: ProvisioningPartialFailure) => (error = e));
      expect(error).to.be.instanceOf(ProvisioningPartialFailure);
      expect(error!.properties.errors.length).to.be.greaterThan(0);
      for (const e of error!.properties.errors) {
        expect(error!.message).to.include(e.code).and.include(e.message);
        for (const id of e.ids) expect(error!.message).to.include(id);
      }
      expect(error!.message).to.include("allowPartialFailure");
      // id + properties make the engine record the resource as failed to initialize, not drop it.
      expect(error!.id).to.match(/^1001\/provisioning-/);
      expect(error!.properties.repoFileUrls).to.have.property("7001");
      // Without the engine's __provider key the engine could not load the provider for it again.
      expect(error!.properties).to.have.property("__provider", "stub");
      expect(error!.reasons).to.have.length(error!.properties.errors.length);
    });

    it("with allowPartialFailure records the errors instead", async () => {
      const h = emulator();
      const result = await workflowProvisioningProvider.create({
        deploymentId: h.deploymentId,
        filters: { ids: ["7001", "7004"] },
        allowPartialFailure: true,
      });
      expect(result.outs!.repoFileUrls).to.have.property("7001");
      expect(result.outs!.errors.map((e: { ids: string[] }) => e.ids).flat()).to.include("7004");
    });

    it("update provisions again only when what it provisions changes", async () => {
      const h = emulator();
      const created = await workflowProvisioningProvider.create({
        deploymentId: h.deploymentId,
        filters: { ids: ["7001"] },
      });
      h.control.clearRequests();
      const olds = created.outs!;
      const same = await workflowProvisioningProvider.update(created.id, olds, {
        ...olds,
        allowPartialFailure: true,
      });
      expect(calls(h)).to.deep.equal([]);
      expect(same.outs!.repoFileUrls).to.deep.equal(olds.repoFileUrls);
      const again = await workflowProvisioningProvider.update(created.id, olds, {
        deploymentId: h.deploymentId,
        filters: { ids: ["7001", "7002"] },
      });
      expect(Object.keys(again.outs!.repoFileUrls).sort()).to.deep.equal(["7001", "7002"]);
      expect(calls(h)).to.deep.equal(["provisionWorkflows:200"]);
      await workflowProvisioningProvider.update(created.id, again.outs!, {
        ...again.outs!,
        triggers: "rotate",
      });
      expect(calls(h)).to.deep.equal(["provisionWorkflows:200", "provisionWorkflows:200"]);
    });

    it("a resource recorded with errors provisions again on the next up, even with the same inputs", async () => {
      const h = emulator();
      const inputs = { deploymentId: h.deploymentId, filters: { ids: ["7001"] } };
      const olds = {
        ...inputs,
        repoFileUrls: {},
        errors: [{ code: "UPDATE_ERROR_CODE_NO_CODE_ACCESS", message: "no code access", ids: ["7001"] }],
      };
      const result = await workflowProvisioningProvider.update("1001/provisioning-x", olds, inputs);
      expect(calls(h)).to.deep.equal(["provisionWorkflows:200"]);
      expect(result.outs!.errors).to.deep.equal([]);
      expect(result.outs!.repoFileUrls).to.have.property("7001");
    });

    it("read keeps the state and delete makes no call", async () => {
      const h = emulator();
      const state = {
        deploymentId: h.deploymentId,
        repoFileUrls: { "7001": "u" },
        errors: [],
        platform: h.baseUrl,
      };
      expect(await workflowProvisioningProvider.read("1001/provisioning-x", state)).to.deep.equal({
        id: "1001/provisioning-x",
        props: state,
      });
      await workflowProvisioningProvider.delete("1001/provisioning-x", state);
      expect(calls(h)).to.deep.equal([]);
    });
  });

  describe("ScmWebhookSubscription", () => {
    it("create subscribes (`subscribeScmWebhook`) and records scmUrl and events", async () => {
      const h = emulator();
      const result = await scmWebhookSubscriptionProvider.create({
        deploymentId: h.deploymentId,
        configId: h.sample.scmConfigId,
      });
      expect(result.id).to.equal(`${h.deploymentId}/${h.sample.scmConfigId}`);
      const config = h.control.state().scmConfigurations.find((c) => c.configId === h.sample.scmConfigId)!;
      expect(result.outs!.scmUrl).to.equal(config.scmUrl);
      expect(result.outs!.events).to.be.an("array").with.length.greaterThan(0);
      expect(calls(h)).to.deep.equal(["subscribeScmWebhook:200"]);
    });

    it("update (a new triggers value) subscribes again", async () => {
      const h = emulator();
      const inputs = { deploymentId: h.deploymentId, configId: h.sample.scmConfigId };
      const created = await scmWebhookSubscriptionProvider.create(inputs);
      await scmWebhookSubscriptionProvider.update(created.id, created.outs!, { ...inputs, triggers: 2 });
      expect(calls(h)).to.deep.equal(["subscribeScmWebhook:200", "subscribeScmWebhook:200"]);
    });

    it("an unknown configuration is the platform's 404", async () => {
      const h = emulator();
      let error: Error | undefined;
      await scmWebhookSubscriptionProvider
        .create({ deploymentId: h.deploymentId, configId: "nope" })
        .catch((e: Error) => (error = e));
      expect(error?.message).to.match(/404/);
    });
  });

  describe("ScmApp", () => {
    it("create completes the request with its code, and keeps the code out of the outputs", async () => {
      const h = emulator();
      const result = await scmAppProvider.create({
        deploymentId: h.deploymentId,
        requestId: h.sample.scmAppRequestId,
        code: h.sample.scmAppCode,
      });
      expect(result.id).to.equal(`${h.deploymentId}/${h.sample.scmAppRequestId}`);
      expect(result.outs!.requestId).to.equal(h.sample.scmAppRequestId);
      expect(result.outs).not.to.have.property("code");
      expect(JSON.stringify(result.outs)).not.to.include(h.sample.scmAppCode);
    });

    it("create adopts the app when its request was already completed (an earlier answer lost)", async () => {
      const h = emulator();
      const { CodeSecClient } = await import("../../client");
      await new CodeSecClient(connection).completeScmAppRequest({
        requestId: h.sample.scmAppRequestId,
        code: h.sample.scmAppCode,
      });
      h.control.clearRequests();
      const result = await scmAppProvider.create({
        deploymentId: h.deploymentId,
        requestId: h.sample.scmAppRequestId,
        code: h.sample.scmAppCode,
      });
      expect(result.outs!.requestId).to.equal(h.sample.scmAppRequestId);
      expect(calls(h)).to.deep.equal(["completeScmAppRequest:409", "getScmApp:200"]);
    });

    it("create records the app when the completion applied but its answer was lost (no second completion)", async () => {
      const h = emulator();
      h.control.addFault({ operation: "completeScmAppRequest", phase: "after", drop: true });
      const result = await scmAppProvider.create({
        deploymentId: h.deploymentId,
        requestId: h.sample.scmAppRequestId,
        code: h.sample.scmAppCode,
      });
      expect(result.outs!.requestId).to.equal(h.sample.scmAppRequestId);
      expect(calls(h)).to.deep.equal(["completeScmAppRequest:0", "getScmApp:200"]);
    });

    it("create says the request was not completed when a 503 came before it applied", async () => {
      const h = emulator();
      h.control.addFault({ operation: "completeScmAppRequest", status: 503 });
      let error: Error | undefined;
      await scmAppProvider
        .create({
          deploymentId: h.deploymentId,
          requestId: h.sample.scmAppRequestId,
          code: h.sample.scmAppCode,
        })
        .catch((e: Error) => (error = e));
      expect(error?.message).to.include("was not completed").and.include("pulumi up");
      expect(error?.message).not.to.include(h.sample.scmAppCode);
      expect(calls(h)).to.deep.equal(["completeScmAppRequest:503", "getScmApp:404"]);
      const request = h.control.state().scmAppRequests.find((r) => r.requestId === h.sample.scmAppRequestId)!;
      expect(request.state).to.equal("pending");
    });

    it("a wrong code fails without echoing it", async () => {
      const h = emulator();
      let error: Error | undefined;
      await scmAppProvider
        .create({
          deploymentId: h.deploymentId,
          requestId: h.sample.scmAppRequestId,
          code: "wrong-code-123",
        })
        .catch((e: Error) => (error = e));
      expect(error).to.be.an("error");
      expect(`${error!.message}${error!.stack}`).not.to.include("wrong-code-123");
    });

    it("create without a code adopts (imports) a connected app by its id, completing nothing", async () => {
      const h = emulator();
      const result = await scmAppProvider.create({
        deploymentId: h.deploymentId,
        requestId: "apprq-1001-done",
      });
      expect(result.id).to.equal(`${h.deploymentId}/apprq-1001-done`);
      expect(result.outs!.slug).to.equal("codesec-acme-legacy");
      expect(result.outs!.appliedApp!.slug).to.equal("codesec-acme-legacy");
      expect(calls(h)).to.deep.equal(["getScmApp:200"]);
    });

    it("create without a code for a request that is not connected says to give the code", async () => {
      const h = emulator();
      let error: Error | undefined;
      await scmAppProvider
        .create({
          deploymentId: h.deploymentId,
          requestId: h.sample.scmAppRequestId,
        })
        .catch((e: Error) => (error = e));
      expect(error?.message).to.include("no connected SCM app").and.include("one-time code");
      expect(calls(h)).to.deep.equal(["getScmApp:404"]);
    });

    it("read shows drift made out of band (the platform's UI) in the outputs, as every kind does", async () => {
      const h = emulator();
      const created = await scmAppProvider.create({
        deploymentId: h.deploymentId,
        requestId: h.sample.scmAppRequestId,
        code: h.sample.scmAppCode,
      });
      h.control.editScmApp(h.sample.scmAppRequestId, { scmName: "Renamed in the UI", codeAccess: false });
      const read = await scmAppProvider.read(created.id, created.outs);
      expect(read.props!.scmName).to.equal("Renamed in the UI");
      expect(read.props!.codeAccess).to.equal(false);
      // `pulumi refresh` shows the outputs recorded => reported (`~ scmName: "acme" => "Renamed in the UI"`),
      // as it shows a UserRole's role; the inputs the engine keeps are left alone (no internal fields).
      expect(read).not.to.have.property("inputs");
      expect(read.id).to.equal(created.id);
      // The drift is a change for the plan (so a drift check fails) until an update records it.
      const inputs = { deploymentId: h.deploymentId, requestId: h.sample.scmAppRequestId };
      expect(read.props!.appliedApp).to.deep.equal(created.outs!.appliedApp);
      expect((await scmAppProvider.diff(created.id, read.props!, inputs)).changes).to.equal(true);
      h.control.clearRequests();
      const updated = await scmAppProvider.update(created.id, read.props!, inputs);
      expect(updated.outs!.appliedApp!.scmName).to.equal("Renamed in the UI");
      expect(updated.outs!).not.to.have.property("platformReported");
      expect(calls(h)).to.deep.equal([]);
      expect((await scmAppProvider.diff(created.id, updated.outs!, inputs)).changes).to.equal(false);
    });

    it("a drift undone on the platform before any up is no change any more", async () => {
      const h = emulator();
      const inputs = { deploymentId: h.deploymentId, requestId: h.sample.scmAppRequestId };
      const created = await scmAppProvider.create({ ...inputs, code: h.sample.scmAppCode });
      const original = created.outs!.scmName;
      h.control.editScmApp(h.sample.scmAppRequestId, { scmName: "renamed" });
      const drifted = await scmAppProvider.read(created.id, created.outs);
      expect((await scmAppProvider.diff(created.id, drifted.props!, inputs)).changes).to.equal(true);
      h.control.editScmApp(h.sample.scmAppRequestId, { scmName: original });
      const undone = await scmAppProvider.read(created.id, drifted.props);
      expect(undone.props!.scmName).to.equal(original);
      expect((await scmAppProvider.diff(created.id, undone.props!, inputs)).changes).to.equal(false);
    });

    it("a state written by 0.4.0 after a drift drops its internal fields on refresh", async () => {
      const h = emulator();
      const inputs = { deploymentId: h.deploymentId, requestId: h.sample.scmAppRequestId };
      const created = await scmAppProvider.create({ ...inputs, code: h.sample.scmAppCode });
      const legacy = { ...created.outs!, platformReported: { scmName: "renamed" } };
      const read = await scmAppProvider.read(created.id, legacy);
      expect(read.props).not.to.have.property("platformReported");
      // The program's inputs never carry them, so the next stored inputs are clean.
      const check = await scmAppProvider.check(legacy, inputs);
      expect(check.inputs).to.deep.equal(inputs);
    });

    it("an app gone from the platform leaves the state on refresh; a malformed id fails clearly", async () => {
      const h = emulator();
      const gone = await scmAppProvider.read(`${h.deploymentId}/apprq-missing`, {
        deploymentId: h.deploymentId,
        requestId: "apprq-missing",
        appliedApp: {} as never,
      } as never);
      expect(gone.id).to.equal(undefined);
      let error: Error | undefined;
      await scmAppProvider.read("not-an-id", undefined).catch((e: Error) => (error = e));
      expect(error?.message).to.include("<deploymentId>/<requestId>");
    });
  });
});
