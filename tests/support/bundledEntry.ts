/**
 * A module of the working tree bundled by esbuild into one JavaScript file, for a test that starts it in
 * many child processes: each start then costs a Node start, not ts-node's compile of every source it
 * loads (seconds each). The sources are the tree's as they are now (resolved as the tests' own
 * `codesec-source` condition resolves them), with everything they load from node_modules. The children's
 * coverage is of the bundle, which the coverage report leaves out (it counts the sources): a test that
 * needs a line counted runs it in its own process.
 */
import { buildSync } from "esbuild";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** NODE_PATH for a bundle whose packages are external: this repository's node_modules. */
export const BUNDLE_NODE_PATH = path.join(ROOT, "node_modules");

/**
 * Bundles `entry` (a path relative to the repository's root) into `outfile`; returns `outfile`. With
 * `packages: "external"`, what it loads from node_modules stays out of the bundle, loaded at run time (from
 * NODE_PATH, BUNDLE_NODE_PATH, when the bundle is outside the tree): for code that looks for a package's
 * own files, as the dynamic resources look for @pulumi/pulumi's.
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
