/**
 * The end-to-end suite's mocha configuration (tests/e2e/.mocharc.js) run on small test files of its
 * own: the files run at once in two worker processes (CODESEC_E2E_JOBS unset) or one after another in one
 * process (CODESEC_E2E_JOBS=1), and either way the summary reporter (tests/support/summaryReporter.js,
 * in the main process, fed the workers' events) counts passes, failures and skipped tests exactly, as
 * scripts/test.sh reads them from CODESEC_TEST_COUNTS. `.only` fails the run in both modes. The package's
 * tarball, the native plugin's release archive and the Node.js SDK's tarball are built once per run, before
 * any file runs (tests/e2e/support/sharedBuilds.ts), and every test process uses those; a test process
 * refuses a handed build that is not there, and one run without the configuration builds its own.
 *
 * One run makes the real builds; the runs that test how the builds are handed in one process or removed
 * when a run is stopped, and the process that builds its own, have the builders write small stand-in
 * files instead (STAND_IN_BUILDERS): what they test is the handing, the cleaning up and the falling back,
 * the same whatever the builders wrote.
 */
import { expect } from "chai";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SHARED_BUILDS_VARIABLE, type SharedBuilds } from "../e2e/support/sharedBuilds";

const repoRoot = path.resolve(__dirname, "../..");
const MOCHA = path.join(repoRoot, "node_modules/mocha/bin/mocha.js");
/** What mocha's launcher (MOCHA) runs as its child, the main process, when node options are set. */
const MOCHA_MAIN = path.join(repoRoot, "node_modules/mocha/lib/cli/cli.js");
const HARNESS = path.join(repoRoot, "tests/e2e/support/harness.ts");

/** A line the plugin's release script prints each time it bundles the plugin (scripts/plugin-release.ts). */
const BUNDLE_LINE = /^\[plugin-release\] esbuild: .* \(the bundle\)$/gm;
/** The lines sharedBuilds.ts prints as it makes each of the three builds, real or stand-in. */
const BUILT_LINES = [
  /^\[e2e-builds\] npm pack: the package$/gm,
  /^\[e2e-builds\] the native plugin's release archive$/gm,
  /^\[e2e-builds\] npm pack: the Node.js SDK$/gm,
];

/** What each stand-in builder writes, and the build hash the plugin's stand-in gives. */
const STAND_IN_CONTENT = "a stand-in build";
const STAND_IN_BUILD = `sha256:${"1".repeat(64)}`;

/**
 * Required before sharedBuilds.ts, it replaces the three builders that module calls (its imports are
 * looked up at each call) with ones that write a small file where the build would go, at once.
 */
const STAND_IN_BUILDERS = `
const { writeFileSync } = require("node:fs");
const path = require("node:path");
const packages = require(${JSON.stringify(path.join(repoRoot, "scripts/release/npmPackages"))});
const release = require(${JSON.stringify(path.join(repoRoot, "scripts/plugin-release"))});
const made = (outDir, name) => {
  const file = path.join(outDir, name);
  writeFileSync(file, ${JSON.stringify(STAND_IN_CONTENT)});
  return file;
};
packages.npmPack = (_packageDir, outDir) => made(outDir, "pulumi-codesec-0.0.0.tgz");
packages.packNativeSdk = (_root, _workDir, outDir) => made(outDir, "pulumi-codesec-codesec-0.0.0.tgz");
release.releaseTarball = (outDir) => ({
  tarball: made(outDir, "pulumi-resource-codesec-v0.0.0-linux-amd64.tar.gz"),
  build: ${JSON.stringify(STAND_IN_BUILD)},
});
`;

/** Writes STAND_IN_BUILDERS into `dir`: the file to require. */
function writeStandInBuilders(dir: string): string {
  const file = path.join(dir, "standInBuilders.js");
  writeFileSync(file, STAND_IN_BUILDERS);
  return file;
}

/**
 * A file whose one test asks the harness for the three builds and records them (with the process it ran
 * in, which of them it found missing, and the first bytes of each, in hex) in `<me>.json`.
 */
