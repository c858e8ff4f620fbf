/**
 * The end-to-end suite's mocha configuration (tests/e2e/.mocharc.js) run on small test files of its
 * own: the files run at once in two worker processes (CODESEC_E2E_JOBS unset) or one after another in one
 * process (CODESEC_E2E_JOBS=1), and either way the summary reporter (tests/support/summaryReporter.js,
 * in the main process, fed the workers' events) counts passes, failures and skipped tests exactly, as
 * scripts/test.sh reads them from CODESEC_TEST_COUNTS. `.only` fails the run in both modes. The package's
 * tarball, the native plugin's release archive and the Node.js SDK's tarball are built once per run, before
 * any file runs (tests/e2e/support/sharedBuilds.ts), and every test process uses those; a test process
 * refuses a handed build that is not there, and one run without the configuration builds its own.
 */
import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SHARED_BUILDS_VARIABLE, type SharedBuilds } from "../e2e/support/sharedBuilds";

const repoRoot = path.resolve(__dirname, "../..");
const MOCHA = path.join(repoRoot, "node_modules/mocha/bin/mocha.js");
const HARNESS = path.join(repoRoot, "tests/e2e/support/harness.ts");

/** A line the plugin's release script prints each time it bundles the plugin (scripts/plugin-release.ts). */
const BUNDLE_LINE = /^\[plugin-release\] esbuild: .* \(the bundle\)$/gm;

/**
 * A file whose one test asks the harness for the three builds and records them (with the process it ran
 * in, and which of them it found missing) in `<me>.json`.
 */
const buildsFileText = (me: string) => `
import { existsSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { nativePluginRelease, packedNativeSdk, packedPackage } from ${JSON.stringify(HARNESS)};
it("${me} uses the run's builds", () => {
  const release = nativePluginRelease();
  const files = [packedPackage(), release.tarball, packedNativeSdk()];
  writeFileSync(
    path.join(process.env.FIXTURE_MARKS as string, "${me}.json"),
    JSON.stringify({ pid: String(process.pid), files, build: release.build, missing: files.filter((file) => !existsSync(file)) }),
  );
});
`;

/**
 * A file whose one test records the builds it was handed and the run's main process (its parent: mocha's
 * workers are its child processes) in `hang.json`, then waits until the run is stopped.
 */
const hangingFileText = `
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { packedPackage } from ${JSON.stringify(HARNESS)};
it("waits until the run is stopped", async function () {
  this.timeout(0);
  writeFileSync(
    path.join(process.env.FIXTURE_MARKS as string, "hang.json"),
    JSON.stringify({ main: process.ppid, package: packedPackage() }),
  );
  await new Promise((resolve) => setTimeout(resolve, 600_000));
});
`;

/** What a file of buildsFileText recorded. */
interface BuildsSeen {
  pid: string;
  files: string[];
  build: string;
  missing: string[];
}

/**
 * Two files whose first tests each wait (up to 10 s) for the other's to start: they pass only when the
 * files run at once. With FIXTURE_SKIP_WAIT set they skip themselves instead (this.skip, counted as
 * skipped): run one after another, they would wait in vain. Each file records the process it ran in.
 */
const fileText = (me: string, other: string) => `
import { appendFileSync, existsSync } from "node:fs";
import * as path from "node:path";
const marks = process.env.FIXTURE_MARKS as string;
describe("${me}", () => {
  it("runs while ${other} runs", async function () {
    appendFileSync(path.join(marks, "${me}"), \`\${process.pid}\\n\`);
    if (process.env.FIXTURE_SKIP_WAIT) this.skip();
    const deadline = Date.now() + 10_000;
    while (!existsSync(path.join(marks, "${other}"))) {
      if (Date.now() > deadline) throw new Error("${other} did not run at the same time");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  it("passes", () => {});
  it("fails", () => {
    throw new Error("a failing test of ${me}");
  });
  it.skip("is skipped", () => {});
  describe("a suite whose hook fails", () => {
    before(() => {
      throw new Error("a failing hook of ${me}");
    });
    it("never runs", () => {});
  });
});
`;

interface Run {
  status: number | null;
  output: string;
  counts?: { passes: number; failures: number; pending: number };
  /** The process each file ran in. */
  pids: Record<string, string>;
  /** What each file of buildsFileText recorded, by its name. */
  builds: Record<string, BuildsSeen>;
}

