/**
 * scripts/install-plugin.sh: it installs this tree's plugin into the CLI's plugin cache, but never
 * silently replaces a plugin of the same version that is not this clone's own earlier build (a release
 * the user installed, another clone's build). The CLI is a stand-in here that unpacks the archive as
 * `pulumi plugin install -f` does and records each call; the real CLI's install is the e2e suite's.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion, treeBuildHash } from "../../scripts/plugin-release";

const repoRoot = path.resolve(__dirname, "../..");
const MARKER = ".installed-by-codesec-clone";

/** A `pulumi` that logs its arguments and unpacks `-f <archive>` into $PULUMI_HOME/plugins, as the CLI does. */
const FAKE_PULUMI = `#!/bin/sh
mkdir -p "$PULUMI_HOME" && echo "$*" >>"$PULUMI_HOME/pulumi-calls"
archive=""
while [ $# -gt 0 ]; do
  if [ "$1" = "-f" ]; then archive=$2; fi
  shift
done
dir="$PULUMI_HOME/plugins/resource-codesec-v${packageVersion()}"
rm -rf "$dir" && mkdir -p "$dir" && tar -xzf "$archive" -C "$dir"
`;

describe("scripts/install-plugin.sh: never replaces a plugin it did not install", function () {
  this.timeout(120_000);
  let work: string;
  let home: string;
  let pluginDir: string;
  let build: string;

  before(() => {
    build = treeBuildHash();
  });

  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-install-plugin-test-"));
    home = path.join(work, "pulumi-home");
    pluginDir = path.join(home, "plugins", `resource-codesec-v${packageVersion()}`);
    mkdirSync(path.join(work, "bin"), { recursive: true });
    writeFileSync(path.join(work, "bin", "pulumi"), FAKE_PULUMI, { mode: 0o755 });
  });

  afterEach(() => rmSync(work, { recursive: true, force: true }));

  /** An installed plugin whose launcher prints `buildInfo` (none: it gives no --build-info). */
  function installed(buildInfo: string | undefined, marker?: string): void {
    mkdirSync(pluginDir, { recursive: true });
    const body = buildInfo === undefined ? "exit 1" : `echo '${buildInfo}'`;
    writeFileSync(path.join(pluginDir, "pulumi-resource-codesec"), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    if (marker !== undefined) writeFileSync(path.join(pluginDir, MARKER), `${marker}\n`);
  }

  function run(env: Record<string, string> = {}) {
    const result = spawnSync("bash", ["scripts/install-plugin.sh"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: {
        ...process.env,
        PATH: `${path.join(work, "bin")}:${process.env.PATH}`,
        PULUMI_HOME: home,
        CODESEC_REPLACE_PLUGIN: "",
        ...env,
      },
    });
    expect(result.status, result.stderr).to.equal(0);
    const calls = existsSync(path.join(home, "pulumi-calls"))
      ? readFileSync(path.join(home, "pulumi-calls"), "utf8").trim().split("\n")
      : [];
    return { ...result, calls };
  }

  const release = JSON.stringify({ version: packageVersion(), build: `sha256:${"0".repeat(64)}` });

  it("installs into an empty cache, bundling once, and marks the plugin as this clone's", () => {
    const { calls, stdout, stderr } = run();
    expect(calls).to.have.length(1);
    expect(calls[0]).to.match(/^plugin install resource codesec \S+ -f \S+\.tar\.gz --reinstall$/);
    expect(readFileSync(path.join(pluginDir, MARKER), "utf8").trim()).to.equal(repoRoot);
    // plugin-release.ts logs each esbuild run to stderr: the archive's bundle and its build hash come
    // from one, and nothing builds it again to learn the hash; it prints the archive with that hash.
    expect(stderr.match(/^\[plugin-release\] esbuild: /gm), stderr).to.have.length(1);
    expect(stdout).to.include(`[install-plugin] built pulumi-resource-codesec-v${packageVersion()}-`);
    expect(stdout).to.match(new RegExp(`\\.tar\\.gz \\(${build}\\)\n`));
  });

  it("keeps a release the user installed, warning with how to replace it", () => {
    installed(release);
    const { calls, stderr } = run();
    expect(calls).to.deep.equal([]);
    expect(stderr)
      .to.include("a plugin not installed by a set-up")
      .and.include(`sha256:${"0".repeat(64)}`);
    expect(stderr).to.include("CODESEC_REPLACE_PLUGIN=1");
    expect(readFileSync(path.join(pluginDir, "pulumi-resource-codesec"), "utf8")).to.include(release);
  });

  it("keeps another clone's build and one with no --build-info", () => {
    installed(release, "/elsewhere/pulumi-codesec");
    expect(run().stderr).to.include("the build of another clone (/elsewhere/pulumi-codesec)");
    rmSync(pluginDir, { recursive: true });
    installed(undefined);
    const { calls, stderr } = run();
    expect(stderr).to.include("a plugin that gives no --build-info");
    expect(calls).to.deep.equal([]);
  });

  it("replaces this clone's earlier build, or any with CODESEC_REPLACE_PLUGIN=1", () => {
    installed(release, repoRoot);
    expect(run().calls).to.have.length(1);
    rmSync(pluginDir, { recursive: true });
    installed(release);
    rmSync(path.join(home, "pulumi-calls"));
    expect(run({ CODESEC_REPLACE_PLUGIN: "1" }).calls).to.have.length(1);
    expect(readFileSync(path.join(pluginDir, MARKER), "utf8").trim()).to.equal(repoRoot);
  });

  it("leaves a plugin that is already this tree's build as it is", () => {
    installed(JSON.stringify({ version: packageVersion(), build }), "/elsewhere/pulumi-codesec");
    const { calls, stdout } = run();
    expect(calls).to.deep.equal([]);
    expect(stdout).to.include("already this tree's build");
  });
});