const buildsFileText = (me: string) => `
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { nativePluginRelease, packedNativeSdk, packedPackage } from ${JSON.stringify(HARNESS)};
it("${me} uses the run's builds", () => {
  const release = nativePluginRelease();
  const files = [packedPackage(), release.tarball, packedNativeSdk()];
  writeFileSync(
    path.join(process.env.FIXTURE_MARKS as string, "${me}.json"),
    JSON.stringify({
      pid: String(process.pid),
      files,
      build: release.build,
      missing: files.filter((file) => !existsSync(file)),
      heads: files.filter((file) => existsSync(file)).map((file) => readFileSync(file).subarray(0, 16).toString("hex")),
    }),
  );
});
`;

/**
 * A file whose one test records the package's tarball it was handed (read from the variable itself: the
 * harness, which takes seconds to load, is not what it tests) and the run's main process in `hang.json`,
 * then waits until the run is stopped. The main process is this one when the files run serially
 * (CODESEC_E2E_JOBS=1), else its parent: mocha's workers are its child processes.
 */
const hangingFileText = `
import { writeFileSync } from "node:fs";
import * as path from "node:path";
it("waits until the run is stopped", async function () {
  this.timeout(0);
  const handed = JSON.parse(process.env.${SHARED_BUILDS_VARIABLE} as string);
  const main = process.env.CODESEC_E2E_JOBS === "1" ? process.pid : process.ppid;
  writeFileSync(
    path.join(process.env.FIXTURE_MARKS as string, "hang.json"),
    JSON.stringify({ main, package: handed.packedPackage }),
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
  heads: string[];
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
  /** Its stdout, where the reporter writes; the global setup says what it builds on stderr. */
  stdout: string;
  output: string;
  counts?: { passes: number; failures: number; pending: number };
  /** The process each file ran in. */
  pids: Record<string, string>;
  /** What each file of buildsFileText recorded, by its name. */
  builds: Record<string, BuildsSeen>;
  /** The file CODESEC_TEST_TIMES named, as the reporter wrote it, if it did. */
  times?: Record<string, { ms: number; tests: number }>;
}

/** How the suite's configuration is run: FIXTURE_BUILDS "real" (the default), "stand-in" or "none". */
type Builds = "real" | "stand-in" | "none";

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
    const standInBuilders = writeStandInBuilders(scratch);
    // The suite's configuration with these files for its spec (a spec given on the command line would be
    // added to the suite's, not replace it). FIXTURE_BUILDS "none": without the module whose global setup
    // makes the suite's builds (the tests of how files run and are counted do not need them, and would
    // each wait seconds for them); "stand-in": its builders write stand-in files.
    writeFileSync(
      path.join(scratch, "config.js"),
      `const suite = require(${JSON.stringify(path.join(repoRoot, "tests/e2e/.mocharc.js"))});
