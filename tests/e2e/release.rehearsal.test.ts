/**
 * The release rehearsed end to end, as a user then installs it. `npm run release` and the publishing steps
 * of the release workflow (.github/workflows/release.yml's `run:` scripts, in order, from a committed copy
 * of this tree) run against registries started here on 127.0.0.1: Verdaccio for npm, pypiserver for Python
 * (twine stands in for PyPI's publishing action), a bare git remote for the Go SDK's tag with a Go module
 * proxy served from a folder in the GOPROXY layout, and a plain HTTP server holding what the GitHub release
 * step uploads (a `gh` stand-in copies the assets there), reached through the CLI's
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES. Then one project per language (TypeScript on the native SDK,
 * TypeScript on the dynamic resources, Python, Go, YAML), each for a user of its own (a fresh HOME and
 * PULUMI_HOME, nothing on PATH or in the environment that leads into the clone), installs only from those
 * registries, runs against an emulator installed the same way (`npx codesec-emulator`), and lets
 * `pulumi up` download and install the plugin by itself: up, a preview that shows no change, destroy.
 * Failure paths: a plugin archive whose checksum is not the one asked for is refused, and a registry that
 * refuses a publish fails the publishing step with the registry's own message.
 *
 * The registries' dependencies come from the machine's configured registries (npm's, pip's, `go env
 * GOPROXY`), whose download caches (npm's, pip's, Go's build cache, Go's module download cache read as a
 * proxy) the users share to keep the run short: every package still resolves through the registries here,
 * as the lockfiles and pip's report show.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import * as os from "node:os";
import * as path from "node:path";
import { committedCopy, git } from "../support/committedCopy";
import { PROCESS_TAG_VARIABLE, repoRoot } from "./support/harness";
import { taggedCommands, type Ran, type RunCommand } from "./support/rehearsalCommands";
import { rehearsalScratch, sweepKilledRehearsals } from "./support/rehearsalScratch";
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
} from "./support/registries";
import { readWorkflow } from "./support/workflowRunner";

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};
const version = manifest.version;
/** The @pulumi/pulumi (npm) and pulumi (PyPI) the programs use: the version the CLI is built from. */
const PULUMI_SDK_VERSION = manifest.devDependencies["@pulumi/pulumi"];
/** The schema's pluginDownloadURL (the SDKs carry it). */
const PLUGIN_SERVER = "github://api.github.com/pulumi-codesec";
/** Where the CLI downloads from for PLUGIN_SERVER: the GitHub releases of pulumi-codesec/pulumi-codesec. */
const PLUGIN_SOURCE = `${PLUGIN_SERVER}/pulumi-codesec`;
const GO_SDK_MODULE = "github.com/pulumi-codesec/pulumi-codesec/sdk/go";
/** The folder of the module cache that holds the SDK's module (and nothing else of the machine's). */
const GO_SDK_OWNER = "github.com/pulumi-codesec";
const PLUGIN_ARCHIVE = `pulumi-resource-codesec-v${version}-linux-amd64.tar.gz`;

/** What a TypeScript project installs besides @pulumi/pulumi and the package it uses. */
const TYPESCRIPT_DEV_DEPENDENCIES = { typescript: "~5.9.3", "ts-node": "^10.9.2", "@types/node": "^22.18.0" };

/**
 * The packages of other publishers that the users' installs resolve through Verdaccio: the TypeScript
 * projects' and the emulator's (the package.json dependencies of this package and of the emulator).
 */
function thirdPartyPackages(): string[] {
  const dependenciesOf = (file: string) =>
    (JSON.parse(readFileSync(path.join(repoRoot, file), "utf8")) as { dependencies: Record<string, string> })
      .dependencies;
  const all: Record<string, string> = {
    ...dependenciesOf("package.json"),
    ...dependenciesOf("emulator/package.json"),
    ...TYPESCRIPT_DEV_DEPENDENCIES,
    "@pulumi/pulumi": PULUMI_SDK_VERSION,
  };
  return Object.entries(all)
    .filter(([name]) => name !== "pulumi-codesec")
    .map(([name, range]) => `${name}@${range}`);
}

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
function ownNodeModules(copy: string): void {
  const target = path.join(copy, "node_modules");
  rmSync(target, { force: true });
  try {
    execFileSync("cp", ["-al", path.join(repoRoot, "node_modules"), target], { stdio: "pipe" });
  } catch {
    rmSync(target, { recursive: true, force: true });
    execFileSync("cp", ["-a", path.join(repoRoot, "node_modules"), target], { stdio: "pipe" });
  }
}

