/**
 * The release rehearsed end to end, as a user then installs it (tests/e2e/support/rehearsal.ts): every
 * `run:` step of the release workflow's release job but its set-up, publishing to registries on
 * 127.0.0.1, then one project per language (TypeScript on the native SDK, TypeScript on the dynamic
 * resources, Python, Go, YAML; tests/e2e/support/rehearsalProjects.ts), each for a user of its own, that
 * installs only from those registries and lets `pulumi up` download the plugin: up, a preview that shows
 * no change, destroy. Failure paths: a plugin archive whose checksum is not the one asked for is refused,
 * and a registry that refuses a publish fails the publishing step with the registry's own message.
 */
import { expect } from "chai";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { git } from "../support/committedCopy";
import { repoRoot } from "./support/harness";
import { releaseRunSteps, SET_UP_STEP, startRehearsal, type Rehearsal } from "./support/rehearsal";
import {
  PLUGIN_ARCHIVE,
  PLUGIN_SERVER,
  PROJECTS,
  releaseSumIn,
  version,
  type Outcome,
} from "./support/rehearsalProjects";

function log(message: string): void {
  process.stderr.write(`[rehearsal] ${message}\n`);
}

describe("the release, rehearsed against registries on 127.0.0.1 and installed as a user installs it", function () {
  this.timeout(2_400_000);
  const started = Date.now();
  let rehearsal: Rehearsal | undefined;
  const outcomes = new Map<string, Promise<Outcome>>();

  before(async () => {
    rehearsal = await startRehearsal();
    for (const project of PROJECTS) {
      const outcome = rehearsal.rehearse(project);
      outcome.catch(() => undefined);
      outcomes.set(project.title, outcome);
    }
  });

  const releaseSum = (file: string) => releaseSumIn(rehearsal!.releaseDir, file);
  const installPlugin = (env: NodeJS.ProcessEnv, how: string[]) =>
    rehearsal!.run(env.HOME!, env, "pulumi", ["plugin", "install", "resource", "codesec", version, ...how], {
      mayFail: true,
    });

  after(async () => {
    await rehearsal?.stop();
    log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it("runs every `run:` step of the workflow's release job but its set-up", () => {
    expect(rehearsal!.stepsRun).to.deep.equal(
      releaseRunSteps(rehearsal!.clone)
        .map((step) => step.name)
        .filter((name) => name !== SET_UP_STEP),
    );
  });

  it("uploads to the GitHub release the plugin archives, SHA256SUMS, the SBOMs and the provenance", () => {
    const assets = readdirSync(path.join(rehearsal!.work, "downloads/releases", `v${version}`)).sort();
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
      path.join(rehearsal!.work, "origin.git"),
      "rev-parse",
      `refs/tags/sdk/go/v${version}^{commit}`,
    ).trim();
    expect(tagged).to.equal(git(rehearsal!.clone, "rev-parse", "HEAD").trim());
  });

  it("installs the emulator from Verdaccio without @pulumi/pulumi (`npx codesec-emulator` runs)", async () => {
    const dir = await rehearsal!.emulatorInstall;
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
    const fetched = rehearsal!.downloads.requests.filter(
      (request) => request === `/releases/v${version}/${PLUGIN_ARCHIVE}`,
    );
    expect(fetched.length).to.equal(PROJECTS.filter((project) => project.plugin).length);
  });

  it("leaves no path into the clone in the projects, their lockfiles and installed packages, or the users' homes", async () => {
    await Promise.allSettled(outcomes.values());
    const found = await rehearsal!.run(
      rehearsal!.work,
      rehearsal!.publishEnv,
      "grep",
      ["-rlF", "--", repoRoot, path.join(rehearsal!.work, "users"), path.join(rehearsal!.work, "projects")],
      {
        mayFail: true,
      },
    );
    expect(found.code, found.output).to.equal(1);
    expect(found.output).to.equal("");
  });

  it("refuses a plugin archive whose checksum is not the one asked for, and installs none of it", async () => {
    const env = rehearsal!.userEnvFor("checksum-wrong");
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
    const env = rehearsal!.userEnvFor("checksum-verified");
    const dir = path.join(env.HOME!, "download");
    mkdirSync(dir);
    for (const file of [PLUGIN_ARCHIVE, "SHA256SUMS"]) {
      const response = await fetch(`${rehearsal!.downloads.url}releases/v${version}/${file}`);
      expect(response.status, file).to.equal(200);
      writeFileSync(path.join(dir, file), Buffer.from(await response.arrayBuffer()));
    }
    const checked = await rehearsal!.run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"]);
    expect(checked.output.trim()).to.equal(`${PLUGIN_ARCHIVE}: OK`);
    writeFileSync(
      path.join(dir, PLUGIN_ARCHIVE),
      Buffer.concat([readFileSync(path.join(dir, PLUGIN_ARCHIVE)), Buffer.from("x")]),
    );
    const tampered = await rehearsal!.run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"], {
      mayFail: true,
    });
    expect(tampered.code).to.equal(1);
    expect(tampered.output).to.include(`${PLUGIN_ARCHIVE}: FAILED`);
    const response = await fetch(`${rehearsal!.downloads.url}releases/v${version}/${PLUGIN_ARCHIVE}`);
    writeFileSync(path.join(dir, PLUGIN_ARCHIVE), Buffer.from(await response.arrayBuffer()));
    await rehearsal!.run(dir, env, "sha256sum", ["-c", "--ignore-missing", "SHA256SUMS"]);
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
    const env = rehearsal!.userEnvFor("checksum-right");
    const right = releaseSum(PLUGIN_ARCHIVE);
    const refused = await installPlugin(env, ["--server", PLUGIN_SERVER, "--checksum", right]);
    expect(refused.code, refused.output).to.not.equal(0);
    expect(refused.output).to.include(`invalid checksum, expected ${right}, actual `);
  });

  it("fails the npm publishing step with Verdaccio's message when it refuses a version it holds", async () => {
    const again = await rehearsal!.run(
      rehearsal!.clone,
      rehearsal!.publishEnv,
      "bash",
      ["scripts/release/publish-npm.sh", rehearsal!.releaseDir],
      {
        mayFail: true,
      },
    );
    expect(again.code, again.output).to.not.equal(0);
    expect(again.output).to.match(/this package is already present|cannot publish over/i);
  });

  it("fails the PyPI upload with pypiserver's message when it refuses a file it holds", async () => {
    const wheel = readdirSync(path.join(rehearsal!.clone, "python-dist")).find((file) =>
      file.endsWith(".whl"),
    )!;
    const again = await rehearsal!.twine(path.join(rehearsal!.clone, "python-dist", wheel));
    expect(again.code, again.output).to.not.equal(0);
    expect(again.output).to.match(/409|already exists/i);
  });
});
