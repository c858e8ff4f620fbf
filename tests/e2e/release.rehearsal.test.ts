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
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { committedCopy, git, runRelease } from "../support/committedCopy";
import { repoRoot, scratchDir } from "./support/harness";
import {
  freePort,
  startFileServer,
  startVerdaccio,
  startWatched,
  verdaccioToken,
  type FileServer,
  type RunningServer,
} from "./support/registries";

const version = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string })
  .version;
const PLUGIN_SERVER = "github://api.github.com/pulumi-codesec";

/** The machine's own settings a user's shell has too (network, certificates, locale), none into the clone. */
const MACHINE_VARIABLES =
  /^(LANG|LC_[A-Z]+|TZ|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|REQUESTS_CA_BUNDLE|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)$/;

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

describe("the release, rehearsed against registries on 127.0.0.1 and installed as a user installs it", function () {
  this.timeout(1_800_000);
  let work: string;
  let clone: string;
  let releaseDir: string;
  let verdaccio: RunningServer;
  let emulator: RunningServer | undefined;
  let downloads: FileServer;
  let userEnv: NodeJS.ProcessEnv;
  let publishEnv: NodeJS.ProcessEnv;
  let sample: { baseUrl: string; apiToken: string; deploymentId: string; memberUserId: string };

  before(async () => {
    work = realpathSync(scratchDir("rehearsal"));
    clone = path.join(work, "clone");
    committedCopy(clone);
    const made = runRelease(clone);
    expect(made.status, made.stderr).to.equal(0);
    releaseDir = made.stdout.trim();

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
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${PLUGIN_SERVER.replace(/[.]/g, "\\.")}$=${downloads.url}releases/v\${VERSION}`,
    };
    mkdirSync(path.join(work, "state"));
    for (const [name, value] of Object.entries(userEnv)) {
      expect(value ?? "", `${name} leads into the clone`).to.not.include(repoRoot);
    }

    // The workflow's publishing steps, from the clone as the workflow runs them.
    publishEnv = { ...userEnv, GIT_CONFIG_NOSYSTEM: "1" };
    mustRun(clone, publishEnv, "bash", ["scripts/release/publish-npm.sh", releaseDir]);
    mustRun(clone, publishEnv, "bash", ["scripts/release/github-release.sh", releaseDir]);
    const origin = path.join(work, "origin.git");
    git(work, "init", "--quiet", "--bare", origin);
    mustRun(clone, { ...publishEnv, REMOTE: origin }, "bash", ["scripts/release/publish-go.sh", version]);

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
    await downloads?.close();
  });

  it("publishes the Go SDK's tag sdk/go/v<version> on the release's commit", () => {
    const tagged = git(
      path.join(work, "origin.git"),
      "rev-parse",
      `refs/tags/sdk/go/v${version}^{commit}`,
    ).trim();
    expect(tagged).to.equal(git(clone, "rev-parse", "HEAD").trim());
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

  const PROGRAMS = {
    "TypeScript on the native SDK": {
      dependencies: { "@pulumi-codesec/codesec": version },
      program: `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

const config = new pulumi.Config("rehearsal");
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const roleId = role.id;
`,
    },
    "TypeScript on the dynamic resources": {
      dependencies: { "pulumi-codesec": version },
      program: `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

const config = new pulumi.Config("rehearsal");
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const roleId = role.id;
`,
    },
  } as const;

  for (const [title, { dependencies, program }] of Object.entries(PROGRAMS)) {
    it(`${title}: installs from the registry, then up, a preview with no change, destroy`, () => {
      const name = title.replace(/[^a-z]+/gi, "-").toLowerCase();
      const dir = path.join(work, "projects", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
      writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({
          name,
          private: true,
          main: "index.ts",
          dependencies: { "@pulumi/pulumi": "3.259.0", ...dependencies },
          devDependencies: { typescript: "~5.9.3", "@types/node": "^22.18.0" },
        }),
      );
      writeFileSync(path.join(dir, "index.ts"), program);
      mustRun(dir, userEnv, "npm", ["install", "--no-audit", "--no-fund"]);
      const lock = readFileSync(path.join(dir, "package-lock.json"), "utf8");
      expect(lock, "every package resolved from the registry on 127.0.0.1").to.not.match(
        /"resolved": "(?!http:\/\/127\.0\.0\.1)/,
      );

      mustRun(dir, userEnv, "pulumi", ["stack", "init", "rehearsal"]);
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
