/**
 * The release rehearsed end to end, up to a user's install (tests/e2e/release.rehearsal.test.ts checks it,
 * bench/installs.ts times it): `npm run release` and the publishing steps of the release workflow
 * (.github/workflows/release.yml's `run:` scripts, in order, from a committed copy of this tree) run
 * against registries started here on 127.0.0.1: Verdaccio for npm, pypiserver for Python (twine stands in
 * for PyPI's publishing action), a bare git remote for the Go SDK's tag with a Go module proxy served from
 * a folder in the GOPROXY layout, and a plain HTTP server holding what the GitHub release step uploads (a
 * `gh` stand-in copies the assets there), reached through the CLI's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.
 * Then a project (rehearsalProjects.ts) is rehearsed for a user of its own (a fresh HOME and PULUMI_HOME,
 * nothing on PATH or in the environment that leads into the clone): it installs only from those
 * registries, runs against an emulator installed the same way (`npx codesec-emulator`), and lets
 * `pulumi up` download and install the plugin by itself: up, a preview that shows no change, destroy.
 *
 * The registries' dependencies come from the machine's configured registries (npm's, pip's, `go env
 * GOPROXY`), whose download caches (npm's, pip's, Go's build cache, Go's module download cache read as a
 * proxy) the users share to keep the run short: every package still resolves through the registries here,
 * as the lockfiles and pip's report show.
 */
import { expect } from "chai";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { committedCopy, git } from "../../support/committedCopy";
import { PROCESS_TAG_VARIABLE, repoRoot } from "./harness";
import { taggedCommands, type Ran, type RunCommand } from "./rehearsalCommands";
import {
  GO_SDK_MODULE,
  GO_SDK_OWNER,
  PLUGIN_SOURCE,
  slug,
  thirdPartyPackages,
  version,
  type Outcome,
  type Project,
  type Sample,
} from "./rehearsalProjects";
import { rehearsalScratch, sweepKilledRehearsals } from "./rehearsalScratch";
import {
  freePort,
  installPypiserver,
  startFileServer,
  startPypiserver,
  startVerdaccio,
  startWatched,
  verdaccioToken,
  type FileServer,
  type RunningServer,
} from "./registries";
import { readWorkflow } from "./workflowRunner";

/** The release workflow's build step's command. */
const RELEASE_COMMAND = "npm run release";

/** The machine's own settings a user's shell has too (network, certificates, locale), none into the clone. */
const MACHINE_VARIABLES =
  /^(PIP_[A-Z_]+|LANG|LC_[A-Z]+|TZ|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|REQUESTS_CA_BUNDLE|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)$/;

function machineEnvironment(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        MACHINE_VARIABLES.test(entry[0]) && entry[1] !== undefined && !entry[1].includes(repoRoot),
    ),
  );
}

/**
 * Gives the committed copy a node_modules of its own, as a CI checkout has after `npm ci`, instead of the
 * link to this clone's: esbuild names a bundled module by its real path relative to the build's folder,
 * so through the link the plugin's bundle would name this clone's folders. Hard links when the file
 * system allows them (seconds), else a copy.
 */
export function ownNodeModules(copy: string): void {
  const target = path.join(copy, "node_modules");
  rmSync(target, { force: true });
  try {
    execFileSync("cp", ["-al", path.join(repoRoot, "node_modules"), target], { stdio: "pipe" });
  } catch {
    rmSync(target, { recursive: true, force: true });
    execFileSync("cp", ["-a", path.join(repoRoot, "node_modules"), target], { stdio: "pipe" });
  }
}

/** The project's cache folder outside the clone, as the set-up's scripts name it (scripts/install-pulumi.sh). */
export function projectCache(): string {
  return (
    process.env.PULUMI_CODESEC_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-codesec")
  );
}

/**
 * The Go users' module cache: kept between runs (extracting the Pulumi SDK's hundreds of modules into a
 * fresh one, and removing them, takes minutes) outside the clone, one per clone, in the project's cache
 * folder (PULUMI_CODESEC_CACHE, as the set-up's); the SDK's own module is removed from it first, so that
 * every run downloads the release it made from the module proxy.
 */
