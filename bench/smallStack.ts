/**
 * The small real stack a user waits for (bench/programs/smallStack: 4 `UserRole`s, a `UserRoles` of 20,
 * 2 workflows, 2 webhooks, 1 `ScmApp`), through the real Pulumi CLI against the emulator: `up`, a
 * no-change `preview`, `refresh` and `destroy`, with the dynamic resources and with the native provider,
 * interleaved with an empty program's preview (the CLI's own fixed cost, which no provider goes below),
 * repetition by repetition. Each phase is given as the seconds above that repetition's empty preview and
 * as a ratio to it, and the native side as a ratio to the dynamic one (target: at or below it), beside the
 * noise floor of the same run: the empty program's preview against itself (two previews one after the
 * other), which a ratio must clear to count as met.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { benchFixtures } from "./support/fixtures";
import { expectChanges } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import { pairedRatios, secondsSince, spreadOf, summarized } from "./support/stats";

export const SMALL_STACK_COMPARISON = "small real stack";

/** The program's members: 4 UserRoles and a UserRoles of 20 (bench/programs/smallStack/index.js). */
const MEMBERS = 24;
/** The resources the program declares, and the stack itself. */
const RESOURCES = 4 + 1 + 2 + 2 + 1;

const SMALL_PHASES = ["up", "preview, no change", "refresh", "destroy"] as const;
type SmallPhase = (typeof SMALL_PHASES)[number];
type ProviderSide = "dynamic" | "native";
const PROVIDER_SIDES: ProviderSide[] = ["dynamic", "native"];

async function timed<T>(action: () => Promise<T>): Promise<{ seconds: number; result: T }> {
  const start = performance.now();
  const result = await action();
  return { seconds: secondsSince(start), result };
}

/** One lifecycle of `stack` (empty before, empty after), each phase timed; checks what each phase changed. */
async function lifecycle(
  emulator: EmulatorHandle,
  stack: Stack,
  side: ProviderSide,
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
    const stacks = {
      dynamic: await benchStack("smallStack", "small-dynamic", config("dynamic")),
      native: await benchStack("smallStack", "small-native", config("native")),
    };
    // Untimed: each side's first command (the plugin's compile cache, the language host's first start).
    await empty.preview();
    for (const side of PROVIDER_SIDES) await lifecycle(emulator, stacks[side], side);

    const emptyPreviews: number[] = [];
    const emptyAgain: number[] = [];
    const times: Record<ProviderSide, Record<SmallPhase, number[]>> = {
      dynamic: { up: [], "preview, no change": [], refresh: [], destroy: [] },
      native: { up: [], "preview, no change": [], refresh: [], destroy: [] },
    };
    for (let rep = 0; rep < options.reps; rep++) {
      emptyPreviews.push((await timed(() => empty.preview())).seconds);
      emptyAgain.push((await timed(() => empty.preview())).seconds);
      // Which side goes first alternates, so that neither always runs after the empty previews.
      const order = rep % 2 === 0 ? PROVIDER_SIDES : [...PROVIDER_SIDES].reverse();
      for (const side of order) {
        const phases = await lifecycle(emulator, stacks[side], side);
        for (const phase of SMALL_PHASES) times[side][phase].push(phases[phase]);
      }
      log(`[bench] ${SMALL_STACK_COMPARISON}: repetition ${rep + 1} of ${options.reps}`);
    }

    const noiseRatios = pairedRatios(emptyAgain, emptyPreviews);
    const noise = { ...spreadOf(noiseRatios), pairs: noiseRatios.length };
    const figures: Figure[] = [
      figure({
        comparison: SMALL_STACK_COMPARISON,
        name: "an empty program's preview",
        unit: "s",
        ...summarized(emptyPreviews),
        detail: "the CLI's own fixed cost, the base of the figures below",
      }),
      figure({
        comparison: SMALL_STACK_COMPARISON,
        name: "noise floor: an empty program's preview against itself",
        unit: "x",
        ...summarized(noiseRatios),
        detail: "two previews one after the other, paired by repetition: a ratio inside this range is noise",
      }),
    ];
    for (const phase of SMALL_PHASES) {
      for (const side of PROVIDER_SIDES) {
        const seconds = times[side][phase];
        figures.push(
          figure({
            comparison: SMALL_STACK_COMPARISON,
            name: `${phase}, ${side}: seconds above an empty program's preview`,
            unit: "s",
            ...summarized(seconds.map((s, i) => s - emptyPreviews[i])),
          }),
          figure({
            comparison: SMALL_STACK_COMPARISON,
            name: `${phase}, ${side} / an empty program's preview`,
            unit: "x",
            ...summarized(pairedRatios(seconds, emptyPreviews)),
          }),
        );
      }
      figures.push(
        figure({
          comparison: SMALL_STACK_COMPARISON,
          name: `${phase}, native / dynamic`,
          unit: "x",
          ...summarized(pairedRatios(times.native[phase], times.dynamic[phase])),
          target: { op: "<=", value: 1 },
          noise,
        }),
      );
    }
    return figures;
  } finally {
    await emulator.close();
  }
}
