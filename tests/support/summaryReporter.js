"use strict";
// Mocha's spec reporter plus one closing line in the plain "N passed, N failed, N skipped" form that CI
// reads. Under scripts/test.sh (CODESEC_TEST_COUNTS names a file) the counts go to that file instead,
// and the script closes the whole run with one line for all its phases (scripts/test-summary.ts).
const Mocha = require("mocha");
const { writeFileSync } = require("node:fs");

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      const countsFile = process.env.CODESEC_TEST_COUNTS;
      if (countsFile) writeFileSync(countsFile, JSON.stringify({ passes, failures, pending }));
      else process.stdout.write(`\n${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SummaryReporter;