const kept = suite.require.filter((file) => !file.endsWith("sharedBuilds.ts"));
if (kept.length !== suite.require.length - 1) throw new Error("the suite's configuration requires no sharedBuilds.ts");
const builds = process.env.FIXTURE_BUILDS;
module.exports = {
  ...suite,
  spec: process.env.FIXTURE_SPEC.split(","),
  require:
    builds === "none"
      ? kept
      : builds === "stand-in"
        ? [...kept, ${JSON.stringify(standInBuilders)}, ...suite.require.slice(kept.length)]
        : suite.require,
};
`,
    );
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  /** The environment of a run of the suite's configuration on `files` of the scratch folder. */
  function suiteEnv(
    files: string[],
    marks: string,
    builds: Builds,
    env: Record<string, string>,
  ): NodeJS.ProcessEnv {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      FIXTURE_MARKS: marks,
      FIXTURE_SPEC: files.map((file) => path.join(scratch, file)).join(","),
      FIXTURE_BUILDS: builds,
      CODESEC_TEST_COUNTS: path.join(marks, "counts.json"),
    };
    delete childEnv.CODESEC_E2E_JOBS;
    delete childEnv.CODESEC_TEST_TIMES;
    delete childEnv.FIXTURE_SKIP_WAIT;
    delete childEnv[SHARED_BUILDS_VARIABLE];
    return Object.assign(childEnv, env);
  }

  function runSuite(files: string[], builds: Builds, env: Record<string, string> = {}): Run {
    const marks = mkdtempSync(path.join(scratch, "marks-"));
    const times = path.join(marks, "times.json");
    const result = spawnSync(process.execPath, [MOCHA, "--config", path.join(scratch, "config.js")], {
      cwd: repoRoot,
      env: suiteEnv(files, marks, builds, { CODESEC_TEST_TIMES: times, ...env }),
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
    const timesText = read("times.json");
    const pids: Record<string, string> = {};
    for (const file of ["first", "second"]) {
      const pid = read(file);
      if (pid !== undefined) pids[file] = pid;
    }
    const seenBuilds: Record<string, BuildsSeen> = {};
    for (const file of ["buildsA", "buildsB"]) {
      const seen = read(`${file}.json`);
      if (seen !== undefined) seenBuilds[file] = JSON.parse(seen) as BuildsSeen;
    }
    return {
      status: result.status,
      stdout: result.stdout,
      output: `${result.stdout}${result.stderr}`,
      counts: counts === undefined ? undefined : (JSON.parse(counts) as Run["counts"]),
      pids,
      builds: seenBuilds,
      times: timesText === undefined ? undefined : (JSON.parse(timesText) as Run["times"]),
    };
  }

  /**
   * Both files of buildsFileText ran, used the same three builds, all there while they ran and gone with
   * the run, each made once (the run's output says so once for each), by the builders `builds` names:
   * gzip archives and one bundle of the plugin from the real ones, the stand-ins' files and build hash
   * and no bundle from the stand-ins.
   */
  function expectBuildsShared(run: Run, builds: "real" | "stand-in"): void {
    const { buildsA, buildsB } = run.builds;
    expect(buildsA, run.output).to.not.equal(undefined);
    expect(buildsB, run.output).to.not.equal(undefined);
    expect(buildsA.files).to.have.length(3);
    expect(buildsA.missing).to.deep.equal([]);
    if (builds === "real") {
      expect(buildsA.build)
        .to.match(/^sha256:[0-9a-f]{64}$/)
        .and.not.equal(STAND_IN_BUILD);
      for (const head of buildsA.heads) expect(head, "a gzip archive").to.match(/^1f8b/);
      expect(run.output.match(BUNDLE_LINE), run.output).to.have.length(1);
    } else {
      expect(buildsA.build).to.equal(STAND_IN_BUILD);
      expect(buildsA.heads).to.deep.equal(
        buildsA.files.map(() => Buffer.from(STAND_IN_CONTENT).toString("hex")),
      );
      expect(run.output.match(BUNDLE_LINE), run.output).to.equal(null);
    }
    expect({ ...buildsB, pid: buildsA.pid }).to.deep.equal(buildsA);
    for (const line of BUILT_LINES) expect(run.output.match(line), run.output).to.have.length(1);
    expect(buildsA.files.filter((file) => existsSync(file))).to.deep.equal([]);
  }

  /** CODESEC_TEST_TIMES: each file's time and count of tests that ended (by file name), slowest first. */
  function expectTimes(run: Run, tests: Record<string, number>): void {
    expect(run.times, run.output).to.not.equal(undefined);
    const perFile = run.times!;
    expect(Object.keys(perFile).sort()).to.deep.equal(
      Object.keys(tests)
        .map((file) => path.join(scratch, file))
        .sort(),
    );
    for (const [file, count] of Object.entries(tests)) {
      expect(perFile[path.join(scratch, file)].tests, file).to.equal(count);
    }
    const ms = Object.values(perFile).map((row) => row.ms);
    expect(ms).to.deep.equal([...ms].sort((a, b) => b - a));
  }

  // Per file of fileText: the waiting test, the passing one and the failing one end; the skipped ones
  // never run. Per file of buildsFileText: its one test.
  const TESTS_ENDED = { "first.test.ts": 3, "second.test.ts": 3, "buildsA.test.ts": 1, "buildsB.test.ts": 1 };

  describe("by default (two files at once), on the builds it makes", () => {
    let run: Run;

    before(function () {
      this.timeout(120_000); // the builds: seconds on a quiet machine, many more on a loaded one
      // First and second start at once in the two workers and wait for each other, then end within
      // milliseconds of each other: the files of builds then take a worker each, each loading the harness
      // (seconds).
      run = runSuite(["first.test.ts", "second.test.ts", "buildsA.test.ts", "buildsB.test.ts"], "real");
    });

    it("builds the package, the plugin's archive and the SDK once for the run: every worker uses those", () => {
      expectBuildsShared(run, "real");
      expect(run.builds.buildsA.pid).to.not.equal(run.builds.buildsB.pid);
      expect([run.builds.buildsA.pid, run.builds.buildsB.pid]).to.not.include(String(process.pid));
    });

    it("runs two files at once, each in a worker process, and counts every outcome exactly", () => {
      // Per file of fileText: two passes, a failing test and a failing hook, one skipped; per file of
      // buildsFileText: one pass.
      expect(run.counts, run.output).to.deep.equal({ passes: 6, failures: 4, pending: 2 });
      expect(run.status, run.output).to.equal(4);
      expect(run.pids.first).to.be.a("string").and.not.equal(run.pids.second);
      expect([run.pids.first, run.pids.second]).to.not.include(String(process.pid));
    });

    it("CODESEC_TEST_TIMES names a file: each test file's time and test count, slowest first", () => {
      expectTimes(run, TESTS_ENDED);
    });
  });

  describe("CODESEC_E2E_JOBS=1, no counts file named", () => {
    let run: Run;

    before(() => {
      run = runSuite(["first.test.ts", "second.test.ts", "buildsA.test.ts", "buildsB.test.ts"], "stand-in", {
        CODESEC_E2E_JOBS: "1",
        CODESEC_TEST_COUNTS: "",
        FIXTURE_SKIP_WAIT: "1",
      });
    });

    it("prints the counts as its last line", () => {
      // The tests that wait for the other file skip themselves: per file of fileText one pass, a failing
      // test and a failing hook, two skipped; per file of buildsFileText one pass.
      expect(run.stdout.trimEnd().split("\n").at(-1), run.output).to.equal("4 passed, 4 failed, 4 skipped");
      expect(run.status, run.output).to.equal(4);
    });

    it("runs one file after the other in one process", () => {
      expect(run.pids.first, run.output).to.be.a("string").and.equal(run.pids.second);
      expect(run.builds.buildsA?.pid, run.output).to.equal(run.pids.first);
    });

    it("the same builds, made once, used by both files in the one process", () => {
      expectBuildsShared(run, "stand-in");
      expect(run.builds.buildsA.pid).to.equal(run.builds.buildsB.pid);
    });

    it("CODESEC_TEST_TIMES names a file: each test file's time and test count, slowest first", () => {
      expectTimes(run, TESTS_ENDED);
    });
  });

  /**
   * The ways a run is stopped. The suite's configuration sets node options, so mocha's launcher
   * (bin/mocha.js) runs the main process as its child: SIGTERM to the main process is what stops a CI job;
   * SIGINT to the launcher (Ctrl+C reaches it too) is passed on to the main process and always followed by
   * SIGTERM, which exits through the SIGTERM handler whatever the SIGINT handler does. SIGINT straight to
   * the main process of a serial run meets the SIGINT handler alone, which removes the builds and ends the
   * process by the signal: that run's main process is started as the launcher starts it, without the
   * launcher, which exits 0 whatever signal ended its child.
   */
  const STOPS = [
    { signal: "SIGTERM", to: "main", jobs: "2" },
    { signal: "SIGINT", to: "launcher", jobs: "2" },
    { signal: "SIGINT", to: "main, started alone", jobs: "1" },
  ] as const;

  it("a run stopped by SIGTERM or SIGINT removes the builds it made (the main process's exit handlers alone would not run)", async function () {
    this.timeout(STOPS.length * 200_000); // each stop: up to 120 s to start, 60 s to clean up
    const suite = require(path.join(repoRoot, "tests/e2e/.mocharc.js")) as { "node-option": string[] };
    for (const { signal, to, jobs } of STOPS) {
      const stop = `${signal} to the ${to}, CODESEC_E2E_JOBS=${jobs}`;
      const marks = mkdtempSync(path.join(scratch, "marks-"));
      const alone = to === "main, started alone";
      const command = alone ? [...suite["node-option"].map((option) => `--${option}`), MOCHA_MAIN] : [MOCHA];
      const child = spawn(process.execPath, [...command, "--config", path.join(scratch, "config.js")], {
        cwd: repoRoot,
        env: suiteEnv(["hang.test.ts"], marks, "stand-in", { CODESEC_E2E_JOBS: jobs }),
        stdio: "ignore",
      });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      const hangFile = path.join(marks, "hang.json");
      const deadline = Date.now() + 120_000;
      while (!existsSync(hangFile)) {
        if (Date.now() > deadline) {
          child.kill("SIGKILL");
          throw new Error(`${stop}: the hanging file never started`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 200)); // the file is written whole
      const seen = JSON.parse(readFileSync(hangFile, "utf8")) as { main: number; package: string };
      const running = () => child.exitCode === null && child.signalCode === null;
      try {
        expect(
          readFileSync(seen.package, "utf8"),
          `${stop}: the stand-in build, there while the run runs`,
        ).to.equal(STAND_IN_CONTENT);
        process.kill(to === "launcher" ? child.pid! : seen.main, signal);
        const stopped = Date.now() + 60_000;
        while (existsSync(seen.package) && Date.now() < stopped) await new Promise((r) => setTimeout(r, 100));
        expect(existsSync(seen.package), `${stop}: the builds are gone`).to.equal(false);
        if (alone) {
          expect(seen.main, stop).to.equal(child.pid);
          const ended = Date.now() + 60_000;
          while (running() && Date.now() < ended) await new Promise((r) => setTimeout(r, 100));
          expect(child.signalCode, `${stop}: ended by the signal`).to.equal(signal);
        }
      } finally {
        // A stop that failed: SIGTERM to the main process, whose handler removes the builds (its workers
        // end with it); the launcher killed alone would leave it running.
        if (running()) {
          try {
            process.kill(seen.main, "SIGTERM");
          } catch {
            // Ended already.
          }
          const ended = Date.now() + 10_000;
          while (running() && Date.now() < ended) await new Promise((r) => setTimeout(r, 100));
          if (running()) child.kill("SIGKILL");
        }
        await exited;
      }
    }
  });

  it("a focused test (.only) fails the run, in parallel and serially", () => {
    for (const jobs of ["2", "1"]) {
      const run = runSuite(["only.test.ts", "first.test.ts"], "none", {
        CODESEC_E2E_JOBS: jobs,
        FIXTURE_SKIP_WAIT: "1",
      });
      expect(run.status, `CODESEC_E2E_JOBS=${jobs}: ${run.output}`).to.not.equal(0);
      expect(run.output).to.match(/\.only/);
    }
  });

  it("refuses a CODESEC_E2E_JOBS that is not a whole number of 1 or more", () => {
    for (const jobs of ["0", "two", "-1"]) {
      const run = runSuite(["first.test.ts"], "none", { CODESEC_E2E_JOBS: jobs });
      expect(run.status, run.output).to.not.equal(0);
      expect(run.output).to.include(`CODESEC_E2E_JOBS must be a whole number of test files`);
      expect(run.counts).to.equal(undefined);
    }
  });
});

describe("a test process of the end-to-end suite and the builds it is handed", function () {
  this.timeout(120_000);
  let scratch: string;

  /**
   * What each of the harness's three builders gave: the file, whether it exists and what it reads (up to
   * 64 characters), the plugin's build hash, or its error.
   */
  interface Outcome {
    name: string;
    file?: string;
    exists?: boolean;
    content?: string;
    build?: string;
    error?: string;
  }

  /** One asking of the harness for each build: the outcomes, and what the process wrote on stderr meanwhile. */
  interface Asked {
    outcomes: Outcome[];
    stderr: string;
  }

  /**
   * Asks the harness for each build in one new process (the builders stand-ins: what they make is the
   * suite's run's test, with the real builders), once with SHARED_BUILDS_VARIABLE set to each of `handed`
   * (unset for undefined), in that order. A refused build is not kept, so each asking reads the variable
   * anew; a build made is, so an asking without the variable comes last.
   */
  function askHarness(handed: (string | undefined)[]): Asked[] {
    const script = `
      const { existsSync, readFileSync } = require("node:fs");
      const harness = require(${JSON.stringify(HARNESS)});
      const builders = {
        packedPackage: () => ({ file: harness.packedPackage() }),
        nativePluginRelease: () => harness.nativePluginRelease(),
        packedNativeSdk: () => ({ file: harness.packedNativeSdk() }),
      };
      JSON.parse(process.env.FIXTURE_HANDED).forEach((handed, asked) => {
        process.stderr.write(\`[asked] \${asked}\\n\`);
        if (handed === null) delete process.env.${SHARED_BUILDS_VARIABLE};
        else process.env.${SHARED_BUILDS_VARIABLE} = handed;
        for (const [name, build] of Object.entries(builders)) {
          try {
            const made = build();
            const file = made.file ?? made.tarball;
            const exists = existsSync(file);
            const content = exists ? readFileSync(file, "latin1").slice(0, 64) : undefined;
            console.log(JSON.stringify({ asked, name, file, exists, content, build: made.build }));
          } catch (error) {
            console.log(JSON.stringify({ asked, name, error: error.message }));
          }
        }
      });`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      FIXTURE_HANDED: JSON.stringify(handed.map((value) => value ?? null)),
    };
    delete env[SHARED_BUILDS_VARIABLE];
    const preload = ["-r", "ts-node/register/transpile-only", "-r", writeStandInBuilders(scratch)];
    const result = spawnSync(process.execPath, [...preload, "-e", script], {
      cwd: repoRoot,
      env,
      encoding: "utf8",
    });
    expect(result.status, `${result.stdout}${result.stderr}`).to.equal(0);
    const lines = result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Outcome & { asked: number });
    // What the process wrote on stderr after each "[asked] N" line, up to the next.
    const stderrs = result.stderr.split(/^\[asked\] \d+\n/m).slice(1);
    expect(stderrs, result.stderr).to.have.length(handed.length);
    return handed.map((_, asked) => {
      const outcomes = lines
        .filter((line) => line.asked === asked)
        .map(({ asked: _asked, ...outcome }) => outcome);
      expect(outcomes.map((outcome) => outcome.name)).to.deep.equal([
        "packedPackage",
        "nativePluginRelease",
        "packedNativeSdk",
      ]);
      return { outcomes, stderr: stderrs[asked] };
    });
  }

  const gone = (name: string) => path.join(scratch, "ended-run", name);
  let handed: SharedBuilds;
  const notTheBuilds = ["not JSON", JSON.stringify({ packedPackage: "/nowhere/x.tgz" })];
  let asked: { missing: Asked; notTheBuilds: Asked[]; alone: Asked };

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-e2e-builds-"));
    handed = {
      packedPackage: gone("pulumi-codesec-0.5.0.tgz"),
      nativePluginRelease: {
        tarball: gone("pulumi-resource-codesec.tar.gz"),
        build: `sha256:${"0".repeat(64)}`,
      },
      packedNativeSdk: gone("pulumi-codesec-codesec-0.5.0.tgz"),
    };
    const [missing, ...rest] = askHarness([JSON.stringify(handed), ...notTheBuilds, undefined]);
    asked = { missing, notTheBuilds: rest.slice(0, notTheBuilds.length), alone: rest[notTheBuilds.length] };
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("refuses a handed build that is not there, naming it and the variable, and builds nothing instead", () => {
    const files = [handed.packedPackage, handed.nativePluginRelease.tarball, handed.packedNativeSdk];
    asked.missing.outcomes.forEach((outcome, i) => {
      expect(outcome.file, outcome.name).to.equal(undefined);
      expect(outcome.error, outcome.name)
        .to.include(`${SHARED_BUILDS_VARIABLE} hands ${files[i]} as`)
        .and.include("no such file");
    });
    expect(asked.missing.stderr).to.not.include("[e2e-builds]");
  });

  it("refuses a variable that is not the builds' JSON, naming it", () => {
    notTheBuilds.forEach((value, i) => {
      const errors = asked.notTheBuilds[i].outcomes.map((outcome) => outcome.error);
      expect(errors[2], value).to.include(
        `${SHARED_BUILDS_VARIABLE} is not what the suite's global setup hands`,
      );
      expect(asked.notTheBuilds[i].stderr, value).to.not.include("[e2e-builds]");
    });
  });

  it("without the variable (a test file run alone), builds each itself", () => {
    for (const outcome of asked.alone.outcomes) {
      expect(outcome.error, outcome.name).to.equal(undefined);
      expect(outcome.exists, outcome.name).to.equal(true);
      expect(outcome.content, `${outcome.name}: the stand-in's file`).to.equal(STAND_IN_CONTENT);
    }
    expect(asked.alone.outcomes[1].build, "the stand-in's build hash").to.equal(STAND_IN_BUILD);
    expect(asked.alone.stderr.match(BUNDLE_LINE), asked.alone.stderr).to.equal(null);
    for (const line of BUILT_LINES)
      expect(asked.alone.stderr.match(line), asked.alone.stderr).to.have.length(1);
  });
});
