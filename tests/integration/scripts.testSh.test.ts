/**
 * scripts/test.sh (`npm test`) ends with one line that counts both of its phases, says which phase did
 * not run, and exits non-zero on any failure. The phases are stand-ins on PATH (`c8` and `mocha` that
 * write the counts the project's reporter writes and exit as told), so each outcome is reproduced
 * exactly and in a second.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");

/** `mocha`: phase "e2e" when given the e2e config, else "first"; behaves as $FAKE_<PHASE> says. */
const FAKE_MOCHA = `#!/usr/bin/env bash
phase=first
case " $* " in *" --config tests/e2e/.mocharc.js "*) phase=e2e ;; esac
echo "$phase" >>"$FAKE_LOG"
spec_var="FAKE_$(echo "$phase" | tr a-z A-Z)"
spec="\${!spec_var}"
echo "  (the $phase phase's tests)"
if [ "$spec" = crash ]; then echo "TSError: cannot compile" >&2; exit 7; fi
IFS=, read -r passes failures pending <<<"$spec"
printf '{"passes":%s,"failures":%s,"pending":%s}' "$passes" "$failures" "$pending" >"$CODESEC_TEST_COUNTS"
[ "$failures" -eq 0 ]
`;
/** scripts/setup-languages.sh: logs that it ran, then exits with $FAKE_LANGUAGES (0 by default). */
const FAKE_SETUP_LANGUAGES = `#!/usr/bin/env bash
echo "[setup-languages] building the hosts"
echo languages >>"$FAKE_LOG"
exit "\${FAKE_LANGUAGES:-0}"
`;
/**
 * `c8 [options] mocha`: the command, then the coverage summary; with `--check-coverage --lines N`, fails
 * as c8 does when $FAKE_LINES (the lines covered, in percent; 95 by default) is under N.
 */
const FAKE_C8 = `#!/usr/bin/env bash
floor=
while [ "\${1#-}" != "$1" ]; do
  case "$1" in --lines) floor="$2"; shift ;; esac
  shift
done
"$@"; rc=$?
echo "=============================== Coverage summary ==============================="
lines="\${FAKE_LINES:-95}"
if [ -n "$floor" ] && [ "$lines" -lt "$floor" ]; then
  echo "ERROR: Coverage for lines ($lines%) does not meet global threshold ($floor%)" >&2
  exit 1
fi
exit $rc
`;

interface Run {
  status: number | null;
  output: string;
  lines: string[];
  phasesRun: string[];
}

