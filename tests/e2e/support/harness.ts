/**
 * End-to-end harness: the package as a user installs it (`npm pack`), a program folder of its own, and
 * stacks driven through the real Pulumi CLI by the Automation API, with a local file backend and a
 * passphrase secrets provider so nothing reaches a network service. Every CLI command run here, through
 * the Automation API or not, has its output checked (cliOutput.ts): a command that exits 0 shows no
 * error unless its test expects one (expectErrors), and none shows a provider's crash.
 */
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Stack } from "@pulumi/pulumi/automation";
import { AsyncLocalStorage } from "node:async_hooks";
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SECRET_SIGNATURE, SIGNATURE_KEY } from "../../../provider/native/properties";
import { packageVersion } from "../../../scripts/plugin-release";
import { npmPack } from "../../../scripts/release/npmPackages";
import {
  buildNativePluginRelease,
  buildPackedNativeSdk,
  buildPackedPackage,
  handedBuild,
} from "./sharedBuilds";
import { assertNoUnexpectedErrors, unexpectedErrorsFailure } from "./cliOutput";

export const repoRoot = path.resolve(__dirname, "../../..");
export { CLI_COMMAND_LIMIT_MS, RESOURCE_STEP_LIMIT_MS, timeLimitFor } from "./timeLimits";
const devDependencies = (
  JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;

/**
 * Everything made here lives under one folder, removed when the process exits: the temporary files of
 * this process and of every process it starts too (npm, the Pulumi CLI, its plugins, the programs), as
 * TMPDIR points into it. Nothing a run writes lands in the system's shared temporary folder.
 */
const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
// In mocha's parallel mode this process is a worker, asked to exit when the run ends and sent SIGTERM a
// second later if it is still there: removing a scratch folder of a whole run's installs takes longer.
// SIGTERM exits through the handler above instead (a signal that comes while it runs waits for it).
process.once("SIGTERM", () => process.exit(143));
process.env.TMPDIR = path.join(scratch, "tmp");
mkdirSync(process.env.TMPDIR);

/** A new folder under `parent` (default: this process's scratch folder). */
export function scratchDir(name: string, parent = scratch): string {
  return mkdtempSync(path.join(parent, `${name}-`));
}

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let packed: string | undefined;

/**
 * `npm pack` of this repository (built `dist/` included): the run's (sharedBuilds.ts), else made once per
 * process.
 */
export function packedPackage(): string {
  packed ??= handedBuild("packedPackage") ?? buildPackedPackage(scratchDir("pack"));
  return packed;
}

const installed = new Map<string, string>();

/**
 * A node_modules with the given package tarball, @pulumi/pulumi, TypeScript 5 and ts-node 10, as a
 * TypeScript program has them (without its own, Pulumi falls back to a bundled TypeScript 3.8 and
 * ts-node 7, which cannot compile against this package's typings), once per tarball. `more` tarballs are
 * installed beside it (a program using both the dynamic resources and the native SDK).
 */
export function installedModules(tarball: string, ...more: string[]): string {
  return npmInstalled([
    tarball,
    ...more,
    `typescript@${devDependencies.typescript}`,
    `ts-node@${devDependencies["ts-node"]}`,
    "@types/node@22",
  ]);
}

/**
 * A node_modules holding `packages` (tarballs or registry specs) and @pulumi/pulumi at the version the
 * CLI is built from, installed as a user installs packages (so each package's real path is inside a
 * node_modules), once per list of packages in this process. The bench's stacks (plain JavaScript, no
 * TypeScript) use it directly.
 */
export function npmInstalled(packages: string[]): string {
  const key = packages.join("\n");
  let dir = installed.get(key);
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
        ...packages,
        `@pulumi/pulumi@${devDependencies["@pulumi/pulumi"]}`,
      ],
      dir,
    );
    installed.set(key, dir);
  }
  return path.join(dir, "node_modules");
}

/**
 * Copies a program folder to a scratch folder (under `opts.under` when given; its stacks' state goes
 * beside it) and gives it a node_modules holding the packed package (a link to an installed copy, so the
 * package's real path is inside a node_modules, as for users).
 */
