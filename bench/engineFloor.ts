/**
 * Comparison 1, the engine floor: a stack of N codesec.UserRoles against the same stack of N no-op
 * dynamic resources (the engine's own cost) and of N dynamic resources making the same HTTP calls with a
 * bare keep-alive request (the engine plus the unavoidable calls), through the real Pulumi CLI, phase by
 * phase. The three stacks run interleaved (ours, noop, http, ours, noop, http, ...) and each ratio is the
 * median of the per-repetition ratios. Also records the API calls of every phase (comparison 3).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator/index";
import { ApiCallCounter, type CallCounts } from "./support/apiCallCounter";
import { benchFixtures } from "./support/fixtures";
import { PHASES, runLifecycle, type Phase } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import { median, pairedRatio } from "./support/stats";

const COMPARISON = "1 engine floor";
const TARGET = { op: "<=", value: 1.1 } as const;

/** Which floor each phase is held against: no calls are needed to plan, so planning phases face the no-op floor. */
const FLOOR_OF: Record<Phase, "noop" | "http"> = {
  "preview (create)": "noop",
  "up (create)": "http",
  "preview, no change": "noop",
  "up, no change": "noop",
  "update of 5": "http",
  refresh: "http",
  destroy: "http",
};

type Side = "codesec" | "noop" | "http";
const SIDES: Side[] = ["codesec", "noop", "http"];

/** API calls per phase of one stack size, for each side that calls the API. */
export interface PhaseCalls {
  n: number;
  codesec: Record<Phase, CallCounts>;
  http: Record<Phase, CallCounts>;
}

export interface EngineFloorResult {
  figures: Figure[];
  calls: PhaseCalls[];
}

export async function engineFloor(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<EngineFloorResult> {
  const largest = Math.max(...options.sizes);
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: largest }) });
  const counter = new ApiCallCounter(emulator.control);
  const figures: Figure[] = [];
  const calls: PhaseCalls[] = [];
  try {
    for (const n of options.sizes) {
      const stacks: Record<Side, Stack> = {
        codesec: await benchStack("roles", `codesec-n${n}`, {
          ...connectionConfig(emulator.baseUrl, emulator.apiToken),
          "bench:provider": { value: "codesec" },
          "bench:count": { value: String(n) },
        }),
        noop: await benchStack("roles", `noop-n${n}`, {
          "bench:provider": { value: "noop" },
          "bench:count": { value: String(n) },
        }),
        http: await benchStack(
          "roles",
          `http-n${n}`,
          { "bench:provider": { value: "http" }, "bench:count": { value: String(n) } },
          { BENCH_BASE_URL: emulator.baseUrl, BENCH_TOKEN: emulator.apiToken },
        ),
      };
      const times: Record<Side, Record<Phase, number[]>> = {
        codesec: emptyPhases(() => []),
        noop: emptyPhases(() => []),
        http: emptyPhases(() => []),
      };
      const phaseCalls: PhaseCalls = {
        n,
        codesec: emptyPhases(noCalls),
        http: emptyPhases(noCalls),
      };
      const reps = options.repsFor(n);
      for (let rep = 0; rep < reps; rep++) {
        for (const side of SIDES) {
          counter.take(); // whatever ran before this lifecycle is not its own
          const took = await runLifecycle(stacks[side], n, (phase) => {
            const counted = counter.take();
            if (side !== "noop") phaseCalls[side][phase] = counted;
          });
          for (const phase of PHASES) times[side][phase].push(took[phase]);
          log(
            `  N=${n} rep ${rep + 1}/${reps} ${side}: ${PHASES.map((p) => took[p].toFixed(1)).join(" / ")} s`,
          );
        }
      }
      calls.push(phaseCalls);
      for (const phase of PHASES) {
        const floor = FLOOR_OF[phase];
        const ours = times.codesec[phase];
        const theirs = times[floor][phase];
        figures.push(
          figure({
            comparison: COMPARISON,
            name: `N=${n} ${phase}, ours / ${floor === "noop" ? "no-op" : "HTTP"} floor`,
            value: pairedRatio(ours, theirs),
            unit: "x",
            target: TARGET,
            detail: `ours ${median(ours).toFixed(2)} s, floor ${median(theirs).toFixed(2)} s (median of ${reps})`,
          }),
        );
      }
    }
  } finally {
    await emulator.close();
  }
  return { figures, calls };
}

function emptyPhases<T>(make: () => T): Record<Phase, T> {
  return Object.fromEntries(PHASES.map((phase) => [phase, make()])) as Record<Phase, T>;
}

function noCalls(): CallCounts {
  return { total: 0, byOperation: {}, byStatus: {} };
}
