/** Comparison 10's arithmetic: which sides each figure divides, paired by repetition, and how it is run. */
import { expect } from "chai";
import { ALIAS_PHASES, ALIASES, aliasFigures, type AliasRun } from "../../bench/nativeAliases";
import { benchOptions } from "../../bench/support/options";

/** A run whose sides have distinct times and CPU per repetition, so that a swapped side shows. */
function run(): AliasRun {
  const perPhase = (values: number[]) => Object.fromEntries(ALIAS_PHASES.map((phase) => [phase, values]));
  return {
    n: 1000,
    repetitions: 2,
    times: {
      native: perPhase([12, 10]),
      "native-unaliased": perPhase([10, 8]),
      codesec: perPhase([8, 10]),
    } as AliasRun["times"],
    programCpu: {
      native: perPhase([6, 9]),
      "native-unaliased": perPhase([5, 6]),
      codesec: perPhase([4, 8]),
    } as AliasRun["programCpu"],
  };
}

describe("bench: the native SDK's aliases (comparison 10)", () => {
  it("divides native by native without its aliases, and that by dynamic, repetition by repetition", () => {
    const figures = aliasFigures(run());
    expect(figures).to.have.length(ALIAS_PHASES.length * 4);
    const named = (name: string) => {
      const found = figures.find((f) => f.name === name);
      expect(found, name).to.not.equal(undefined);
      return found!;
    };
    for (const phase of ALIAS_PHASES) {
      // Paired: 12/10 and 10/8 (median 1.225), not the ratio of the medians (11/9).
      const aliases = named(`N=1000 ${phase}, native / native without its aliases`);
      expect(aliases.value).to.be.closeTo(1.225, 1e-9);
      expect(aliases.spread).to.deep.equal({ low: 1.2, high: 1.25 });
      const unaliased = named(`N=1000 ${phase}, native without its aliases / dynamic`);
      expect(unaliased.spread).to.deep.equal({ low: 0.8, high: 1.25 });
      const cpu = named(`N=1000 ${phase}, program process CPU, native / native without its aliases`);
      expect(cpu.spread).to.deep.equal({ low: 1.2, high: 1.5 });
      const cpuUnaliased = named(
        `N=1000 ${phase}, program process CPU, native without its aliases / dynamic`,
      );
      expect(cpuUnaliased.spread).to.deep.equal({ low: 0.75, high: 1.25 });
      for (const f of [aliases, unaliased, cpu, cpuUnaliased]) {
        expect(f.comparison).to.equal(ALIASES);
        expect(f.repetitions).to.equal(2);
        // Published without a target: the side without aliases is not a product.
        expect(f.target).to.equal(undefined);
      }
    }
  });

  it("runs on its own with BENCH_ONLY=10, and refuses an unknown step", () => {
    expect(benchOptions([], { BENCH_ONLY: "10" }).only).to.deep.equal(["10"]);
    expect(() => benchOptions([], { BENCH_ONLY: "9" })).to.throw(/BENCH_ONLY/);
  });
});