export function prepareProgram(sourceDir: string, opts: { tarball?: string; under?: string } = {}): string {
  const dir = scratchDir(path.basename(sourceDir), opts.under);
  cpSync(sourceDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  useModules(dir, installedModules(opts.tarball ?? packedPackage()));
  return dir;
}

/**
 * Copies a program folder out of the repository, as a user copies an example, and runs `npm install`
 * there with the packed package standing in for the registry's (`--no-save`: the folder's package.json
 * keeps its own ranges, and brings the rest: TypeScript, ts-node, @types/node). Throws when the
 * package.json's ranges do not accept the packed version or the @pulumi/pulumi installed (`npm ls`).
 * `destination`: the folder to copy to (a new scratch folder when absent).
 */
export function installProgramCopy(sourceDir: string, destination?: string): string {
  const dir = destination ?? scratchDir(`copied-${path.basename(sourceDir)}`);
  cpSync(sourceDir, dir, { recursive: true, filter: (src) => !src.includes(`${path.sep}node_modules`) });
  // @pulumi/pulumi at the version the CLI is built from (the example's range accepts it), as everywhere here.
  run(
    "npm",
    [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      packedPackage(),
      `@pulumi/pulumi@${devDependencies["@pulumi/pulumi"]}`,
    ],
    dir,
  );
  try {
    run("npm", ["ls", "pulumi-codesec", "@pulumi/pulumi"], dir);
  } catch (error) {
    const { stdout } = error as { stdout?: string };
    throw new Error(
      `${path.basename(sourceDir)}'s package.json does not accept the packed package:\n${stdout}`,
    );
  }
  return dir;
}

/** The arguments of Node.js running the program's own TypeScript compiler on `project`, emitting nothing. */
function typeCheckArgs(programDir: string, project: string): string[] {
  return [
    path.join(programDir, "node_modules/typescript/bin/tsc"),
    "--noEmit",
    "--pretty",
    "false",
    "-p",
    project,
  ];
}

/** A failed compiler run's diagnostics. */
function typeCheckDiagnostics(error: unknown): string {
  const { stdout, stderr } = error as { stdout?: string; stderr?: string };
  return `${stdout ?? ""}${stderr ?? ""}` || String(error);
}

/** Runs the program's own TypeScript compiler (from its node_modules) and returns its diagnostics. */
export function typeCheck(programDir: string, project = "tsconfig.json"): string {
  try {
    execFileSync(process.execPath, typeCheckArgs(programDir, project), {
      cwd: programDir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return "";
  } catch (error) {
    return typeCheckDiagnostics(error);
  }
}

/**
 * typeCheck without blocking this process: the compiler runs while the test goes on (a CLI run meanwhile);
 * resolves to its diagnostics.
 */
export function typeCheckInBackground(programDir: string, project = "tsconfig.json"): Promise<string> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      typeCheckArgs(programDir, project),
      { cwd: programDir, encoding: "utf8", maxBuffer: Infinity },
      (error, stdout, stderr) =>
        resolve(error ? typeCheckDiagnostics(Object.assign(error, { stdout, stderr })) : ""),
    );
  });
}

/** Points a program folder at another installed node_modules (an upgrade of the package). */
export function useModules(programDir: string, modules: string): void {
  const link = path.join(programDir, "node_modules");
  rmSync(link, { recursive: true, force: true });
  symlinkSync(modules, link, "dir");
}

/** The passphrase of every e2e stack's secrets (a secret all the same: no output may print it). */
export const E2E_PASSPHRASE = "codesec-e2e-passphrase";

/** Environment of the Pulumi CLI: local file backend, passphrase secrets, no update check, own home. */
export function pulumiEnv(stateDir: string): Record<string, string> {
  mkdirSync(path.join(stateDir, "backend"), { recursive: true });
  return {
    PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: E2E_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_HOME: path.join(stateDir, "home"),
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
  };
}

/** Where a stack made by createStack keeps its state: its backend's URL and its secrets' passphrase. */
export function stackStateOf(stack: Stack): { backendUrl: string; passphrase: string } {
  const env = (stack.workspace as LocalWorkspace).envVars;
  return { backendUrl: env.PULUMI_BACKEND_URL, passphrase: env.PULUMI_CONFIG_PASSPHRASE };
}

/** The Automation API's run of one CLI command (PulumiCommand's, which its typings leave out). */
type RunCommand = (
  args: string[],
  cwd: string,
  env: Record<string, string>,
  ...more: unknown[]
) => Promise<{ stdout: string; stderr: string; code: number }>;

let pulumiCommand: Promise<PulumiCommand> | undefined;

/** The CLIs of the stacks made here (createStack), whose every command's output is checked. */
const checkedCommands = new WeakSet<PulumiCommand>();

/**
 * The CLIs whose commands the running code expects to show an error (expectErrors): the async context's,
 * so that a command of the same stack run concurrently outside the scope is checked in full. A command
 * reads it when it starts.
 */
const expectingErrors = new AsyncLocalStorage<ReadonlySet<PulumiCommand>>();

