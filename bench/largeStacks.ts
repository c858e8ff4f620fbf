/**
 * The large stacks comparison: what each setting a user can reach does to a no-change `pulumi preview`
 * of N `codesec.UserRole`s (the largest size of the run: 1,000 in a full run), native (the generated Node
 * SDK and the plugin) and dynamic, through the real Pulumi CLI. Each setting runs against the same two
 * stacks (created once, untimed: a preview changes nothing), interleaved with the others (their order
 * rotating with each repetition) and paired with the baseline of the same repetition; a second baseline
 * gives the noise floor. Wall time and the program process's CPU (bench/support/processCpu.ts).
 *
 * Whether a setting reaches the program is observed, not assumed: the program records what it runs with
 * (bench/programs/roles, BENCH_PROBE_FILE) and each setting says what it would change there. Under the
 * set-up's language host (Pulumi's v3.68 one, built by scripts/install-pulumi.sh) the runtime options of
 * Pulumi.yaml do not reach it: the CLI sends them in a field that host does not read.
 */
import type { PreviewOptions, Stack } from "@pulumi/pulumi/automation";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../emulator/index";
import { benchFixtures } from "./support/fixtures";
import { expectChanges, timeCommand } from "./support/lifecycle";
import { rotated } from "./nativeAliases";
import type { BenchOptions } from "./support/options";
import { checkedCommandCpu, processCpuEnv, takeProcessCpu } from "./support/processCpu";
import { figure, type Figure, type Target } from "./support/results";
import { benchScratchDir, benchStack, connectionConfig } from "./support/stacks";
import { median, pairedRatios, spreadOf, summarized } from "./support/stats";

/** The comparison's name, as bench/results.json and docs/performance.md give it. */
export const LARGE_STACKS_COMPARISON = "large stacks";

/** The two providers, by the `bench:provider` of bench/programs/roles. */
const SIDES = { native: "native", dynamic: "codesec" } as const;
export type Side = keyof typeof SIDES;

/** What the program runs with, as bench/programs/roles records it. */
export interface Probe {
  execArgv: string[];
  stackTraceLimit: number;
  /** Whether ts-node is registered (`require.extensions[".ts"]`). */
  tsNode: boolean;
  env: Record<string, string | undefined>;
}

/** One setting: how it is applied, and what in the program says that it arrived. */
export interface Setting {
  name: string;
  /** Added to the CLI's environment (NODE_OPTIONS is prepended to the CPU preload's). */
  env?: Record<string, string>;
  /** Pulumi.yaml's `runtime.options`. */
  runtimeOptions?: Record<string, string | boolean>;
  preview?: PreviewOptions;
  /** Whether the program ran with it; undefined for the baselines. */
  reaches?: (probe: Probe) => boolean;
  /**
   * Whether it reaches the program under this set-up's CLI, as docs/large-stacks.md says: a preview
   * that observes otherwise fails the run (smoke or full), since the guide's advice then no longer holds.
   */
  expectedToReach?: boolean;
  /** A target on its program CPU against the baseline, when the guide claims an effect. */
  cpuTarget?: Target;
  /** Run in a smoke run too: one setting per way of applying one (environment, Pulumi.yaml, CLI flag). */
  smoke?: true;
}

export const BASELINE = "baseline";
export const BASELINE_AGAIN = "baseline, again (noise floor)";

/** The settings, in the order of the first repetition. */
export const SETTINGS: Setting[] = [
  { name: BASELINE, smoke: true },
  {
    name: "NODE_OPTIONS=--stack-trace-limit=1",
    smoke: true,
    env: { NODE_OPTIONS: "--stack-trace-limit=1" },
    reaches: (probe) => probe.stackTraceLimit === 1,
    expectedToReach: true,
    cpuTarget: { op: "<=", value: 1 },
  },
  {
    name: "PULUMI_DEBUG_PROMISE_LEAKS=1 (the classes then format every promise's trace)",
    env: { PULUMI_DEBUG_PROMISE_LEAKS: "1" },
    reaches: (probe) => probe.env.PULUMI_DEBUG_PROMISE_LEAKS === "1",
    expectedToReach: true,
    cpuTarget: { op: ">=", value: 1 },
  },
  {
    name: "Pulumi.yaml runtime.options.typescript: false",
    runtimeOptions: { typescript: false },
    smoke: true,
    reaches: (probe) => !probe.tsNode,
    expectedToReach: false,
  },
  {
    name: "Pulumi.yaml runtime.options.nodeargs: --stack-trace-limit=1",
    runtimeOptions: { nodeargs: "--stack-trace-limit=1" },
    reaches: (probe) => probe.execArgv.includes("--stack-trace-limit=1"),
    expectedToReach: false,
  },
  {
    name: "PULUMI_NODEJS_TYPESCRIPT=false",
    env: { PULUMI_NODEJS_TYPESCRIPT: "false" },
    reaches: (probe) => !probe.tsNode,
    expectedToReach: false,
  },
  {
    name: "--parallel 64",
    preview: { parallel: 64 },
    smoke: true,
    reaches: (probe) => probe.env.PULUMI_NODEJS_PARALLEL === "64",
    expectedToReach: true,
  },
  { name: BASELINE_AGAIN },
];

