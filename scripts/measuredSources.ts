/**
 * The digest of the sources the bench measures: the native plugin's build hash (the bundle's inputs, the
 * schema, the launcher: scripts/plugin-release.ts) and, digested the same way, every tracked file of the
 * dynamic provider, the typed client, the API types and the generated SDKs, which programs load from the
 * package rather than from the plugin's bundle, with the lockfile that pins what they load. A bench run
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

/** The folders and files, besides the plugin's bundle inputs, whose tracked files the digest covers. */
export const MEASURED_PATHS = ["provider", "sdk", "api", "package.json", "package-lock.json"] as const;

/** `sha256:<hex>` of the tree's measured sources as they are in the work tree now. */
export function measuredSourcesDigest(): string {
  const files = execFileSync("git", ["ls-files", "-z", "--", ...MEASURED_PATHS], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(path.join(root, file)));
  const hash = createHash("sha256");
  hash.update(`plugin ${treeBuildHash()}\n`);
  hashFiles(hash, root, files);
  return `sha256:${hash.digest("hex")}`;
}

if (require.main === module) process.stdout.write(`${measuredSourcesDigest()}\n`);
