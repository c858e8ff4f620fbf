"use strict";
// The first phase of `npm test` (unit, integration and reliability tests) and `npm run test:quick`: the
// files run two at a time, each in a worker process of its own (mocha's parallel mode; c8 gathers the
// workers' coverage, which each worker writes as each file ends: tests/support/workerCoverage.ts). Every
// file keeps its state to itself (scratch folders, servers on a free port of 127.0.0.1), so files may run
// in any order and at once. The slowest files are handed out first (tests/support/specOrder.js): these
// took a minute or more each.
const { slowestFirst } = require("./tests/support/specOrder");

module.exports = {
  require: [
    "ts-node/register/transpile-only",
    "tests/support/providerRun.ts",
    "tests/support/workerCoverage.ts",
  ],
  extension: ["ts"],
  spec: slowestFirst(
    ["tests/unit", "tests/integration", "tests/reliability"],
    [
      "tests/integration/scripts.release.test.ts",
      "tests/integration/e2eMochaConfig.test.ts",
      "tests/integration/schema.generator.test.ts",
      "tests/integration/native.shutdown.test.ts",
      "tests/integration/scripts.installPlugin.test.ts",
      "tests/reliability/faultMatrix.test.ts",
      "tests/reliability/emulatorKill.test.ts",
    ],
  ),
  parallel: true,
  jobs: 2,
  timeout: 20000,
  exit: false,
  forbidOnly: true,
  reporter: "tests/support/summaryReporter.js",
  "node-option": ["conditions=codesec-source"],
};
