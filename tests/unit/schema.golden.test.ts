/**
 * The Pulumi package schema (scripts/schema.ts): one resource and one function compared whole with what a
 * reviewer expects, and the rules of the TypeBox -> Pulumi conversion one by one. That the result binds
 * with Pulumi's own binder, and that the committed schema.json and SDK are fresh, is
 * tests/integration/schema.generator.test.ts.
 */
import { expect } from "chai";
import { userRoleDefinition } from "../../provider/resources/userRole/definition";
import { getScanDefinition } from "../../provider/functions/definitions";
import { Type } from "@sinclair/typebox";
import * as fs from "node:fs";
import * as path from "node:path";
import { described, secretValue } from "../../api/schemaIssues";
import {
  CLIENT_SETTING_KEYS,
  CONFIG_ALLOW_INSECURE_HTTP,
  CONFIG_SKIP_CREDENTIALS_VALIDATION,
} from "../../provider/clients";
import { CONFIG_BASE_URL, CONFIG_CONNECTIONS, CONFIG_TOKEN } from "../../provider/connection";
import { CONFIG_MOVED_FROM } from "../../provider/ownership";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import { packageSchema, packageVersion } from "../../scripts/schema";
import { SchemaTypes } from "../../scripts/schema/typeboxToSchema";

const root = path.resolve(__dirname, "../..");

type Json = Record<string, unknown>;
const schema = packageSchema({ version: "9.8.7" }) as {
  version: string;
  resources: Record<string, Json>;
  functions: Record<string, Json>;
  types: Record<string, Json>;
  config: { variables: Record<string, Json> };
  provider: { inputProperties: Record<string, Json> };
};

// Descriptions come from the definitions (one source); the structure around them is what is pinned here.
const fields = userRoleDefinition.inputs;
const CONNECTION_DESCRIPTION = fields.connection.description;

const USER_ROLE_INPUTS = {
  deploymentId: { description: "Deployment (organization) id.", type: "string", replaceOnChanges: true },
  userId: {
    description: "The user whose organization role is managed.",
    type: "string",
    replaceOnChanges: true,
  },
  role: {
    description: "The organization role the user holds; create and update set it on the platform.",
    $ref: "#/types/codesec:index:OrgRole",
  },
  roleOnDestroy: {
    description: fields.roleOnDestroy.description,
    $ref: "#/types/codesec:index:OrgRole",
  },
  triggers: {
    description: fields.triggers.description,
    $ref: "pulumi.json#/Any",
  },
  connection: {
    description: CONNECTION_DESCRIPTION,
    oneOf: [{ type: "string" }, { $ref: "#/types/codesec:index:Connection" }],
  },
};

const USER_ROLE_PROPERTIES = {
  ...USER_ROLE_INPUTS,
  platform: {
    description: userRoleDefinition.outputs.platform.description,
    type: "string",
  },
};

const EXPECTED_USER_ROLE = {
  description: `${userRoleDefinition.description}\n\nPlatform: ${userRoleDefinition.operations}.`,
  properties: USER_ROLE_PROPERTIES,
  required: ["deploymentId", "userId", "role", "platform"],
  inputProperties: USER_ROLE_INPUTS,
  requiredInputs: ["deploymentId", "userId", "role"],
  stateInputs: {
    description: "Input properties used for looking up and filtering UserRole resources.",
    type: "object",
    properties: USER_ROLE_PROPERTIES,
  },
  aliases: [{ type: "pulumi-nodejs:dynamic/codesec:UserRole" }],
};