describe("the end-to-end suite's mocha configuration", function () {
  this.timeout(60_000);
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-config-"));
    writeFileSync(path.join(scratch, "first.test.ts"), fileText("first", "second"));
    writeFileSync(path.join(scratch, "second.test.ts"), fileText("second", "first"));
    writeFileSync(
      path.join(scratch, "only.test.ts"),
      'it.only("alone", () => {});\nit("other", () => {});\n',
    );
    writeFileSync(path.join(scratch, "buildsA.test.ts"), buildsFileText("buildsA"));
    writeFileSync(path.join(scratch, "buildsB.test.ts"), buildsFileText("buildsB"));
    writeFileSync(path.join(scratch, "hang.test.ts"), hangingFileText);
    // The suite's configuration with these files for its spec (a spec given on the command line would be
    // added to the suite's, not replace it). With FIXTURE_WITHOUT_BUILDS set, without the module whose global
    // setup makes the suite's builds: the tests of how files run and are counted do not need them, and
    // would each wait seconds for them.
    writeFileSync(
      path.join(scratch, "config.js"),
      `const suite = require(${JSON.stringify(path.join(repoRoot, "tests/e2e/.mocharc.js"))});
const kept = suite.require.filter((file) => !file.endsWith("sharedBuilds.ts"));
if (kept.length !== suite.require.length - 1) throw new Error("the suite's configuration requires no sharedBuilds.ts");
module.exports = {
  ...suite,
  spec: process.env.FIXTURE_SPEC.split(","),
  require: process.env.FIXTURE_WITHOUT_BUILDS ? kept : suite.require,
};
`,
    );
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  function runSuite(files: string[], env: Record<string, string>): Run {
    const marks = mkdtempSync(path.join(scratch, "marks-"));
    const countsFile = path.join(marks, "counts.json");
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      FIXTURE_MARKS: marks,
      FIXTURE_SPEC: files.map((file) => path.join(scratch, file)).join(","),
      CODESEC_TEST_COUNTS: countsFile,
    };
    delete childEnv.CODESEC_E2E_JOBS;
    delete childEnv.CODESEC_TEST_TIMES;
    delete childEnv.FIXTURE_WITHOUT_BUILDS;
    Object.assign(childEnv, env);
    const result = spawnSync(process.execPath, [MOCHA, "--config", path.join(scratch, "config.js")], {
      cwd: repoRoot,
      env: childEnv,
      encoding: "utf8",
    });
    const read = (file: string) => {
      try {
        return readFileSync(path.join(marks, file), "utf8").trim();
      } catch {
        return undefined;
      }
    };
    const counts = read("counts.json");
    const pids: Record<string, string> = {};
    for (const file of ["first", "second"]) {
      const pid = read(file);
      if (pid !== undefined) pids[file] = pid;
    }
    const builds: Record<string, BuildsSeen> = {};
    for (const file of ["buildsA", "buildsB"]) {
      const seen = read(`${file}.json`);
      if (seen !== undefined) builds[file] = JSON.parse(seen) as BuildsSeen;
    }
    return {
      status: result.status,
      output: `${result.stdout}${result.stderr}`,
      counts: counts === undefined ? undefined : (JSON.parse(counts) as Run["counts"]),
      pids,
      builds,
    };
  }

  /**
   * Both files of buildsFileText ran, used the same three builds, all there while they ran and gone with
   * the run, built once: one bundle of the plugin for the whole run.
   */
  function expectBuildsShared(run: Run): void {
    expect(run.counts, run.output).to.deep.equal({ passes: 2, failures: 0, pending: 0 });
    expect(run.status, run.output).to.equal(0);
    const { buildsA, buildsB } = run.builds;
    expect(buildsA.files).to.have.length(3);
    expect(buildsA.missing).to.deep.equal([]);
    expect(buildsA.build).to.match(/^sha256:[0-9a-f]{64}$/);
    expect({ ...buildsB, pid: buildsA.pid }).to.deep.equal(buildsA);
    expect(run.output.match(BUNDLE_LINE), run.output).to.have.length(1);
    expect(buildsA.files.filter((file) => existsSync(file))).to.deep.equal([]);
  }

  it("builds the package, the plugin's archive and the SDK once for the run: every worker uses those", function () {
    this.timeout(120_000); // the builds: seconds on a quiet machine, many more on a loaded one
    const run = runSuite(["buildsA.test.ts", "buildsB.test.ts"], {});
    expectBuildsShared(run);
    expect(run.builds.buildsA.pid).to.not.equal(run.builds.buildsB.pid);
    expect([run.builds.buildsA.pid, run.builds.buildsB.pid]).to.not.include(String(process.pid));
  });

  it("CODESEC_E2E_JOBS=1: the same builds, made once, used by both files in the one process", function () {
    this.timeout(120_000); // the builds: seconds on a quiet machine, many more on a loaded one
    const run = runSuite(["buildsA.test.ts", "buildsB.test.ts"], { CODESEC_E2E_JOBS: "1" });
    expectBuildsShared(run);
    expect(run.builds.buildsA.pid).to.equal(run.builds.buildsB.pid);
  });

  it("a run stopped by SIGTERM or SIGINT removes the builds it made (the main process's exit handlers alone would not run)", async function () {
    this.timeout(240_000); // two runs, each building first
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const marks = mkdtempSync(path.join(scratch, "marks-"));
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        FIXTURE_MARKS: marks,
        FIXTURE_SPEC: path.join(scratch, "hang.test.ts"),
        CODESEC_TEST_COUNTS: path.join(marks, "counts.json"),
      };
      delete env.CODESEC_E2E_JOBS;
      delete env.FIXTURE_WITHOUT_BUILDS;
      delete env[SHARED_BUILDS_VARIABLE];
      const child = spawn(process.execPath, [MOCHA, "--config", path.join(scratch, "config.js")], {
        cwd: repoRoot,
        env,
        stdio: "ignore",
      });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      const hangFile = path.join(marks, "hang.json");
      const deadline = Date.now() + 120_000;
      while (!existsSync(hangFile)) {
        if (Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`${signal}: the hanging file never started`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // the file is written whole
      const seen = JSON.parse(readFileSync(hangFile, "utf8")) as { main: number; package: string };
      expect(existsSync(seen.package), "the builds are there while the run runs").to.equal(true);
      // SIGTERM to the run's main process (what stops a CI job); SIGINT as Ctrl+C sends it to mocha's
      // launcher, which passes it on to the main process.
      process.kill(signal === "SIGTERM" ? seen.main : child.pid!, signal);
      const stopped = Date.now() + 60_000;
      while (existsSync(seen.package) && Date.now() < stopped) await new Promise((r) => setTimeout(r, 100));
      try {
        expect(existsSync(seen.package), `${signal}: the builds are gone`).to.equal(false);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        await exited;
      }
    }
  });

  it("by default runs two files at once, each in a worker process, and counts every outcome exactly", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], { FIXTURE_WITHOUT_BUILDS: "1" });
    // Per file: two passes, a failing test and a failing hook, one skipped.
    expect(run.counts, run.output).to.deep.equal({ passes: 4, failures: 4, pending: 2 });
    expect(run.status, run.output).to.equal(4);
    expect(run.pids.first).to.be.a("string").and.not.equal(run.pids.second);
    expect([run.pids.first, run.pids.second]).to.not.include(String(process.pid));
  });

  it("prints the counts as its last line when no counts file is named", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], {
      CODESEC_TEST_COUNTS: "",
      FIXTURE_WITHOUT_BUILDS: "1",
    });
    expect(run.output.trimEnd().split("\n").at(-1), run.output).to.equal("4 passed, 4 failed, 2 skipped");
  });

  it("CODESEC_TEST_TIMES names a file: each test file's time and test count, slowest first, in parallel and serially", () => {
    for (const jobs of ["2", "1"]) {
      const times = path.join(mkdtempSync(path.join(scratch, "times-")), "times.json");
      const run = runSuite(["first.test.ts", "second.test.ts"], {
        CODESEC_E2E_JOBS: jobs,
        CODESEC_TEST_TIMES: times,
        FIXTURE_SKIP_WAIT: jobs === "1" ? "1" : "",
        FIXTURE_WITHOUT_BUILDS: "1",
      });
      expect(run.counts, run.output).to.not.equal(undefined);
      const perFile = JSON.parse(readFileSync(times, "utf8")) as Record<
        string,
        { ms: number; tests: number }
      >;
      expect(Object.keys(perFile).sort(), `CODESEC_E2E_JOBS=${jobs}`).to.deep.equal(
        ["first.test.ts", "second.test.ts"].map((file) => path.join(scratch, file)),
      );
      const rows = Object.values(perFile);
      // Per file: the waiting test, the passing one and the failing one end; the skipped ones never run.
      for (const row of rows) expect(row.tests, `CODESEC_E2E_JOBS=${jobs}`).to.equal(3);
      expect(rows[0].ms).to.be.at.least(rows[1].ms);
    }
  });

  it("CODESEC_E2E_JOBS=1: one file after the other in one process, counted the same way", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], {
      CODESEC_E2E_JOBS: "1",
      FIXTURE_SKIP_WAIT: "1",
      FIXTURE_WITHOUT_BUILDS: "1",
    });
    // The tests that wait for the other file skip themselves: two more skipped, two fewer passed.
    expect(run.counts, run.output).to.deep.equal({ passes: 2, failures: 4, pending: 4 });
    expect(run.pids.first).to.be.a("string").and.equal(run.pids.second);
  });

  it("a focused test (.only) fails the run, in parallel and serially", () => {
    for (const jobs of ["2", "1"]) {
      const run = runSuite(["only.test.ts", "first.test.ts"], {
        CODESEC_E2E_JOBS: jobs,
        FIXTURE_SKIP_WAIT: "1",
        FIXTURE_WITHOUT_BUILDS: "1",
      });
      expect(run.status, `CODESEC_E2E_JOBS=${jobs}: ${run.output}`).to.not.equal(0);
      expect(run.output).to.match(/\.only/);
    }
  });

  it("refuses a CODESEC_E2E_JOBS that is not a whole number of 1 or more", () => {
    for (const jobs of ["0", "two", "-1"]) {
      const run = runSuite(["first.test.ts"], { CODESEC_E2E_JOBS: jobs });
      expect(run.status, run.output).to.not.equal(0);
      expect(run.output).to.include(`CODESEC_E2E_JOBS must be a whole number of test files`);
      expect(run.counts).to.equal(undefined);
    }
  });
});

