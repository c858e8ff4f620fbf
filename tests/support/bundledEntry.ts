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

/** Bundles `entry` (a path relative to the repository's root) into `outfile`; returns `outfile`. */
export function bundledEntry(entry: string, outfile: string): string {
  buildSync({
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
