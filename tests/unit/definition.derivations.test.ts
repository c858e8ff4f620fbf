/**
 * Everything a kind's definition says about a change is what every derived piece does: for each input of
 * each kind, a change to it alone is classified by the diff, applied (or not) by the update, and worded
 * in the docs exactly as its `onChange` says. What the docs said of `connection` ("never a diff") while
 * the code made it an update cannot happen again: both come from the one field.
 */
import { expect } from "chai";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { Value } from "@sinclair/typebox/value";
import type { InputField, ResourceDefinition } from "../../provider/resources/definition";
import { diffResource, updateResource } from "../../provider/resources/lifecycle";
import type { ProviderContext } from "../../provider/providerContext";
import { onChangeWords, docEntries } from "../../scripts/docs";

const PLATFORM = "http://127.0.0.1:9";
/** A context whose platform nobody listens on: a derivation that tried to call would fail the test. */
const ctx: ProviderContext = {
  config: (key) => ({ "codesec:baseUrl": PLATFORM, "codesec:token": "unused-token" })[key],
  log: () => undefined,
};

/** Valid inputs of each kind and, per input, another valid value. */
const BASE: Record<string, Record<string, unknown>> = {
  UserRole: {
    deploymentId: "1001",
    userId: "502",
    role: "ORG_ROLE_MEMBER",
    roleOnDestroy: "ORG_ROLE_READONLY",
    triggers: 1,
    connection: undefined,
  },
  WorkflowProvisioning: {
    deploymentId: "1001",
    filters: { codeAccess: true },
    excludeIds: ["7005"],
    ghaOptions: { prEnabled: true },
    allowPartialFailure: false,
    triggers: 1,
  },
  ScmWebhookSubscription: { deploymentId: "1001", configId: "scmcfg-1001-a", triggers: 1 },
  ScmApp: { deploymentId: "1001", requestId: "apprq-1001-a", code: "otc-1" },
  UserRoles: {
    deploymentId: "1001",
    roles: { "502": "ORG_ROLE_MEMBER" },
    roleOnDestroy: "ORG_ROLE_READONLY",
    rolesOnDestroy: {},
    triggers: 1,
  },
};
const OTHER: Record<string, unknown> = {
  deploymentId: "1002",
  userId: "503",
  role: "ORG_ROLE_ADMIN",
  roleOnDestroy: "ORG_ROLE_MEMBER",
  triggers: 2,
  connection: "org2",
  filters: { codeAccess: false },
  excludeIds: ["7004"],
  ghaOptions: { prEnabled: false },
  allowPartialFailure: true,
  configId: "scmcfg-1001-b",
  requestId: "apprq-1001-b",
  code: "otc-2",
  roles: { "502": "ORG_ROLE_ADMIN" },
  rolesOnDestroy: { "502": "ORG_ROLE_MEMBER" },
};

/**
 * Another valid value of an input: the table's, else (an input added since) the value its schema creates,
 * made to differ from its default.
 */
function otherValue(name: string, field: InputField): unknown {
  if (Object.hasOwn(OTHER, name)) return OTHER[name];
  const created = Value.Create(field.schema);
  return typeof created === "boolean" && created === field.default ? !created : created;
}

/** The kind's definition with an update that only records whether it was asked to apply again. */
function recordingUpdates(definition: ResourceDefinition, seen: boolean[]): ResourceDefinition {
  return {
    ...definition,
    implementation: {
      ...definition.implementation,
      update: async (_id, _olds, news, plan) => {
        seen.push(plan.reapply);
        return news as never;
      },
    },
  };
}

describe("one definition per kind: diff, update and docs all follow each field's onChange", () => {
  for (const kind of RESOURCE_KIND_NAMES) {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
    for (const [name, field] of Object.entries(definition.inputs)) {
      it(`${kind}.${name}: ${field.onChange}`, async () => {
        const olds = { ...BASE[kind], platform: PLATFORM };
        const news = { ...BASE[kind], [name]: otherValue(name, field) };
        // The connection "org2" must resolve for ownership: give it the same platform.
        const config = {
          "codesec:baseUrl": PLATFORM,
          "codesec:token": "unused-token",
          "codesec:connections": JSON.stringify({ org2: { baseUrl: PLATFORM, token: "other-token" } }),
        } as Record<string, string>;
        const here: ProviderContext = { ...ctx, config: (key) => config[key] };
        const plan = diffResource(definition, "id", olds, news, here);
        const seen: boolean[] = [];
        switch (field.onChange) {
          case "replace":
            expect(plan.replaces).to.deep.equal([name]);
            break;
          case "update":
          case "record":
            expect(plan).to.deep.include({ changes: true, replaces: [] });
            expect(plan.changed).to.deep.equal([{ name, kind: "update" }]);
            await updateResource(recordingUpdates(definition, seen), "id", olds, news, here);
            expect(seen, "the update applies again only for `update`").to.deep.equal([
              field.onChange === "update",
            ]);
            break;
          case "never":
            expect(plan.changes).to.equal(false);
            break;
        }
        // The docs' "on change" column says the same.
        const doc = docEntries().find((entry) => entry.target === `docs/resources/${kind}.md`)!;
        expect(doc.tables.inputs).to.include(`| \`${name}\` |`);
        const row = doc.tables.inputs.split("\n").find((line) => line.startsWith(`| \`${name}\` |`))!;
        expect(row.split(" | ")[2]).to.equal(onChangeWords(field.onChange));
      });
    }
  }

  it("a new token for the same connection is no change; a new source is", () => {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS.UserRole;
    const connection = { baseUrl: PLATFORM, token: "old" };
    const olds = { ...BASE.UserRole, connection, platform: PLATFORM };
    const rotated = diffResource(
      definition,
      "id",
      olds,
      { ...BASE.UserRole, connection: { ...connection, token: "new" } },
      ctx,
    );
    expect(rotated.changes).to.equal(false);
  });
});
