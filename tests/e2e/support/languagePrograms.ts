/**
 * Python, Go and YAML programs on the generated SDKs (sdk/python, sdk/go; YAML needs none), made ready to run through the CLI as
 * a user's would be: a copy of the program folder, its SDK from this clone, and what its language host
 * needs. The language hosts and the Python virtual environment come from the set-up
 * (`npm run setup -- --languages python,go,yaml`, scripts/setup-languages.sh; `npm test` makes them): without
 * them these throw, saying what to run, so a run without them fails instead of skipping.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot, scratchDir } from "./harness";

/** The Python the set-up's virtual environment runs: `pulumi` at the CLI's version and sdk/python (a copy, made again when it changes). */
export const venvPython = path.join(repoRoot, ".tools/python-venv/bin/python");

/** The Go module of the generated SDK (sdk/go/go.mod). */
export const GO_SDK_MODULE = "github.com/pulumi-codesec/pulumi-codesec/sdk/go";

function setUpFirst(language: string, missing: string): Error {
  return new Error(
    `${missing}: the ${language} programs need the set-up's language hosts; run ` +
      `\`npm run setup -- --languages ${language.toLowerCase()}\` (\`npm test\` makes them).`,
  );
}

/** The folder of an executable on PATH (the CLI finds language hosts there), or throws. */
function requireOnPath(executable: string, language: string): void {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir !== "" && existsSync(path.join(dir, executable))) return;
  }
  throw setUpFirst(language, `no ${executable} on PATH`);
}

function copyProgram(sourceDir: string): string {
  const dir = scratchDir(path.basename(sourceDir));
  cpSync(sourceDir, dir, { recursive: true, filter: (src) => !src.includes("__pycache__") });
  return dir;
}

/**
 * The files of the Python SDK's package as generated (`sourceDir`, sdk/python/pulumi_codesec) that its
 * installed copy (`installedDir`) lacks or holds otherwise: its modules (`.py`) and pulumi-plugin.json,
 * the files pip installs. Sorted, relative to the package.
 */
export function installedSdkDifferences(sourceDir: string, installedDir: string): string[] {
  return readdirSync(sourceDir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".py") || path.basename(file) === "pulumi-plugin.json")
    .filter((file) => !file.split(path.sep).includes("__pycache__"))
    .filter((file) => {
      const installed = path.join(installedDir, file);
      return (
        !existsSync(installed) || !readFileSync(installed).equals(readFileSync(path.join(sourceDir, file)))
      );
    })
    .map((file) => file.split(path.sep).join("/"))
    .sort();
}

/**
 * Throws, saying what to run, when the virtual environment's installed copy of pulumi_codesec is not this
 * clone's sdk/python: a program run with it would test an older SDK (the set-up makes the copy again when
 * sdk/python changes, but only when it runs: a test file run alone after `npm run generate` would not).
 */
function requireFreshPythonSdk(): void {
  const installedDir = execFileSync(
    venvPython,
    ["-c", "import os, pulumi_codesec; print(os.path.dirname(pulumi_codesec.__file__))"],
    { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  ).trim();
  const differences = installedSdkDifferences(path.join(repoRoot, "sdk/python/pulumi_codesec"), installedDir);
  if (differences.length > 0) {
    throw new Error(
      `${venvPython}'s pulumi_codesec (${installedDir}) is not this clone's sdk/python: ` +
        `${differences.join(", ")} differ or are missing; run \`npm run setup -- --languages python\` ` +
        "to install it again.",
    );
  }
}

/**
 * Throws, saying what to run, unless the set-up's virtual environment (venvPython) imports pulumi and
 * pulumi_codesec, and its pulumi_codesec is this clone's sdk/python: what every Python program here runs
 * with (the programs through the CLI, the docs examples under Pulumi's mocks).
 */
export function requirePythonVenv(): void {
  try {
    execFileSync(venvPython, ["-c", "import pulumi, pulumi_codesec"], { stdio: "pipe" });
  } catch {
    throw setUpFirst("Python", `${venvPython} cannot import pulumi and pulumi_codesec`);
  }
  requireFreshPythonSdk();
}

/**
 * A copy of a Python program, run by the set-up's virtual environment. PULUMI_PYTHON_CMD names its
 * interpreter: the Python language host that can be built here (sdk v3.68.0) does not see a project's
 * `runtime.options` from this CLI, so a `virtualenv` option there would be ignored.
 */
export function pythonProgram(sourceDir: string): { dir: string; env: Record<string, string> } {
  requireOnPath("pulumi-language-python", "Python");
  requireOnPath("pulumi-language-python-exec", "Python");
  requirePythonVenv();
  return { dir: copyProgram(sourceDir), env: { PULUMI_PYTHON_CMD: venvPython } };
}

/**
 * A copy of a Go program whose go.mod points the SDK's module at this clone's sdk/go. Its go.sum is
 * committed, so the build looks nothing up; the modules come from the Go module cache (the CLI's build
 * filled it) or the module proxy, checked against go.sum.
 */
export function goProgram(sourceDir: string): { dir: string; env: Record<string, string> } {
  requireOnPath("pulumi-language-go", "Go");
  const dir = copyProgram(sourceDir);
  execFileSync("go", ["mod", "edit", `-replace=${GO_SDK_MODULE}=${path.join(repoRoot, "sdk/go")}`], {
    cwd: dir,
    stdio: "pipe",
    env: { ...process.env, GOWORK: "off" },
  });
  // -mod=readonly: the committed go.mod and go.sum are complete, a build must not need to change them.
  return {
    dir,
    env: { GOWORK: "off", GOFLAGS: "-mod=readonly", GOTOOLCHAIN: goToolchainFor(path.join(dir, "go.mod")) },
  };
}

/**
 * The GOTOOLCHAIN a go.mod's `go` line needs, chosen as the set-up's builds choose it (use_go_for in
 * scripts/go-build.sh): `local` when the local Go is new enough, else that release, which Go fetches
 * through the module proxy, checked against the checksum database.
 */
export function goToolchainFor(goMod: string): string {
  const script =
    'log() { printf "%s\\n" "$*" >&2; }; source "$root/scripts/go-build.sh"; ' +
    'use_go_for "$(go_directive "$1")"; printf %s "$GOTOOLCHAIN"';
  return execFileSync("bash", ["-c", script, "_", goMod], {
    encoding: "utf8",
    env: { ...process.env, root: repoRoot, GOWORK: "off" },
  });
}

/** A copy of a YAML program: the YAML language host reads the codesec schema from the plugin itself. */
export function yamlProgram(sourceDir: string): { dir: string; env: Record<string, string> } {
  requireOnPath("pulumi-language-yaml", "YAML");
  return { dir: copyProgram(sourceDir), env: {} };
}
