/**
 * The one mapping between the platform's field names and the Pulumi schema's (provider/schemaNames.ts):
 * the native plugin renames a function's arguments and results with it, the schema generator names
 * properties with it.
 */
import { expect } from "chai";
import type { TSchema } from "@sinclair/typebox";
import { GetNotificationRulesArgs, GetNotificationRulesResult } from "../../api/schemas/notificationRules";
import { validateArguments } from "../../client/argumentValidation";
import { CodeSecInputError } from "../../client/errors";
import { inputShape, outputShape, type ResourceDefinition } from "../../provider/resources/definition";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { schemaName, toSchemaNames, toWireNames, withSchemaNames } from "../../provider/schemaNames";

const RULE = {
  id: 5,
  channel: "webhook",
  config: { webhook_url: "https://hooks.example.test/x", retry_count: 2 },
  is_enabled: true,
  name: "broken-webhook",
  policy_slugs: ["default"],
  use_network_broker: false,
  config_error: "webhook endpoint answered 404 Not Found",
  send_scan_completion: false,
};

describe("the platform's field names and the schema's", () => {
  it("names snake_case fields in camelCase and keeps camelCase ones", () => {
    expect(
      ["config_error", "is_enabled", "policy_slugs", "deploymentId", "id"].map(schemaName),
    ).to.deep.equal(["configError", "isEnabled", "policySlugs", "deploymentId", "id"]);
  });

  it("renames a result's fields at any depth, and never the keys of a map (a rule's config)", () => {
    const result = { deploymentId: "1001", rules: [RULE], rulesWithProblems: [RULE] };
    const named = toSchemaNames(GetNotificationRulesResult, result) as { rules: Record<string, unknown>[] };
    expect(named.rules[0]).to.deep.equal({
      id: 5,
      channel: "webhook",
      config: { webhook_url: "https://hooks.example.test/x", retry_count: 2 },
      isEnabled: true,
      name: "broken-webhook",
      policySlugs: ["default"],
      useNetworkBroker: false,
      configError: "webhook endpoint answered 404 Not Found",
      sendScanCompletion: false,
    });
    expect(toSchemaNames(GetNotificationRulesResult, result)).to.deep.equal({
      deploymentId: "1001",
      rules: [named.rules[0]],
      rulesWithProblems: [named.rules[0]],
    });
  });

  it("checks arguments in the schema's names, then gives them the platform's", () => {
    const args = { deploymentId: "1001", filters: { channel: "slack", isEnabled: false } };
    const checked = validateArguments(
      { name: "getNotificationRules" },
      withSchemaNames(GetNotificationRulesArgs),
      args,
    );
    expect(toWireNames(GetNotificationRulesArgs, checked)).to.deep.equal({
      deploymentId: "1001",
      filters: { channel: "slack", is_enabled: false },
    });
    expect(withSchemaNames(GetNotificationRulesArgs)).to.equal(withSchemaNames(GetNotificationRulesArgs));
  });

  it("refuses the platform's name where the schema's is expected, and words a bad value in the schema's", () => {
    const check = (filters: unknown) => () =>
      validateArguments({ name: "getNotificationRules" }, withSchemaNames(GetNotificationRulesArgs), {
        deploymentId: "1001",
        filters,
      });
    expect(check({ is_enabled: true }))
      .to.throw(CodeSecInputError)
      .with.property("message")
      .that.includes(
        'is_enabled is not a field of filters (did you mean "isEnabled"?); its fields are channel, isEnabled',
      );
    expect(check({ isEnabled: "yes" }))
      .to.throw(CodeSecInputError)
      .with.property("message")
      .that.includes('filters.isEnabled must be a boolean, got "yes"');
  });

  it("resources' fields have the same names on the wire and in the schema: only functions are renamed", () => {
    const renamed: string[] = [];
    const walk = (where: string, schema: TSchema) => {
      if (Array.isArray(schema.anyOf)) (schema.anyOf as TSchema[]).forEach((member) => walk(where, member));
      if (schema.type === "array") walk(`${where}[]`, schema.items as TSchema);
      if (schema.type === "object" && schema.properties !== undefined) {
        for (const [field, fieldSchema] of Object.entries(schema.properties as Record<string, TSchema>)) {
          if (schemaName(field) !== field) renamed.push(`${where}.${field}`);
          walk(`${where}.${field}`, fieldSchema);
        }
      }
    };
    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      walk(`${kind}.inputs`, inputShape(definition));
      walk(`${kind}.outputs`, outputShape(definition));
    }
    expect(renamed).to.deep.equal([]);
  });
});
