/**
 * Every publishing step reads the release's provenance and refuses one marked `publishable: false` (built
 * with --allow-stale-performance), unless CODESEC_PUBLISH_UNPUBLISHABLE=1 (a rehearsal against local
 * registries); the release workflow never sets it. npm, git and gh are stand-ins that record their calls.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");
const VERSION = "1.2.3";
const OVERRIDE = "CODESEC_PUBLISH_UNPUBLISHABLE";

/** The publishing steps, each as the workflow runs it (from the clone's root, with the release's folder). */
const STEPS: { script: string; args: (dir: string) => string[] }[] = [
  { script: "publish-npm.sh", args: (dir) => [dir] },
  { script: "publish-go.sh", args: () => [VERSION] },
  { script: "github-release.sh", args: (dir) => [dir] },
  { script: "check-publishable.sh", args: (dir) => [dir] },
];

describe("release: publishing refuses a release whose provenance says it is not publishable", function () {
  this.timeout(60_000);
  let work: string;
  let bin: string;
  let calls: string;
  let dir: string;

  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-publishable-"));
    bin = path.join(work, "bin");
    calls = path.join(work, "calls.log");
    mkdirSync(bin);
    for (const tool of ["npm", "git", "gh"]) {
      writeFileSync(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >>"${calls}"\n`);
      chmodSync(path.join(bin, tool), 0o755);
    }
    dir = path.join(work, `release/v${VERSION}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(work, "CHANGELOG.md"), `# Changelog\n\n## ${VERSION}\n\n- a line\n`);
  });
  afterEach(() => rmSync(work, { recursive: true, force: true }));

  function provenance(externalParameters: Record<string, unknown>): void {
    const statement = { predicate: { buildDefinition: { externalParameters } } };
    writeFileSync(path.join(dir, "provenance.intoto.json"), JSON.stringify(statement));
  }

  function run(step: (typeof STEPS)[number], env: Record<string, string> = {}) {
    const result = spawnSync("bash", [path.join(root, "scripts/release", step.script), ...step.args(dir)], {
      cwd: work,
      encoding: "utf8",
      env: {
        PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`,
        HOME: work,
        ...env,
      },
    });
    const called = existsSync(calls) ? readFileSync(calls, "utf8") : "";
    return { status: result.status, stderr: result.stderr, called };
  }

  for (const step of STEPS) {
    it(`${step.script} refuses publishable: false, naming the file and what to do, and calls nothing`, () => {
      provenance({ version: VERSION, allowStalePerformance: true, publishable: false });
      const refused = run(step);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(`provenance.intoto.json says this release is not publishable`);
      expect(refused.stderr).to.include("run `npm run release` without the flag");
      expect(refused.called).to.equal("");
    });

    it(`${step.script} publishes it with ${OVERRIDE}=1, saying so`, () => {
      provenance({ version: VERSION, allowStalePerformance: true, publishable: false });
      const allowed = run(step, { [OVERRIDE]: "1" });
      expect(allowed.status, allowed.stderr).to.equal(0);
      expect(allowed.stderr).to.include("as CODESEC_PUBLISH_UNPUBLISHABLE=1 asks: a rehearsal only");
      if (step.script !== "check-publishable.sh") expect(allowed.called).to.not.equal("");
    });

    it(`${step.script} refuses a release with no provenance statement`, () => {
      const refused = run(step, { [OVERRIDE]: "1" });
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include("provenance.intoto.json is missing");
      expect(refused.called).to.equal("");
    });
  }

  it("publishes a release built from a measured page without any override", () => {
    provenance({ version: VERSION, command: "npm run release" });
    const published = run(STEPS[0]);
    expect(published.status, published.stderr).to.equal(0);
    expect(published.stderr).to.equal("");
    expect(published.called).to.include(`npm publish --access public ${dir}/pulumi-codesec-${VERSION}.tgz`);
  });

  it("takes only 1 as the override", () => {
    provenance({ version: VERSION, publishable: false });
    expect(run(STEPS[0], { [OVERRIDE]: "true" }).status).to.equal(1);
  });

  it("is never overridden by the release workflow, and the PyPI step checks too", () => {
    const workflow = readFileSync(path.join(root, ".github/workflows/release.yml"), "utf8");
    expect(workflow).to.not.include(OVERRIDE);
    expect(workflow).to.match(/check-publishable\.sh "release\/v\$VERSION" && mkdir -p python-dist/);
  });
});
