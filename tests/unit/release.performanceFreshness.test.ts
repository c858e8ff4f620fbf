/**
 * A release refuses figures measured on other sources: docs/performance.md names the digest of the
 * sources it was measured on, `npm run release` compares it with its own, `--allow-stale-performance`
 * builds anyway and the provenance records it; the release workflow never passes it.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { BENCH_STEPS } from "../../bench/support/options";
import { figure, type BenchResults } from "../../bench/support/results";
import { mergeResults, performanceReport } from "../../scripts/performance-report";
import { provenanceStatement } from "../../scripts/release/provenance";
import {
  ALLOW_STALE_PERFORMANCE,
  releaseOptions,
  stalePerformance,
} from "../../scripts/release/performanceFreshness";

const root = path.resolve(__dirname, "../..");
const MEASURED = `sha256:${"a".repeat(64)}`;
const RELEASED = `sha256:${"b".repeat(64)}`;

/** Every step as a whole run plans it, the stacks with their sizes. */
const ALL_STEPS = BENCH_STEPS.flatMap((step) =>
  step === "engine" ? ["engine at N=50", "engine at N=200"] : [step],
);

function results(
  sourcesDigest: string | undefined,
  commit = "1a2b3c4",
  shape: { mode?: "full" | "smoke"; steps?: string[]; unfinished?: string[] } = {},
): BenchResults {
  return {
    mode: shape.mode ?? "full",
    date: "2026-11-27T10:00:00.000Z",
    machine: { cpuModel: "cpu", cpuCount: 2, memoryGiB: 8, os: "Linux", node: "v24", pulumi: "v3" },
    ran: {
      sizes: [50],
      repetitions: { "N=50": 3 },
      steps: shape.steps ?? ALL_STEPS,
      commit,
      loadAverage: { start: 1, end: 2 },
    },
    wallSeconds: 60,
    figures: [
      figure({
        comparison: "engine floor",
        name: "N=50 up, ours / floor",
        value: 1.05,
        unit: "x",
        target: { op: "<=", value: 1.1 },
        measuredAt: { commit, load: 1.5 },
      }),
    ],
    notes: [],
    unfinished: shape.unfinished ?? [],
    ...(sourcesDigest ? { sourcesDigest } : {}),
  };
}

