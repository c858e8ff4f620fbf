/**
 * The small real stack a user waits for (bench/programs/smallStack: 4 `UserRole`s, a `UserRoles` of 20,
 * 2 workflows, 2 webhooks, 1 `ScmApp`), through the real Pulumi CLI against the emulator: `up`, a
 * no-change `preview`, `refresh` and `destroy`, with the dynamic resources and with the native provider,
 * interleaved repetition by repetition with the CLI's own fixed cost of each phase, which no provider goes
 * below: an empty program's preview for `up` and `preview` (the phases that run the program), and an empty
 * stack's refresh and destroy for those phases (which run no program: the engine works from the state).
 * Each phase is given as the seconds above its base and as a ratio to it, and the native side as a ratio
 * to the dynamic one (target: at or below it), beside that phase's noise floor in the same run: a second
 * dynamic stack against the first, phase by phase, which a ratio must clear to count as met.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { benchFixtures } from "./support/fixtures";
import { expectChanges } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import {
  BASE_OF,
  PROVIDER_SIDES,
  SMALL_PHASES,
  SMALL_STACK_COMPARISON,
  smallStackNames,
  type ProviderSide,
  type SmallPhase,
} from "./support/smallStackFigures";
import { pairedRatios, secondsSince, spreadOf, summarized } from "./support/stats";

export { SMALL_STACK_COMPARISON };

/** The program's members: 4 UserRoles and a UserRoles of 20 (bench/programs/smallStack/index.js). */
const MEMBERS = 24;
/** The resources the program declares, and the stack itself. */
const RESOURCES = 4 + 1 + 2 + 2 + 1;

/** The stacks of a repetition: both sides and a second dynamic stack, the noise floor's other side. */
type StackSide = ProviderSide | "dynamic again";
const STACK_SIDES: StackSide[] = ["dynamic", "native", "dynamic again"];

async function timed<T>(action: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const start = performance.now();
  const result = await action();
  return { seconds: secondsSince(start), result };
}

/** One lifecycle of `stack` (empty before, empty after), each phase timed; checks what each phase changed. */
async function lifecycle(
  emulator: EmulatorHandle,
  stack: Stack,
  side: StackSide,
): Promise<Record<SmallPhase, number>> {
  // The one-time code is spent by the create: a new request for every lifecycle.
  const request = emulator.control.createScmAppRequest({ deploymentId: emulator.deploymentId });
  await stack.setConfig("bench:scmAppRequestId", { value: request.requestId });
  await stack.setConfig("bench:scmAppCode", { value: request.code, secret: true });
  const up = await timed(() => stack.up());
  expectChanges(`${side} up`, up.result.summary.resourceChanges, "create", RESOURCES + 1);
  const preview = await timed(() => stack.preview());
  expectChanges(`${side} preview`, preview.result.changeSummary, "same", RESOURCES + 1);
  const refresh = await timed(() => stack.refresh());
  expectChanges(`${side} refresh`, refresh.result.summary.resourceChanges, "same", RESOURCES + 1);
  const destroy = await timed(() => stack.destroy());
  expectChanges(`${side} destroy`, destroy.result.summary.resourceChanges, "delete", RESOURCES + 1);
  return {
    up: up.seconds,
    "preview, no change": preview.seconds,
    refresh: refresh.seconds,
    destroy: destroy.seconds,
  };
}

export async function smallStack(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: MEMBERS }) });
  try {
    const config = (provider: string) => ({
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "bench:provider": { value: provider },
    });
    const empty = await benchStack("smallStack", "small-empty", config("empty"));
    const stacks: Record<StackSide, Stack> = {
      dynamic: await benchStack("smallStack", "small-dynamic", config("dynamic")),
      native: await benchStack("smallStack", "small-native", config("native")),
      "dynamic again": await benchStack("smallStack", "small-dynamic-again", config("dynamic")),
    };
    // Untimed: each side's first command (the plugin's compile cache, the language host's first start);
    // the empty stack updated and destroyed once, so that every repetition refreshes and destroys the same
    // empty state. The sides' warm-up lifecycles are for figures worth reading: a smoke run only proves
    // that the comparison runs, which its one timed lifecycle per side does.
    await empty.preview();
    await empty.up();
    await empty.destroy();
    if (!options.smoke) for (const side of STACK_SIDES) await lifecycle(emulator, stacks[side], side);

    const bases: Record<string, number[]> = Object.fromEntries(
      Object.values(BASE_OF).map((base) => [base, [] as number[]]),
    );
    const times = Object.fromEntries(
      STACK_SIDES.map((side) => [
        side,
        Object.fromEntries(SMALL_PHASES.map((phase) => [phase, [] as number[]])),
      ]),
    ) as Record<StackSide, Record<SmallPhase, number[]>>;
    for (let rep = 0; rep < options.reps; rep++) {
      bases[BASE_OF.up].push((await timed(() => empty.preview())).seconds);
      bases[BASE_OF.refresh].push((await timed(() => empty.refresh())).seconds);
      bases[BASE_OF.destroy].push((await timed(() => empty.destroy())).seconds);
      // The sides' order rotates, so that none always runs first or right after the empty stack.
      const order = STACK_SIDES.map((_, i) => STACK_SIDES[(i + rep) % STACK_SIDES.length]);
      for (const side of order) {
        const phases = await lifecycle(emulator, stacks[side], side);
        for (const phase of SMALL_PHASES) times[side][phase].push(phases[phase]);
      }
      log(`[bench] ${SMALL_STACK_COMPARISON}: repetition ${rep + 1} of ${options.reps}`);
    }

    const figures: Figure[] = Object.entries(bases).map(([base, seconds]) =>
      figure({
        comparison: SMALL_STACK_COMPARISON,
        name: base,
        unit: "s",
        ...summarized(seconds),
        detail: "the CLI's own fixed cost of the phases whose base it is",
      }),
    );
    for (const phase of SMALL_PHASES) {
      const base = bases[BASE_OF[phase]];
      for (const side of PROVIDER_SIDES) {
        const seconds = times[side][phase];
        figures.push(
          figure({
            comparison: SMALL_STACK_COMPARISON,
            name: smallStackNames.secondsAbove(phase, side),
            unit: "s",
            ...summarized(seconds.map((s, i) => s - base[i])),
          }),
          figure({
            comparison: SMALL_STACK_COMPARISON,
            name: smallStackNames.ratioToBase(phase, side),
            unit: "x",
            ...summarized(pairedRatios(seconds, base)),
          }),
        );
      }
      const noiseRatios = pairedRatios(times["dynamic again"][phase], times.dynamic[phase]);
      figures.push(
        figure({
          comparison: SMALL_STACK_COMPARISON,
          name: smallStackNames.noiseFloor(phase),
          unit: "x",
          ...summarized(noiseRatios),
          detail:
            "a second dynamic stack against the first, paired by repetition: a ratio inside this range is noise",
        }),
        figure({
          comparison: SMALL_STACK_COMPARISON,
          name: smallStackNames.nativeToDynamic(phase),
          unit: "x",
          ...summarized(pairedRatios(times.native[phase], times.dynamic[phase])),
          target: { op: "<=", value: 1 },
          noise: { ...spreadOf(noiseRatios), pairs: noiseRatios.length },
        }),
      );
    }
    return figures;
  } finally {
    await emulator.close();
  }
}
