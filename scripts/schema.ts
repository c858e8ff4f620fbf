/**
 * Writes codesec's Pulumi package schema, `provider/cmd/pulumi-resource-codesec/schema.json`, from the
 * resource kinds, the functions and the provider's configuration (scripts/schema/sources.ts), converted
 * by scripts/schema/typeboxToSchema.ts. The plugin serves it (GetSchema) and the SDKs are generated from it
 * (scripts/generate.ts, which also checks that it is fresh).
 *
 *   scripts/schema.ts              write schema.json
 *   scripts/schema.ts --root DIR   write it into a copy of the repository at DIR
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  CONFIG_SOURCE,
  NAMED_TYPES,
  schemaSources,
  type FunctionSource,
  type ResourceSource,
  type SchemaSources,
} from "./schema/sources";
import { SCHEMA_PATH, packageVersion } from "./schema/location";
import { SchemaTypes, type NamedTypes, type PropertySpec } from "./schema/typeboxToSchema";
import type { TObject } from "@sinclair/typebox";

export const PACKAGE_NAME = "codesec";

/**
 * Where the package lives and who publishes it: the Registry's page and the SDKs' metadata. The CLI
 * downloads the plugin from `pluginDownloadURL`: `github://api.github.com/<owner>` is the GitHub releases
 * of `<owner>/pulumi-<name>`, where the release workflow (.github/workflows/release.yml) puts the archives.
 */
export const PACKAGE_METADATA = {
  publisher: "pulumi-codesec",
  homepage: "https://github.com/pulumi-codesec/pulumi-codesec",
  repository: "https://github.com/pulumi-codesec/pulumi-codesec",
  pluginDownloadURL: "github://api.github.com/pulumi-codesec",
  logoUrl: "https://raw.githubusercontent.com/pulumi-codesec/pulumi-codesec/main/docs/logo.png",
} as const;
export { SCHEMA_PATH, packageVersion };

/**
 * The generated SDKs' names. npm: `pulumi-codesec` is this package (the dynamic resources, which 0.4.0
 * programs keep importing), so the generated SDK takes a scope of its own, in the manner of `@pulumi/github`.
 */
export const LANGUAGE = {
  nodejs: { packageName: "@pulumi-codesec/codesec", respectSchemaVersion: true },
  python: { packageName: "pulumi_codesec", respectSchemaVersion: true, pyproject: { enabled: true } },
  go: {
    importBasePath: "github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec",
    respectSchemaVersion: true,
    generateResourceContainerTypes: true,
  },
} as const;

export interface PackageSchemaOptions {
  readonly version: string;
  readonly sources?: SchemaSources;
  readonly config?: TObject;
  readonly namedTypes?: NamedTypes;
}

/** The package schema, as a JSON value. */
export function packageSchema(options: PackageSchemaOptions): Record<string, unknown> {
  const { version, sources = schemaSources(), config = CONFIG_SOURCE, namedTypes = NAMED_TYPES } = options;
  const types = new SchemaTypes(PACKAGE_NAME, namedTypes);
  const resources = Object.fromEntries(
    sources.resources.map((resource) => [types.token(resource.name), resourceSpec(types, resource)]),
  );
  const functions = Object.fromEntries(
    sources.functions.map((fn) => [types.token(fn.name), functionSpec(types, fn)]),
  );
  const variables = types.object(config, "config").properties;
  return {
    name: PACKAGE_NAME,
    displayName: "codesec",
    version,
    description:
      "Manage a code-security platform's organization with Pulumi: user roles, CI workflow provisioning, " +
      "SCM webhook subscriptions and SCM apps, and functions that read scans, branches, SCM apps, users, " +
      "organizations and notification rules.",
    keywords: ["pulumi", "codesec", "security", "code-scanning", "category/utility", "kind/native"],
    license: "Apache-2.0",
    ...PACKAGE_METADATA,
    config: { variables },
    provider: {
      description:
        "The provider type for the codesec package: one platform connection and its client settings.",
      inputProperties: variables,
    },
    resources,
    functions,
    // After the members that reference them: converting those collects the named types.
    types: types.types(),
    language: LANGUAGE,
  };
}

function resourceSpec(types: SchemaTypes, resource: ResourceSource): Record<string, unknown> {
  const where = resource.name;
  const inputs = types.object(resource.inputs, `${where}.inputs`, (field) => ({
    secret: resource.secretInputs.includes(field),
    replaceOnChanges: resource.replaceOnChanges.includes(field),
  }));
  const outputs = types.object(resource.outputs, `${where}.outputs`);
  const clash = Object.keys(outputs.properties).filter((field) => field in inputs.properties);
  if (clash.length > 0) throw new Error(`${where}: outputs ${clash.join(", ")} are inputs too`);
  // Write-only inputs (a one-time code) are never kept in the state: no output property of that name.
  const kept = Object.fromEntries(
    Object.entries(inputs.properties).filter(([field]) => !resource.writeOnlyInputs.includes(field)),
  );
  const properties: Record<string, PropertySpec> = { ...kept, ...outputs.properties };
  return {
    description: resource.description,
    properties,
    required: [...(inputs.required ?? []).filter((field) => field in kept), ...(outputs.required ?? [])],
    inputProperties: inputs.properties,
    ...(inputs.required ? { requiredInputs: inputs.required } : {}),
    // What `get(name, id, state?)` may be given: every property, none required (as generated SDKs have it).
    stateInputs: {
      description: `Input properties used for looking up and filtering ${resource.name} resources.`,
      type: "object",
      properties,
    },
    // A stack written with the dynamic resources moves to these in one `pulumi up`, without replacing.
    aliases: [{ type: `pulumi-nodejs:dynamic/${PACKAGE_NAME}:${resource.name}` }],
  };
}

function functionSpec(types: SchemaTypes, fn: FunctionSource): Record<string, unknown> {
  return {
    description: fn.description,
    ...(fn.args ? { inputs: types.object(fn.args, `${fn.name}.args`) } : {}),
    outputs: types.object(fn.result, `${fn.name}.result`),
  };
}

/** schema.json's text for the repository at `root`. */
export function schemaText(root: string): string {
  return `${JSON.stringify(packageSchema({ version: packageVersion(root) }), null, 2)}\n`;
}

function main(): void {
  const rootArg = process.argv.indexOf("--root");
  const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(__dirname, "..");
  const target = path.join(root, SCHEMA_PATH);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, schemaText(root));
}

if (require.main === module) main();