/** Throws when `setting` reached the program of `side` other than it is expected to (see expectedToReach). */
export function checkReach(setting: Setting, probe: Probe, side: Side): void {
  if (setting.reaches === undefined || setting.expectedToReach === undefined) return;
  const reached = setting.reaches(probe);
  if (reached !== setting.expectedToReach)
    throw new Error(
      `${side}, ${setting.name}: expected ${setting.expectedToReach ? "" : "not "}to reach the program, ` +
        `and it did${reached ? "" : " not"} (what it ran with: ${JSON.stringify(probe)})`,
    );
}

/** Per side and setting: wall seconds, program CPU seconds and the probes, per repetition. */
export interface LargeStacksRun {
  n: number;
  repetitions: number;
  times: Record<Side, Record<string, number[]>>;
  programCpu: Record<Side, Record<string, number[]>>;
  probes: Record<Side, Record<string, Probe[]>>;
}

/**
 * Runs the comparison at the largest size of `options`, handing its figures to `onRepetition` after every
 * repetition. A full run first runs one untimed preview per side (the first command of a run is cold).
 */
export async function largeStacks(
  options: BenchOptions,
  log: (line: string) => void,
  onRepetition: (figures: Figure[], repetitions: number) => void,
): Promise<void> {
  const n = Math.max(...options.sizes);
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: n }) });
  const scratch = benchScratchDir("bench-large-stacks");
  const cpuLog = path.join(scratch, "process-cpu.log");
  const probeFile = path.join(scratch, "probe.json");
  const cpuEnv = processCpuEnv(cpuLog);
  const stacks = {} as Record<Side, Stack>;
  try {
    for (const side of Object.keys(SIDES) as Side[]) {
      stacks[side] = await benchStack(
        "roles",
        `large-${side}-n${n}`,
        {
          ...connectionConfig(emulator.baseUrl, emulator.apiToken),
          "bench:provider": { value: SIDES[side] },
          "bench:count": { value: String(n) },
          "bench:changed": { value: "0" },
        },
        cpuEnv,
      );
      const created = await stacks[side].up();
      expectChanges(`${side} up`, created.summary.resourceChanges, "create", n + 1);
      if (!options.smoke) await stacks[side].preview();
    }
    const run: LargeStacksRun = { n, repetitions: 0, times: empty(), programCpu: empty(), probes: empty() };
    const settings = options.smoke ? SETTINGS.filter((setting) => setting.smoke) : SETTINGS;
    for (let rep = 0; rep < options.reps; rep++) {
      for (const setting of rotated(settings, rep)) {
        for (const side of rotated(Object.keys(SIDES) as Side[], rep)) {
          const measured = await previewWith(stacks[side], setting, n, { cpuEnv, cpuLog, probeFile });
          checkReach(setting, measured.probe, side);
          (run.times[side][setting.name] ??= []).push(measured.seconds);
          (run.programCpu[side][setting.name] ??= []).push(measured.programCpu);
          (run.probes[side][setting.name] ??= []).push(measured.probe);
          log(
            `  N=${n} rep ${rep + 1}/${options.reps} ${side}, ${setting.name}: ` +
              `${measured.seconds.toFixed(1)} s, program CPU ${measured.programCpu.toFixed(1)} s`,
          );
        }
      }
      run.repetitions = rep + 1;
      onRepetition(largeStacksFigures(run), run.repetitions);
    }
    // No destroy: the stacks' state and the emulator's store go with the run's scratch folder and process.
  } finally {
    await emulator.close();
  }
}

