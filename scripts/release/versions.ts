/**
 * Where the release's version is written besides package.json, and which of them disagree with it. The
 * one version lives in package.json; `npm run generate` carries it into the schema and the SDKs, and the
 * workspaces carry it by hand (a release bumps them together).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";

/** One file's version, as the release reads it. */
export interface VersionSite {
  /** The file, relative to the repository root, and the field read (`version`, `pulumi.version`). */
  readonly file: string;
  readonly field: string;
  readonly version: string | undefined;
}

function json(root: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
}

/** The `version = "..."` of pyproject.toml's [project] table (the generator writes it indented). */
function pyprojectVersion(root: string, file: string): string | undefined {
  const text = readFileSync(path.join(root, file), "utf8");
  const project = text.split(/^\s*\[/m).find((table) => table.startsWith("project]"));
  return project?.match(/^\s*version\s*=\s*"([^"]*)"/m)?.[1];
}

const JSON_SITES: ReadonlyArray<readonly [file: string, field: string]> = [
  ["emulator/package.json", "version"],
  ["policy/package.json", "version"],
  ["provider/cmd/pulumi-resource-codesec/schema.json", "version"],
  ["sdk/nodejs/package.json", "version"],
  ["sdk/nodejs/package.json", "pulumi.version"],
  ["sdk/python/pulumi_codesec/pulumi-plugin.json", "version"],
  ["sdk/go/codesec/pulumi-plugin.json", "version"],
];

function field(value: Record<string, unknown>, dotted: string): string | undefined {
  let at: unknown = value;
  for (const key of dotted.split(".")) at = (at as Record<string, unknown> | undefined)?.[key];
  return typeof at === "string" ? at : undefined;
}

/** package.json's version: the release's. */
export function releaseVersion(root: string): string {
  const version = field(json(root, "package.json"), "version");
  if (!version) throw new Error("package.json has no version");
  return version;
}

/** Every other place the version is written. (The plugin's version is package.json's, read at bundling.) */
export function versionSites(root: string): VersionSite[] {
  return [
    ...JSON_SITES.map(([file, name]) => ({ file, field: name, version: field(json(root, file), name) })),
    {
      file: "sdk/python/pyproject.toml",
      field: "project.version",
      version: pyprojectVersion(root, "sdk/python/pyproject.toml"),
    },
  ];
}

/** The sites whose version is not `version`. */
export function disagreeingVersions(root: string, version: string): VersionSite[] {
  return versionSites(root).filter((site) => site.version !== version);
}
