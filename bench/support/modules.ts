/**
 * The node_modules every bench stack uses, installed once per run as a user installs packages: the packed
 * pulumi-codesec, the packed generated Node SDK of the native provider (`@pulumi-codesec/codesec`), the
 * packed floors (bench/floors, `codesec-bench-floors`) and @pulumi/pulumi at the CLI's version. Each
 * package's real path is inside a node_modules, so Pulumi stores the dynamic providers (ours and the
 * floors') as one-line requires by package name.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { packedNativeSdk, packedPackage, repoRoot, scratchDir } from "../../tests/e2e/support/harness";

let modules: string | undefined;

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** `npm pack` of bench/floors. */
function packedFloors(): string {
  const out = scratchDir("floors-pack");
  const name = run(
    "npm",
    ["pack", "--silent", "--pack-destination", out],
    path.join(__dirname, "..", "floors"),
  )
    .trim()
    .split("\n")
    .pop()!;
  return path.join(out, name);
}

/** The bench stacks' node_modules (a folder to link a program's node_modules to), installed once per process. */
export function benchModules(): string {
  if (!modules) {
    const pulumiVersion = (
      JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
        devDependencies: Record<string, string>;
      }
    ).devDependencies["@pulumi/pulumi"];
    const dir = scratchDir("bench-modules");
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "codesec-bench-modules", private: true }),
    );
    run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        packedPackage(),
        packedNativeSdk(),
        packedFloors(),
        `@pulumi/pulumi@${pulumiVersion}`,
      ],
      dir,
    );
    modules = path.join(dir, "node_modules");
  }
  return modules;
}
