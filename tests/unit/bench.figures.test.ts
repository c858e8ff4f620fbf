/** The bench suite's arithmetic and reporting: medians, paired ratios, targets, options, the rendered page. */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { apiCallFigures } from "../../bench/apiCalls";
import type { PhaseCalls } from "../../bench/apiCalls";
import { PHASES, type Phase } from "../../bench/support/lifecycle";
import { benchOptions } from "../../bench/support/options";
import { peakPerSecond } from "../../bench/rateLimited";
import { checkReach, SETTINGS, type Probe } from "../../bench/largeStacks";
import {
  figure,
  formatValue,
  markdownTable,
  verdictOf,
  type BenchResults,
} from "../../bench/support/results";
import {
  BASE_OF,
  SMALL_PHASES,
  SMALL_STACK_COMPARISON,
  smallStackNames,
} from "../../bench/support/smallStackFigures";
import { median, pairedRatio, pairedRatios, summarized } from "../../bench/support/stats";
import { mergeResults, performanceReport } from "../../scripts/performance-report";

const root = path.resolve(__dirname, "../..");

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

describe("bench: offered rate", () => {
  it("counts the most arrivals within any one second", () => {
    expect(peakPerSecond([])).to.equal(0);
    // 0, 100, 900 fall within one second; 1000 starts the next window with 100 and 900.
    expect(peakPerSecond([1000, 0, 100, 900, 2500])).to.equal(3);
    expect(peakPerSecond([0, 999, 1998])).to.equal(2);
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

  it("meets a target only when it clears the noise floor of a same-against-same pairing of the same run", () => {
    const base = { comparison: "c", name: "n", unit: "x", target: { op: "<=", value: 1.0 } } as const;
    const noise = { low: 0.9, high: 1.12, pairs: 3 };
    // Every repetition at or below 1.0x, but a side against itself ranged 0.9x to 1.12x: not claimed.
    const inNoise = figure({
      ...base,
      value: 0.95,
      spread: { low: 0.93, high: 0.97 },
      repetitions: 3,
      noise,
    });
    expect(inNoise.met).to.equal(false);
    expect(verdictOf(inNoise)).to.equal(
      "inside the noise floor: cannot tell (a side against itself: 0.90x to 1.12x, taken as 0.89x to 1.12x)",
    );
    const clears = figure({ ...base, value: 0.8, spread: { low: 0.78, high: 0.85 }, repetitions: 3, noise });
    expect(clears.met).to.equal(true);
    const atLeast = figure({
      ...base,
      target: { op: ">=", value: 1.0 },
      value: 1.1,
      spread: { low: 1.05, high: 1.15 },
      repetitions: 3,
      noise,
    });
    expect(atLeast.met).to.equal(false);
    expect(figure({ ...atLeast, value: 1.2, spread: { low: 1.13, high: 1.3 } }).met).to.equal(true);
  });

  it("applies a one-sided noise band's width on both sides of 1", () => {
    const base = { comparison: "c", name: "n", unit: "x", target: { op: "<=", value: 1.0 } } as const;
    // A side against itself ranged 1.02x to 1.14x: a ratio may read 1/1.14 = 0.877x of what it is.
    const noise = { low: 1.02, high: 1.14, pairs: 3 };
    const justUnder = figure({
      ...base,
      value: 0.99,
      spread: { low: 0.98, high: 0.99 },
      repetitions: 3,
      noise,
    });
    expect(justUnder.met).to.equal(false);
    expect(verdictOf(justUnder)).to.equal(
      "inside the noise floor: cannot tell (a side against itself: 1.02x to 1.14x, taken as 0.88x to 1.14x)",
    );
    expect(figure({ ...justUnder, value: 0.87, spread: { low: 0.85, high: 0.877 } }).met).to.equal(true);
    expect(figure({ ...justUnder, value: 0.88, spread: { low: 0.85, high: 0.88 } }).met).to.equal(false);
    // Below 1 only (0.95x to 0.98x): at least 1.0x needs 1/0.95 = 1.053x.
    const atLeast = {
      ...base,
      target: { op: ">=", value: 1.0 },
      noise: { low: 0.95, high: 0.98, pairs: 4 },
    } as const;
    expect(
      figure({ ...atLeast, value: 1.05, spread: { low: 1.04, high: 1.06 }, repetitions: 3 }).met,
    ).to.equal(false);
    expect(
      figure({ ...atLeast, value: 1.07, spread: { low: 1.06, high: 1.08 }, repetitions: 3 }).met,
    ).to.equal(true);
  });

  it("cannot tell when the spread straddles the target within the noise floor, and misses it only beyond that noise", () => {
    const base = { comparison: "c", name: "n", unit: "x", target: { op: "<=", value: 1.3 } } as const;
    // A side against itself ranged 0.87x to 1.64x: a ratio of 1.40x (0.91x to 1.70x) may be anything
    // from 1.40 / 1.64 = 0.85x to 1.40 / 0.61 = 2.3x of what it is.
    const noise = { low: 0.87, high: 1.64, pairs: 3 };
    const straddles = figure({
      ...base,
      value: 1.4,
      spread: { low: 0.91, high: 1.7 },
      repetitions: 3,
      noise,
    });
    expect(straddles.met).to.equal(false);
    expect(straddles.insideNoise).to.equal(true);
    expect(verdictOf(straddles)).to.equal(
      "inside the noise floor: cannot tell (a side against itself: 0.87x to 1.64x, taken as 0.61x to 1.64x)",
    );
    expect(markdownTable([straddles])).to.include("| **cannot tell** (noise) |");
    // Every repetition above 1.3 x 1.64 = 2.13x: missed whatever the noise.
    const misses = figure({ ...base, value: 2.3, spread: { low: 2.2, high: 2.5 }, repetitions: 3, noise });
    expect(misses.met).to.equal(false);
    expect(misses.insideNoise).to.equal(undefined);
    expect(verdictOf(misses)).to.equal("not met");
    expect(markdownTable([misses])).to.include("| **no** |");
    // One repetition inside the noise is enough to leave it undecided.
    const oneInside = figure({ ...misses, spread: { low: 2.0, high: 2.5 } });
    expect(verdictOf(oneInside)).to.match(/^inside the noise floor: cannot tell/);
    const atLeast = figure({
      ...base,
      target: { op: ">=", value: 1.0 },
      value: 0.8,
      spread: { low: 0.7, high: 0.85 },
      repetitions: 3,
      noise: { low: 0.95, high: 1.05, pairs: 3 },
    });
    expect(verdictOf(atLeast)).to.equal("not met");
  });

  it("decides nothing on fewer than 3 noise pairs: the noise floor is unknown", () => {
    const base = { comparison: "c", name: "n", unit: "x", target: { op: "<=", value: 1.0 } } as const;
    const twoPairs = figure({
      ...base,
      value: 0.5,
      spread: { low: 0.4, high: 0.6 },
      repetitions: 2,
      noise: { low: 0.98, high: 1.01, pairs: 2 },
    });
    expect(twoPairs.met).to.equal(false);
    expect(verdictOf(twoPairs)).to.equal("not decided: noise floor unknown (2 noise pairs, 3 needed)");
    expect(markdownTable([twoPairs])).to.include("| **not decided** (noise floor unknown) |");
    const threePairs = figure({ ...twoPairs, noise: { low: 0.98, high: 1.01, pairs: 3 } });
    expect(threePairs.met).to.equal(true);
  });

  it("meets a target only when every repetition does, and says when the median alone would", () => {
    const base = { comparison: "c", name: "n", unit: "x", target: { op: "<=", value: 1.1 } } as const;
    const inside = figure({ ...base, value: 1.0, spread: { low: 0.9, high: 1.05 }, repetitions: 3 });
    expect([inside.met, inside.medianMet]).to.deep.equal([true, true]);
    const crosses = figure({ ...base, value: 1.0, spread: { low: 0.9, high: 1.2 }, repetitions: 3 });
    expect([crosses.met, crosses.medianMet]).to.deep.equal([false, true]);
    expect(verdictOf(crosses)).to.match(/spread crosses/);
    const outside = figure({ ...base, value: 1.3, spread: { low: 1.2, high: 1.4 }, repetitions: 3 });
    expect([outside.met, outside.medianMet]).to.deep.equal([false, false]);
    expect(verdictOf(outside)).to.equal("not met");
    const atLeast = figure({
      ...base,
      target: { op: ">=", value: 0.9 },
      value: 1,
      spread: { low: 0.85, high: 1.1 },
    });
    expect(atLeast.met).to.equal(false);
    expect(formatValue(crosses)).to.equal("1.00x (0.90x to 1.20x, 3 reps)");
    // A value that rounds to its target without being it shows the digit that decides.
    const justOver = figure({
      ...base,
      target: { op: "<=", value: 0.9 },
      value: 0.9016,
      spread: { low: 0.85, high: 1.11 },
      repetitions: 3,
    });
    expect(justOver.medianMet).to.equal(false);
    expect(formatValue(justOver)).to.equal("0.902x (0.85x to 1.11x, 3 reps)");
    expect(formatValue({ ...justOver, value: 0.9 })).to.equal("0.90x (0.85x to 1.11x, 3 reps)");
  });

  it("summarizes repetitions as their median, lowest and highest", () => {
    expect(summarized([1.2, 0.9, 1.0])).to.deep.equal({
      value: 1.0,
      spread: { low: 0.9, high: 1.2 },
      repetitions: 3,
    });
    expect(pairedRatios([2, 3, 4], [1, 3, 0])).to.deep.equal([2, 1]);
  });

  it("prints one table row per figure, escaping pipes", () => {
    const table = markdownTable([
      figure({ comparison: "a|b", name: "x", value: 1.234, unit: "x", target: { op: "<=", value: 1.1 } }),
    ]);
    expect(table.split("\n")).to.have.length(3);
    expect(table).to.contain("| a\\|b | x | 1.23x | <= 1.10x | **no** |");
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
  it("runs the smoke size with one repetition, and every full size with at least 3", () => {
    const smoke = benchOptions(["--smoke"], {});
    expect(smoke.sizes).to.deep.equal([10]);
    expect(smoke.reps).to.equal(1);
    const full = benchOptions([], {});
    expect(full.sizes).to.deep.equal([50, 200, 1000]);
    expect(full.reps).to.be.at.least(3);
  });

  it("sets the rate-limited run above its limit in both modes (the limiter must have something to do)", () => {
    for (const options of [benchOptions([], {}), benchOptions(["--smoke"], {})]) {
      const { resources, rate } = options.rateLimited;
      expect(resources / rate, "seconds the run needs at the limit").to.be.at.least(5);
    }
  });

  it("takes the steps BENCH_ONLY names, and refuses a step by any other name, numbers included", () => {
    expect(benchOptions([], { BENCH_ONLY: "state size, engine" }).only).to.deep.equal([
      "state size",
      "engine",
    ]);
    expect(benchOptions([], {}).only).to.equal(undefined);
    for (const unknown of ["2", "10", "State size", "state size,", "engines"]) {
      expect(() => benchOptions([], { BENCH_ONLY: unknown }), unknown).to.throw(
        /BENCH_ONLY must list steps among/,
      );
    }
  });

  it("accepts every BENCH_ONLY value that README.md and docs/performance.md give", () => {
    for (const page of ["README.md", "docs/performance.md"]) {
      const text = readFileSync(path.join(root, page), "utf8");
      const values = [...text.matchAll(/BENCH_ONLY=("[^"]*"|[^\s,;`)]+)/g)].map((m) =>
        m[1].replace(/^"|"$/g, ""),
      );
      expect(values, page).to.not.deep.equal([]);
      for (const value of values)
        expect(benchOptions([], { BENCH_ONLY: value }).only, `${page}: ${value}`).to.be.an("array");
    }
  });

  it("takes sizes and repetitions from BENCH_SIZES and BENCH_REPS, and refuses bad values and arguments", () => {
    const set = benchOptions([], { BENCH_SIZES: "50, 200", BENCH_REPS: "2" });
    expect(set.sizes).to.deep.equal([50, 200]);
    expect(set.reps).to.equal(2);
    expect(() => benchOptions([], { BENCH_SIZES: "50,x" })).to.throw(/BENCH_SIZES/);
    expect(() => benchOptions([], { BENCH_REPS: "0" })).to.throw(/BENCH_REPS/);
    expect(() => benchOptions(["--full"], {})).to.throw(/--smoke/);
  });
});

describe("bench: large stacks, whether each setting reaches the program", () => {
  /** What the program runs with when no setting reaches it. */
  const untouched: Probe = { execArgv: [], stackTraceLimit: 10, tsNode: true, env: {} };
  /** What it runs with when every setting does. */
  const touched: Probe = {
    execArgv: ["--stack-trace-limit=1"],
    stackTraceLimit: 1,
    tsNode: false,
    env: { PULUMI_DEBUG_PROMISE_LEAKS: "1", PULUMI_NODEJS_PARALLEL: "64" },
  };

  it("says for every setting it observes whether it is expected to reach the program", () => {
    for (const setting of SETTINGS) {
      expect(setting.expectedToReach === undefined, setting.name).to.equal(setting.reaches === undefined);
    }
  });

  it("throws when a setting expected to reach the program does not, naming the setting and the side", () => {
    const expected = SETTINGS.filter((setting) => setting.expectedToReach === true);
    expect(expected.map((setting) => setting.name)).to.include("NODE_OPTIONS=--stack-trace-limit=1");
    for (const setting of expected) {
      expect(() => checkReach(setting, untouched, "native")).to.throw(
        `native, ${setting.name}: expected to reach the program, and it did not`,
      );
      expect(() => checkReach(setting, touched, "native")).to.not.throw();
    }
  });

  it("throws when a setting expected not to reach the program does (the guide would then be wrong)", () => {
    const unexpected = SETTINGS.filter((setting) => setting.expectedToReach === false);
    expect(unexpected).to.not.have.length(0);
    for (const setting of unexpected) {
      expect(() => checkReach(setting, touched, "dynamic")).to.throw(
        `dynamic, ${setting.name}: expected not to reach the program, and it did`,
      );
      expect(() => checkReach(setting, untouched, "dynamic")).to.not.throw();
    }
  });
});

describe("bench: docs/performance.md", () => {
  const latest = () =>
    JSON.parse(readFileSync(path.join(root, "bench/results.json"), "utf8")) as BenchResults;

  it("is the page bench/results.json renders (npm run bench:report)", () => {
    const page = readFileSync(path.join(root, "docs/performance.md"), "utf8");
    expect(
      page === performanceReport(latest()),
      "docs/performance.md is stale: run npm run bench:report",
    ).to.equal(true);
  });

  it("shows every figure of bench/results.json under its comparison's section", () => {
    const results = latest();
    const sections = performanceReport(results).split("\n## Full table")[0];
    const missing = results.figures.filter((f) => !sections.includes(`\n- ${f.name}: **${formatValue(f)}**`));
    expect(missing.map((f) => `${f.comparison}: ${f.name}`)).to.deep.equal([]);
  });

  it("judges stored figures by today's rules, lists those inside their noise floor apart, and quotes the pack's start from the run", () => {
    const at = { commit: "abc1234", load: 23.4 };
    const stored: BenchResults = {
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
      ran: {},
      wallSeconds: 600,
      figures: [
        // As a run with older rules stored it: not met, no word of the noise.
        {
          comparison: "review path",
          name: "N=1000 PR check / bare preview",
          value: 1.4,
          unit: "x",
          spread: { low: 0.91, high: 1.7 },
          repetitions: 3,
          target: { op: "<=", value: 1.3 },
          noise: { low: 0.87, high: 1.64, pairs: 3 },
          met: false,
          medianMet: false,
          clearsNoise: false,
          measuredAt: at,
        },
        figure({
          comparison: "review path",
          name: "policy pack start, launcher to port",
          value: 7000,
          unit: "ms",
          measuredAt: at,
        }),
        figure({
          comparison: "review path",
          name: "policy pack start / bare Node.js start",
          value: 20,
          unit: "x",
          measuredAt: at,
        }),
        figure({
          comparison: "UserRoles map",
          name: "N=5,000 up (create), map / API floor",
          value: 1.32,
          unit: "x",
          repetitions: 1,
        }),
      ],
      notes: [],
    };
    const page = performanceReport(stored);
    expect(page).to.contain(
      "0 of 1 figures with a target meet it; 1 cannot tell (inside their noise floor), 0 do not.",
    );
    expect(page).to.not.contain("## Not met");
    expect(page).to.contain(
      "## Cannot tell: inside the noise floor\n\n- review path: N=1000 PR check / bare preview: **1.40x (0.91x to 1.70x, 3 reps)**, target <= 1.30x (inside the noise floor: cannot tell",
    );
    expect(page).to.contain(
      "The bench measured the launcher (figures below): **7000.0 ms** to its port, **20.00x**\na bare `node -e` start, paired start by start (commit abc1234, load 23.40)",
    );
    expect(page).to.not.match(/2\.8 s against 5\.4 s|about 10x a bare/);
    expect(page).to.contain(
      "- N=5,000 up (create), map / API floor: **1.32x** (one measurement, noise floor unknown);",
    );
  });

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
          comparison: "engine floor",
          name: "N=50 refresh",
          value: 1.3,
          unit: "x",
          target: { op: "<=", value: 1.1 },
        }),
        figure({
          comparison: "state size",
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
    expect(page).to.contain("- N=50 refresh: **1.30x**, target <= 1.10x (**not met**)");
    expect(page).to.contain("- UserRole __provider: **900 bytes**, target <= 1,024 bytes (met)");
    expect(page).to.contain(
      "1 of 2 figures with a target meet it; 0 cannot tell (inside their noise floor), 1 do not.",
    );
    expect(page).to.contain("- something could not run");
    // Each figure under its comparison's section, which says what the floor is.
    const engine = page.indexOf("## Engine floor");
    expect(engine).to.be.greaterThan(0);
    expect(page.indexOf("- N=50 refresh:")).to.be.greaterThan(engine);
    expect(page).to.match(/No-op floor/);
    expect(page).to.not.match(/did not finish/);
  });

  it("says which parts a run stopped early did not measure, and the spread behind a verdict", () => {
    const page = performanceReport({
      mode: "full",
      date: "2026-11-23T12:00:00.000Z",
      machine: { cpuModel: "C", cpuCount: 2, memoryGiB: 8, os: "L", node: "v24", pulumi: "v3" },
      ran: { sizes: [50], repetitions: { "N=50": 3 } },
      wallSeconds: 600,
      figures: [
        figure({
          comparison: "engine floor",
          name: "N=50 refresh, ours / HTTP floor",
          value: 1.0,
          unit: "x",
          target: { op: "<=", value: 1.1 },
          spread: { low: 0.95, high: 1.2 },
          repetitions: 3,
        }),
      ],
      notes: [],
      unfinished: ["engine floor, native provider, UserRoles map at N=1000"],
    });
    expect(page).to.contain("**This run did not finish**");
    expect(page).to.contain("it had not done engine floor, native provider, UserRoles map at N=1000");
    expect(page).to.contain("**1.00x (0.95x to 1.20x, 3 reps)**");
    expect(page).to.contain("not met: the median is inside the target, the spread crosses it");
    expect(page).to.contain("## UserRoles map");
    expect(page).to.contain("No figures: not measured in this run.");
  });

  it("merges a run stopped early with a run of what it did not finish", () => {
    const machine = { cpuModel: "C", cpuCount: 2, memoryGiB: 8, os: "L", node: "v24", pulumi: "v3" };
    const f = (name: string, value: number) => figure({ comparison: "engine floor", name, value, unit: "x" });
    const n1000 = "engine floor, native provider, UserRoles map at N=1000";
    const first: BenchResults = {
      mode: "full",
      date: "2026-11-26T00:00:00.000Z",
      machine,
      ran: {
        sizes: [200],
        repetitions: { "N=200": 3 },
        steps: ["state size", n1000],
        loadAverage: { start: 9, end: 8 },
      },
      wallSeconds: 1800,
      figures: [f("N=200 refresh", 1), f("shared", 1)],
      notes: [],
      unfinished: [n1000],
    };
    const second: BenchResults = {
      mode: "full",
      date: "2026-11-26T01:00:00.000Z",
      machine,
      ran: { sizes: [1000], repetitions: { "N=1000": 2 }, steps: [n1000], loadAverage: { start: 7, end: 6 } },
      wallSeconds: 2400,
      figures: [f("N=1000 refresh", 2), f("shared", 2)],
      notes: ["later"],
      unfinished: [`${n1000} (2 of 3 repetitions done)`],
    };
    const merged = mergeResults([first, second]);
    expect(merged.wallSeconds).to.equal(4200);
    expect(merged.figures.map((x) => [x.name, x.value])).to.deep.equal([
      ["N=200 refresh", 1],
      ["shared", 2],
      ["N=1000 refresh", 2],
    ]);
    expect(merged.unfinished).to.deep.equal([`${n1000} (2 of 3 repetitions done)`]);
    expect((merged.ran as { sizes: number[] }).sizes).to.deep.equal([200, 1000]);
    expect(merged.notes[0]).to.match(/combine 2 runs of the same tree/);
    expect(merged.notes).to.include("later");
    // Runs of two commits are not called one tree: the note names each run's commit instead.
    const twoCommits = mergeResults([
      { ...first, ran: { ...first.ran, commit: "aaaaaaa" } },
      { ...second, ran: { ...second.ran, commit: "bbbbbbb" } },
    ]);
    expect(twoCommits.notes[0]).to.match(/combine 2 runs \(of the commits this note names\)/);
    expect(twoCommits.notes[0]).to.include("(commit aaaaaaa)").and.include("(commit bbbbbbb)");
    const done = mergeResults([first, { ...second, unfinished: [] }]);
    expect(done.unfinished).to.deep.equal([]);
  });

  it("opens with the small real stack: each phase above the CLI's fixed cost, native against dynamic beside its noise floor", () => {
    const machine = { cpuModel: "C", cpuCount: 2, memoryGiB: 8, os: "L", node: "v24", pulumi: "v3" };
    const at = { commit: "abc1234", load: 3.5 };
    const small = (name: string, value: number, unit: string, more: object = {}) =>
      figure({ comparison: SMALL_STACK_COMPARISON, name, value, unit, measuredAt: at, ...more });
    const spread = (low: number, high: number) => ({ spread: { low, high }, repetitions: 3 });
    const figures = [
      small(BASE_OF.up, 4, "s", spread(3.8, 4.4)),
      small(BASE_OF.refresh, 3, "s", spread(2.9, 3.1)),
      small(BASE_OF.destroy, 3.2, "s", spread(3, 3.3)),
    ];
    for (const phase of SMALL_PHASES) {
      figures.push(
        small(smallStackNames.secondsAbove(phase, "dynamic"), 2, "s", spread(1.5, 2.5)),
        small(smallStackNames.ratioToBase(phase, "dynamic"), 1.5, "x", spread(1.4, 1.6)),
        small(smallStackNames.secondsAbove(phase, "native"), 1, "s", spread(0.8, 1.2)),
        small(smallStackNames.ratioToBase(phase, "native"), 1.25, "x", spread(1.2, 1.3)),
        small(smallStackNames.noiseFloor(phase), 1.01, "x", spread(0.97, 1.05)),
        small(smallStackNames.nativeToDynamic(phase), phase === "refresh" ? 0.8 : 0.98, "x", {
          ...spread(phase === "refresh" ? 0.75 : 0.96, phase === "refresh" ? 0.85 : 1.0),
          target: { op: "<=", value: 1 },
          noise: { low: 0.97, high: 1.05, pairs: 3 },
        }),
      );
    }
    const page = performanceReport({
      mode: "full",
      date: "2026-11-28T08:00:00.000Z",
      machine,
      ran: {},
      wallSeconds: 600,
      figures,
      notes: [],
    });
    const sections = page.split("\n## ").map((section) => section.split("\n")[0]);
    // The first section after the title is the small stack's table.
    expect(sections[1]).to.equal("What a user waits for: a small real stack");
    const table = page.split("\n## ")[1];
    expect(table).to.include("| phase | the CLI's fixed cost (base) |");
    expect(table).to.include(
      "| `up` | an empty program's preview: 4.00 s (3.80 s to 4.40 s, 3 reps) | +2.00 s (+1.50 s to +2.50 s), 1.50x (1.40x to 1.60x) | +1.00 s (+0.80 s to +1.20 s), 1.25x (1.20x to 1.30x) | 0.98x (0.96x to 1.00x, 3 reps) | 0.97x to 1.05x | inside the noise floor: cannot tell",
    );
    expect(table).to.match(
      /\| `refresh` \| an empty stack's refresh: 3\.00 s .*\| 0\.80x \(0\.75x to 0\.85x, 3 reps\) \| 0\.97x to 1\.05x \| met \|/,
    );
    expect(table).to.include("commit abc1234, load 3.50");
    // The same figures are still listed under their own section.
    expect(page).to.include("## Small real stack");
  });

  it("says the small real stack was not measured when the results have none of its figures", () => {
    const page = performanceReport({
      mode: "full",
      date: "2026-11-28T08:00:00.000Z",
      machine: { cpuModel: "C", cpuCount: 2, memoryGiB: 8, os: "L", node: "v24", pulumi: "v3" },
      ran: {},
      wallSeconds: 600,
      figures: [],
      notes: [],
    });
    const opening = page.split("\n## ")[1];
    expect(opening).to.match(/^What a user waits for: a small real stack\n\nNot measured in these results/);
  });

  it("lists every run of a merge of merges once, each with its time and load, and says so on the page", () => {
    const machine = { cpuModel: "C", cpuCount: 2, memoryGiB: 8, os: "L", node: "v24", pulumi: "v3" };
    const run = (
      hour: number,
      minutes: number,
      load: number,
      commit: string,
      name: string,
    ): BenchResults => ({
      mode: "full",
      date: `2026-11-26T0${hour}:00:00.000Z`,
      machine,
      ran: {
        sizes: [50],
        repetitions: { "N=50": 3 },
        steps: [name],
        commit,
        secondsPerComparison: { [name]: minutes * 60 },
        loadAverage: { start: load, end: load + 1 },
      },
      wallSeconds: minutes * 60,
      figures: [figure({ comparison: "engine floor", name, value: hour, unit: "x" })],
      notes: [`note of ${name}`],
      unfinished: [],
    });
    const earlier = mergeResults([run(2, 60, 8, "aaaaaaa", "first"), run(3, 2, 4, "bbbbbbb", "second")]);
    const merged = mergeResults([earlier, run(5, 30, 1, "ccccccc", "third")]);
    const note = merged.notes[0];
    expect(note).to.match(/^These results combine 3 runs/);
    expect(note).to.include(
      "run 1, from 2026-11-26 01:00 UTC, 60 minutes (commit aaaaaaa), load average 8 to 9",
    );
    expect(note).to.include(
      "run 2, from 2026-11-26 02:58 UTC, 2 minutes (commit bbbbbbb), load average 4 to 5",
    );
    expect(note).to.include(
      "run 3, from 2026-11-26 04:30 UTC, 30 minutes (commit ccccccc), load average 1 to 2",
    );
    // The earlier merge's own note described two of these runs: it is not kept beside this one.
    expect(merged.notes.filter((n) => n.startsWith("These results combine"))).to.have.length(1);
    expect(merged.notes).to.include.members(["note of first", "note of second", "note of third"]);
    expect(merged.wallSeconds).to.equal(92 * 60);
    // One run's commit, timings and load are not the merge's: they are per run.
    expect(merged.ran).to.not.have.any.keys("commit", "secondsPerComparison", "loadAverage");
    const page = performanceReport(merged);
    expect(page).to.include("92 minutes in all, in 3 runs, on");
    expect(page).to.include("Load average (1 minute): each run's, in the notes at the end.");
    expect(page).to.include("the runs above took 92 minutes in all (each run's time is in the notes)");
    expect(performanceReport(run(5, 30, 1, "ccccccc", "third")))
      .to.include("30 minutes on")
      .and.include("Load average (1 minute) 1 at the start and 2 at the end.");
  });
});
