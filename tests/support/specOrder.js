"use strict";
// The order in which mocha hands a suite's test files to its worker processes: the slowest files first,
// in the order named, then every other test file of the suite's folders, by path. Handed out last, a long
// file runs on alone while the other worker has nothing left to do; handed out first, the short files fill
// in beside it and both workers end at about the same time. A file's time: CODESEC_TEST_TIMES
// (tests/support/summaryReporter.js). The paths are absolute, so the order holds from any folder.
const fs = require("node:fs");
const path = require("node:path");

const repoRoot = path.resolve(__dirname, "../..");

/** Every `*.test.ts` file under `folder` (relative to the repository's root), by path. */
function testFilesUnder(folder) {
  return fs
    .readdirSync(path.join(repoRoot, folder), { recursive: true })
    .filter((file) => file.endsWith(".test.ts"))
    .map((file) => path.join(repoRoot, folder, file))
    .sort();
}

/**
 * The test files of `folders`, the `slowest` (paths relative to the repository's root) first. A name that
 * is not a test file of those folders is an error: a renamed file would otherwise fall back to its place
 * by path without a word.
 */
function slowestFirst(folders, slowest) {
  const files = folders.flatMap(testFilesUnder);
  const first = slowest.map((file) => path.join(repoRoot, file));
  const unknown = slowest.filter((_, i) => !files.includes(first[i]));
  if (unknown.length > 0) {
    throw new Error(
      `the slowest test files named for ${folders.join(", ")} are not test files there: ${unknown.join(", ")}`,
    );
  }
  return [...first, ...files.filter((file) => !first.includes(file))];
}

module.exports = { slowestFirst };
