/**
 * An input's default is declared once, on its field in the kind's definition, and everything else takes
 * it from there: schema.json's `default` (which the generated SDKs apply), the description every page and
 * hover shows, `check` (which fills it in, so the implementation reads the value the user gets), and the
 * diff (a state written without the input is no change from the default).
 */
import { expect } from "chai";
import { Value } from "@sinclair/typebox/value";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import {
  defaultWording,
  inputShape,
  type CheckedInputsOf,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import { checkResource, diffResource } from "../../provider/resources/lifecycle";
import type { ProviderContext } from "../../provider/providerContext";
import { packageSchema } from "../../scripts/schema";

/** A context whose platform nobody listens on, with the credential check at preview switched off. */
const ctx: ProviderContext = {
  config: (key) =>
    ({
      "codesec:baseUrl": "http://127.0.0.1:9",
      "codesec:token": "unused-token",
      "codesec:skipCredentialsValidation": "true",
    })[key],
  log: () => undefined,
};

const provisioning: ResourceDefinition = RESOURCE_DEFINITIONS.WorkflowProvisioning;
const inputs = { deploymentId: "1001", filters: { codeAccess: true } };

/** Every defaulted input of every kind: [kind, input, default]. */
const DEFAULTED = RESOURCE_KIND_NAMES.flatMap((kind) =>
  Object.entries((RESOURCE_DEFINITIONS[kind] as ResourceDefinition).inputs)
    .filter(([, field]) => field.default !== undefined)
    .map(([name, field]) => [kind, name, field.default] as const),
);

describe("an input's default: declared on its field, applied from there", () => {
  it("WorkflowProvisioning's allowPartialFailure defaults to false", () => {
    expect(DEFAULTED).to.deep.include(["WorkflowProvisioning", "allowPartialFailure", false]);
  });

  it("schema.json carries each default on the input, the state and the lookup's properties", () => {
    type Properties = Record<string, { default?: unknown }>;
    type Resource = {
      inputProperties: Properties;
      properties: Properties;
      stateInputs: { properties: Properties };
    };
    const schema = packageSchema({ version: "0.0.0" }) as { resources: Record<string, Resource> };
    for (const [kind, name, value] of DEFAULTED) {
      const resource = schema.resources[`codesec:index:${kind}`];
      for (const properties of [
        resource.inputProperties,
        resource.properties,
        resource.stateInputs.properties,
      ])
        expect(properties[name].default, `${kind}.${name}`).to.equal(value);
    }
    const defaulted = Object.values(schema.resources).flatMap((resource) =>
      Object.values(resource.inputProperties).filter((spec) => spec.default !== undefined),
    );
    expect(defaulted).to.have.length(DEFAULTED.length);
  });

  it("each default is a valid value of an optional input, and its description says it once", () => {
    for (const [kind, name, value] of DEFAULTED) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const shape = inputShape(definition);
      expect(shape.required ?? [], `${kind}.${name}`).not.to.include(name);
      expect(Value.Check(definition.inputs[name].schema, value), `${kind}.${name}`).to.equal(true);
      // The definition's own text does not repeat it: the derived description adds it.
      expect(definition.inputs[name].description).not.to.match(/default/i);
      const description = String(shape.properties[name].description);
      expect(description.endsWith(` ${defaultWording(value)}`), description).to.equal(true);
    }
  });

  it("a boolean default is worded the same in every SDK's language (not JSON's `false`)", () => {
    const description = String(inputShape(provisioning).properties.allowPartialFailure.description);
    expect(description).to.match(/ Off by default\.$/);
    expect(description).not.to.match(/false/);
  });

  it("the implementation reads a defaulted input as a value, never absent", () => {
    type Checked = CheckedInputsOf<typeof RESOURCE_DEFINITIONS.WorkflowProvisioning.inputs>;
    const set: Checked = { deploymentId: "1001", allowPartialFailure: false };
    // @ts-expect-error -- the inputs the implementation receives always hold the default
    const absent: Checked = { deploymentId: "1001" };
    expect([set.allowPartialFailure, absent.deploymentId]).to.deep.equal([false, "1001"]);
  });

  it("check fills in an absent default and keeps a value the program gives", async () => {
    const filled = await checkResource(provisioning, inputs, ctx);
    expect(filled.failures ?? []).to.deep.equal([]);
    expect(filled.inputs).to.deep.equal({ ...inputs, allowPartialFailure: false });
    const given = await checkResource(provisioning, { ...inputs, allowPartialFailure: true }, ctx);
    expect(given.inputs).to.deep.equal({ ...inputs, allowPartialFailure: true });
  });

  it("check fills in nothing while an input is wrong", async () => {
    const bad = { ...inputs, excludeIds: "7005" };
    const outcome = await checkResource(provisioning, bad, ctx);
    expect(outcome.failures ?? []).to.have.length(1);
    expect(outcome.inputs).to.deep.equal(bad);
  });

  it("a state written without the input is no change from its default, and a change from it is one", () => {
    const state = { ...inputs, repoFileUrls: {}, errors: [], platform: "http://127.0.0.1:9" };
    const same = diffResource(provisioning, "1001/p", state, { ...inputs, allowPartialFailure: false }, ctx);
    expect(same.changed).to.deep.equal([]);
    const other = diffResource(provisioning, "1001/p", state, { ...inputs, allowPartialFailure: true }, ctx);
    expect(other.changed).to.deep.equal([{ name: "allowPartialFailure", kind: "update" }]);
  });
});