/** One timed no-change preview of `stack` under `setting`, its program's CPU and what the program saw. */
async function previewWith(
  stack: Stack,
  setting: Setting,
  n: number,
  files: { cpuEnv: Record<string, string>; cpuLog: string; probeFile: string },
): Promise<{ seconds: number; programCpu: number; probe: Probe }> {
  const workspace = stack.workspace as unknown as { envVars: Record<string, string>; workDir: string };
  const saved = { ...workspace.envVars };
  const project = path.join(workspace.workDir, "Pulumi.yaml");
  const projectText = readFileSync(project, "utf8");
  rmSync(files.probeFile, { force: true });
  takeProcessCpu(files.cpuLog); // what ran before this preview is not its own
  try {
    const nodeOptions = [setting.env?.NODE_OPTIONS, files.cpuEnv.NODE_OPTIONS].filter(Boolean).join(" ");
    Object.assign(workspace.envVars, setting.env ?? {}, {
      NODE_OPTIONS: nodeOptions,
      BENCH_PROBE_FILE: files.probeFile,
    });
    if (setting.runtimeOptions)
      writeFileSync(project, withRuntimeOptions(projectText, setting.runtimeOptions));
    const { result, seconds } = await timeCommand(stack, "preview", () => stack.preview(setting.preview));
    expectChanges(`no-change preview, ${setting.name}`, result.changeSummary, "same", n + 1);
    const cpu = checkedCommandCpu(takeProcessCpu(files.cpuLog), "no-change preview", setting.name, true);
    if (!existsSync(files.probeFile)) throw new Error(`${setting.name}: the program recorded no probe`);
    const probe = JSON.parse(readFileSync(files.probeFile, "utf8")) as Probe;
    return { seconds, programCpu: cpu.seconds.program, probe };
  } finally {
    workspace.envVars = saved;
    writeFileSync(project, projectText);
  }
}

/** A Pulumi.yaml whose `runtime: nodejs` line becomes a runtime with these options. */
export function withRuntimeOptions(
  projectText: string,
  runtimeOptions: Record<string, string | boolean>,
): string {
  const line = /^runtime: nodejs$/m;
  if (!line.test(projectText))
    throw new Error("the bench program's Pulumi.yaml has no `runtime: nodejs` line");
  const options = Object.entries(runtimeOptions).map(
    ([key, value]) => `    ${key}: ${JSON.stringify(value)}`,
  );
  return projectText.replace(line, ["runtime:", "  name: nodejs", "  options:", ...options].join("\n"));
}

/** Per side, each setting against the baseline of the same repetition (wall time, program CPU). */
export function largeStacksFigures(run: LargeStacksRun): Figure[] {
  const figures: Figure[] = [];
  for (const side of Object.keys(SIDES) as Side[]) {
    const noise = {
      time: pairedRatios(run.times[side][BASELINE_AGAIN] ?? [], run.times[side][BASELINE] ?? []),
      cpu: pairedRatios(run.programCpu[side][BASELINE_AGAIN] ?? [], run.programCpu[side][BASELINE] ?? []),
    };
    for (const setting of SETTINGS) {
      if (setting.name === BASELINE) continue;
      const probes = run.probes[side][setting.name] ?? [];
      const reaches =
        setting.reaches === undefined
          ? ""
          : probes.every((probe) => setting.reaches!(probe))
            ? "; reaches the program"
            : probes.some((probe) => setting.reaches!(probe))
              ? "; reached the program in some repetitions only"
              : "; does NOT reach the program";
      const isNoise = setting.name === BASELINE_AGAIN;
      for (const [measure, values, unit] of [
        ["wall time", run.times[side], "s"],
        ["program CPU", run.programCpu[side], "s of CPU"],
      ] as const) {
        const ours = values[setting.name] ?? [];
        const base = values[BASELINE] ?? [];
        const ratios = pairedRatios(ours, base);
        if (ratios.length === 0) continue;
        const floor = measure === "wall time" ? noise.time : noise.cpu;
        const target = measure === "program CPU" && !isNoise ? setting.cpuTarget : undefined;
        figures.push(
          figure({
            comparison: LARGE_STACKS_COMPARISON,
            name: `N=${run.n} no-change preview, ${side}, ${measure}: ${setting.name} / baseline`,
            ...summarized(ratios),
            unit: "x",
            detail: `${median(ours).toFixed(2)} ${unit} against ${median(base).toFixed(2)} (medians of ${ratios.length})${reaches}`,
            ...(target ? { target } : {}),
            ...(!isNoise && floor.length > 0 ? { noise: { ...spreadOf(floor), pairs: floor.length } } : {}),
          }),
        );
      }
    }
  }
  return figures;
}

function empty<T>(): Record<Side, Record<string, T[]>> {
  return { native: {}, dynamic: {} };
}