describe("release: docs/performance.md must be measured on the release's sources", () => {
  it("accepts a page measured on the release's own sources", () => {
    expect(stalePerformance(performanceReport(results(MEASURED)), MEASURED)).to.equal(undefined);
  });

  it("refuses a page measured on other sources, naming the file and what to run", () => {
    const refusal = stalePerformance(performanceReport(results(MEASURED)), RELEASED);
    expect(refusal).to.include(`docs/performance.md was measured on sources ${MEASURED}`);
    expect(refusal).to.include(`not on this release's ${RELEASED}`);
    expect(refusal).to.include("`npm run bench`, then `npm run bench:report`");
    expect(refusal).to.include(ALLOW_STALE_PERFORMANCE);
  });

  it("refuses a page that names no digest, as merged runs of different sources give", () => {
    const merged = mergeResults([results(MEASURED, "1a2b3c4"), results(RELEASED, "5d6e7f8")]);
    expect(merged.sourcesDigest).to.equal(undefined);
    const refusal = stalePerformance(performanceReport(merged), RELEASED);
    expect(refusal).to.include(
      "docs/performance.md holds no full bench run of every step (its runs recorded no one digest of the sources they measured)",
    );
  });

  it("refuses a smoke run of the release's own sources", () => {
    const refusal = stalePerformance(
      performanceReport(results(MEASURED, "1a2b3c4", { mode: "smoke" })),
      MEASURED,
    );
    expect(refusal).to.include(
      "docs/performance.md holds no full bench run of every step (a smoke run, not a full one)",
    );
  });

  it("refuses a BENCH_ONLY run of some steps of the release's own sources, naming the steps not run", () => {
    const some = results(MEASURED, "1a2b3c4", { steps: ["client", "engine at N=50"] });
    const refusal = stalePerformance(performanceReport(some), MEASURED);
    expect(refusal).to.include("steps not run: state size, emulator capacity,");
    expect(refusal).to.include(`${BENCH_STEPS.at(-1)})`);
    expect(refusal).to.not.include("steps not run: client");
  });

  it("refuses a run stopped early, naming what it did not finish", () => {
    const stopped = results(MEASURED, "1a2b3c4", {
      unfinished: ["engine at N=200 (1 of 3 repetitions done)"],
    });
    const refusal = stalePerformance(performanceReport(stopped), MEASURED);
    expect(refusal).to.include("steps not finished: engine at N=200 (1 of 3 repetitions done)");
  });

  it("accepts full runs merged that together run every step on the same sources", () => {
    const engine = ALL_STEPS.filter((step) => step.startsWith("engine"));
    const first = results(MEASURED, "1a2b3c4", { steps: ALL_STEPS.filter((step) => !engine.includes(step)) });
    const second = results(MEASURED, "1a2b3c4", { steps: engine });
    expect(stalePerformance(performanceReport(first), MEASURED)).to.include("steps not run: engine");
    expect(stalePerformance(performanceReport(mergeResults([first, second])), MEASURED)).to.equal(undefined);
  });

  it("refuses merged runs whose steps were all run when one of them is a smoke run", () => {
    const engine = ALL_STEPS.filter((step) => step.startsWith("engine"));
    const first = results(MEASURED, "1a2b3c4", { steps: ALL_STEPS.filter((step) => !engine.includes(step)) });
    const second = results(MEASURED, "1a2b3c4", { steps: engine, mode: "smoke" });
    expect(stalePerformance(performanceReport(mergeResults([first, second])), MEASURED)).to.include(
      "(a smoke run, not a full one)",
    );
  });

  it("keeps the digest of merged runs of the same sources", () => {
    const merged = mergeResults([results(MEASURED, "1a2b3c4"), results(MEASURED, "1a2b3c4")]);
    expect(stalePerformance(performanceReport(merged), MEASURED)).to.equal(undefined);
  });

  it("publishes every figure with the commit and the load it was measured at", () => {
    const page = performanceReport(results(MEASURED));
    expect(page).to.include(
      "- N=50 up, ours / floor: **1.05x**, target <= 1.10x (met); commit 1a2b3c4, load 1.50",
    );
    expect(page).to.match(
      /\| N=50 up, ours \/ floor \| 1\.05x \| <= 1\.10x \| yes \| commit 1a2b3c4, load 1\.50 \|/,
    );
  });

  it("takes --allow-stale-performance and refuses any other argument", () => {
    expect(releaseOptions([])).to.deep.equal({ allowStalePerformance: false });
    expect(releaseOptions([ALLOW_STALE_PERFORMANCE])).to.deep.equal({ allowStalePerformance: true });
    expect(() => releaseOptions(["--allow-stale"])).to.throw(
      "npm run release takes no argument but --allow-stale-performance, not --allow-stale",
    );
  });

  it("records --allow-stale-performance in the provenance, and nothing of it without", () => {
    const commit = { sha: "c".repeat(40), epochSeconds: 0, isoTime: "1970-01-01T00:00:00Z" };
    const parameters = (allowStalePerformance: boolean) =>
      (
        JSON.parse(provenanceStatement(root, [], "1.2.3", commit, {}, {}, { allowStalePerformance })) as {
          predicate: { buildDefinition: { externalParameters: Record<string, unknown> } };
        }
      ).predicate.buildDefinition.externalParameters;
    expect(parameters(true)).to.deep.equal({
      version: "1.2.3",
      command: `npm run release -- ${ALLOW_STALE_PERFORMANCE}`,
      allowStalePerformance: true,
      publishable: false,
    });
    expect(parameters(false)).to.deep.equal({ version: "1.2.3", command: "npm run release" });
  });

  it("is never allowed by the release workflow", () => {
    const workflow = readFileSync(path.join(root, ".github/workflows/release.yml"), "utf8");
    expect(workflow).to.include("npm run release");
    expect(workflow).to.not.include(ALLOW_STALE_PERFORMANCE);
  });
});