/**
 * Two clones on one machine: the project's scripts (with-tools.sh, as every `npm run` script and the
 * set-up) run with the clone's own Pulumi home, .tools/pulumi-home, so each clone installs its plugin
 * build there and its programs find that build, never the other clone's; a PULUMI_HOME the user set, and
 * the release in it, are left as they were.
 */
describe("scripts/with-tools.sh and install-plugin.sh: each clone runs its own plugin build", function () {
  this.timeout(300_000);
  let work: string;
  let userHome: string;
  const clones: string[] = [];
  const release = JSON.stringify({ version: packageVersion(), build: `sha256:${"0".repeat(64)}` });
  const releaseLauncher = `#!/bin/sh\necho '${release}'\n`;

  /** A copy of this tree's files (node_modules and the set-up's node linked), with the stand-in CLI. */
  function cloneTree(dir: string): void {
    const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).stdout.split("\0");
    for (const file of files.filter((name) => name !== "" && existsSync(path.join(repoRoot, name)))) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), readFileSync(path.join(repoRoot, file)), {
        mode: statSync(path.join(repoRoot, file)).mode,
      });
    }
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
    mkdirSync(path.join(dir, ".tools/bin"), { recursive: true });
    if (existsSync(path.join(repoRoot, ".tools/bin/node"))) {
      symlinkSync(realpathSync(path.join(repoRoot, ".tools/bin/node")), path.join(dir, ".tools/bin/node"));
    }
    writeFileSync(path.join(dir, ".tools/bin/pulumi"), FAKE_PULUMI, { mode: 0o755 });
  }

  /** `bash <clone>/scripts/with-tools.sh <args>` from the clone, in a shell whose PULUMI_HOME is the user's. */
  function withTools(clone: string, ...args: string[]) {
    const result = spawnSync("bash", [path.join(clone, "scripts/with-tools.sh"), ...args], {
      cwd: clone,
      encoding: "utf8",
      env: { ...process.env, PULUMI_HOME: userHome, CODESEC_REPLACE_PLUGIN: "" },
    });
    expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
    return result;
  }

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-two-clones-"));
    for (const name of ["clone-a", "clone-b"]) {
      const clone = path.join(work, name);
      cloneTree(clone);
      clones.push(clone);
    }
    // The second clone's change: a plugin of another build.
    writeFileSync(
      path.join(clones[1], "tsconfig.json"),
      `${readFileSync(path.join(clones[1], "tsconfig.json"), "utf8")}\n`,
    );
    userHome = path.join(work, "user-pulumi-home");
    const releaseDir = path.join(userHome, "plugins", `resource-codesec-v${packageVersion()}`);
    mkdirSync(releaseDir, { recursive: true });
    writeFileSync(path.join(releaseDir, "pulumi-resource-codesec"), releaseLauncher, { mode: 0o755 });
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it("installs each clone's build into its own .tools/pulumi-home, which its scripts' CLI uses", () => {
    const builds = clones.map((clone) => {
      const { stdout, stderr } = withTools(clone, "bash", "scripts/install-plugin.sh");
      expect(stderr, "no warning: nothing of another clone's is in the way").to.not.include("WARNING");
      const built = /\[install-plugin\] built \S+ \((sha256:[0-9a-f]{64})\)/.exec(stdout);
      expect(built, stdout).to.not.equal(null);
      return built![1];
    });
    expect(builds[0]).to.not.equal(builds[1]);

    clones.forEach((clone, index) => {
      const { stdout } = withTools(
        clone,
        "sh",
        "-c",
        'echo "$PULUMI_HOME" && "$PULUMI_HOME/plugins/resource-codesec-v$1/pulumi-resource-codesec" --build-info',
        "sh",
        packageVersion(),
      );
      const [home, buildInfo] = stdout.trim().split("\n");
      expect(home).to.equal(path.join(clone, ".tools/pulumi-home"));
      expect(JSON.parse(buildInfo)).to.deep.equal({ version: packageVersion(), build: builds[index] });
    });
  });

  it("leaves the user's PULUMI_HOME, and the release in it, as they were", () => {
    const releaseDir = path.join(userHome, "plugins", `resource-codesec-v${packageVersion()}`);
    expect(readFileSync(path.join(releaseDir, "pulumi-resource-codesec"), "utf8")).to.equal(releaseLauncher);
    expect(existsSync(path.join(releaseDir, MARKER))).to.equal(false);
    expect(existsSync(path.join(userHome, "pulumi-calls")), "no `pulumi` ran with the user's home").to.equal(
      false,
    );
  });
});
