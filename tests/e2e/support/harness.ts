/**
 * End-to-end harness: the package as a user installs it (`npm pack`), a program folder of its own, and
 * stacks driven through the real Pulumi CLI by the Automation API, with a local file backend and a
 * passphrase secrets provider so nothing reaches a network service.
 */
import { LocalWorkspace, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const repoRoot = path.resolve(__dirname, "../../..");
const devDependencies: Record<string, string> = JSON.parse(
  readFileSync(path.join(repoRoot, "package.json"), "utf8"),
).devDependencies;

/** Everything made here lives under one folder, removed when the process exits. */
const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

export function scratchDir(name: string): string {
  return mkdtempSync(path.join(scratch, `${name}-`));
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let packed: string | undefined;

/** `npm pack` of this repository (built `dist/` included), once per process. */
export function packedPackage(): string {
  if (!packed) {
    const out = scratchDir("pack");
    const name = run("npm", ["pack", "--silent", "--pack-destination", out], repoRoot)
      .trim()
      .split("\n")
      .pop()!;
    packed = path.join(out, name);
  }
  return packed;
}

const installed = new Map<string, string>();

/**
 * A node_modules with the given package tarball, @pulumi/pulumi, TypeScript 5 and ts-node 10, as a
 * TypeScript program has them (without its own, Pulumi falls back to a bundled TypeScript 3.8 and
 * ts-node 7, which cannot compile against this package's typings), once per tarball.
 */
export function installedModules(tarball: string): string {
  let dir = installed.get(tarball);
  if (!dir) {
    dir = scratchDir("modules");
    writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "codesec-e2e-modules", private: true }),
    );
    run(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        tarball,
        `@pulumi/pulumi@${devDependencies["@pulumi/pulumi"]}`,
        `typescript@${devDependencies.typescript}`,
        `ts-node@${devDependencies["ts-node"]}`,
        "@types/node@22",
      ],
      dir,
    );
    installed.set(tarball, dir);
  }
  return path.join(dir, "node_modules");
}

/**
 * Copies a program folder to a scratch folder and gives it a node_modules holding the packed package
 * (a link to an installed copy, so the package's real path is inside a node_modules, as for users).
 */
export function prepareProgram(sourceDir: string, opts: { tarball?: string } = {}): string {
  const dir = scratchDir(path.basename(sourceDir));
  cpSync(sourceDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  useModules(dir, installedModules(opts.tarball ?? packedPackage()));
  return dir;
}

/** Points a program folder at another installed node_modules (an upgrade of the package). */
export function useModules(programDir: string, modules: string): void {
  const link = path.join(programDir, "node_modules");
  rmSync(link, { recursive: true, force: true });
  symlinkSync(modules, link, "dir");
}

/** Environment of the Pulumi CLI: local file backend, passphrase secrets, no update check, own home. */
export function pulumiEnv(stateDir: string): Record<string, string> {
  mkdirSync(path.join(stateDir, "backend"), { recursive: true });
  return {
    PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "codesec-e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(stateDir, "home"),
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
  };
}

/** Selects (creating if needed) a stack of the program in `workDir` and sets its config. */
export async function createStack(
  workDir: string,
  stackName: string,
  config: ConfigMap,
  extraEnv: Record<string, string> = {},
): Promise<Stack> {
  const stateDir = path.join(path.dirname(workDir), `${path.basename(workDir)}-pulumi`);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir },
    { envVars: { ...pulumiEnv(stateDir), ...extraEnv } },
  );
  await stack.setAllConfig(config);
  return stack;
}

/**
 * `pulumi stack export` as a user runs it: secrets stay encrypted. (The Automation API's exportStack
 * passes --show-secrets, so it cannot tell whether a secret was stored in plaintext.)
 */
export function exportStackAsStored(stack: Stack): string {
  const workspace = stack.workspace as LocalWorkspace;
  return execFileSync("pulumi", ["stack", "export", "--stack", stack.name], {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars },
    encoding: "utf8",
  });
}

/**
 * A second build of the package whose implementation differs but whose public API does not: every call
 * of the dynamic providers' implementation appends `<kind> <method>` to the file named by
 * CODESEC_E2E_MARKER, which proves which build ran.
 */
export function variantPackage(tarball: string): string {
  const dir = scratchDir("variant");
  run("tar", ["-xzf", tarball, "-C", dir], dir);
  const pkgDir = path.join(dir, "package");
  const entry = path.join(pkgDir, "dist/provider/dynamic/index.js");
  writeFileSync(
    entry,
    readFileSync(entry, "utf8") +
      `
const __variantRun = exports.run;
exports.run = function (kind, method, args) {
  if (process.env.CODESEC_E2E_MARKER) {
    require("node:fs").appendFileSync(process.env.CODESEC_E2E_MARKER, kind + " " + (typeof method === "string" ? method : "configure") + "\\n");
  }
  return __variantRun(kind, method, args);
};
`,
  );
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  manifest.version = `${manifest.version}-variant.1`;
  writeFileSync(path.join(pkgDir, "package.json"), JSON.stringify(manifest, null, 2));
  const out = scratchDir("variant-pack");
  const name = run("npm", ["pack", "--silent", "--pack-destination", out], pkgDir).trim().split("\n").pop()!;
  return path.join(out, name);
}

/** Asserts the CLI this suite drives is there: an e2e run without it must fail, never skip. */
export function requirePulumiCli(): string {
  try {
    return run("pulumi", ["version"], repoRoot).trim();
  } catch {
    throw new Error(
      "The end-to-end suite needs the Pulumi CLI on PATH: run `npm run setup` (it builds or finds one), " +
        "then run the tests through `npm test`.",
    );
  }
}

export { existsSync };
