/** The native SDK aliases comparison's arithmetic: which sides each figure divides, paired by repetition, and how it is run. */
import { expect } from "chai";
import {
  ALIAS_PHASES,
  ALIASES_COMPARISON,
  aliasFigures,
  rotated,
  type AliasRun,
} from "../../bench/nativeAliases";
import { benchOptions } from "../../bench/support/options";

/**
 * A run whose sides have distinct times and CPU per repetition and per phase (phase i's values are
 * (i + 1) times the first phase's), so that a swapped side or phase shows.
 */
function run(): AliasRun {
  const perPhase = (values: number[]) =>
    Object.fromEntries(ALIAS_PHASES.map((phase, i) => [phase, values.map((v) => v * (i + 1))]));
  const native = perPhase([12, 10]);
  // The side without aliases: the same in every phase, so a ratio read from the wrong phase changes.
  const unaliased = Object.fromEntries(ALIAS_PHASES.map((phase) => [phase, [10, 8]]));
  return {
    n: 1000,
    repetitions: 2,
    times: { native, "native-unaliased": unaliased, codesec: perPhase([8, 10]) } as AliasRun["times"],
    programCpu: {
      native: perPhase([6, 9]),
      "native-unaliased": Object.fromEntries(ALIAS_PHASES.map((phase) => [phase, [5, 6]])),
      codesec: perPhase([4, 8]),
    } as AliasRun["programCpu"],
  };
}

describe("bench: the native SDK aliases comparison", () => {
  it("divides native by native without its aliases, that by dynamic, and native by dynamic, repetition by repetition", () => {
    const figures = aliasFigures(run());
    expect(figures).to.have.length(ALIAS_PHASES.length * 6);
    const named = (name: string) => {
      const found = figures.find((f) => f.name === name);
      expect(found, name).to.not.equal(undefined);
      return found!;
    };
    ALIAS_PHASES.forEach((phase, i) => {
      const k = i + 1;
      // Paired: 12k/10 and 10k/8 (median 1.225k), not the ratio of the medians (11k/9).
      const aliases = named(`N=1000 ${phase}, native / native without its aliases`);
      expect(aliases.value).to.be.closeTo(1.225 * k, 1e-9);
      expect(aliases.spread!.low).to.be.closeTo(1.2 * k, 1e-9);
      expect(aliases.spread!.high).to.be.closeTo(1.25 * k, 1e-9);
      const unaliased = named(`N=1000 ${phase}, native without its aliases / dynamic`);
      expect(unaliased.spread!.low).to.be.closeTo(0.8 / k, 1e-9);
      expect(unaliased.spread!.high).to.be.closeTo(1.25 / k, 1e-9);
      const both = named(`N=1000 ${phase}, native / dynamic`);
      expect(both.spread).to.deep.equal({ low: 1, high: 1.5 });
      const cpu = named(`N=1000 ${phase}, program process CPU, native / native without its aliases`);
      expect(cpu.spread!.low).to.be.closeTo(1.2 * k, 1e-9);
      expect(cpu.spread!.high).to.be.closeTo(1.5 * k, 1e-9);
      const cpuUnaliased = named(
        `N=1000 ${phase}, program process CPU, native without its aliases / dynamic`,
      );
      expect(cpuUnaliased.spread!.low).to.be.closeTo(0.75 / k, 1e-9);
      expect(cpuUnaliased.spread!.high).to.be.closeTo(1.25 / k, 1e-9);
      const cpuBoth = named(`N=1000 ${phase}, program process CPU, native / dynamic`);
      expect(cpuBoth.spread).to.deep.equal({ low: 1.125, high: 1.5 });
      for (const f of [aliases, unaliased, both, cpu, cpuUnaliased, cpuBoth]) {
        expect(f.comparison).to.equal(ALIASES_COMPARISON);
        expect(f.repetitions).to.equal(2);
        // Published without a target: the side without aliases is not a product.
        expect(f.target).to.equal(undefined);
      }
    });
  });

  it("rotates the order of the sides with each repetition, so that no side always runs first", () => {
    const sides = ["native", "native-unaliased", "codesec"];
    expect(rotated(sides, 0)).to.deep.equal(sides);
    expect(rotated(sides, 1)).to.deep.equal(["native-unaliased", "codesec", "native"]);
    expect(rotated(sides, 2)).to.deep.equal(["codesec", "native", "native-unaliased"]);
    expect(rotated(sides, 3)).to.deep.equal(sides);
  });

  it("runs on its own with BENCH_ONLY set to its name, and refuses an unknown step", () => {
    expect(benchOptions([], { BENCH_ONLY: ALIASES_COMPARISON }).only).to.deep.equal([ALIASES_COMPARISON]);
    expect(() => benchOptions([], { BENCH_ONLY: "native SDK's aliases" })).to.throw(/BENCH_ONLY/);
  });
});