/**
 * The Go users' module cache: kept between runs (extracting the Pulumi SDK's hundreds of modules into a
 * fresh one, and removing them, takes minutes) outside the clone, one per clone, in the project's cache
 * folder (PULUMI_CODESEC_CACHE, as the set-up's); the SDK's own module is removed from it first, so that
 * every run downloads the release it made from the module proxy.
 */
function rehearsalGoModCache(): string {
  const cacheRoot =
    process.env.PULUMI_CODESEC_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "pulumi-codesec");
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

function releaseRunSteps(clone: string): RunStep[] {
  return readWorkflow(path.join(clone, ".github/workflows/release.yml"))
    .jobs.release.steps.filter((step) => step.run !== undefined)
    .map((step) => ({
      name: step.name ?? step.run!,
      run: step.run!,
      env: Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, String(value)])),
    }));
}

/** The step the rehearsal does not run: the clone's own set-up stands for it (the copy links it). */
const SET_UP_STEP = "Set up";

/**
 * The release step as rehearsed: a development tree's docs/performance.md was measured on other sources,
 * which a real release refuses (docs/release.md); the rehearsal builds anyway, marked not publishable.
 */
function rehearsedCommand(run: string): string {
  return run.trim() === "npm run release" ? "npm run release -- --allow-stale-performance" : run;
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

/** A language's project: its files, how its user installs it, what proves it installed from the registries. */
interface Project {
  readonly title: string;
  readonly files: Record<string, string>;
  /** Files written once the emulator runs, from its sample data. */
  readonly filesFor?: (sample: Sample) => Record<string, string>;
  /** Environment of this project's commands beyond the user's (an activated virtual environment). */
  readonly env?: (dir: string) => Record<string, string>;
  readonly install: string[][];
  readonly installedFrom: (dir: string, installOutput: string) => void;
  /** Whether the program runs the native plugin (which `pulumi up` downloads). */
  readonly plugin: boolean;
}

/** What an emulator started for a project serves: its address, a token and the sample's ids. */
interface Sample {
  readonly baseUrl: string;
  readonly apiToken: string;
  readonly deploymentId: string;
  readonly memberUserId: string;
}

/** What one project's run measured, in seconds. */
interface Outcome {
  readonly install: number;
  readonly up: number;
  readonly preview: number;
  readonly destroy: number;
  readonly pulumiHome: string;
}

const typescriptProject = (
  title: string,
  dependencies: Record<string, string>,
  program: string,
  plugin: boolean,
): Project => ({
  title,
  files: {
    "Pulumi.yaml": "runtime: nodejs\n",
    "package.json": JSON.stringify(
      {
        name: "rehearsal",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": PULUMI_SDK_VERSION, ...dependencies },
        devDependencies: TYPESCRIPT_DEV_DEPENDENCIES,
      },
      null,
      2,
    ),
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        outDir: "bin",
        target: "es2020",
        module: "commonjs",
        moduleResolution: "node",
        sourceMap: true,
        forceConsistentCasingInFileNames: true,
      },
      files: ["index.ts"],
    }),
    "index.ts": program,
  },
  install: [["npm", "install", "--no-audit", "--no-fund"]],
  installedFrom: (dir) => {
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { resolved?: string }>;
    };
    const resolved = Object.entries(lock.packages).filter(([name]) => name !== "");
    expect(resolved.length).to.be.greaterThan(10);
    for (const [name, entry] of resolved) {
      expect(entry.resolved, `${name} in package-lock.json`).to.match(/^http:\/\/127\.0\.0\.1:\d+\//);
    }
  },
  plugin,
});

