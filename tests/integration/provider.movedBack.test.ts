import { expect } from "chai";
import type * as pulumi from "@pulumi/pulumi";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";

type P = Required<pulumi.dynamic.ResourceProvider>;
const kinds = ["UserRole", "UserRoles", "ScmApp", "WorkflowProvisioning", "ScmWebhookSubscription"] as const;

// A stack moved back from the native provider to the dynamic classes (docs/migrating-to-native.md): its
// state has no `__provider`, which only an update can record; that update must reach nothing.
describe("a state without __provider (moved back from the native provider), every kind: one update, no call", () => {
  const emulator = useEmulator();
  for (const kind of kinds) {
    it(kind, async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken });
      const inputs: Record<string, Record<string, unknown>> = {
        UserRole: {
          deploymentId: h.deploymentId,
          userId: h.sample.memberUserId,
          role: "ORG_ROLE_READONLY",
          roleOnDestroy: "ORG_ROLE_MEMBER",
        },
        UserRoles: {
          deploymentId: h.deploymentId,
          roles: { [h.sample.memberUserId]: "ORG_ROLE_READONLY" },
          roleOnDestroy: "ORG_ROLE_MEMBER",
        },
        ScmApp: {
          deploymentId: h.deploymentId,
          requestId: h.sample.scmAppRequestId,
          code: h.sample.scmAppCode,
        },
        WorkflowProvisioning: {
          deploymentId: h.deploymentId,
          filters: { codeAccess: true, archived: false, isScmRepository: true },
          ghaOptions: { prEnabled: true, pushBranches: ["main"] },
        },
        ScmWebhookSubscription: { deploymentId: h.deploymentId, configId: h.sample.scmConfigId },
      };
      const p = dynamicProviderOf(kind) as P;
      const news = { ...inputs[kind], __provider: "stub" };
      const checked = await p.check({}, news);
      const created = await p.create(checked.inputs ?? news);
      const nativeState = created.outs as Record<string, unknown>; // no __provider, as the native provider writes
      expect(nativeState).not.to.have.property("__provider");
      h.control.clearRequests();
      const d = await p.diff(created.id, nativeState, news);
      expect(d.changes, "diff").to.equal(true);
      expect(d.replaces ?? []).to.deep.equal([]);
      const u = await p.update(created.id, nativeState, news);
      expect(h.control.requests(), "no call at all").to.deep.equal([]);
      expect(JSON.stringify(u.outs)).not.to.include(h.sample.scmAppCode);
      // The host records __provider with the update: the next diff is clean.
      const d2 = await p.diff(
        created.id,
        { ...(u.outs as object), __provider: "stub2" },
        { ...news, __provider: "stub3" },
      );
      expect(d2.changes, "diff after").to.equal(false);
      // Both sides without __provider (never from the host): clean too.
      const d3 = await p.diff(created.id, u.outs as object, inputs[kind]);
      expect(d3.changes).to.equal(false);
    });
  }
});
