/**
 * What the plugin reads from the package it belongs to: its version (the plugin's, GetPluginInfo) and the
 * schema beside the launcher (GetSchema). Both are found from the package's root, so the plugin reads the
 * same files whether it runs from its build (dist/) or, in tests, from its sources.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** The schema's path in the package (written by `npm run generate`). */
export const SCHEMA_FILE = "provider/cmd/pulumi-resource-codesec/schema.json";

/** The package's root: the folder of its package.json (a self-reference by name; `exports` lists it). */
function packageRoot(): string {
  return path.dirname(require.resolve("pulumi-codesec/package.json"));
}

let version: string | undefined;
let schema: string | undefined;

/** The package's version, which is the plugin's. */
export function pluginVersion(): string {
  version ??= (
    JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }
  ).version;
  return version;
}

/** The text of schema.json, read once. */
export function schemaText(): string {
  schema ??= readFileSync(path.join(packageRoot(), SCHEMA_FILE), "utf8");
  return schema;
}
