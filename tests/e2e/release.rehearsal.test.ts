/**
 * The release rehearsed end to end, as a user then installs it: `npm run release` on a committed copy of
 * this tree; the release workflow's publishing steps (.github/workflows/release.yml's `run:` scripts) pointed
 * at registries started here on 127.0.0.1 (Verdaccio for npm; a plain HTTP server holding what the GitHub
 * release step uploads, reached through the CLI's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES; a bare git remote
 * for the Go SDK's tag); then, in a fresh HOME and PULUMI_HOME with nothing on PATH or in the environment
 * that leads into the clone, TypeScript projects on the native SDK and on the dynamic resources that
 * install only from those registries, against the emulator installed the same way (`npx codesec-emulator`):
 * `pulumi up` downloads and installs the plugin by itself, a preview shows no change, `pulumi destroy`.
 * A plugin archive whose checksum is not the one asked for is refused, and so is a second publish of a
 * version (with the registry's own message).
 */
import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { committedCopy, git } from "../support/committedCopy";
import { repoRoot, scratchDir } from "./support/harness";
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

const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;
const PLUGIN_SERVER = "github://api.github.com/pulumi-codesec";
/** Where the CLI downloads from for PLUGIN_SERVER: the GitHub releases of pulumi-codesec/pulumi-codesec. */
const PLUGIN_SOURCE = `${PLUGIN_SERVER}/pulumi-codesec`;

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

