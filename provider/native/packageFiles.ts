/**
 * What the plugin reads from the package it belongs to: its version (the plugin's, GetPluginInfo) and the
 * schema beside the launcher (GetSchema). Run from a clone (dist/, or its sources in tests), both are read
 * from the package's root; the release bundle (scripts/plugin-release.ts) carries both, and the hash of
 * the sources it was built from, in `CODESEC_PLUGIN_BUILD`, so it needs no file of the package.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** The schema's path in the package (written by `npm run generate`). */
export const SCHEMA_FILE = "provider/cmd/pulumi-resource-codesec/schema.json";

/** What the release bundle embeds (esbuild's `define`); undefined when the plugin runs from a clone. */
export interface EmbeddedBuild {
  readonly version: string;
  readonly schema: string;
  /** `sha256:<hex>` of the bundle's inputs (scripts/plugin-release.ts, `treeBuildHash`). */
  readonly build: string;
}
declare const CODESEC_PLUGIN_BUILD: EmbeddedBuild | undefined;
const embedded: EmbeddedBuild | undefined =
  typeof CODESEC_PLUGIN_BUILD === "undefined" ? undefined : CODESEC_PLUGIN_BUILD;

/** The package's root: the folder of its package.json (a self-reference by name; `exports` lists it). */
function packageRoot(): string {
  return path.dirname(require.resolve("pulumi-codesec/package.json"));
}

let version: string | undefined;
let schema: string | undefined;

/** The package's version, which is the plugin's. */
export function pluginVersion(): string {
  version ??=
    embedded?.version ??
    (JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string })
      .version;
  return version;
}

/** The text of schema.json, read once. */
export function schemaText(): string {
  schema ??= embedded?.schema ?? readFileSync(path.join(packageRoot(), SCHEMA_FILE), "utf8");
  return schema;
}

/**
 * Which build this is, as `pulumi-resource-codesec --build-info` prints it: the version and the hash of
 * the sources the bundle was made from, or `source` when the plugin runs from a clone's build.
 */
export function buildInfo(): { version: string; build: string } {
  return { version: pluginVersion(), build: embedded?.build ?? "source" };
}