describe("a test process of the end-to-end suite and the builds it is handed", function () {
  this.timeout(120_000);
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-builds-"));
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** What each of the harness's three builders gave in a new process: the file and whether it exists, or its error. */
  interface Outcome {
    name: string;
    file?: string;
    exists?: boolean;
    error?: string;
  }

  /** Asks the harness for each build in a new process with SHARED_BUILDS_VARIABLE set to `handed` (unset if undefined). */
  function askHarness(handed: string | undefined): { outcomes: Outcome[]; stderr: string } {
    const script = `
      const { existsSync } = require("node:fs");
      const harness = require(${JSON.stringify(HARNESS)});
      const builders = {
        packedPackage: () => harness.packedPackage(),
        nativePluginRelease: () => harness.nativePluginRelease().tarball,
        packedNativeSdk: () => harness.packedNativeSdk(),
      };
      for (const [name, build] of Object.entries(builders)) {
        try {
          const file = build();
          console.log(JSON.stringify({ name, file, exists: existsSync(file) }));
        } catch (error) {
          console.log(JSON.stringify({ name, error: error.message }));
        }
      }`;
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env[SHARED_BUILDS_VARIABLE];
    if (handed !== undefined) env[SHARED_BUILDS_VARIABLE] = handed;
    const result = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], {
      cwd: repoRoot,
      env,
      encoding: "utf8",
    });
    expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
    const outcomes = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Outcome);
    expect(outcomes.map((outcome) => outcome.name)).to.deep.equal([
      "packedPackage",
      "nativePluginRelease",
      "packedNativeSdk",
    ]);
    return { outcomes, stderr: result.stderr };
  }

  it("refuses a handed build that is not there, naming it and the variable, and builds nothing instead", () => {
    const gone = (name: string) => path.join(scratch, "ended-run", name);
    const handed: SharedBuilds = {
      packedPackage: gone("pulumi-codesec-0.5.0.tgz"),
      nativePluginRelease: {
        tarball: gone("pulumi-resource-codesec.tar.gz"),
        build: `sha256:${"0".repeat(64)}`,
      },
      packedNativeSdk: gone("pulumi-codesec-codesec-0.5.0.tgz"),
    };
    const { outcomes, stderr } = askHarness(JSON.stringify(handed));
    const files = [handed.packedPackage, handed.nativePluginRelease.tarball, handed.packedNativeSdk];
    outcomes.forEach((outcome, i) => {
      expect(outcome.file, outcome.name).to.equal(undefined);
      expect(outcome.error, outcome.name)
        .to.include(`${SHARED_BUILDS_VARIABLE} hands ${files[i]} as`)
        .and.include("no such file");
    });
    expect(stderr.match(BUNDLE_LINE), stderr).to.equal(null);
  });

  it("refuses a variable that is not the builds' JSON, naming it", () => {
    for (const handed of ["not JSON", JSON.stringify({ packedPackage: path.join(scratch, "x.tgz") })]) {
      const { outcomes } = askHarness(handed);
      const errors = outcomes.map((outcome) => outcome.error);
      expect(errors[2], handed).to.include(
        `${SHARED_BUILDS_VARIABLE} is not what the suite's global setup hands`,
      );
    }
  });

  it("without the variable (a test file run alone), builds each itself", () => {
    const { outcomes, stderr } = askHarness(undefined);
    for (const outcome of outcomes) {
      expect(outcome.error, outcome.name).to.equal(undefined);
      expect(outcome.exists, outcome.name).to.equal(true);
    }
    expect(stderr.match(BUNDLE_LINE), stderr).to.have.length(1);
  });
});