/** Runs `command` to its end; its exit code and output (stdout and stderr together). */
function runIn(
  cwd: string,
  env: NodeJS.ProcessEnv,
  command: string,
  args: string[],
  input?: string,
): { code: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", input, timeout: 600_000 });
  return { code: result.status, output: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

function mustRun(
  cwd: string,
  env: NodeJS.ProcessEnv,
  command: string,
  args: string[],
  input?: string,
): string {
  const { code, output } = runIn(cwd, env, command, args, input);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${code} in ${cwd}:\n${output}`);
  return output;
}

/** What a successful CLI command must not print. */
function expectClean(output: string, what: string): void {
  expect(output, what).to.not.match(/^\s*error:/m);
  expect(output, what).to.not.match(/^\s*warning:/m);
}

/** Whether process `pid` is running. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes what an earlier rehearsal that was killed left in `systemTmp`: the scratch folder (tests/e2e/support/
 * harness.ts) of a process whose rehearsal folder names it as owner and that no longer runs. Its servers went
 * with it (their watchdogs).
 */
function removeKilledRehearsals(systemTmp: string): void {
  for (const scratch of readdirSync(systemTmp).filter((name) => name.startsWith("codesec-e2e-"))) {
    const dir = path.join(systemTmp, scratch);
    let owners: number[];
    try {
      owners = readdirSync(dir)
        .filter((name) => name.startsWith("rehearsal-"))
        .map((name) => path.join(dir, name, "owner.pid"))
        .filter((file) => existsSync(file))
        .map((file) => Number(readFileSync(file, "utf8")));
    } catch {
      continue;
    }
    if (owners.length > 0 && owners.every((pid) => pid !== process.pid && !isRunning(pid))) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
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

describe("the release, rehearsed against registries on 127.0.0.1 and installed as a user installs it", function () {
  this.timeout(1_800_000);
  let work: string;
  let clone: string;
  let releaseDir: string;
  let verdaccio: RunningServer;
  let pypiserver: RunningServer;
  const stepsRun: string[] = [];
  let emulator: RunningServer | undefined;
  let downloads: FileServer;
  let userEnv: NodeJS.ProcessEnv;
  let publishEnv: NodeJS.ProcessEnv;
  let sample: { baseUrl: string; apiToken: string; deploymentId: string; memberUserId: string };

  before(async () => {
    work = realpathSync(scratchDir("rehearsal"));
    writeFileSync(path.join(work, "owner.pid"), String(process.pid));
    removeKilledRehearsals(path.dirname(path.dirname(work)));
    clone = path.join(work, "clone");
    committedCopy(clone);
    releaseDir = path.join(clone, "release", `v${version}`);

    // The user's tools, none inside the clone: a copy of the set-up's Node, the CLI's own folder (with its
    // Node.js language host and dynamic-provider plugin), the system's folders; and a `gh` that uploads a
    // release's assets into the download server's folder as GitHub would.
    const bin = path.join(work, "bin");
    mkdirSync(bin);
    copyFileSync(realpathSync(process.execPath), path.join(bin, "node"));
    chmodSync(path.join(bin, "node"), 0o755);
    const pulumiBin = path.dirname(
      realpathSync(execFileSync("bash", ["-c", "command -v pulumi"], { encoding: "utf8" }).trim()),
    );
    expect(pulumiBin.startsWith(repoRoot), "the CLI's folder is outside the clone").to.equal(false);
    const downloadsDir = path.join(work, "downloads");
    mkdirSync(downloadsDir);
    writeFileSync(
      path.join(bin, "gh"),
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
    chmodSync(path.join(bin, "gh"), 0o755);
    const PATH = [
      bin,
      pulumiBin,
      "/usr/local/sbin",
      "/usr/local/bin",
      "/usr/sbin",
      "/usr/bin",
      "/sbin",
      "/bin",
    ].join(":");
    const home = path.join(work, "home");
    mkdirSync(path.join(home, "tmp"), { recursive: true });
    const upstream = execFileSync("npm", ["config", "get", "registry"], {
      encoding: "utf8",
      cwd: home,
    }).trim();

    verdaccio = await startVerdaccio(path.join(work, "verdaccio"), upstream, {
      ...machineEnvironment(),
      PATH,
      HOME: path.join(work, "verdaccio"),
    });
    downloads = await startFileServer(downloadsDir);
    const token = await verdaccioToken(verdaccio.url);
    const npmrc = path.join(home, ".npmrc");
    const registryHost = verdaccio.url.replace(/^http:/, "");
    writeFileSync(npmrc, `registry=${verdaccio.url}\n${registryHost}:_authToken=${token}\n`);

    userEnv = {
      ...machineEnvironment(),
      PATH,
      HOME: home,
      TMPDIR: path.join(home, "tmp"),
      PULUMI_HOME: path.join(home, ".pulumi"),
      PULUMI_BACKEND_URL: `file://${path.join(work, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "rehearsal",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // The CLI matches the source it would download from: `github://<host>/<owner>/<repository>`.
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_SOURCE.replace(/[.]/g, "\\.")}$=${downloads.url}releases/v\${VERSION}`,
    };
    mkdirSync(path.join(work, "state"));
    for (const [name, value] of Object.entries(userEnv)) {
      expect(value ?? "", `${name} leads into the clone`).to.not.include(repoRoot);
    }

    // The release job's `run:` steps, in order, from the clone as the workflow runs them, with its
    // publishing pointed at the registries here. Its set-up step is this clone's own (the copy links its
    // node_modules and .tools); its `uses:` steps are GitHub's (the attestation) or stand in below (PyPI).
    pypiserver = await startPypiserver(path.join(work, "pypi"), { ...machineEnvironment(), PATH });
    // pip looks here besides the machine's configured index, which holds the dependencies.
    userEnv.PIP_EXTRA_INDEX_URL = `${pypiserver.url}simple/`;
    const origin = path.join(work, "origin.git");
    git(work, "init", "--quiet", "--bare", origin);
    const githubEnv = path.join(work, "github-env");
    writeFileSync(githubEnv, "");
    const runnerHome = path.join(work, "runner-home");
    mkdirSync(runnerHome);
    publishEnv = {
      ...runnerEnvironment(),
      PATH: `${bin}:${runnerEnvironment().PATH}`,
      HOME: runnerHome,
      NPM_CONFIG_USERCONFIG: npmrc,
      GIT_CONFIG_NOSYSTEM: "1",
      GITHUB_REF_NAME: `v${version}`,
      GITHUB_ENV: githubEnv,
      REMOTE: origin,
    };
    for (const step of releaseRunSteps(clone)) {
      if (step.name === "Set up") continue;
      const fromGithubEnv = Object.fromEntries(
        readFileSync(githubEnv, "utf8")
          .split("\n")
          .filter((line) => line.includes("="))
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
      const stepEnv = Object.fromEntries(
        Object.entries(step.env).map(([name, value]) => [name, STEP_ENV_REHEARSED[name] ?? value]),
      );
      const ran = runIn(clone, { ...publishEnv, ...fromGithubEnv, ...stepEnv }, "bash", [
        "--noprofile",
        "--norc",
        "-eo",
        "pipefail",
        "-c",
        step.run,
      ]);
      stepsRun.push(step.name);
      expect(ran.code, `the release workflow's step "${step.name}":\n${ran.output}`).to.equal(0);
    }
    // PyPI's trusted publishing, as twine uploads what the workflow's step gathered.
    mustRun(clone, publishEnv, path.join(installPypiserver(), "twine"), [
      "upload",
      "--non-interactive",
      "--repository-url",
      pypiserver.url,
      "--username",
      "rehearsal",
      "--password",
      "rehearsal",
      ...readdirSync(path.join(clone, "python-dist")).map((file) => path.join(clone, "python-dist", file)),
    ]);

    // The emulator, installed from the registry and started as a user starts it.
    const tools = path.join(work, "emulator");
    mkdirSync(tools);
    writeFileSync(path.join(tools, "package.json"), JSON.stringify({ private: true }));
    mustRun(tools, userEnv, "npm", ["install", "--no-audit", "--no-fund", `codesec-emulator@${version}`]);
    const port = await freePort();
    emulator = await startWatched(
      "the emulator",
      "npx",
      ["codesec-emulator", "--port", String(port), "--json"],
      {
        env: userEnv,
        cwd: tools,
        url: `http://127.0.0.1:${port}`,
        readyUrl: `http://127.0.0.1:${port}/`,
      },
    );
    const ready = JSON.parse(
      emulator
        .output()
        .split("\n")
        .find((line) => line.startsWith("{"))!,
    ) as {
      baseUrl: string;
      apiToken: string;
      deploymentId: string;
      sample: { memberUserId: string };
    };
    sample = { ...ready, memberUserId: ready.sample.memberUserId };
  });

  after(async () => {
    await emulator?.stop();
    await verdaccio?.stop();
    await pypiserver?.stop();
    await downloads?.close();
  });

  it("uploads to the GitHub release the plugin archives, SHA256SUMS, the SBOMs and the provenance", () => {
    const assets = readdirSync(path.join(work, "downloads/releases", `v${version}`)).sort();
    expect(assets).to.include.members([
      `pulumi-resource-codesec-v${version}-linux-amd64.tar.gz`,
      `pulumi-resource-codesec-v${version}-darwin-arm64.tar.gz`,
      "SHA256SUMS",
      "provenance.intoto.json",
      `pulumi-codesec-${version}.tgz.cdx.json`,
    ]);
  });

  it("runs every `run:` step of the workflow's release job but its set-up", () => {
    expect(stepsRun).to.deep.equal(
      releaseRunSteps(clone)
        .map((step) => step.name)
        .filter((name) => name !== "Set up"),
    );
  });

  it("publishes the Go SDK's tag sdk/go/v<version> on the release's commit", () => {
    const tagged = git(
      path.join(work, "origin.git"),
      "rev-parse",
      `refs/tags/sdk/go/v${version}^{commit}`,
    ).trim();
    expect(tagged).to.equal(git(clone, "rev-parse", "HEAD").trim());
  });

  const typescriptProject = (dependencies: Record<string, string>, program: string) => ({
    files: {
      "Pulumi.yaml": "runtime: nodejs\n",
      "package.json": JSON.stringify({
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": "3.259.0", ...dependencies },
        devDependencies: { typescript: "~5.9.3", "@types/node": "^22.18.0" },
      }),
      "index.ts": program,
    },
    install: [["npm", "install", "--no-audit", "--no-fund"]],
    installedFrom: (dir: string) => {
      const lock = readFileSync(path.join(dir, "package-lock.json"), "utf8");
      expect(lock, "every package resolved from the registry on 127.0.0.1").to.not.match(
        /"resolved": "(?!http:\/\/127\.0\.0\.1)/,
      );
    },
  });

  const PROGRAMS: Record<
    string,
    { files: Record<string, string>; install: string[][]; installedFrom: (dir: string) => void }
  > = {
    "TypeScript on the native SDK": typescriptProject(
      { "@pulumi-codesec/codesec": version },
      `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config("rehearsal");
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const roleId = role.id;
`,
    ),
    "TypeScript on the dynamic resources": typescriptProject(
      { "pulumi-codesec": version },
      `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

const config = new pulumi.Config("rehearsal");
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const roleId = role.id;
`,
    ),
    Python: {
      files: {
        "Pulumi.yaml": "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n",
        "requirements.txt": `pulumi==3.259.0\npulumi_codesec==${version}\n`,
        "__main__.py": `import pulumi
import pulumi_codesec as codesec

config = pulumi.Config("rehearsal")
role = codesec.UserRole("member",
    deployment_id=config.require("deploymentId"),
    user_id=config.require("userId"),
    role=codesec.OrgRole.ADMIN)
pulumi.export("roleId", role.id)
`,
      },
      install: [["pulumi", "install"]],
      installedFrom: () => {
        expect(pypiserver.output()).to.include(`pulumi_codesec-${version}`);
      },
    },
    YAML: {
      files: {
        "Pulumi.yaml": `runtime: yaml
config:
  rehearsal:deploymentId:
    type: string
  rehearsal:userId:
    type: string
resources:
  member:
    type: codesec:UserRole
    properties:
      deploymentId: \${rehearsal:deploymentId}
      userId: \${rehearsal:userId}
      role: ORG_ROLE_ADMIN
    options:
      version: ${version}
      pluginDownloadURL: ${PLUGIN_SERVER}
outputs:
  roleId: \${member.id}
`,
      },
      install: [],
      installedFrom: () => undefined,
    },
  };

  for (const [title, project] of Object.entries(PROGRAMS)) {
    it(`${title}: installs from the registries, then up, a preview with no change, destroy`, () => {
      const name = `rehearsal-${title.replace(/[^a-z]+/gi, "-").toLowerCase()}`;
      const dir = path.join(work, "projects", name);
      mkdirSync(dir, { recursive: true });
      for (const [file, text] of Object.entries(project.files)) {
        writeFileSync(path.join(dir, file), file === "Pulumi.yaml" ? `name: ${name}\n${text}` : text);
      }
      mustRun(dir, userEnv, "pulumi", ["stack", "init", "rehearsal"]);
      for (const command of project.install) mustRun(dir, userEnv, command[0], command.slice(1));
      project.installedFrom(dir);
      mustRun(dir, userEnv, "pulumi", ["config", "set", "codesec:baseUrl", sample.baseUrl]);
      mustRun(dir, userEnv, "pulumi", ["config", "set", "--secret", "codesec:token"], sample.apiToken);
      mustRun(dir, userEnv, "pulumi", ["config", "set", "rehearsal:deploymentId", sample.deploymentId]);
      mustRun(dir, userEnv, "pulumi", ["config", "set", "rehearsal:userId", sample.memberUserId]);

      const up = runIn(dir, userEnv, "pulumi", ["up", "--yes", "--skip-preview"]);
      expect(up.code, up.output).to.equal(0);
      expectClean(up.output, "pulumi up");
      expect(up.output).to.match(/\+ 1 created|1 created/);
      const preview = runIn(dir, userEnv, "pulumi", ["preview", "--expect-no-changes"]);
      expect(preview.code, preview.output).to.equal(0);
      expectClean(preview.output, "pulumi preview");
      const destroy = runIn(dir, userEnv, "pulumi", ["destroy", "--yes", "--skip-preview"]);
      expect(destroy.code, destroy.output).to.equal(0);
      expectClean(destroy.output, "pulumi destroy");
      mustRun(dir, userEnv, "pulumi", ["stack", "rm", "--yes", "rehearsal"]);
    });
  }

  it("lets the CLI download the plugin from the release, by itself (the native program's up)", () => {
    expect(downloads.requests).to.include(
      `/releases/v${version}/pulumi-resource-codesec-v${version}-linux-amd64.tar.gz`,
    );
    expect(existsSync(path.join(userEnv.PULUMI_HOME!, "plugins", `resource-codesec-v${version}`))).to.equal(
      true,
    );
  });

  it("refuses a plugin archive whose checksum is not the one asked for, and installs the one SHA256SUMS names", () => {
    const archive = `pulumi-resource-codesec-v${version}-linux-amd64.tar.gz`;
    const sums = readFileSync(path.join(releaseDir, "SHA256SUMS"), "utf8");
    const sum = sums
      .split("\n")
      .find((line) => line.endsWith(`  ${archive}`))!
      .split("  ")[0];
    const wrong = sum.replace(/^./, sum.startsWith("0") ? "1" : "0");
    const pulumiHome = path.join(work, "home-checksum", ".pulumi");
    const env = { ...userEnv, PULUMI_HOME: pulumiHome };
    const install = (checksum: string) =>
      runIn(work, env, "pulumi", [
        "plugin",
        "install",
        "resource",
        "codesec",
        version,
        "--server",
        PLUGIN_SERVER,
        "--checksum",
        checksum,
      ]);
    const refused = install(wrong);
    expect(refused.code, refused.output).to.not.equal(0);
    expect(refused.output).to.match(/checksum/i);
    expect(existsSync(path.join(pulumiHome, "plugins", `resource-codesec-v${version}`))).to.equal(false);
    const installed = install(sum);
    expect(installed.code, installed.output).to.equal(0);
    expect(
      existsSync(path.join(pulumiHome, "plugins", `resource-codesec-v${version}`, "pulumi-resource-codesec")),
    ).to.equal(true);
  });

  it("fails the publish step with the registry's message when the registry refuses a tarball", () => {
    const again = runIn(clone, publishEnv, "bash", ["scripts/release/publish-npm.sh", releaseDir]);
    expect(again.code).to.not.equal(0);
    expect(again.output).to.match(/cannot publish over|already present|EPUBLISHCONFLICT|403/i);
  });
});
