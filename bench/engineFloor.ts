/**
 * The engine floor comparison, through the real Pulumi CLI, phase by phase, for each stack size N:
 *
 * - `codesec`: N dynamic codesec.UserRoles (the package);
 * - `native`: N codesec.UserRoles of the generated SDK on the native plugin (the native provider
 *   comparison);
 * - `noop`: the no-op floor, N dynamic resources that call nothing (bench/floors/noop.js): the engine's own
 *   cost, which no provider of N resources can go below;
 * - `http`: the HTTP floor, N dynamic resources making the same calls with a bare keep-alive request
 *   (bench/floors/http.js): the engine plus the calls, made the cheapest way;
 * - `map`: one dynamic codesec.UserRoles of the N users (the UserRoles map comparison), followed by its API
 *   floor: the N writes sent bare, paced at the client's default rate (100 per second, 16 in flight).
 *
 * Both floors are stored by Pulumi as a one-line require, like our stub, so no side pays for a larger
 * checkpoint than ours. The sides run interleaved (codesec, native, noop, http, map, codesec, ...) and every
 * ratio is taken per repetition (paired), then reported as the median with its spread. Also counts the API
 * calls of every phase (the API calls comparison), the state bytes of a UserRole and of the map, and the CPU
 * of each phase's program and provider processes (./support/processCpu.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import path from "node:path";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_REQUESTS_PER_SECOND } from "../client";
import { ApiCallCounter, type CallCounts } from "./support/apiCallCounter";
import { pacedLoop } from "./support/bareLoop";
import { BENCH_DEPLOYMENT, benchFixtures, benchUserId } from "./support/fixtures";
import { PHASES, runLifecycle, type Phase } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import {
  checkedCommandCpu,
  processCpuEnv,
  takeProcessCpu,
  type CommandCpu,
  type CpuRole,
} from "./support/processCpu";
import { figure, NATIVE_COMPARISON, type Figure } from "./support/results";
import { benchScratchDir, benchStack, connectionConfig, entryBytes, storedResources } from "./support/stacks";
import { median, pairedRatios, summarized } from "./support/stats";

const COMPARISON = "engine floor";
const TARGET = { op: "<=", value: 1.1 } as const;
/** The native provider at or below 0.9x the dynamic one on these phases, at N >= 200. */
const NATIVE_TARGET = { op: "<=", value: 0.9 } as const;
const NATIVE_TARGET_PHASES: Phase[] = ["preview (create)", "preview, no change", "up, no change", "refresh"];
/** The phases whose command runs no program (the engine refreshes and destroys from the state alone). */
const PHASES_WITHOUT_PROGRAM: Phase[] = ["refresh", "destroy"];

/** Which floor each phase is held against: no calls are needed to plan, so planning phases face the no-op floor. */
export const FLOOR_OF: Record<Phase, "noop" | "http"> = {
  "preview (create)": "noop",
  "up (create)": "http",
  "preview, no change": "noop",
  "up, no change": "noop",
  "update of 5": "http",
  refresh: "http",
  destroy: "http",
};

export type Side = "codesec" | "native" | "noop" | "http" | "map";
export const SIDES: Side[] = ["codesec", "native", "noop", "http", "map"];
/** The sides whose API calls are counted. */
export type CountedSide = "codesec" | "native" | "map";

/** What one stack size measured, every repetition kept. */
export interface SizeRun {
  n: number;
  /** Repetitions done so far (a copy is handed out after each one). */
  repetitions: number;
  /** Repetitions planned for this size. */
  plannedRepetitions: number;
  /** Seconds per phase per repetition, for each side. */
  times: Record<Side, Record<Phase, number[]>>;
  /** CPU seconds of the program's and the provider's processes per phase per repetition, for each side. */
  cpu: Record<Side, Record<Phase, CommandCpu[]>>;
  /** API calls per phase (of the last repetition) of the sides that call the API, and of the HTTP floor. */
  calls: Record<CountedSide | "http", Record<Phase, CallCounts>>;
  /** Seconds of the map's API floor (N bare writes at the client's default rate), per repetition. */
  apiFloorSeconds: number[];
  /** Checkpoint bytes after the first create: one UserRole's entry (median), and the whole map's entry. */
  stateBytes: { userRole: number; map: number };
}

/**
 * Runs every size in turn and hands its measures to `onSize` after every repetition, all repetitions so
 * far (so that a run stopped later still has them; `repetitions` < `plannedRepetitions` until the last).
 */
