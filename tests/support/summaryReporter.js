"use strict";
// Mocha's spec reporter plus one closing line in the plain "N passed, N failed, N skipped" form that CI
// reads. Under scripts/test.sh (CODESEC_TEST_COUNTS names a file) the counts go to that file instead,
// and the script closes the whole run with one line for all its phases (scripts/test-summary.ts).
// With CODESEC_TEST_TIMES naming a file, it also writes there the time each test file took (the sum of
// its tests' and hooks' durations, which in parallel mode is the only per-file figure the main process
// sees: a worker's events arrive once its file has ended), slowest first: what to look at to make the
// suite faster.
const Mocha = require("mocha");
const { writeFileSync } = require("node:fs");
const path = require("node:path");

const { EVENT_RUN_END, EVENT_TEST_END, EVENT_HOOK_END } = Mocha.Runner.constants;

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const timesFile = process.env.CODESEC_TEST_TIMES;
    const perFile = new Map();
    if (timesFile) {
      const add = (runnable) => {
        const file = runnable.file ?? runnable.parent?.file;
        if (!file || typeof runnable.duration !== "number") return;
        const relative = path.relative(process.cwd(), file);
        const name = relative.startsWith("..") ? file : relative;
        const entry = perFile.get(name) ?? { ms: 0, tests: 0 };
        entry.ms += runnable.duration;
        if (runnable.type === "test") entry.tests += 1;
        perFile.set(name, entry);
      };
      runner.on(EVENT_TEST_END, add);
      runner.on(EVENT_HOOK_END, add);
    }
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      const countsFile = process.env.CODESEC_TEST_COUNTS;
      if (countsFile) writeFileSync(countsFile, JSON.stringify({ passes, failures, pending }));
      else process.stdout.write(`\n${passes} passed, ${failures} failed, ${pending} skipped\n`);
      if (timesFile) {
        const rows = [...perFile].sort((a, b) => b[1].ms - a[1].ms);
        writeFileSync(timesFile, JSON.stringify(Object.fromEntries(rows), null, 2) + "\n");
      }
    });
  }
}

module.exports = SummaryReporter;