function rehearsalGoModCache(): string {
  const cacheRoot = projectCache();
  const clone = createHash("sha256").update(repoRoot).digest("hex").slice(0, 12);
  const dir = path.join(cacheRoot, `rehearsal-gomodcache-${clone}`);
  for (const own of [path.join(dir, GO_SDK_OWNER), path.join(dir, "cache/download", GO_SDK_OWNER)]) {
    rmSync(own, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A `run:` step of the release workflow's release job. */
interface RunStep {
  readonly name: string;
  readonly run: string;
  readonly env: Record<string, string>;
}

export function releaseRunSteps(clone: string): RunStep[] {
  return readWorkflow(path.join(clone, ".github/workflows/release.yml"))
    .jobs.release.steps.filter((step) => step.run !== undefined)
    .map((step) => ({
      name: step.name ?? step.run!,
      run: step.run!,
      env: Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, String(value)])),
    }));
}

/** The step the rehearsal does not run: the clone's own set-up stands for it (the copy links it). */
export const SET_UP_STEP = "Set up";

/**
 * The release step as rehearsed: a development tree's docs/performance.md was measured on other sources,
 * which a real release refuses (docs/release.md); the rehearsal builds anyway, marked not publishable.
 */
function rehearsedCommand(run: string): string {
  return run.trim() === RELEASE_COMMAND ? "npm run release -- --allow-stale-performance" : run;
}

/**
 * The rehearsal's values for the workflow's step environment: no OIDC token here, so npm publishes without
 * provenance; the registries' credentials are the rehearsal's own (the .npmrc's token, a `gh` stand-in).
 */
const STEP_ENV_REHEARSED: Record<string, string> = {
  CODESEC_NPM_PROVENANCE: "false",
  NODE_AUTH_TOKEN: "",
  GH_TOKEN: "rehearsal",
};

/** The machine's environment for the CI runner's steps, without this test's own run's settings. */
function runnerEnvironment(): Record<string, string> {
  return Object.fromEntries<string>(
    Object.entries(process.env)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .filter(([name]) => !/^(npm_|INIT_CWD$|PULUMI_|CODESEC_|TMPDIR$)/.test(name))
      .map(([name, value]): [string, string] =>
        name === "PATH"
          ? [
              name,
              value
                .split(":")
                .filter((dir) => !dir.startsWith(repoRoot))
                .join(":"),
            ]
          : [name, value],
      )
      .filter(([, value]) => !value.includes(repoRoot)),
  );
}

/** The folder of `command` as the machine's shell finds it, links resolved. */
function machineToolDir(command: string): string {
  const found = execFileSync("bash", ["-c", `command -v ${command}`], {
    encoding: "utf8",
    env: runnerEnvironment(),
  }).trim();
  return path.dirname(realpathSync(found));
}

function machineValue(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: "utf8", env: runnerEnvironment(), cwd: "/" }).trim();
}

function log(message: string): void {
  process.stderr.write(`[rehearsal] ${message}\n`);
}

export interface RehearsalOptions {
  /**
   * A committed copy of this tree with a node_modules of its own (ownNodeModules) in which
   * `npm run release` already made release/v<version>/: the workflow's build step is not run again (the
   * bench, which times that build, reuses it).
   */
  readonly builtCopy?: string;
  /**
   * Where to make the rehearsal's scratch folder when not in this process's: the users' homes must not be
   * inside the clone (the bench's temporary folder is).
   */
  readonly scratchParent?: string;
}

/** The release, published to the registries here, and what a user of them does. */
export interface Rehearsal {
  readonly work: string;
  readonly clone: string;
  readonly releaseDir: string;
  /** The rehearsal's runner of commands (tagged for the sweep of a killed rehearsal). */
  readonly run: RunCommand;
  /** The names of the workflow's steps run, in order. */
  readonly stepsRun: readonly string[];
  /** The publisher's environment: the workflow runner's. */
  readonly publishEnv: NodeJS.ProcessEnv;
  /** The server of the GitHub release's downloads. */
  readonly downloads: FileServer;
  /** The folder the emulator is installed in from Verdaccio, once installed. */
  readonly emulatorInstall: Promise<string>;
  /** The environment of a user of their own, `name`: a fresh HOME and PULUMI_HOME. */
  userEnvFor(name: string): NodeJS.ProcessEnv;
  /** twine uploading `files` to pypiserver, as PyPI's publishing action does. */
  twine(...files: string[]): Promise<Ran>;
  /** Starts an emulator as a user starts it (`npx codesec-emulator`): its address and sample data. */
  startEmulator(env: NodeJS.ProcessEnv): Promise<Sample>;
  /**
   * One language's project, start to end, for the user `name` (the project's slug by default): install,
   * config, up, a preview with no change, destroy.
   */
  rehearse(project: Project, name?: string): Promise<Outcome>;
  /** Stops every server started (the sweep of a killed rehearsal ends them otherwise). */
  stop(): Promise<void>;
}

