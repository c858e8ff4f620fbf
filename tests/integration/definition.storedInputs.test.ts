/**
 * An input that is only stored needs nothing but its field in the kind's definition: every kind's create
 * and update keep each input its definition's fields name (all but a write-only one), so an input added
 * there is in the state, and the next diff finds no change. Each kind runs here with one more field, `note`,
 * in the fields its calls get, exactly as an added field of its definition reaches them.
 */
import { expect } from "chai";
import { Type } from "../../api/typeBuilder";
import { forgetDeclaredRoles } from "../../provider/resources/declaredRoles";
import type { InputField, ResourceDefinition } from "../../provider/resources/definition";
import type { KindContext } from "../../provider/resources/kindImplementation";
import { diffResource } from "../../provider/resources/lifecycle";
import {
  RESOURCE_DEFINITIONS,
  RESOURCE_KIND_NAMES,
  type ResourceKind,
} from "../../provider/resources/registry";
import type { EmulatorHandle } from "../../emulator/index";
import { useEmulator } from "../support/emulator";

/** Valid inputs of each kind against the emulator's default fixtures. */
const INPUTS: Record<ResourceKind, (h: EmulatorHandle) => Record<string, unknown>> = {
  UserRole: (h) => ({ deploymentId: h.deploymentId, userId: h.sample.memberUserId, role: "ORG_ROLE_ADMIN" }),
  UserRoles: (h) => ({ deploymentId: h.deploymentId, roles: { [h.sample.memberUserId]: "ORG_ROLE_ADMIN" } }),
  WorkflowProvisioning: (h) => ({ deploymentId: h.deploymentId, allowPartialFailure: true }),
  ScmWebhookSubscription: (h) => ({ deploymentId: h.deploymentId, configId: h.sample.scmConfigId }),
  ScmApp: (h) => ({
    deploymentId: h.deploymentId,
    requestId: h.sample.scmAppRequestId,
    code: h.sample.scmAppCode,
  }),
};

const NOTE: InputField = {
  schema: Type.Optional(Type.String()),
  description: "A note only kept.",
  onChange: "record",
};

describe("an input only stored needs only its field in the definition", () => {
  const emulator = useEmulator();

  for (const kind of RESOURCE_KIND_NAMES) {
    it(`${kind}: create and update keep it in the state`, async () => {
      const h = emulator();
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const ctx: KindContext = {
        config: (key) => ({ "codesec:baseUrl": h.baseUrl, "codesec:token": h.apiToken })[key],
        log: () => undefined,
        type: `codesec:${kind}`,
        inputFields: { ...definition.inputs, note: NOTE },
      };
      forgetDeclaredRoles();
      const inputs = { ...INPUTS[kind](h), note: "kept" };
      const created = await definition.implementation.create(inputs, ctx);
      expect(created.state, "create").to.include({ note: "kept" });
      const withNote: ResourceDefinition = { ...definition, inputs: ctx.inputFields };
      const diff = (state: object, news: object) =>
        diffResource(withNote, created.id, { ...state, platform: h.baseUrl }, { ...news }, ctx);
      expect(diff(created.state, inputs).changed, "the next diff after create").to.deep.equal([]);

      const news = { ...inputs, note: "kept, then changed" };
      const olds = { ...created.state, platform: h.baseUrl };
      const ownership = { kind: "same", platform: h.baseUrl } as const;
      const updated = await definition.implementation.update(
        created.id,
        olds,
        news,
        { reapply: false, ownership },
        ctx,
      );
      expect(updated, "update").to.include({ note: "kept, then changed" });
      expect(diff(updated, news).changed, "the next diff after update").to.deep.equal([]);
    });
  }
});
