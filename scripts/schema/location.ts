/**
 * Where the schema is and which version it carries: apart from the schema's sources (./sources.ts loads
 * every resource's definition), so that a script that needs only these, as the plugin's release
 * (../plugin-release.ts, run at every set-up and plugin install), loads no definition.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Where schema.json lives, beside the plugin. */
export const SCHEMA_PATH = "provider/cmd/pulumi-resource-codesec/schema.json";

/** The version the schema (and so the SDKs and the plugin they ask for) carries: package.json's. */
export function packageVersion(root: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}