export async function engineFloor(
  options: BenchOptions,
  log: (line: string) => void,
  onSize: (run: SizeRun) => void,
): Promise<void> {
  const largest = Math.max(...options.sizes);
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: largest }) });
  const counter = new ApiCallCounter(emulator.control);
  try {
    for (const n of options.sizes) await measureSize(emulator, counter, n, options.reps, log, onSize);
  } finally {
    await emulator.close();
  }
}

async function measureSize(
  emulator: EmulatorHandle,
  counter: ApiCallCounter,
  n: number,
  reps: number,
  log: (line: string) => void,
  onRepetition: (run: SizeRun) => void,
): Promise<void> {
  const config = (provider: Side) => ({
    ...connectionConfig(emulator.baseUrl, emulator.apiToken),
    "bench:provider": { value: provider },
    "bench:count": { value: String(n) },
  });
  const floorEnv = { BENCH_BASE_URL: emulator.baseUrl, BENCH_TOKEN: emulator.apiToken };
  const cpuLog = path.join(benchScratchDir("bench-cpu"), "process-cpu.log");
  const stackEnv = { ...floorEnv, ...processCpuEnv(cpuLog) };
  const stacks = {} as Record<Side, Stack>;
  for (const side of SIDES) stacks[side] = await benchStack("roles", `${side}-n${n}`, config(side), stackEnv);
  const run: SizeRun = {
    n,
    repetitions: 0,
    plannedRepetitions: reps,
    times: Object.fromEntries(
      SIDES.map((side) => [side, emptyPhases(() => [] as number[])]),
    ) as SizeRun["times"],
    cpu: Object.fromEntries(
      SIDES.map((side) => [side, emptyPhases(() => [] as CommandCpu[])]),
    ) as SizeRun["cpu"],
    calls: {
      codesec: emptyPhases(noCalls),
      native: emptyPhases(noCalls),
      map: emptyPhases(noCalls),
      http: emptyPhases(noCalls),
    },
    apiFloorSeconds: [],
    stateBytes: { userRole: Number.NaN, map: Number.NaN },
  };
  for (let rep = 0; rep < reps; rep++) {
    for (const side of SIDES) {
      counter.take(); // whatever ran before this lifecycle is not its own
      takeProcessCpu(cpuLog);
      const took = await runLifecycle(
        stacks[side],
        n,
        (phase) => {
          const counted = counter.take();
          const runsProgram = !PHASES_WITHOUT_PROGRAM.includes(phase);
          run.cpu[side][phase].push(checkedCommandCpu(takeProcessCpu(cpuLog), phase, side, runsProgram));
          if (side !== "noop") run.calls[side][phase] = counted;
          if (rep === 0 && phase === "up (create)") measureState(stacks[side], side, run);
        },
        side === "map",
      );
      for (const phase of PHASES) run.times[side][phase].push(took[phase]);
      log(`  N=${n} rep ${rep + 1}/${reps} ${side}: ${PHASES.map((p) => took[p].toFixed(1)).join(" / ")} s`);
    }
    const floor = await mapApiFloor(emulator, n);
    run.apiFloorSeconds.push(floor);
    log(
      `  N=${n} rep ${rep + 1}/${reps} API floor: ${n} bare writes at the client's default rate in ${floor.toFixed(1)} s`,
    );
    run.repetitions = rep + 1;
    onRepetition(structuredClone(run));
  }
}

/** The state bytes the UserRoles comparison needs, read once per size after the first create. */
function measureState(stack: Stack, side: Side, run: SizeRun): void {
  if (side !== "codesec" && side !== "map") return;
  const stored = storedResources(stack);
  if (side === "codesec") {
    run.stateBytes.userRole = median(stored.filter((r) => r.type.endsWith(":UserRole")).map(entryBytes));
  } else {
    const map = stored.find((r) => r.type.endsWith(":UserRoles"));
    if (!map) throw new Error("the map stack stored no UserRoles");
    run.stateBytes.map = entryBytes(map);
  }
}

/**
 * The API floor of the map's create: the same N role writes (each changing a role: every member
 * is ORG_ROLE_MEMBER after a destroy) sent bare, paced as the client paces them by default. Then the
 * members are set back, untimed.
 */
