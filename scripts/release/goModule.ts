/**
 * The Go SDK's module as `go mod download` will fetch it once `sdk/go/v<version>` is tagged: the module
 * zip (made from the commit's files by golang.org/x/mod/zip, in the small Go program beside this file), its
 * go.mod and its .info, in the GOPROXY layout (`<module>/@v/...`), so that a directory of them serves as a
 * module proxy.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import type { SourceCommit } from "./gitTree";

export const GO_MODULE_PATH = "github.com/pulumi-codesec/pulumi-codesec/sdk/go";
export const GO_MODULE_DIR = "sdk/go";

/** The tag that publishes the module: Go finds a nested module's versions under its folder's prefix. */
export function goModuleTag(version: string): string {
  return `${GO_MODULE_DIR}/v${version}`;
}

function go(args: string[], cwd: string): void {
  try {
    execFileSync("go", args, {
      cwd,
      env: { ...process.env, GOWORK: "off", GOFLAGS: "-mod=readonly" },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const failed = error as { stderr?: Buffer; message: string };
    throw new Error(`go ${args.join(" ")} failed: ${failed.stderr?.toString().trim() || failed.message}`);
  }
}

/** Writes the module's proxy files for `version` under `outDir`, from `commit`; builds the tool in `workDir`. */
export function writeGoModule(
  root: string,
  version: string,
  commit: SourceCommit,
  workDir: string,
  outDir: string,
): string {
  const tool = path.join(workDir, "gomodule");
  go(["build", "-o", tool, "."], path.join(__dirname, "gomodule"));
  // The module's committed files (a worktree's .git is a file, which x/mod's own VCS reader does not take).
  const archive = path.join(workDir, "go-source.tar");
  execFileSync("git", ["archive", "--format=tar", "-o", archive, commit.sha, GO_MODULE_DIR], { cwd: root });
  const source = path.join(workDir, "go-source");
  mkdirSync(source);
  execFileSync("tar", ["-xf", archive, "-C", source]);
  const args = [path.join(source, GO_MODULE_DIR), GO_MODULE_PATH, `v${version}`, commit.isoTime, outDir];
  try {
    execFileSync(tool, args, { stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    const failed = error as { stderr?: Buffer; message: string };
    throw new Error(failed.stderr?.toString().trim() || failed.message);
  }
  return path.join(outDir, GO_MODULE_PATH, "@v", `v${version}.zip`);
}