const EXPECTED_GET_SCAN = {
  description: `${getScanDefinition.description}\n\nPlatform: ${getScanDefinition.operations}.`,
  inputs: {
    properties: {
      deploymentId: { description: "Deployment (organization) id.", type: "string" },
      scanId: { description: "The scan to read.", type: "string" },
    },
    required: ["deploymentId", "scanId"],
  },
  outputs: {
    properties: {
      id: { description: "The scan's id.", type: "string" },
      deploymentId: { description: "Deployment (organization) id.", type: "string" },
      projectId: { description: "The scanned project.", type: "string" },
      branchId: { description: "The scanned branch.", type: "string" },
      commit: { description: "The scanned commit.", type: "string" },
      startTime: { description: "When the scan started.", type: "string" },
      completeTime: { description: "When the scan completed; absent until then.", type: "string" },
      exitCode: { description: "The scanner's exit code; absent until the scan completes.", type: "integer" },
      isFullScan: {
        description: "Whether the whole repository was scanned (not only a diff).",
        type: "boolean",
      },
      duration: { description: "How long the scan ran, in seconds.", type: "number" },
      findingsCounts: {
        description: "Numbers of findings: `total`, `code`, `supplyChain`, `secrets` (integers).",
        $ref: "#/types/codesec:index:FindingsCounts",
      },
      status: {
        description:
          "The scan's state, e.g. `SCAN_STATUS_RUNNING` (the only value the spec gives; the emulator's are in " +
          "docs/api-behaviour.md); an unknown value is kept as it comes.",
        type: "string",
      },
      enabledProducts: {
        description:
          "Products the scan ran, e.g. `PRODUCT_SAST` (values the spec has seen; others are kept as they come).",
        type: "array",
        items: { type: "string" },
      },
    },
    required: [
      "id",
      "deploymentId",
      "projectId",
      "branchId",
      "commit",
      "startTime",
      "isFullScan",
      "findingsCounts",
      "status",
      "enabledProducts",
    ],
  },
};

