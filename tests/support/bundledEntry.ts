/**
 * A module of the working tree bundled by esbuild into one JavaScript file, for a test that starts it in
 * many child processes: each start then costs a Node start, not ts-node's compile of every source it
 * loads (seconds each). The sources are the tree's as they are now (resolved as the tests' own
 * `codesec-source` condition resolves them), with everything they load from node_modules. c8 cannot count
 * a bundle's coverage on the sources (mapped through a source map, every line of them shows as run), so a
 * file keeps one test that runs the sources through ts-node in the same kind of process.
 */
import { buildSync } from "esbuild";
import { mkdirSync, mkdtempSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/**
 * A new folder for bundles under this repository's node_modules/.cache: a bundle there whose packages are
 * external loads them from this repository's node_modules, the first folder Node looks in, not from a
 * node_modules some other user left on the way (a stray /tmp/node_modules would come first in /tmp).
 */
export function bundleFolder(prefix: string): string {
  const cache = path.join(ROOT, "node_modules/.cache/codesec-tests");
  mkdirSync(cache, { recursive: true });
  return mkdtempSync(path.join(cache, prefix));
}

/**
 * Bundles `entry` (a path relative to the repository's root) into `outfile`; returns `outfile`. With
 * `packages: "external"`, what it loads from node_modules stays out of the bundle, loaded at run time (put
 * the bundle in a bundleFolder): for code that looks for a package's own files, as the dynamic resources
 * look for @pulumi/pulumi's.
 */
export function bundledEntry(
  entry: string,
  outfile: string,
  options: { packages?: "external" } = {},
): string {
  buildSync({
    ...options,
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    conditions: ["codesec-source"],
    logLevel: "error",
  });
  return outfile;
}
