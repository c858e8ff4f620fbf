/**
 * The digest of the sources the bench measures: the native plugin's build hash (the bundle's inputs, the
 * schema, the launcher: scripts/plugin-release.ts) and, digested the same way, every tracked file of the
 * dynamic provider, the typed client, the API types, the generated SDKs, the emulator, the policy pack and
 * the bench (MEASURED_PATHS), with the lockfile that pins what they load. Paths are relative to the root,
 * so a clone at any path gives the same digest. A bench run
 * records it with its results and docs/performance.md publishes it; `npm run release` compares it with the
 * release's own (scripts/release/performanceFreshness.ts), so that no published figure outlives the code it
 * was measured on.
 *
 *   node -r ts-node/register/transpile-only scripts/measuredSources.ts    prints the tree's digest
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { hashFiles, treeBuildHash } from "./plugin-release";

const root = path.resolve(__dirname, "..");

/**
 * The folders and files, besides the plugin's bundle inputs, whose tracked files the digest covers: what
 * the figures run (the provider, the SDKs, the emulator, the policy pack, the bench's own programs), what
 * compiles it, and the scripts that pin the Node.js and Pulumi CLI the bench runs on.
 */
export const MEASURED_PATHS = [
  "provider",
  "client",
  "sdk",
  "api",
  "emulator",
  "policy",
  "bench",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/setup-node.sh",
  "scripts/install-pulumi.sh",
] as const;

/**
 * What the digest leaves out of those paths (git pathspecs): prose and the docs' example programs, which
 * change no figure, and the bench's own results, which a run writes.
 */
export const UNMEASURED_PATHS = [
  ":(exclude,glob)**/*.md",
  ":(exclude,glob)provider/**/*.pp",
  ":(exclude,glob)sdk/**/*.pp",
  ":(exclude,glob)bench/results*.json",
] as const;

/** The tracked files the digest covers, relative to the root. */
export function measuredFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--", ...MEASURED_PATHS, ...UNMEASURED_PATHS], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(root, file)));
}

/** `sha256:<hex>` of the tree's measured sources as they are in the work tree now. */
export function measuredSourcesDigest(): string {
  const files = measuredFiles();
  const hash = createHash("sha256");
  hash.update(`plugin ${treeBuildHash()}\n`);
  hashFiles(hash, root, files);
  return `sha256:${hash.digest("hex")}`;
}

if (require.main === module) process.stdout.write(`${measuredSourcesDigest()}\n`);
