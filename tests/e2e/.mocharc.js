"use strict";
// The end-to-end suite's mocha configuration. Its test files run two at a time, each in a worker process
// of its own (mocha's parallel mode): most of a test's time is the Pulumi CLI, the language hosts and the
// programs starting up and waiting on one another, so two files share a 2-core machine well.
// CODESEC_E2E_JOBS sets how many files run at once; 1 runs them one after another in this process (the
// serial mode, with `.only` forbidden as in the other suites: a worker forbids it in any case).
// Every file keeps its state to itself (tests/e2e/support/harness.ts: a scratch folder per process, a
// PULUMI_HOME per stack, servers on a free port of 127.0.0.1), so files may run in any order and at once.
// What every file installs from (the package's tarball, the native plugin's release archive, the Node.js
// SDK's tarball) is built once per run, in this process before any file runs, and handed to the test
// processes: the global setup of tests/e2e/support/sharedBuilds.ts, required below.
// The slowest files are handed out first (tests/support/specOrder.js), so that both workers end together.

const path = require("node:path");
const { slowestFirst } = require("../support/specOrder");

/**
 * The files that take longest, slowest first: the release rehearsal (minutes: registries, a build of every
 * artifact, five users' installs), the native scenario in three languages, the 1,000-role stack, the
 * interrupted runs, then the files of many CLI commands. CODESEC_TEST_TIMES gives each file's time.
 */
const SLOWEST = [
  "tests/e2e/release.rehearsal.test.ts",
  "tests/e2e/nativeLanguages.test.ts",
  "tests/e2e/scale.test.ts",
  "tests/e2e/reliability/interruptedRuns.test.ts",
  "tests/e2e/migrationPaths.test.ts",
  "tests/e2e/examples.test.ts",
  "tests/e2e/exampleWorkflows.test.ts",
  "tests/e2e/lifecycle.test.ts",
  "tests/e2e/docsCommands.test.ts",
  "tests/e2e/native.test.ts",
];

/** How many test files run at once: CODESEC_E2E_JOBS, 2 when unset. */
function jobsFrom(value) {
  if (value === undefined || value === "") return 2;
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new Error(
      `CODESEC_E2E_JOBS must be a whole number of test files to run at once (1 or more), not "${value}"`,
    );
  }
  return Number(value);
}

const jobs = jobsFrom(process.env.CODESEC_E2E_JOBS);

module.exports = {
  require: ["ts-node/register/transpile-only", path.join(__dirname, "support/sharedBuilds.ts")],
  extension: ["ts"],
  spec: slowestFirst(["tests/e2e"], SLOWEST),
  timeout: 600000,
  slow: 30000,
  forbidOnly: true,
  parallel: jobs > 1,
  jobs,
  // A custom reporter runs in the main process in parallel mode, fed every worker's events.
  reporter: "tests/support/summaryReporter.js",
  "node-option": ["conditions=codesec-source"],
};
