/** The bench suite's arithmetic and reporting: medians, paired ratios, targets, options, the rendered page. */
import { expect } from "chai";
import { apiCallFigures } from "../../bench/apiCalls";
import type { PhaseCalls } from "../../bench/apiCalls";
import { PHASES, type Phase } from "../../bench/support/lifecycle";
import { benchOptions } from "../../bench/support/options";
import { figure, markdownTable, type BenchResults } from "../../bench/support/results";
import { median, pairedRatio } from "../../bench/support/stats";
import { performanceReport } from "../../scripts/performance-report";

describe("bench: statistics", () => {
  it("takes the median of an odd and an even count", () => {
    expect(median([5, 1, 3])).to.equal(3);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(Number.isNaN(median([]))).to.equal(true);
  });

  it("pairs each repetition with the floor's of the same repetition, not median with median", () => {
    // Medians alone give 3/3 = 1; the pairs (2/1, 3/3, 4/2) say ours is twice the floor in the middle pair.
    expect(pairedRatio([2, 3, 4], [1, 3, 2])).to.equal(2);
  });
});

describe("bench: figures against targets", () => {
  it("marks a figure met or not by its target's operator, and leaves one without target unmarked", () => {
    const base = { comparison: "c", name: "n", unit: "x" };
    expect(figure({ ...base, value: 1.1, target: { op: "<=", value: 1.1 } }).met).to.equal(true);
    expect(figure({ ...base, value: 1.2, target: { op: "<=", value: 1.1 } }).met).to.equal(false);
    expect(figure({ ...base, value: 0.8, target: { op: ">=", value: 0.9 } }).met).to.equal(false);
    expect(figure({ ...base, value: 0, target: { op: "==", value: 0 } }).met).to.equal(true);
    expect(figure({ ...base, value: 3 })).to.not.have.property("met");
  });

  it("prints one table row per figure, escaping pipes", () => {
    const table = markdownTable([
      figure({ comparison: "1 a|b", name: "x", value: 1.234, unit: "x", target: { op: "<=", value: 1.1 } }),
    ]);
    expect(table.split("\n")).to.have.length(3);
    expect(table).to.contain("| 1 a\\|b | x | 1.23x | <= 1.10x | **no** |");
  });
});

describe("bench: API call targets", () => {
  function calls(n: number, codesec: Partial<Record<Phase, number>>): PhaseCalls {
    const counts = (total: number) => ({ total, byOperation: {}, byStatus: {} });
    const of = (values: Partial<Record<Phase, number>>) =>
      Object.fromEntries(PHASES.map((p) => [p, counts(values[p] ?? 0)])) as PhaseCalls["codesec"];
    return { n, codesec: of(codesec), http: of({}) };
  }

  it("allows a run that checks one credential read, refresh one read, and one call per changed resource", () => {
    const figures = apiCallFigures([
      calls(200, {
        "preview (create)": 1,
        "up (create)": 201,
        "preview, no change": 1,
        "up, no change": 1,
        "update of 5": 6,
        refresh: 1,
        destroy: 200,
      }),
    ]);
    expect(figures.map((f) => f.met)).to.deep.equal(PHASES.map(() => true));
    const tooMany = apiCallFigures([calls(200, { refresh: 200, "up, no change": 2, "update of 5": 7 })]);
    expect(tooMany.find((f) => f.name === "N=200 refresh")?.met).to.equal(false);
    expect(tooMany.find((f) => f.name === "N=200 up, no change")?.met).to.equal(false);
    expect(tooMany.find((f) => f.name === "N=200 update of 5")?.met).to.equal(false);
  });
});

describe("bench: options", () => {
  it("runs the smoke size with one repetition, and the full sizes with fewer repetitions at N = 1,000", () => {
    const smoke = benchOptions(["--smoke"], {});
    expect(smoke.sizes).to.deep.equal([10]);
    expect(smoke.repsFor(10)).to.equal(1);
    const full = benchOptions([], {});
    expect(full.sizes).to.deep.equal([50, 200, 1000]);
    expect(full.repsFor(1000)).to.be.lessThan(full.repsFor(200));
  });

  it("takes sizes and repetitions from BENCH_SIZES and BENCH_REPS, and refuses bad values and arguments", () => {
    const set = benchOptions([], { BENCH_SIZES: "50, 200", BENCH_REPS: "2" });
    expect(set.sizes).to.deep.equal([50, 200]);
    expect(set.repsFor(200)).to.equal(2);
    expect(() => benchOptions([], { BENCH_SIZES: "50,x" })).to.throw(/BENCH_SIZES/);
    expect(() => benchOptions([], { BENCH_REPS: "0" })).to.throw(/BENCH_REPS/);
    expect(() => benchOptions(["--full"], {})).to.throw(/--smoke/);
  });
});

describe("bench: docs/performance.md", () => {
  it("shows the machine and one line per figure with its target and verdict", () => {
    const results: BenchResults = {
      mode: "full",
      date: "2026-11-23T12:00:00.000Z",
      machine: {
        cpuModel: "Test CPU",
        cpuCount: 2,
        memoryGiB: 8,
        os: "Linux 6",
        node: "v22.0.0",
        pulumi: "v3.259.0",
      },
      ran: { repetitions: { "N=50": 3 } },
      wallSeconds: 2400,
      figures: [
        figure({
          comparison: "1 engine floor",
          name: "N=50 refresh",
          value: 1.3,
          unit: "x",
          target: { op: "<=", value: 1.1 },
        }),
        figure({
          comparison: "2 state size",
          name: "UserRole __provider",
          value: 900,
          unit: "bytes",
          target: { op: "<=", value: 1024 },
        }),
      ],
      notes: ["something could not run"],
    };
    const page = performanceReport(results);
    expect(page).to.contain("2 x Test CPU, 8 GiB, Linux 6, Node v22.0.0, Pulumi v3.259.0");
    expect(page).to.contain("- 1 engine floor: N=50 refresh: **1.30x**, target <= 1.10x (**not met**)");
    expect(page).to.contain(
      "- 2 state size: UserRole __provider: **900 bytes**, target <= 1,024 bytes (met)",
    );
    expect(page).to.contain("1 of 2 figures with a target meet it.");
    expect(page).to.contain("- something could not run");
  });
});