describe("the Pulumi package schema", () => {
  it("UserRole's schema is exactly the expected one", () => {
    expect(schema.resources["codesec:index:UserRole"]).to.deep.equal(EXPECTED_USER_ROLE);
  });

  it("getScan's schema is exactly the expected one", () => {
    expect(schema.functions["codesec:index:getScan"]).to.deep.equal(EXPECTED_GET_SCAN);
  });

  it("the types those two reference are exactly the expected ones", () => {
    expect(schema.types["codesec:index:OrgRole"]).to.deep.equal({
      type: "string",
      description: "The organization roles a user can hold in a deployment.",
      enum: [
        { name: "Admin", value: "ORG_ROLE_ADMIN" },
        { name: "Member", value: "ORG_ROLE_MEMBER" },
        { name: "Impersonator", value: "ORG_ROLE_IMPERSONATOR" },
        { name: "Readonly", value: "ORG_ROLE_READONLY" },
      ],
    });
    expect(schema.types["codesec:index:Connection"]).to.deep.equal({
      type: "object",
      properties: {
        baseUrl: {
          description:
            "Base address of the platform API, e.g. `https://codesec.example.com` or the emulator's URL.",
          type: "string",
        },
        token: {
          description: "API token (with the Web API permission) or user JWT. Always stored as a secret.",
          type: "string",
          secret: true,
        },
      },
      required: ["baseUrl", "token"],
    });
    expect(schema.types["codesec:index:FindingsCounts"]).to.deep.equal({
      type: "object",
      properties: {
        total: { description: "Findings of every kind.", type: "integer" },
        code: { description: "Findings in the code (static analysis).", type: "integer" },
        supplyChain: { description: "Findings in dependencies (supply chain).", type: "integer" },
        secrets: { description: "Secrets found in the code.", type: "integer" },
      },
      required: ["total", "code", "supplyChain", "secrets"],
    });
  });

  it("describes every property, of resources, functions and the types nested in them", () => {
    const undescribed: string[] = [];
    const check = (where: string, properties: unknown) => {
      for (const [name, property] of Object.entries((properties ?? {}) as Record<string, Json>)) {
        if (typeof property.description !== "string" || property.description === "") {
          undescribed.push(`${where}.${name}`);
        }
      }
    };
    for (const [token, resource] of Object.entries(schema.resources)) {
      check(`${token} inputs`, resource.inputProperties);
      check(`${token} outputs`, resource.properties);
    }
    for (const [token, fn] of Object.entries(schema.functions) as [string, Record<string, Json>][]) {
      check(`${token} inputs`, fn.inputs?.properties);
      check(`${token} outputs`, fn.outputs.properties);
    }
    for (const [token, type] of Object.entries(schema.types)) check(token, type.properties);
    expect(undescribed).to.deep.equal([]);
  });

  it("names every property in camelCase, the notification rules' snake_case fields included", () => {
    const names: string[] = [];
    const collect = (properties: unknown) => names.push(...Object.keys(properties ?? {}));
    for (const resource of Object.values(schema.resources)) {
      collect(resource.inputProperties);
      collect(resource.properties);
    }
    for (const fn of Object.values(schema.functions) as Record<string, Json>[]) {
      collect(fn.inputs?.properties);
      collect(fn.outputs.properties);
    }
    for (const type of Object.values(schema.types)) collect(type.properties);
    expect(names.filter((name) => !/^[a-z][A-Za-z0-9]*$/.test(name))).to.deep.equal([]);
    const rule = schema.types["codesec:index:NotificationRule"] as { properties: Json; required: string[] };
    expect(Object.keys(rule.properties)).to.include.members(["configError", "isEnabled", "policySlugs"]);
    expect(rule.required).to.include.members(["configError", "isEnabled"]);
    expect(
      Object.keys(schema.types["codesec:index:NotificationRuleFilters"].properties as Json),
    ).to.deep.equal(["channel", "isEnabled"]);
  });

  it("has every resource kind, each aliased to its dynamic type, and every function", () => {
    expect(Object.keys(schema.resources)).to.deep.equal(
      RESOURCE_KIND_NAMES.map((kind) => `codesec:index:${kind}`),
    );
    for (const kind of RESOURCE_KIND_NAMES) {
      expect(schema.resources[`codesec:index:${kind}`].aliases).to.deep.equal([
        { type: `pulumi-nodejs:dynamic/codesec:${kind}` },
      ]);
    }
    expect(Object.keys(schema.functions)).to.deep.equal(
      Object.keys(FUNCTION_DEFINITIONS).map((fn) => `codesec:index:${fn}`),
    );
  });

  it("marks the identity fields replaceOnChanges, and only them", () => {
    const replacing = (kind: string) =>
      Object.entries(schema.resources[`codesec:index:${kind}`].inputProperties as Record<string, Json>)
        .filter(([, property]) => property.replaceOnChanges === true)
        .map(([field]) => field);
    expect(replacing("UserRole")).to.deep.equal(["deploymentId", "userId"]);
    expect(replacing("WorkflowProvisioning")).to.deep.equal(["deploymentId"]);
    expect(replacing("ScmWebhookSubscription")).to.deep.equal(["deploymentId", "configId"]);
    expect(replacing("ScmApp")).to.deep.equal(["deploymentId", "requestId"]);
  });

  it("keeps ScmApp's code, the provider's token and connections secret, and a connection name readable", () => {
    const scmApp = schema.resources["codesec:index:ScmApp"] as {
      inputProperties: Record<string, Json>;
      properties: Record<string, Json>;
    };
    expect(scmApp.inputProperties.code.secret).to.equal(true);
    // Write-only: used by create and never kept in the state, so no output property.
    expect(scmApp.properties).not.to.have.property("code");
    expect(scmApp.inputProperties.connection.secret).to.equal(undefined);
    for (const variables of [schema.config.variables, schema.provider.inputProperties]) {
      const secret = Object.keys(variables).filter((name) => variables[name].secret === true);
      expect(secret).to.deep.equal(["token", "connections"]);
    }
  });

  it("has exactly the config keys the provider reads, as config variables and as the Provider's inputs", () => {
    const keys = [
      CONFIG_BASE_URL,
      CONFIG_TOKEN,
      CONFIG_CONNECTIONS,
      ...Object.values(CLIENT_SETTING_KEYS),
      CONFIG_ALLOW_INSECURE_HTTP,
      CONFIG_SKIP_CREDENTIALS_VALIDATION,
      CONFIG_MOVED_FROM,
    ];
    const names = keys.map((key) => key.replace(/^codesec:/, "")).sort();
    expect(Object.keys(schema.config.variables).sort()).to.deep.equal(names);
    expect(schema.provider.inputProperties).to.deep.equal(schema.config.variables);
    expect(schema.config.variables.connections).to.deep.include({
      type: "object",
      additionalProperties: { $ref: "#/types/codesec:index:Connection" },
    });
  });

  it("carries package.json's version, and respectSchemaVersion for every language", () => {
    expect(schema.version).to.equal("9.8.7");
    const version = (
      JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }
    ).version;
    expect(packageVersion(root)).to.equal(version);
    const language = (packageSchema({ version }) as { language: Record<string, Json> }).language;
    expect(Object.keys(language).sort()).to.deep.equal(["go", "nodejs", "python"]);
    for (const options of Object.values(language)) expect(options.respectSchemaVersion).to.equal(true);
  });
});

