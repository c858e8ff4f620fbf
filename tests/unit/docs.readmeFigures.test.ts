/**
 * The figures README.md states about the tests and the benchmarks, checked against where they come
 * from: the bench's options and its latest results (bench/results.json, which docs/performance.md is
 * rendered from), the end-to-end suite's time limits, and the tests' wall-clock upper bounds.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { benchOptions } from "../../bench/support/options";
import type { BenchResults } from "../../bench/support/results";
import { runMinutes, sizesInWords } from "../../scripts/performance-report";
import { CLI_COMMAND_LIMIT_MS, RESOURCE_STEP_LIMIT_MS } from "../e2e/support/timeLimits";

const root = path.resolve(__dirname, "../..");
/** README.md with its line breaks as spaces (a phrase may wrap). */
const readme = readFileSync(path.join(root, "README.md"), "utf8").replace(/\s*\n\s*/g, " ");

/** Assertions that an elapsed time stays under a bound (the clock read minus a start, then `below` and the like). */
function upperBoundsOnElapsedTime(): string[] {
  const tests = path.join(root, "tests");
  return readdirSync(tests, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => {
      const text = readFileSync(path.join(tests, file), "utf8");
      const found = text.match(
        /expect\(\s*(?:Date|performance)\.now\(\)\s*-\s*\w+\s*(?:,[^)]*)?\)\s*\.to\.be\.(?:below|lessThan|at\.most|lte)\(/g,
      );
      return (found ?? []).map(() => file);
    });
}

describe("README: figures about the tests and the benchmarks", () => {
  it("the bench's sizes, as bench/support/options.ts defines them", () => {
    const full = benchOptions([], {});
    const smoke = benchOptions(["--smoke"], {});
    expect(readme).to.include(`drives stacks of ${sizesInWords(full.sizes)} resources`);
    expect(readme).to.include(
      `stacks of ${sizesInWords(smoke.sizes)} resources, a rate-limited run of ${smoke.rateLimited.resources}`,
    );
  });

  it("the latest full run's time, as bench/results.json (and docs/performance.md) has it", () => {
    const results = JSON.parse(readFileSync(path.join(root, "bench/results.json"), "utf8")) as BenchResults;
    const took = `latest full run took ${runMinutes(results)} minutes`;
    expect(readme.split(took).length - 1, took).to.equal(2);
    const performance = readFileSync(path.join(root, "docs/performance.md"), "utf8");
    expect(performance).to.include(`${runMinutes(results)} minutes`);
    // Any other duration said in a sentence about the bench is the same figure.
    for (const page of [readme, performance]) {
      const sentences = page.replace(/\s*\n\s*/g, " ").split(/\.\s/);
      const durations = sentences
        .filter((sentence) => /bench/i.test(sentence))
        .flatMap((sentence) => [...sentence.matchAll(/(\d+) minutes/g)].map((m) => Number(m[1])));
      expect(durations, "the bench's durations").to.not.deep.equal([]);
      expect(durations.filter((minutes) => minutes !== runMinutes(results))).to.deep.equal([]);
    }
  });

  it("docs/release.md's time of a warm npm run release, with its commit and load, as bench/results.json has it", () => {
    const results = JSON.parse(readFileSync(path.join(root, "bench/results.json"), "utf8")) as BenchResults;
    const release = results.figures.find((f) => f.name === "warm `npm run release`, wall time");
    expect(release?.measuredAt, "a measured release").to.not.equal(undefined);
    const page = readFileSync(path.join(root, "docs/release.md"), "utf8").replace(/\s*\n\s*/g, " ");
    expect(page).to.include(
      `\`npm run release\` took ${Math.round(release!.value)} s on the bench's 2-core machine ` +
        `(commit ${release!.measuredAt!.commit}, load ${release!.measuredAt!.load.toFixed(2)}`,
    );
  });

  it("the end-to-end suite's time limits, as tests/e2e/support/timeLimits.ts sets them", () => {
    expect(readme).to.include(
      `${CLI_COMMAND_LIMIT_MS / 1000} s per Pulumi CLI command it runs (plus ${RESOURCE_STEP_LIMIT_MS / 1000} s per resource`,
    );
  });

  it("how many assertions bound a wait from above, as the tests hold them", () => {
    const bounds = upperBoundsOnElapsedTime();
    expect(bounds.length, bounds.join(", ")).to.be.greaterThan(0);
    expect(readme).to.include(`for ${bounds.length} assertions, well under the wait it must not make`);
  });
});
