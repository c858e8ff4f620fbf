/**
 * The first phase's mocha configuration (.mocharc.js) under c8, as scripts/test.sh runs it, on two small
 * test files of its own: the files run in two worker processes, and the coverage of the code each file ran
 * reaches c8's report (mocha ends its workers at the run's end without waiting for V8 to write it).
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const C8 = path.join(repoRoot, "node_modules/c8/bin/c8.js");
const MOCHA = path.join(repoRoot, "node_modules/mocha/bin/mocha.js");

/** A test file that runs `call` of the source module `source` and records the process it ran in. */
const fileText = (me: string, source: string, call: string) => `
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import * as sourceModule from ${JSON.stringify(path.join(repoRoot, source))};
it("${me} runs its module", () => {
  writeFileSync(path.join(process.env.FIXTURE_MARKS as string, "${me}"), String(process.pid));
  (sourceModule as any).${call};
});
`;

/** One source file's entry in c8's json-summary report. */
interface FileSummary {
  lines: { covered: number; total: number };
}

describe("the first phase's mocha configuration under c8", function () {
  this.timeout(120_000);
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-first-phase-config-"));
    writeFileSync(
      path.join(scratch, "retry.test.ts"),
      fileText("retry", "client/retryPolicy.ts", "backoffDelayMs(1, 1000)"),
    );
    // The whole provider: a worker that loaded this much code takes longer than mocha waits for it to exit.
    writeFileSync(
      path.join(scratch, "provider.test.ts"),
      fileText("provider", "provider/index.ts", "OrgRole.Admin"),
    );
    // The phase's configuration with these files for its spec (a spec given on the command line would be
    // added to the phase's, not replace it).
    writeFileSync(
      path.join(scratch, "config.js"),
      `const phase = require(${JSON.stringify(path.join(repoRoot, ".mocharc.js"))});
if (!phase.parallel || phase.jobs !== 2) throw new Error("the first phase no longer runs two files at a time");
module.exports = { ...phase, spec: [${JSON.stringify(path.join(scratch, "retry.test.ts"))}, ${JSON.stringify(path.join(scratch, "provider.test.ts"))}] };
`,
    );
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("runs the files in two workers and reports the coverage of the code they ran", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, FIXTURE_MARKS: scratch };
    delete env.NODE_V8_COVERAGE;
    delete env.CODESEC_TEST_COUNTS;
    delete env.CODESEC_TEST_TIMES;
    const report = path.join(scratch, "coverage");
    const result = spawnSync(
      process.execPath,
      [
        C8,
        "--reporter=json-summary",
        `--report-dir=${report}`,
        `--temp-directory=${path.join(scratch, "v8")}`,
        process.execPath,
        MOCHA,
        "--config",
        path.join(scratch, "config.js"),
      ],
      { cwd: repoRoot, env, encoding: "utf8" },
    );
    const output = `${result.stdout}${result.stderr}`;
    expect(result.status, output).to.equal(0);
    const pids = ["retry", "provider"].map((file) => readFileSync(path.join(scratch, file), "utf8"));
    expect(pids[0], "each file in a worker of its own").to.not.equal(pids[1]);

    const summary = JSON.parse(readFileSync(path.join(report, "coverage-summary.json"), "utf8")) as Record<
      string,
      FileSummary
    >;
    for (const source of ["client/retryPolicy.ts", "provider/enums.ts"]) {
      const file = summary[path.join(repoRoot, source)];
      expect(file, `${source} in the report`).to.not.equal(undefined);
      expect(file.lines.covered, `${source}: lines covered`).to.be.greaterThan(0);
    }
  });
});