/** A CLI for one stack whose every command's output is checked (assertNoUnexpectedErrors). */
async function checkedPulumiCommand(): Promise<PulumiCommand> {
  pulumiCommand ??= PulumiCommand.get();
  const real = await pulumiCommand;
  const run = (real as unknown as { run: RunCommand }).run.bind(real);
  const checked = Object.create(real) as PulumiCommand & { run: RunCommand };
  checkedCommands.add(checked);
  checked.run = async (args, ...rest) => {
    const command = `pulumi ${args.join(" ")}`;
    const expected = expectingErrors.getStore()?.has(checked) ?? false;
    let result: Awaited<ReturnType<RunCommand>>;
    try {
      result = await run(args, ...rest);
    } catch (error) {
      // A failed command: the Automation API's CommandError carries what it printed.
      const failed = (error as { commandResult?: Awaited<ReturnType<RunCommand>> }).commandResult;
      if (failed)
        assertNoUnexpectedErrors(
          { command, code: failed.code, output: failed.stdout + failed.stderr },
          expected,
        );
      throw error;
    }
    assertNoUnexpectedErrors({ command, code: result.code, output: result.stdout + result.stderr }, expected);
    return result;
  };
  return checked;
}

/** The checked CLI of a stack made by createStack. */
function checkedCommandOf(stack: Stack): PulumiCommand {
  const command = (stack.workspace as LocalWorkspace).pulumiCommand;
  if (!checkedCommands.has(command)) {
    throw new Error(`stack ${stack.name} was not made by createStack: its commands are not checked`);
  }
  return command;
}

/** Whether the code starting a command of `stack` expects an error in it (expectErrors). */
function errorsExpected(stack: Stack): boolean {
  return expectingErrors.getStore()?.has(checkedCommandOf(stack)) ?? false;
}

/**
 * Runs `commands` (any of `stack`'s started in it: the Automation API's, runPulumi, spawnPulumi) for a
 * test that expects an error in a command that exits 0: its `error:` diagnostics are the test's to assert.
 */
export async function expectErrors<T>(stack: Stack, commands: () => Promise<T>): Promise<T> {
  const expecting = new Set(expectingErrors.getStore()).add(checkedCommandOf(stack));
  return expectingErrors.run(expecting, commands);
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
    { envVars: { ...pulumiEnv(stateDir), ...extraEnv }, pulumiCommand: await checkedPulumiCommand() },
  );
  await stack.setAllConfig(config);
  return stack;
}

/** One resource of an exported stack, as far as the tests read it. */
export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  parent?: string;
  external?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown> & { __provider?: string };
}

/** The resources of the codesec kinds in a stack's state, dynamic or native (not their providers). */
export function codesecResources(resources: StateResource[]): StateResource[] {
  return resources.filter((r) => r.type.includes("codesec:") && !r.type.startsWith("pulumi:providers:"));
}

/**
 * Whether a value of a state as stored (`pulumi stack export`: exportStackAsStored) is a secret stored
 * encrypted: Pulumi's secret signature and a ciphertext.
 */
export function isSecretEnvelope(value: unknown): boolean {
  const envelope = value as Record<string, unknown> | undefined;
  return (
    typeof envelope === "object" &&
    envelope !== null &&
    envelope[SIGNATURE_KEY] === SECRET_SIGNATURE &&
    typeof envelope.ciphertext === "string"
  );
}

/** The resources of a stack's state (the automation API types the deployment as `any`). */
export async function stateResources(stack: Stack): Promise<StateResource[]> {
  const exported = await stack.exportStack();
  return (exported.deployment as { resources?: StateResource[] }).resources ?? [];
}

/** The one resource of a stack's state whose URN ends with `::name`. */
export async function stateResource(stack: Stack, name: string): Promise<StateResource> {
  const found = (await stateResources(stack)).find((r) => r.urn.endsWith(`::${name}`));
  if (!found) throw new Error(`no resource named ${name} in the stack's state`);
  return found;
}

/**
 * `pulumi stack export` as a user runs it: secrets stay encrypted. (The Automation API's exportStack
 * passes --show-secrets, so it cannot tell whether a secret was stored in plaintext.)
 */
export function exportStackAsStored(stack: Stack): string {
  return pulumiSync(stack, ["stack", "export", "--stack", stack.name]);
}

/**
 * Runs `pulumi <args>` for `stack` (its folder and environment) to its end, its output checked; returns its
 * stdout. Throws when it exits non-zero.
 */
