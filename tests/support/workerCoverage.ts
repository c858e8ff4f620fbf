/**
 * Mocha root hook for the first phase's worker processes (.mocharc.js, parallel mode): mocha ends each
 * worker at the run's end without waiting for V8 to write its coverage, so each file's coverage is written
 * when the file is done. Only under c8 (NODE_V8_COVERAGE set); each call writes the counts since the
 * last one, and c8 merges the files.
 */
import { takeCoverage } from "node:v8";

export const mochaHooks = {
  afterAll(): void {
    if (process.env.NODE_V8_COVERAGE) takeCoverage();
  },
};
