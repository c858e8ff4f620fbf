/**
 * The end-to-end suite's mocha configuration (tests/e2e/.mocharc.js) run on two small test files of its
 * own: the files run at once in two worker processes (CODESEC_E2E_JOBS unset) or one after another in one
 * process (CODESEC_E2E_JOBS=1), and either way the summary reporter (tests/support/summaryReporter.js,
 * in the main process, fed the workers' events) counts passes, failures and skipped tests exactly, as
 * scripts/test.sh reads them from CODESEC_TEST_COUNTS. `.only` fails the run in both modes.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const MOCHA = path.join(repoRoot, "node_modules/mocha/bin/mocha.js");

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
    // The suite's configuration with these files for its spec (a spec given on the command line would be
    // added to the suite's, not replace it).
    writeFileSync(
      path.join(scratch, "config.js"),
      `module.exports = { ...require(${JSON.stringify(path.join(repoRoot, "tests/e2e/.mocharc.js"))}), spec: process.env.FIXTURE_SPEC.split(",") };\n`,
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
    return {
      status: result.status,
      output: `${result.stdout}${result.stderr}`,
      counts: counts === undefined ? undefined : (JSON.parse(counts) as Run["counts"]),
      pids,
    };
  }

  it("by default runs two files at once, each in a worker process, and counts every outcome exactly", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], {});
    // Per file: two passes, a failing test and a failing hook, one skipped.
    expect(run.counts, run.output).to.deep.equal({ passes: 4, failures: 4, pending: 2 });
    expect(run.status, run.output).to.equal(4);
    expect(run.pids.first).to.be.a("string").and.not.equal(run.pids.second);
    expect([run.pids.first, run.pids.second]).to.not.include(String(process.pid));
  });

  it("prints the counts as its last line when no counts file is named", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], { CODESEC_TEST_COUNTS: "" });
    expect(run.output.trimEnd().split("\n").at(-1), run.output).to.equal("4 passed, 4 failed, 2 skipped");
  });

  it("CODESEC_E2E_JOBS=1: one file after the other in one process, counted the same way", () => {
    const run = runSuite(["first.test.ts", "second.test.ts"], {
      CODESEC_E2E_JOBS: "1",
      FIXTURE_SKIP_WAIT: "1",
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