export function pulumiSync(stack: Stack, args: string[]): string {
  const workspace = stack.workspace as LocalWorkspace;
  const run = spawnSync("pulumi", args, {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: Infinity,
  });
  if (run.error) throw run.error;
  assertNoUnexpectedErrors(
    { command: `pulumi ${args.join(" ")}`, code: run.status, output: run.stdout + run.stderr },
    errorsExpected(stack),
  );
  if (run.status !== 0) throw new Error(`\`pulumi ${args.join(" ")}\` exited ${run.status}:\n${run.stderr}`);
  return run.stdout;
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
  // The short stubs load each kind's entry module (provider/dynamic/engineEntry.ts) instead of `run`.
  const entries = path.join(pkgDir, "dist/provider/dynamic/engineEntry.js");
  writeFileSync(
    entries,
    readFileSync(entries, "utf8") +
      `
const __variantEntry = exports.engineEntry;
exports.engineEntry = function (kind, implementation) {
  const entry = __variantEntry(kind, implementation);
  for (const method of Object.keys(entry)) {
    const original = entry[method];
    entry[method] = function (...args) {
      if (process.env.CODESEC_E2E_MARKER) {
        require("node:fs").appendFileSync(process.env.CODESEC_E2E_MARKER, kind + " " + method + "\\n");
      }
      return original.apply(this, args);
    };
  }
  return entry;
};
`,
  );
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")) as { version: string };
  manifest.version = `${manifest.version}-variant.1`;
  writeFileSync(path.join(pkgDir, "package.json"), JSON.stringify(manifest, null, 2));
  return npmPack(pkgDir, scratchDir("variant-pack"));
}

/** Asserts the CLI this suite drives is there (an e2e run without it must fail, never skip); its version. */
export function requirePulumiCli(): string {
  const version = spawnSync("pulumi", ["version"], { cwd: repoRoot, encoding: "utf8" });
  if (version.error || version.status !== 0) {
    throw new Error(
      "The end-to-end suite needs the Pulumi CLI on PATH: run `npm run setup` (it builds or finds one), " +
        "then run the tests through `npm test`.",
    );
  }
  assertNoUnexpectedErrors({
    command: "pulumi version",
    code: version.status,
    output: version.stdout + version.stderr,
  });
  return version.stdout.trim();
}

export { existsSync };

/**
 * Environment variable that tags every process a test starts. Children inherit it, so the CLI's
 * language host, the program and the provider plugins carry it too, even once a killed CLI has
 * orphaned them (Pulumi starts each plugin in a process group of its own, so killing the CLI's group
 * does not reach them).
 */
export const PROCESS_TAG_VARIABLE = "CODESEC_E2E_PROCESS_TAG";