export async function mapApiFloor(emulator: EmulatorHandle, n: number): Promise<number> {
  const writes = (role: string) => ({
    baseUrl: emulator.baseUrl,
    token: emulator.apiToken,
    method: "PATCH",
    path: "/",
    vary: (i: number) => ({
      path: `/api/agent/deployments/${BENCH_DEPLOYMENT}/users/${benchUserId(i)}/roles`,
      body: { deploymentId: BENCH_DEPLOYMENT, userId: benchUserId(i), newRole: role },
    }),
  });
  const pace = { perSecond: DEFAULT_REQUESTS_PER_SECOND, inFlight: DEFAULT_MAX_IN_FLIGHT };
  const timed = await pacedLoop(writes("ORG_ROLE_ADMIN"), pace, n);
  const back = await pacedLoop(writes("ORG_ROLE_MEMBER"), { perSecond: 1e6, inFlight: 16 }, n);
  for (const result of [timed, back]) {
    if ((result.statuses["200"] ?? 0) !== n)
      throw new Error(`API floor: answers other than 200: ${JSON.stringify(result.statuses)}`);
  }
  return timed.seconds;
}

function floorName(floor: "noop" | "http"): string {
  return floor === "noop" ? "no-op floor" : "HTTP floor";
}

/** The engine floor's figures of one size: the dynamic UserRoles against the floor of each phase. */
export function engineFloorFigures(run: SizeRun): Figure[] {
  return PHASES.map((phase) => {
    const floor = FLOOR_OF[phase];
    const ours = run.times.codesec[phase];
    const theirs = run.times[floor][phase];
    return figure({
      comparison: COMPARISON,
      name: `N=${run.n} ${phase}, ours / ${floorName(floor)}`,
      ...summarized(pairedRatios(ours, theirs)),
      unit: "x",
      target: TARGET,
      detail: `ours ${median(ours).toFixed(2)} s, floor ${median(theirs).toFixed(2)} s (medians of ${run.repetitions})`,
    });
  });
}

/**
 * The native provider's figures of one size: the native provider against the dynamic one (target <= 0.9x on
 * the planning phases and refresh at N >= 200) and against the floor of each phase (the dynamic one's
 * target).
 */
export function nativeFigures(run: SizeRun): Figure[] {
  const figures: Figure[] = [];
  for (const phase of PHASES) {
    const native = run.times.native[phase];
    const dynamic = run.times.codesec[phase];
    const targeted = run.n >= 200 && NATIVE_TARGET_PHASES.includes(phase);
    figures.push(
      figure({
        comparison: NATIVE_COMPARISON,
        name: `N=${run.n} ${phase}, native / dynamic`,
        ...summarized(pairedRatios(native, dynamic)),
        unit: "x",
        ...(targeted ? { target: NATIVE_TARGET } : {}),
        detail: `native ${median(native).toFixed(2)} s, dynamic ${median(dynamic).toFixed(2)} s (medians of ${run.repetitions})`,
      }),
    );
  }
  for (const phase of PHASES) {
    const floor = FLOOR_OF[phase];
    const native = run.times.native[phase];
    const theirs = run.times[floor][phase];
    figures.push(
      figure({
        comparison: NATIVE_COMPARISON,
        name: `N=${run.n} ${phase}, native / ${floorName(floor)}`,
        ...summarized(pairedRatios(native, theirs)),
        unit: "x",
        target: TARGET,
        detail: `native ${median(native).toFixed(2)} s, floor ${median(theirs).toFixed(2)} s (medians of ${run.repetitions})`,
      }),
    );
  }
  for (const phase of NATIVE_TARGET_PHASES) {
    const roles = PHASES_WITHOUT_PROGRAM.includes(phase) ? (["provider"] as const) : CPU_ROLES;
    for (const role of roles) figures.push(nativeCpuFigure(run, phase, role));
  }
  return figures;
}

const CPU_ROLES: CpuRole[] = ["provider", "program"];

/**
 * Whose process did the work of a phase: the CPU of the provider's process (the native plugin, the
 * dynamic providers' host), or of the program's, native / dynamic, paired by repetition. Published
 * without a target: they say why a phase's wall time moves, or does not.
 */
function nativeCpuFigure(run: SizeRun, phase: Phase, role: CpuRole): Figure {
  const native = run.cpu.native[phase].map((cpu) => cpu.seconds[role]);
  const dynamic = run.cpu.codesec[phase].map((cpu) => cpu.seconds[role]);
  return figure({
    comparison: NATIVE_COMPARISON,
    name: `N=${run.n} ${phase}, ${role} process CPU, native / dynamic`,
    ...summarized(pairedRatios(native, dynamic)),
    unit: "x",
    detail: `native ${median(native).toFixed(2)} s, dynamic ${median(dynamic).toFixed(2)} s of CPU (medians of ${run.repetitions})`,
  });
}

function emptyPhases<T>(make: () => T): Record<Phase, T> {
  return Object.fromEntries(PHASES.map((phase) => [phase, make()])) as Record<Phase, T>;
}

function noCalls(): CallCounts {
  return { total: 0, byOperation: {}, byStatus: {} };
}
