/**
 * The native SDK aliases comparison, what the generated SDK's aliases to the dynamic types cost: N
 * `codesec.UserRole`s of the generated
 * Node SDK as released (`native`: each with its alias to the dynamic type, which keeps a stack that moves
 * from the dynamic resources from replacing them), the same without those aliases (`native-unaliased`:
 * bench/programs/roles drops them with a stack transformation), and the dynamic ones (`codesec`), at the
 * largest size of the run, interleaved (the order rotating with each repetition) and paired by
 * repetition, through the real Pulumi CLI.
 *
 * The planning phases are where the native provider misses its target of 0.9x of the dynamic one at N = 1,000
 * (the native provider comparison), and where the program's process takes most of the wall time. The figures
 * say how much of the native side's time and program CPU the aliases are, and where the native provider would
 * stand without them. Published without targets: the side without aliases is not a product (a stack moving
 * from the dynamic resources would replace every one of them).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import path from "node:path";
import { startEmulator } from "../emulator/index";
import { benchFixtures } from "./support/fixtures";
import { runLifecycle, type Phase } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import { checkedCommandCpu, processCpuEnv, takeProcessCpu } from "./support/processCpu";
import { figure, type Figure } from "./support/results";
import { benchScratchDir, benchStack, connectionConfig } from "./support/stacks";
import { median, pairedRatios, summarized } from "./support/stats";

/** The comparison's name, as bench/results.json and docs/performance.md give it. */
export const ALIASES_COMPARISON = "native SDK aliases";

const SIDES = ["native", "native-unaliased", "codesec"] as const;
type Side = (typeof SIDES)[number];

/**
 * The phases published: those that run the program and change nothing (both previews, the no-change
 * `up`), where the native provider comparison misses 0.9x at N = 1,000.
 */
export const ALIAS_PHASES: Phase[] = ["preview (create)", "preview, no change", "up, no change"];

/** Wall seconds and the program process's CPU seconds, per side, phase and repetition. */
export interface AliasRun {
  n: number;
  repetitions: number;
  times: Record<Side, Record<Phase, number[]>>;
  programCpu: Record<Side, Record<Phase, number[]>>;
}

/**
 * Runs the comparison at the largest size of `options`, handing its figures to `onRepetition` after every
 * repetition (all repetitions so far, and how many), so that a run stopped later keeps what it measured.
 * Before the first repetition of a full run, one untimed preview per side (the first lifecycle of a run is
 * cold: the plugin's and the SDK's first loads); the order of the sides rotates with each repetition, so that each
 * side runs first once in three (a rotation keeps each side's neighbours: native always follows codesec).
 */
export async function nativeAliases(
  options: BenchOptions,
  log: (line: string) => void,
  onRepetition: (figures: Figure[], repetitions: number) => void,
): Promise<void> {
  const n = Math.max(...options.sizes);
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: n }) });
  try {
    const cpuLog = path.join(benchScratchDir("bench-cpu-aliases"), "process-cpu.log");
    const env = processCpuEnv(cpuLog);
    const stacks = {} as Record<Side, Stack>;
    for (const side of SIDES) {
      stacks[side] = await benchStack(
        "roles",
        `aliases-${side}-n${n}`,
        {
          ...connectionConfig(emulator.baseUrl, emulator.apiToken),
          "bench:provider": { value: side },
          "bench:count": { value: String(n) },
        },
        env,
      );
      // The warm-up is for figures worth reading; a smoke run only proves the comparison runs.
      if (!options.smoke) await stacks[side].preview();
    }
    const run: AliasRun = { n, repetitions: 0, times: emptyRecord(), programCpu: emptyRecord() };
    for (let rep = 0; rep < options.reps; rep++) {
      for (const side of rotated(SIDES, rep)) {
        takeProcessCpu(cpuLog); // whatever ran before this lifecycle (the warm-up included) is not its own
        const took = await runLifecycle(stacks[side], n, (phase) => {
          const cpu = takeProcessCpu(cpuLog);
          if (!ALIAS_PHASES.includes(phase)) return;
          run.programCpu[side][phase].push(checkedCommandCpu(cpu, phase, side, true).seconds.program);
        });
        for (const phase of ALIAS_PHASES) run.times[side][phase].push(took[phase]);
        log(
          `  N=${n} rep ${rep + 1}/${options.reps} ${side}: ${ALIAS_PHASES.map((p) => took[p].toFixed(1)).join(" / ")} s`,
        );
      }
      run.repetitions = rep + 1;
      onRepetition(aliasFigures(run), run.repetitions);
    }
  } finally {
    await emulator.close();
  }
}

/** `sides` starting at index `rep` (modulo their count). */
export function rotated<T>(sides: readonly T[], rep: number): T[] {
  const start = rep % sides.length;
  return [...sides.slice(start), ...sides.slice(0, start)];
}

/** The comparison's figures: per phase, wall time and program CPU of each pair of sides. */
export function aliasFigures(run: AliasRun): Figure[] {
  const pairs: [Side, Side, string][] = [
    ["native", "native-unaliased", "native / native without its aliases"],
    ["native-unaliased", "codesec", "native without its aliases / dynamic"],
    ["native", "codesec", "native / dynamic"],
  ];
  const figures: Figure[] = [];
  for (const phase of ALIAS_PHASES) {
    for (const [a, b, label] of pairs) {
      figures.push(
        ratioFigure(run, `N=${run.n} ${phase}, ${label}`, run.times[a][phase], run.times[b][phase], "s"),
      );
      figures.push(
        ratioFigure(
          run,
          `N=${run.n} ${phase}, program process CPU, ${label}`,
          run.programCpu[a][phase],
          run.programCpu[b][phase],
          "s of CPU",
        ),
      );
    }
  }
  return figures;
}

function ratioFigure(run: AliasRun, name: string, a: number[], b: number[], what: string): Figure {
  return figure({
    comparison: ALIASES_COMPARISON,
    name,
    ...summarized(pairedRatios(a, b)),
    unit: "x",
    detail: `${median(a).toFixed(2)} ${what} against ${median(b).toFixed(2)} (medians of ${run.repetitions})`,
  });
}

function emptyRecord(): Record<Side, Record<Phase, number[]>> {
  return Object.fromEntries(
    SIDES.map((side) => [side, Object.fromEntries(ALIAS_PHASES.map((phase) => [phase, [] as number[]]))]),
  ) as Record<Side, Record<Phase, number[]>>;
}