describe("TypeBox -> Pulumi schema types", () => {
  const Point = Type.Object({ x: Type.Integer(), y: Type.Optional(Type.Number()) });
  const Color = Type.Union([Type.Literal("RED"), Type.Literal("DARK_BLUE")]);
  const types = () =>
    new SchemaTypes("pkg", {
      objects: { Point },
      enums: {
        Color: { schema: Color, members: { Red: "RED", DarkBlue: "DARK_BLUE" }, description: "Colors." },
      },
    });

  it("converts primitives, arrays, records and Unknown", () => {
    const t = types();
    expect(t.type(Type.String({ pattern: "^[0-9]+$" }), "s")).to.deep.equal({ type: "string" });
    expect(t.type(Type.Boolean(), "b")).to.deep.equal({ type: "boolean" });
    expect(t.type(Type.Array(Type.Integer()), "a")).to.deep.equal({
      type: "array",
      items: { type: "integer" },
    });
    expect(t.type(Type.Record(Type.String(), Type.Number()), "r")).to.deep.equal({
      type: "object",
      additionalProperties: { type: "number" },
    });
    expect(t.type(Type.Unknown(), "u")).to.deep.equal({ $ref: "pulumi.json#/Any" });
  });

  it("names an object and an enum by the table, through the copies Optional and described make", () => {
    const t = types();
    expect(t.type(described(Type.Optional(Point), "A point."), "p")).to.deep.equal({
      $ref: "#/types/pkg:index:Point",
    });
    expect(t.type(Type.Array(described(Color, "A color.")), "c")).to.deep.equal({
      type: "array",
      items: { $ref: "#/types/pkg:index:Color" },
    });
    expect(t.types()).to.deep.equal({
      "pkg:index:Color": {
        type: "string",
        description: "Colors.",
        enum: [
          { name: "Red", value: "RED" },
          { name: "DarkBlue", value: "DARK_BLUE" },
        ],
      },
      "pkg:index:Point": {
        type: "object",
        properties: { x: { type: "integer" }, y: { type: "number" } },
        required: ["x"],
      },
    });
  });

  it("turns a union of a name and an object into oneOf", () => {
    expect(types().type(Type.Union([Type.String(), Point]), "u")).to.deep.equal({
      oneOf: [{ type: "string" }, { $ref: "#/types/pkg:index:Point" }],
    });
  });

  it("gives a property its description, its secret mark and replaceOnChanges", () => {
    expect(
      types().property(described(secretValue(Type.String()), "A key."), "k", { replaceOnChanges: true }),
    ).to.deep.equal({ description: "A key.", type: "string", secret: true, replaceOnChanges: true });
  });

  it("refuses an object or an enum the table does not name, saying where it is", () => {
    const Unnamed = Type.Object({ a: Type.String() });
    expect(() => types().object(Type.Object({ nested: Unnamed }), "Thing.inputs")).to.throw(
      /Thing\.inputs\.nested: an object with the fields a needs a name/,
    );
    expect(() => types().type(Type.Union([Type.Literal("A"), Type.Literal("B")]), "Thing.kind")).to.throw(
      /Thing\.kind: a union of literals needs a name/,
    );
  });

  it("refuses an enum whose member names do not cover its values", () => {
    expect(
      () =>
        new SchemaTypes("pkg", {
          objects: {},
          enums: { Color: { schema: Color, members: { Red: "RED" }, description: "Colors." } },
        }),
    ).to.throw(/enum Color/);
  });
});