/** Whether `pid` runs: exists and is not a zombie (an ended process its parent has not reaped). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Ids of the running processes whose environment holds `PROCESS_TAG_VARIABLE=tag` (Linux /proc). */
export function taggedProcesses(tag: string): number[] {
  if (!existsSync("/proc/self/environ")) {
    throw new Error("finding the processes a test started needs Linux /proc (the e2e suite runs on Linux)");
  }
  const entry = `${PROCESS_TAG_VARIABLE}=${tag}`;
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${name}/environ`, "latin1");
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    // A zombie's environment reads empty: it has ended and only waits to be reaped.
    if (environ.split("\0").includes(entry)) found.push(Number(name));
  }
  return found;
}

/**
 * Sends SIGKILL to every process tagged `tag` (as a crashed CI runner takes all of them at once), then
 * waits until none is left. Returns the ids it signalled; throws when any survives `timeoutMs`.
 */
export async function killTaggedProcesses(tag: string, timeoutMs = 10_000): Promise<number[]> {
  const signalled = taggedProcesses(tag);
  for (const pid of signalled) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await waitUntilNoTaggedProcess(tag, timeoutMs);
  return signalled;
}

/** Waits until no process tagged `tag` runs; throws, naming the survivors, after `timeoutMs`. */
export async function waitUntilNoTaggedProcess(tag: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = taggedProcesses(tag);
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`processes still running ${timeoutMs} ms after the run ended: ${left.join(", ")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A Pulumi CLI command started in the background (its own process group, output collected). */
export interface PulumiProcess {
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves when the CLI has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `pulumi <args>` for `stack` as a user runs it (its workspace's folder and environment), in a
 * process group of its own so that a test can signal it as a terminal's Ctrl+C does, and with every
 * process it starts tagged `tag` (see PROCESS_TAG_VARIABLE). `exited` rejects when its output shows an
 * error its test did not expect (cliOutput.ts).
 */
export function spawnPulumi(stack: Stack, args: string[], tag: string): PulumiProcess {
  const workspace = stack.workspace as LocalWorkspace;
  const expected = errorsExpected(stack);
  const child = spawn("pulumi", args, {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars, [PROCESS_TAG_VARIABLE]: tag },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const chunks: string[] = [];
  child.stdout.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const failure = unexpectedErrorsFailure(
        { command: `pulumi ${args.join(" ")}`, code, output: chunks.join("") },
        expected,
      );
      if (failure) reject(failure);
      else resolve({ code, signal });
    });
  });
  return { child, output: () => chunks.join(""), exited };
}

/** Runs `pulumi <args>` for `stack` to its end (see spawnPulumi) and returns its exit code and output. */
export async function runPulumi(
  stack: Stack,
  args: string[],
  tag: string,
): Promise<{ code: number | null; output: string }> {
  const run = spawnPulumi(stack, args, tag);
  const { code } = await run.exited;
  return { code, output: run.output() };
}

let nativeRelease: { tarball: string; build: string } | undefined;

/**
 * The native plugin's release archive built from this tree (scripts/plugin-release.ts, the script
 * `npm run setup` uses): what each stack installs, and the build hash it carries. The run's
 * (sharedBuilds.ts), else made once per process.
 */
export function nativePluginRelease(): { tarball: string; build: string } {
  nativeRelease ??=
    handedBuild("nativePluginRelease") ?? buildNativePluginRelease(scratchDir("plugin-release"));
  return nativeRelease;
}

/**
 * The environment of a stack on the installed native plugin: the CLI ignores any `pulumi-resource-codesec`
 * on PATH (a clone's launcher put there by hand would otherwise win over the installed plugin, and the
 * suite would test whatever build it runs); installNativePlugin puts this tree's build into the stack's
 * PULUMI_HOME.
 */
export function installedPluginEnv(): Record<string, string> {
  return { PULUMI_IGNORE_AMBIENT_PLUGINS: "true" };
}

/** The folder of the clone's launcher (`pulumi-resource-codesec`), which runs the tsc build in dist/. */
export const nativePluginDir = path.join(repoRoot, "provider/cmd/pulumi-resource-codesec");

/**
 * The environment that makes the CLI run the clone's launcher instead (its folder first on PATH; the CLI
 * takes a `pulumi-resource-<name>` on PATH before any installed plugin): the bench measures the dist/ build
 * this way. The build must exist (`npm run build`).
 */
export function nativePluginEnv(): Record<string, string> {
  if (!existsSync(path.join(repoRoot, "dist/provider/native/main.js"))) {
    throw new Error("the native plugin is not built: run `npm run build` (npm test does) before this suite");
  }
  return { PATH: `${nativePluginDir}${path.delimiter}${process.env.PATH ?? ""}` };
}

/** Where the CLI of `stack` keeps plugin codesec at the package's version (its PULUMI_HOME/plugins). */
export function installedNativePluginDir(stack: Stack): string {
  const home = (stack.workspace as LocalWorkspace).envVars.PULUMI_HOME;
  return path.join(home, "plugins", `resource-codesec-v${packageVersion()}`);
}

/**
 * A stack (createStack) on the native plugin as a user installs it: this tree's release archive installed
 * into the stack's PULUMI_HOME, and any `pulumi-resource-codesec` on PATH ignored (installedPluginEnv).
 */
export async function createNativeStack(
  workDir: string,
  stackName: string,
  config: ConfigMap,
  extraEnv: Record<string, string> = {},
): Promise<Stack> {
  const stack = await createStack(workDir, stackName, config, { ...installedPluginEnv(), ...extraEnv });
  installNativePlugin(stack);
  return stack;
}

/**
 * Installs the plugin built from this tree into the CLI of `stack` as a user installs a release:
 * `pulumi plugin install resource codesec <version> -f <archive>`.
 */
export function installNativePlugin(stack: Stack): void {
  pulumiSync(stack, [
    "plugin",
    "install",
    "resource",
    "codesec",
    packageVersion(),
    "-f",
    nativePluginRelease().tarball,
    "--reinstall",
  ]);
}

let nativeSdk: string | undefined;

/**
 * The generated Node.js SDK (sdk/nodejs, `@pulumi-codesec/codesec`) built and packed as its release would
 * be (tsc into bin/, the package.json beside it): the tarball. The run's (sharedBuilds.ts), else made once
 * per process.
 */
export function packedNativeSdk(): string {
  nativeSdk ??=
    handedBuild("packedNativeSdk") ??
    buildPackedNativeSdk(scratchDir("sdk-nodejs"), scratchDir("sdk-nodejs-pack"));
  return nativeSdk;
}