describe("scripts/test.sh: one closing line for both phases", function () {
  this.timeout(60_000);
  let scratch: string;

  before(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-test-sh-"));
    mkdirSync(path.join(scratch, "scripts"));
    for (const file of ["scripts/test.sh", "scripts/test-summary.ts", "tsconfig.json"]) {
      copyFileSync(path.join(repoRoot, file), path.join(scratch, file));
    }
    writeFileSync(path.join(scratch, "scripts/build.sh"), "echo '[build] done'\n");
    writeFileSync(path.join(scratch, "scripts/setup-languages.sh"), FAKE_SETUP_LANGUAGES);
    writeFileSync(
      path.join(scratch, "scripts/reliability-report.ts"),
      'console.log("docs/reliability.md written");\n',
    );
    // ts-node and the package link (which test.sh checks for) from the repository's install.
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(scratch, "node_modules"), "dir");
    const bin = path.join(scratch, "fake-bin");
    mkdirSync(bin);
    for (const [name, text] of Object.entries({ mocha: FAKE_MOCHA, c8: FAKE_C8 })) {
      writeFileSync(path.join(bin, name), text);
      chmodSync(path.join(bin, name), 0o755);
    }
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  function runTests(first: string, e2e: string, languages = "0", lines = "95"): Run {
    const log = path.join(scratch, "phases.log");
    rmSync(log, { force: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${path.join(scratch, "fake-bin")}:${process.env.PATH}`,
      FAKE_LOG: log,
      FAKE_FIRST: first,
      FAKE_E2E: e2e,
      FAKE_LANGUAGES: languages,
      FAKE_LINES: lines,
    };
    delete env.CI;
    delete env.CODESEC_TEST_COUNTS;
    const result = spawnSync("bash", ["scripts/test.sh"], { cwd: scratch, env, encoding: "utf8" });
    const output = `${result.stdout}${result.stderr}`;
    return {
      status: result.status,
      output,
      lines: result.stdout.trimEnd().split("\n"),
      phasesRun: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [],
    };
  }

  /** Lines in the "N passed, N failed, N skipped" form. */
  function countLines(run: Run): string[] {
    return run.lines.filter((line) => /^\d+ passed, \d+ failed, \d+ skipped/.test(line));
  }

  it("both pass: the last line counts both, after the coverage summary; exit 0", () => {
    const run = runTests("770,0,0", "48,0,1");
    expect(run.status, run.output).to.equal(0);
    // The language hosts' set-up ran after the first phase (not beside its timed tests), before the second.
    expect(run.phasesRun).to.deep.equal(["first", "languages", "e2e"]);
    expect(run.output).to.include("[setup-languages] building the hosts");
    expect(countLines(run)).to.deep.equal([run.lines.at(-1)]);
    expect(run.lines.at(-1)).to.equal(
      "818 passed, 0 failed, 1 skipped: unit, integration and reliability: 770 passed, 0 failed, 0 skipped; " +
        "end-to-end: 48 passed, 0 failed, 1 skipped",
    );
    expect(run.output.indexOf("Coverage summary")).to.be.lessThan(run.output.lastIndexOf("818 passed"));
    expect(run.output).to.include("docs/reliability.md written");
  });

  it("the first phase fails: the end-to-end suite does not run, and the last line says so; exit 1", () => {
    const run = runTests("768,2,0", "48,0,0");
    expect(run.status).to.equal(1);
    expect(run.phasesRun).to.deep.equal(["first"]);
    expect(countLines(run)).to.deep.equal([run.lines.at(-1)]);
    expect(run.lines.at(-1)).to.equal(
      "768 passed, 2 failed, 0 skipped (FAILED): unit, integration and reliability: 768 passed, 2 failed, 0 skipped; " +
        "end-to-end: not run (the first phase failed)",
    );
  });

  it("the first phase's coverage falls under 90% of lines: c8 says so, the end-to-end suite does not run; exit 1", () => {
    const run = runTests("770,0,0", "48,0,0", "0", "89");
    expect(run.status).to.equal(1);
    expect(run.phasesRun).to.deep.equal(["first"]);
    expect(run.output).to.include("ERROR: Coverage for lines (89%) does not meet global threshold (90%)");
    expect(run.lines.at(-1)).to.equal(
      "770 passed, 0 failed, 0 skipped (FAILED): unit, integration and reliability: 770 passed, 0 failed, 0 skipped, exit code 1; " +
        "end-to-end: not run (the first phase failed)",
    );
  });

  it("the language hosts' set-up fails: the end-to-end suite does not run, and the last line says why; exit 1", () => {
    const run = runTests("770,0,0", "48,0,0", "1");
    expect(run.status).to.equal(1);
    expect(run.phasesRun).to.deep.equal(["first", "languages"]);
    expect(run.output).to.include("[setup-languages] building the hosts");
    expect(run.lines.at(-1)).to.equal(
      "770 passed, 0 failed, 0 skipped (FAILED): unit, integration and reliability: 770 passed, 0 failed, 0 skipped; " +
        "end-to-end: not run (the Python, Go and YAML language hosts could not be set up " +
        "(scripts/setup-languages.sh exited 1; its output is above))",
    );
  });

  it("the end-to-end suite fails: both counted, no report rendered; exit 1", () => {
    const run = runTests("770,0,0", "47,1,0");
    expect(run.status).to.equal(1);
    expect(run.phasesRun).to.deep.equal(["first", "languages", "e2e"]);
    expect(run.lines.at(-1)).to.equal(
      "817 passed, 1 failed, 0 skipped (FAILED): unit, integration and reliability: 770 passed, 0 failed, 0 skipped; " +
        "end-to-end: 47 passed, 1 failed, 0 skipped",
    );
    expect(run.output).to.not.include("docs/reliability.md written");
  });

  it("a phase that ends before counting (a compile error) is a failure the last line names; exit 1", () => {
    const run = runTests("crash", "48,0,0");
    expect(run.status).to.equal(1);
    expect(run.lines.at(-1)).to.equal(
      "0 passed, 0 failed, 0 skipped (FAILED): unit, integration and reliability: ended with exit code 7 " +
        "before its tests were counted; end-to-end: not run (the first phase failed)",
    );
  });
});
