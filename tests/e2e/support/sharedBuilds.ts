/**
 * The builds the end-to-end test files install from, made once per run of the suite: this repository's
 * package (`npm pack`), the native plugin's release archive (scripts/plugin-release.ts) and the generated
 * Node.js SDK's tarball. Each takes seconds and is the same for every file, so the suite's configuration
 * (tests/e2e/.mocharc.js) requires this module, and mocha runs its `mochaGlobalSetup` in its main process
 * before any test file: it makes the three and hands them to the test processes (the workers of the
 * parallel mode, which inherit its environment, or the main process itself when CODESEC_E2E_JOBS=1) in
 * SHARED_BUILDS_VARIABLE. The harness (harness.ts) takes them from there, and builds its own only when the
 * variable is unset, as in a test file run without the suite's configuration.
 *
 * No side effect on import: the workers load this module too (mocha ignores their global setups), and the
 * harness imports it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { releaseTarball } from "../../../scripts/plugin-release";
import { npmPack, packNativeSdk } from "../../../scripts/release/npmPackages";

const repoRoot = path.resolve(__dirname, "../../..");

/** The environment variable that hands the run's builds to its test processes: SharedBuilds as JSON. */
export const SHARED_BUILDS_VARIABLE = "CODESEC_E2E_BUILDS";

/** The run's builds, by the harness function that gives each. */
export interface SharedBuilds {
  /** The package's tarball (`npm pack` of this repository, its built dist/ included). */
  packedPackage: string;
  /** The native plugin's release archive and the build hash its bundle carries. */
  nativePluginRelease: { tarball: string; build: string };
  /** The generated Node.js SDK's tarball (sdk/nodejs built and packed). */
  packedNativeSdk: string;
}

const DESCRIPTIONS: Record<keyof SharedBuilds, string> = {
  packedPackage: "the package's tarball",
  nativePluginRelease: "the native plugin's release archive",
  packedNativeSdk: "the Node.js SDK's tarball",
};

/** Says on stderr what is being built (`[e2e-builds] ...`): a run's log shows each build, once. */
function announce(what: string): void {
  process.stderr.write(`[e2e-builds] ${what}\n`);
}

/** Packs this repository (built dist/ included) into `outDir`. */
export function buildPackedPackage(outDir: string): string {
  announce("npm pack: the package");
  return npmPack(repoRoot, outDir);
}

/** The native plugin's release archive of this tree, in `outDir` (scripts/plugin-release.ts). */
export function buildNativePluginRelease(outDir: string): { tarball: string; build: string } {
  announce("the native plugin's release archive");
  return releaseTarball(outDir);
}

/**
 * The generated Node.js SDK (sdk/nodejs, `@pulumi-codesec/codesec`) built and packed as its release packs
 * it (scripts/release/npmPackages.ts), built in `workDir` and packed into `outDir`: the tarball.
 */
export function buildPackedNativeSdk(workDir: string, outDir: string): string {
  announce("npm pack: the Node.js SDK");
  return packNativeSdk(repoRoot, workDir, outDir);
}

function isSharedBuilds(value: unknown): value is SharedBuilds {
  const builds = value as Partial<SharedBuilds> | null;
  return (
    typeof builds === "object" &&
    builds !== null &&
    typeof builds.packedPackage === "string" &&
    typeof builds.nativePluginRelease?.tarball === "string" &&
    typeof builds.nativePluginRelease.build === "string" &&
    typeof builds.packedNativeSdk === "string"
  );
}

/**
 * The build `name` the run handed this process (SHARED_BUILDS_VARIABLE), or undefined when the variable
 * is unset: this process then builds its own. Throws when the variable is not the handed builds, or names
 * a file that is not there (the run that made it has ended): a test must not go on without its build, nor
 * quietly make another.
 */
export function handedBuild<K extends keyof SharedBuilds>(name: K): SharedBuilds[K] | undefined {
  const value = process.env[SHARED_BUILDS_VARIABLE];
  if (value === undefined || value === "") return undefined;
  let builds: unknown;
  try {
    builds = JSON.parse(value);
  } catch {
    builds = undefined;
  }
  if (!isSharedBuilds(builds)) {
    throw new Error(
      `${SHARED_BUILDS_VARIABLE} is not what the suite's global setup hands (JSON naming its three builds, ` +
        `tests/e2e/support/sharedBuilds.ts): ${JSON.stringify(value.slice(0, 200))}. ` +
        `Unset it to have this process build its own.`,
    );
  }
  const build = builds[name];
  const file = typeof build === "string" ? build : build.tarball;
  if (!existsSync(file)) {
    throw new Error(
      `${SHARED_BUILDS_VARIABLE} hands ${file} as ${DESCRIPTIONS[name]}, but there is no such file: the run ` +
        `that built it has ended, or its folder was removed. Run the suite through its configuration ` +
        `(\`npm run test:e2e\`), or unset ${SHARED_BUILDS_VARIABLE} to have this process build its own.`,
    );
  }
  return build;
}

/**
 * Mocha's global setup (its main process, before any test file): makes the three builds in a folder of
 * their own, removed when the process exits (after every worker has ended) or is interrupted, and hands
 * them to the test processes. While it builds, TMPDIR points into that folder, so that nothing the builds
 * write lands in the system's shared temporary folder; the workers, started afterwards, get the TMPDIR
 * this process had.
 */
export function mochaGlobalSetup(): void {
  const started = Date.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-builds-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.on("exit", remove);
  // Interrupted, the main process would skip its exit handlers: SIGTERM has no handler here (in parallel
  // mode it does not load the harness, whose handler this mirrors), and on SIGINT mocha stops the workers,
  // then signals itself again once its own handler is gone. The workers clean their own scratch. The
  // configuration sets node options, so mocha's launcher (bin/mocha.js) runs this process as its child:
  // SIGINT to the launcher (Ctrl+C reaches it too) is passed on and always followed by SIGTERM, while a
  // SIGINT sent to this process alone has only the handler below to clean up.
  process.once("SIGTERM", () => process.exit(143));
  process.once("SIGINT", () => {
    remove();
    // Alone (no mocha handler, as in serial mode), end as an interrupted process ends.
    if (process.listenerCount("SIGINT") === 0) process.kill(process.pid, "SIGINT");
  });
  const own = (name: string) => mkdtempSync(path.join(dir, `${name}-`));
  const tmp = path.join(dir, "tmp");
  mkdirSync(tmp);
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  try {
    const builds: SharedBuilds = {
      packedPackage: buildPackedPackage(own("pack")),
      nativePluginRelease: buildNativePluginRelease(own("plugin-release")),
      packedNativeSdk: buildPackedNativeSdk(own("sdk-nodejs"), own("sdk-nodejs-pack")),
    };
    process.env[SHARED_BUILDS_VARIABLE] = JSON.stringify(builds);
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  announce(
    `built in ${((Date.now() - started) / 1000).toFixed(1)} s, for every test file of the run (${SHARED_BUILDS_VARIABLE})`,
  );
}