const TYPESCRIPT_PROGRAM = (module: string) => `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "${module}";

const config = new pulumi.Config();
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const memberRole = role.role;
`;

const PROJECTS: Project[] = [
  typescriptProject(
    "TypeScript on the native SDK",
    { "@pulumi-codesec/codesec": version },
    TYPESCRIPT_PROGRAM("@pulumi-codesec/codesec"),
    true,
  ),
  typescriptProject(
    "TypeScript on the dynamic resources",
    { "pulumi-codesec": version },
    TYPESCRIPT_PROGRAM("pulumi-codesec"),
    false,
  ),
  {
    title: "Python",
    files: {
      "Pulumi.yaml": "runtime: python\n",
      "requirements.txt": `pulumi==${PULUMI_SDK_VERSION}\npulumi_codesec==${version}\n`,
      "__main__.py": `import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
role = codesec.UserRole(
    "member",
    deployment_id=config.require("deploymentId"),
    user_id=config.require("userId"),
    role=codesec.OrgRole.ADMIN,
)
pulumi.export("memberRole", role.role)
`,
    },
    // The virtual environment, activated as a user's shell activates it; PULUMI_PYTHON_CMD names its
    // interpreter too, for the language host built here, which reads no virtualenv option.
    env: (dir) => ({
      VIRTUAL_ENV: path.join(dir, "venv"),
      PULUMI_PYTHON_CMD: path.join(dir, "venv/bin/python"),
    }),
    install: [
      ["python3", "-m", "venv", "venv"],
      [
        "venv/bin/pip",
        "install",
        "--disable-pip-version-check",
        "--report",
        "pip-report.json",
        "-r",
        "requirements.txt",
      ],
    ],
    installedFrom: (dir) => {
      const report = JSON.parse(readFileSync(path.join(dir, "pip-report.json"), "utf8")) as {
        install: { metadata: { name: string }; download_info: { url: string } }[];
      };
      const sdk = report.install.find(
        (item) => item.metadata.name.replace(/[-_]/g, "_") === "pulumi_codesec",
      );
      expect(sdk?.download_info.url, "pulumi_codesec's download").to.match(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+/packages/pulumi_codesec-${version.replace(/\./g, "\\.")}-`),
      );
    },
    plugin: true,
  },
  {
    title: "Go",
    files: {
      "Pulumi.yaml": "runtime: go\n",
      "main.go": `package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		role, err := codesec.NewUserRole(ctx, "member", &codesec.UserRoleArgs{
			DeploymentId: pulumi.String(cfg.Require("deploymentId")),
			UserId:       pulumi.String(cfg.Require("userId")),
			Role:         codesec.OrgRoleAdmin,
		})
		if err != nil {
			return err
		}
		ctx.Export("memberRole", role.Role)
		return nil
	})
}
`,
    },
    install: [
      ["go", "mod", "init", "rehearsal"],
      ["go", "get", `${GO_SDK_MODULE}@v${version}`],
      ["go", "mod", "tidy"],
    ],
    installedFrom: (dir) => {
      const sums = readFileSync(path.join(dir, "go.sum"), "utf8");
      expect(sums).to.include(`${GO_SDK_MODULE} v${version} h1:`);
    },
    plugin: true,
  },
  {
    title: "YAML",
    // The YAML language host reads a config value that looks like a number as a number, even when the
    // project declares it a string, and the provider refuses a number as an id: the program names the
    // sample's ids itself, as strings. It names the plugin's version and where to download it too (the
    // SDKs of the other languages carry both).
    files: {},
    filesFor: (sample) => ({
      "Pulumi.yaml": `runtime: yaml
resources:
  member:
    type: codesec:UserRole
    properties:
      deploymentId: ${JSON.stringify(sample.deploymentId)}
      userId: ${JSON.stringify(sample.memberUserId)}
      role: ORG_ROLE_ADMIN
    options:
      version: ${version}
      pluginDownloadURL: ${PLUGIN_SERVER}
outputs:
  memberRole: \${member.role}
`,
    }),
    install: [],
    installedFrom: () => undefined,
    plugin: true,
  },
];

/** An archive's SHA-256 as the release's SHA256SUMS names it. */
function releaseSumIn(releaseDir: string, file: string): string {
  const line = readFileSync(path.join(releaseDir, "SHA256SUMS"), "utf8")
    .split("\n")
    .find((text) => text.endsWith(`  ${file}`));
  if (line === undefined) throw new Error(`SHA256SUMS names no ${file}`);
  return line.split("  ")[0];
}

function slug(title: string): string {
  return title.replace(/[^a-z]+/gi, "-").toLowerCase();
}

function log(message: string): void {
  process.stderr.write(`[rehearsal] ${message}\n`);
}

describe("the release, rehearsed against registries on 127.0.0.1 and installed as a user installs it", function () {
  this.timeout(2_400_000);
  const started = Date.now();
  let work: string;
  let tag: string;
  let run: RunCommand;
  let clone: string;
  let releaseDir: string;
  let verdaccio: RunningServer | undefined;
  let pypiserver: RunningServer | undefined;
  let downloads: FileServer | undefined;
  let goProxy: FileServer | undefined;
  const emulators: RunningServer[] = [];
  const stepsRun: string[] = [];
  let publishEnv: NodeJS.ProcessEnv;
  let userEnvFor: (name: string) => NodeJS.ProcessEnv;
  let twine: (...files: string[]) => Promise<Ran>;
  const outcomes = new Map<string, Promise<Outcome>>();
  let emulatorInstall: Promise<string>;

  before(async () => {
    ({ work, tag } = rehearsalScratch());
    run = taggedCommands(tag);
    sweepKilledRehearsals(path.dirname(path.dirname(work)));
    let phase = Date.now();
    const lap = (what: string) => {
      log(`${what}: ${((Date.now() - phase) / 1000).toFixed(1)} s`);
      phase = Date.now();
    };

    clone = path.join(work, "clone");
    committedCopy(clone);
    ownNodeModules(clone);
    releaseDir = path.join(clone, "release", `v${version}`);

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

    verdaccio = await startVerdaccio(path.join(work, "verdaccio"), npmRegistry, {
      ...serverEnv,
      HOME: path.join(work, "verdaccio"),
    });
    pypiserver = await startPypiserver(path.join(work, "pypi"), {
      ...serverEnv,
      HOME: path.join(work, "pypi"),
    });
    const downloadsDir = path.join(work, "downloads");
    mkdirSync(downloadsDir);
    downloads = await startFileServer(downloadsDir);
    const goProxyDir = path.join(work, "goproxy");
    mkdirSync(goProxyDir);
    goProxy = await startFileServer(goProxyDir);
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
    publishEnv = {
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
    twine = (...files: string[]) =>
      run(
        clone,
        publishEnv,
        twineBin,
        [
          "upload",
          "--non-interactive",
          "--disable-progress-bar",
          "--repository-url",
          pypiserver!.url,
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
    userEnvFor = (name: string) => {
      const home = path.join(work, "users", name);
      mkdirSync(path.join(home, "tmp"), { recursive: true });
      writeFileSync(path.join(home, ".npmrc"), `registry=${verdaccio!.url}\n`);
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
        PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_SOURCE.replace(/[.]/g, "\\.")}$=${downloads!.url}releases/v\${VERSION}`,
        // pip looks here besides the machine's configured index, which holds the dependencies.
        PIP_EXTRA_INDEX_URL: `${pypiserver!.url}simple/`,
        // The module proxy here first, then the machine's module downloads and its GOPROXY. The checksum
        // database knows the module once the real tag is public; until then it is not asked.
        GOPROXY: `${goProxy!.url.replace(/\/$/, "")},file://${goEnv.GOMODCACHE}/cache/download,${goEnv.GOPROXY}`,
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
    emulatorInstall = (async () => {
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

    for (const project of PROJECTS) {
      const outcome = rehearse(project);
      outcome.catch(() => undefined);
      outcomes.set(project.title, outcome);
    }
  });

  const releaseSum = (file: string) => releaseSumIn(releaseDir, file);
  const installPlugin = (env: NodeJS.ProcessEnv, how: string[]) =>
    run(env.HOME!, env, "pulumi", ["plugin", "install", "resource", "codesec", version, ...how], {
      mayFail: true,
    });

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
    emulators.push(emulator);
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
  async function rehearse(project: Project): Promise<Outcome> {
    const name = slug(project.title);
    const userEnv = userEnvFor(name);
    const dir = path.join(work, "projects", name);
    mkdirSync(dir, { recursive: true });
    const env = { ...userEnv, ...project.env?.(dir) };
    if (project.env) env.PATH = `${path.join(dir, "venv/bin")}:${userEnv.PATH}`;
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

  after(async () => {
    for (const emulator of emulators) await emulator.stop();
    await verdaccio?.stop();
    await pypiserver?.stop();
    await downloads?.close();
    await goProxy?.close();
    log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it("runs every `run:` step of the workflow's release job but its set-up", () => {
    expect(stepsRun).to.deep.equal(
      releaseRunSteps(clone)
        .map((step) => step.name)
        .filter((name) => name !== SET_UP_STEP),
    );
  });

  it("uploads to the GitHub release the plugin archives, SHA256SUMS, the SBOMs and the provenance", () => {
    const assets = readdirSync(path.join(work, "downloads/releases", `v${version}`)).sort();
    expect(assets).to.include.members([
      ...["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64"].map(
        (platform) => `pulumi-resource-codesec-v${version}-${platform}.tar.gz`,
      ),
      "SHA256SUMS",
      "provenance.intoto.json",
      `pulumi-codesec-${version}.tgz.cdx.json`,
    ]);
  });

  it("publishes the Go SDK's tag sdk/go/v<version> on the release's commit", () => {
    const tagged = git(
      path.join(work, "origin.git"),
      "rev-parse",
      `refs/tags/sdk/go/v${version}^{commit}`,
    ).trim();
    expect(tagged).to.equal(git(clone, "rev-parse", "HEAD").trim());
  });

  it("installs the emulator from Verdaccio without @pulumi/pulumi (`npx codesec-emulator` runs)", async () => {
    const dir = await emulatorInstall;
    expect(existsSync(path.join(dir, "node_modules/codesec-emulator/bin/codesec-emulator.js"))).to.equal(
      true,
    );
    expect(existsSync(path.join(dir, "node_modules/@pulumi/pulumi")), "@pulumi/pulumi installed").to.equal(
      false,
    );
  });

  for (const project of PROJECTS) {
    it(`${project.title}: installs from the registries, then up, a preview with no change, destroy`, async () => {
      const outcome = await outcomes.get(project.title)!;
      const installed = path.join(outcome.pulumiHome, "plugins", `resource-codesec-v${version}`);
      expect(existsSync(installed), `the plugin installed by pulumi up into ${installed}`).to.equal(
        project.plugin,
      );
    });
  }

  it("lets the CLI download the plugin from the release's server, once per user that needs it", async () => {
    await Promise.allSettled(outcomes.values());
    const fetched = downloads!.requests.filter(
      (request) => request === `/releases/v${version}/${PLUGIN_ARCHIVE}`,
    );
    expect(fetched.length).to.equal(PROJECTS.filter((project) => project.plugin).length);
  });

  it("leaves no path into the clone in the projects, their lockfiles and installed packages, or the users' homes", async () => {
    await Promise.allSettled(outcomes.values());
    const found = await run(
      work,
      publishEnv,
      "grep",
      ["-rlF", "--", repoRoot, path.join(work, "users"), path.join(work, "projects")],
      {
        mayFail: true,
      },
    );
    expect(found.code, found.output).to.equal(1);
    expect(found.output).to.equal("");
  });

  it("refuses a plugin archive whose checksum is not the one asked for, and installs none of it", async () => {
    const env = userEnvFor("checksum-wrong");
    const wrong = releaseSum(PLUGIN_ARCHIVE).replace(/^./, (first) => (first === "0" ? "1" : "0"));
    const refused = await installPlugin(env, ["--server", PLUGIN_SERVER, "--checksum", wrong]);
    expect(refused.code, refused.output).to.not.equal(0);
    expect(refused.output).to.match(
      new RegExp(
        `^error: .*downloading from ${PLUGIN_SERVER}: failed to download plugin: codesec-${version}: invalid checksum, expected ${wrong}, actual [0-9a-f]{64}$`,
        "m",
      ),
    );
    expect(existsSync(path.join(env.PULUMI_HOME!, "plugins", `resource-codesec-v${version}`))).to.equal(
      false,
    );
  });

  it("verifies a downloaded archive against SHA256SUMS (sha256sum -c), then installs it (pulumi plugin install -f)", async () => {
    const env = userEnvFor("checksum-verified");
    const dir = path.join(env.HOME!, "download");
    mkdirSync(dir);
    for (const file of [PLUGIN_ARCHIVE, "SHA256SUMS"]) {
      const response = await fetch(`${downloads!.url}releases/v${version}/${file}`);
      expect(response.status, file).to.equal(200);
      writeFileSync(path.join(dir, file), Buffer.from(await response.arrayBuffer()));
    }
    const checked = await run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"]);
    expect(checked.output.trim()).to.equal(`${PLUGIN_ARCHIVE}: OK`);
    writeFileSync(
      path.join(dir, PLUGIN_ARCHIVE),
      Buffer.concat([readFileSync(path.join(dir, PLUGIN_ARCHIVE)), Buffer.from("x")]),
    );
    const tampered = await run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"], {
      mayFail: true,
    });
    expect(tampered.code).to.equal(1);
    expect(tampered.output).to.include(`${PLUGIN_ARCHIVE}: FAILED`);
    const response = await fetch(`${downloads!.url}releases/v${version}/${PLUGIN_ARCHIVE}`);
    writeFileSync(path.join(dir, PLUGIN_ARCHIVE), Buffer.from(await response.arrayBuffer()));
    await run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"]);
    const installed = await installPlugin(env, ["-f", path.join(dir, PLUGIN_ARCHIVE)]);
    expect(installed.code, installed.output).to.equal(0);
    const plugin = path.join(
      env.PULUMI_HOME!,
      "plugins",
      `resource-codesec-v${version}`,
      "pulumi-resource-codesec",
    );
    expect(existsSync(plugin)).to.equal(true);
  });

  // The CLI's --checksum hashes the download as it reads it but leaves out the last piece when the read
  // that brings it also reports the end, which Go's HTTP client does for a response with a Content-Length
  // (GitHub's release downloads have one): the right checksum is refused too. docs/release.md says to
  // check with sha256sum instead; this fails once the CLI is fixed, so that the docs can say otherwise.
  it("has the CLI's --checksum refuse the right checksum of a download with a Content-Length too", async () => {
    const env = userEnvFor("checksum-right");
    const right = releaseSum(PLUGIN_ARCHIVE);
    const refused = await installPlugin(env, ["--server", PLUGIN_SERVER, "--checksum", right]);
    expect(refused.code, refused.output).to.not.equal(0);
    expect(refused.output).to.include(`invalid checksum, expected ${right}, actual `);
  });

  it("fails the npm publishing step with Verdaccio's message when it refuses a version it holds", async () => {
    const again = await run(clone, publishEnv, "bash", ["scripts/release/publish-npm.sh", releaseDir], {
      mayFail: true,
    });
    expect(again.code, again.output).to.not.equal(0);
    expect(again.output).to.match(/this package is already present|cannot publish over/i);
  });

  it("fails the PyPI upload with pypiserver's message when it refuses a file it holds", async () => {
    const wheel = readdirSync(path.join(clone, "python-dist")).find((file) => file.endsWith(".whl"))!;
    const again = await twine(path.join(clone, "python-dist", wheel));
    expect(again.code, again.output).to.not.equal(0);
    expect(again.output).to.match(/409|already exists/i);
  });
});
