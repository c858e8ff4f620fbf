/**
 * The node_modules every bench stack uses, installed once per run as a user installs packages (the e2e
 * harness's `npmInstalled`): the packed pulumi-codesec, the packed generated Node SDK of the native
 * provider (`@pulumi-codesec/codesec`), the packed floors (bench/floors, `codesec-bench-floors`) and
 * @pulumi/pulumi at the CLI's version. Each package's real path is inside a node_modules, so Pulumi stores
 * the dynamic providers (ours and the floors') as one-line requires by package name. No TypeScript: the
 * bench programs are plain JavaScript, so no side pays for a compiler.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { npmInstalled, packedNativeSdk, packedPackage, scratchDir } from "../../tests/e2e/support/harness";

/** `npm pack` of bench/floors. */
function packedFloors(): string {
  const out = scratchDir("floors-pack");
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
    cwd: path.join(__dirname, "..", "floors"),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  })
    .trim()
    .split("\n")
    .pop()!;
  return path.join(out, name);
}

let floors: string | undefined;

/** The bench stacks' node_modules (a folder to link a program's node_modules to), installed once per process. */
export function benchModules(): string {
  floors ??= packedFloors();
  return npmInstalled([packedPackage(), packedNativeSdk(), floors]);
}