/**
 * Publishes the release to registries started here, as the release workflow does: what a user installs
 * from. Sweeps first what earlier rehearsals that were killed left (rehearsalScratch.ts).
 */
export async function startRehearsal(options: RehearsalOptions = {}): Promise<Rehearsal> {
  const { work, tag } = rehearsalScratch(options.scratchParent);
  const run = taggedCommands(tag);
  sweepKilledRehearsals(path.dirname(path.dirname(work)));
  const servers: RunningServer[] = [];
  const fileServers: FileServer[] = [];
  const stop = async () => {
    for (const server of servers.splice(0)) await server.stop();
    for (const server of fileServers.splice(0)) await server.close();
  };
  const stepsRun: string[] = [];
  try {
    let phase = Date.now();
    const lap = (what: string) => {
      log(`${what}: ${((Date.now() - phase) / 1000).toFixed(1)} s`);
      phase = Date.now();
    };

    const clone = options.builtCopy ?? path.join(work, "clone");
    if (options.builtCopy === undefined) {
      committedCopy(clone);
      ownNodeModules(clone);
    }
    const releaseDir = path.join(clone, "release", `v${version}`);

    // The users' tools, none inside the clone: a copy of the set-up's Node, the CLI's own folder (with
    // its language hosts and Node.js dynamic-provider plugin), the machine's Python, Go and system
    // folders.
    const bin = path.join(work, "bin");
    mkdirSync(bin);
    copyFileSync(realpathSync(process.execPath), path.join(bin, "node"));
    chmodSync(path.join(bin, "node"), 0o755);
    const pulumiBin = path.dirname(
      realpathSync(execFileSync("bash", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim()),
    );
    expect(pulumiBin.startsWith(repoRoot), "the CLI's folder is outside the clone").to.equal(false);
    const pythonBin = path.dirname(
      machineValue("python3", ["-c", "import os, sys; print(os.path.realpath(sys.executable))"]),
    );
    const PATH = [
      bin,
      pulumiBin,
      pythonBin,
      machineToolDir("go"),
      "/usr/local/sbin",
      "/usr/local/bin",
      "/usr/sbin",
      "/usr/bin",
      "/sbin",
      "/bin",
    ].join(":");
    // The machine's configured registries and its download caches (content-addressed).
    const npmRegistry = machineValue("npm", ["config", "get", "registry"]);
    const goEnv = JSON.parse(machineValue("go", ["env", "-json", "GOPROXY", "GOCACHE", "GOMODCACHE"])) as {
      GOPROXY: string;
      GOCACHE: string;
      GOMODCACHE: string;
    };
    const caches = {
      npm_config_cache: machineValue("npm", ["config", "get", "cache"]),
      PIP_CACHE_DIR: machineValue("python3", ["-m", "pip", "cache", "dir"]),
      GOCACHE: goEnv.GOCACHE,
    };
    const goModCache = rehearsalGoModCache();
    const serverEnv = { ...machineEnvironment(), PATH, [PROCESS_TAG_VARIABLE]: tag };

    const verdaccio = await startVerdaccio(path.join(work, "verdaccio"), npmRegistry, {
      ...serverEnv,
      HOME: path.join(work, "verdaccio"),
    });
    servers.push(verdaccio);
    const pypiserver = await startPypiserver(path.join(work, "pypi"), {
      ...serverEnv,
      HOME: path.join(work, "pypi"),
    });
    const downloadsDir = path.join(work, "downloads");
    mkdirSync(downloadsDir);
    servers.push(pypiserver);
    const downloads = await startFileServer(downloadsDir);
    fileServers.push(downloads);
    const goProxyDir = path.join(work, "goproxy");
    mkdirSync(goProxyDir);
    const goProxy = await startFileServer(goProxyDir);
    fileServers.push(goProxy);
    lap("registries started (Verdaccio, pypiserver, the release's downloads, the Go module proxy)");

    // While the release builds, Verdaccio fetches the metadata of the other publishers' packages the
    // users install (a dry-run install through it resolves their whole tree): it starts empty each run,
    // and this is most of the users' install time otherwise.
    const warmHome = path.join(work, "warm-up");
    mkdirSync(warmHome);
    writeFileSync(path.join(warmHome, "package.json"), JSON.stringify({ private: true }));
    const warmUp = run(
      warmHome,
      { ...machineEnvironment(), ...caches, PATH, HOME: warmHome, npm_config_registry: verdaccio.url },
      "npm",
      [
        "install",
        "--dry-run",
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        ...thirdPartyPackages(),
      ],
    );
    warmUp.catch(() => undefined);

    // The publisher's credentials: a Verdaccio user's token in the .npmrc the workflow's npm reads.
    const token = await verdaccioToken(verdaccio.url);
    const publisherNpmrc = path.join(work, "publisher.npmrc");
    writeFileSync(
      publisherNpmrc,
      `registry=${verdaccio.url}\n${verdaccio.url.replace(/^http:/, "")}:_authToken=${token}\n`,
    );

    // A `gh` that uploads a release's assets into the download server's folder as GitHub would.
    const runnerBin = path.join(work, "runner-bin");
    mkdirSync(runnerBin);
    writeFileSync(
      path.join(runnerBin, "gh"),
      `#!/bin/sh
# gh release create <tag> [flags] <files>: the files, as the release's assets.
[ "$1 $2" = "release create" ] || { echo "gh stand-in: only 'release create'" >&2; exit 2; }
tag=$3; shift 3
dir="${downloadsDir}/releases/$tag"; mkdir -p "$dir"
while [ $# -gt 0 ]; do
  case "$1" in
    --title|--notes-file) shift 2 ;;
    --*) shift ;;
    *) cp "$1" "$dir/" && shift ;;
  esac
done
`,
    );
    chmodSync(path.join(runnerBin, "gh"), 0o755);

    // The release job's `run:` steps, in order, from the clone as the workflow runs them, publishing to
    // the registries here. Its `uses:` steps are GitHub's (the attestation) or stand in below (PyPI).
    const origin = path.join(work, "origin.git");
    git(work, "init", "--quiet", "--bare", origin);
    const githubEnv = path.join(work, "github-env");
    writeFileSync(githubEnv, "");
    const runnerHome = path.join(work, "runner-home");
    mkdirSync(runnerHome);
    const runner = runnerEnvironment();
    const publishEnv: NodeJS.ProcessEnv = {
      ...runner,
      PATH: `${runnerBin}:${bin}:${runner.PATH}`,
      HOME: runnerHome,
      NPM_CONFIG_USERCONFIG: publisherNpmrc,
      GIT_CONFIG_NOSYSTEM: "1",
      GITHUB_REF_NAME: `v${version}`,
      GITHUB_ENV: githubEnv,
      REMOTE: origin,
      [PROCESS_TAG_VARIABLE]: tag,
      // The rehearsal's build is not publishable (rehearsedCommand): publishing it to the registries here
      // is what is rehearsed.
      CODESEC_PUBLISH_UNPUBLISHABLE: "1",
    };
    for (const step of releaseRunSteps(clone)) {
      if (step.name === SET_UP_STEP) continue;
      if (options.builtCopy !== undefined && step.run.trim() === RELEASE_COMMAND) continue;
      const fromGithubEnv = Object.fromEntries(
        readFileSync(githubEnv, "utf8")
          .split("\n")
          .filter((line) => line.includes("="))
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      const stepEnv = Object.fromEntries(
        Object.entries(step.env).map(([name, value]) => [name, STEP_ENV_REHEARSED[name] ?? value]),
      );
      const ran = await run(
        clone,
        { ...publishEnv, ...fromGithubEnv, ...stepEnv },
        "bash",
        ["--noprofile", "--norc", "-eo", "pipefail", "-c", rehearsedCommand(step.run)],
        { mayFail: true },
      );
      stepsRun.push(step.name);
      expect(ran.code, `the release workflow's step "${step.name}":\n${ran.output}`).to.equal(0);
      lap(`workflow step "${step.name}"`);
    }
    // PyPI's trusted publishing (pypa/gh-action-pypi-publish), as twine uploads what the step gathered.
    const twineBin = path.join(installPypiserver(), "twine");
    const twine = (...files: string[]) =>
      run(
        clone,
        publishEnv,
        twineBin,
        [
          "upload",
          "--non-interactive",
          "--disable-progress-bar",
          "--repository-url",
          pypiserver.url,
          "--username",
          "rehearsal",
          "--password",
          "rehearsal",
          ...files,
        ],
        { mayFail: true },
      );
    const uploaded = await twine(
      ...readdirSync(path.join(clone, "python-dist")).map((file) => path.join(clone, "python-dist", file)),
    );
    expect(uploaded.code, uploaded.output).to.equal(0);
    // The module proxy serves the tagged module as proxy.golang.org would once the tag is pushed: the
    // release's GOPROXY-layout files (made from the tagged commit by Go's module tooling).
    cpSync(path.join(releaseDir, "go"), goProxyDir, { recursive: true });
    lap("PyPI upload (twine) and the Go module proxy's files");
    log(
      `Verdaccio's metadata of other publishers' packages fetched in ${(await warmUp).seconds.toFixed(1)} s`,
    );

    /** The environment of a user of their own, `name`: a fresh HOME and PULUMI_HOME. */
    const userEnvFor = (name: string) => {
      const home = path.join(work, "users", name);
      mkdirSync(path.join(home, "tmp"), { recursive: true });
      writeFileSync(path.join(home, ".npmrc"), `registry=${verdaccio.url}\n`);
      const env: NodeJS.ProcessEnv = {
        ...machineEnvironment(),
        ...caches,
        PATH,
        HOME: home,
        TMPDIR: path.join(home, "tmp"),
        PULUMI_HOME: path.join(home, ".pulumi"),
        PULUMI_BACKEND_URL: `file://${path.join(home, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: "rehearsal",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        // The CLI matches the source it would download from: `github://<host>/<owner>/<repository>`.
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_SOURCE.replace(/[.]/g, "\\.")}$=${downloads.url}releases/v\${VERSION}`,
        // pip looks here besides the machine's configured index, which holds the dependencies.
        PIP_EXTRA_INDEX_URL: `${pypiserver.url}simple/`,
        // The module proxy here first, then the machine's module downloads and its GOPROXY. The checksum
        // database knows the module once the real tag is public; until then it is not asked.
        GOPROXY: `${goProxy.url.replace(/\/$/, "")},file://${goEnv.GOMODCACHE}/cache/download,${goEnv.GOPROXY}`,
        GONOSUMDB: GO_SDK_MODULE,
        GOMODCACHE: goModCache,
        // Build results keyed by content, not by the module cache's path, so that a warm machine's build
        // cache serves them; a module cache whose files the test can remove.
        GOFLAGS: "-trimpath -modcacherw",
        [PROCESS_TAG_VARIABLE]: tag,
      };
      mkdirSync(path.join(home, "state"));
      for (const [key, value] of Object.entries(env)) {
        expect(value ?? "", `${key} leads into the clone`).to.not.include(repoRoot);
      }
      return env;
    };

    // The emulator, installed from the registry as a user installs it; every project starts its own.
    const emulatorDir = path.join(work, "users", "emulator-install");
    const emulatorInstall = (async () => {
      const env = userEnvFor("emulator");
      mkdirSync(emulatorDir, { recursive: true });
      writeFileSync(path.join(emulatorDir, "package.json"), JSON.stringify({ private: true }));
      const ran = await run(emulatorDir, env, "npm", [
        "install",
        "--no-audit",
        "--no-fund",
        `codesec-emulator@${version}`,
      ]);
      log(`emulator installed from Verdaccio: ${ran.seconds.toFixed(1)} s`);
      return emulatorDir;
    })();
    emulatorInstall.catch(() => undefined);

    /** Starts an emulator as a user starts it (`npx codesec-emulator`): its address and sample data. */
    async function startEmulator(env: NodeJS.ProcessEnv): Promise<Sample> {
      const dir = await emulatorInstall;
      const port = await freePort();
      const emulator = await startWatched(
        "the emulator",
        "npx",
        ["codesec-emulator", "--port", String(port), "--json"],
        { env, cwd: dir, url: `http://127.0.0.1:${port}`, readyUrl: `http://127.0.0.1:${port}/` },
      );
      servers.push(emulator);
      const readyLine = () =>
        emulator
          .output()
          .split("\n")
          .find((text) => text.startsWith("{") && text.endsWith("}"));
      for (let waited = 0; readyLine() === undefined && waited < 10_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const line = readyLine();
      if (line === undefined) throw new Error(`the emulator printed no ready line:\n${emulator.output()}`);
      const ready = JSON.parse(line) as {
        baseUrl: string;
        apiToken: string;
        deploymentId: string;
        sample: { memberUserId: string };
      };
      return { ...ready, memberUserId: ready.sample.memberUserId };
    }

    /** One language's project, start to end: install, config, up, a preview with no change, destroy. */
    async function rehearse(project: Project, name = slug(project.title)): Promise<Outcome> {
      const userEnv = userEnvFor(name);
      const dir = path.join(work, "projects", name);
      mkdirSync(dir, { recursive: true });
      const env = { ...userEnv, ...project.env?.(dir, userEnv) };
      const write = (files: Record<string, string>) => {
        for (const [file, text] of Object.entries(files)) {
          writeFileSync(
            path.join(dir, file),
            file === "Pulumi.yaml" ? `name: rehearsal-${name}\n${text}` : text,
          );
        }
      };
      write(project.files);
      const pulumi = (args: string[], input?: string) => run(dir, env, "pulumi", args, { input });
      let install = 0;
      let installOutput = "";
      for (const command of project.install) {
        const ran = await run(dir, env, command[0], command.slice(1));
        install += ran.seconds;
        installOutput += ran.output;
      }
      project.installedFrom(dir, installOutput);
      const sample = await startEmulator(env);
      write(project.filesFor?.(sample) ?? {});
      await pulumi(["stack", "init", "rehearsal"]);
      await pulumi(["config", "set", "codesec:baseUrl", sample.baseUrl]);
      await pulumi(["config", "set", "--secret", "codesec:token"], sample.apiToken);
      await pulumi(["config", "set", "deploymentId", sample.deploymentId]);
      await pulumi(["config", "set", "userId", sample.memberUserId]);
      const up = await pulumi(["up", "--yes", "--skip-preview", "--color", "never"]);
      expect(up.output, `${project.title}: pulumi up`).to.match(/^ +\+ 2 created$/m);
      const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).output) as Record<
        string,
        unknown
      >;
      expect(outputs.memberRole, `${project.title}: the role set`).to.equal("ORG_ROLE_ADMIN");
      const preview = await pulumi(["preview", "--expect-no-changes", "--color", "never"]);
      expect(preview.output, `${project.title}: pulumi preview`).to.match(/^ +2 unchanged$/m);
      const destroy = await pulumi(["destroy", "--yes", "--skip-preview", "--color", "never"]);
      expect(destroy.output, `${project.title}: pulumi destroy`).to.match(/^ +- 2 deleted$/m);
      await pulumi(["stack", "rm", "--yes", "rehearsal"]);
      const outcome = {
        install,
        up: up.seconds,
        preview: preview.seconds,
        destroy: destroy.seconds,
        pulumiHome: userEnv.PULUMI_HOME!,
      };
      log(
        `${project.title}: install ${install.toFixed(1)} s, first up ${up.seconds.toFixed(1)} s, ` +
          `preview ${preview.seconds.toFixed(1)} s, destroy ${destroy.seconds.toFixed(1)} s`,
      );
      return outcome;
    }

    return {
      work,
      clone,
      releaseDir,
      run,
      stepsRun,
      publishEnv,
      downloads,
      emulatorInstall,
      userEnvFor,
      twine,
      startEmulator,
      rehearse,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
