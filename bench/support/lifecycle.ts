/**
 * The lifecycle of a bench stack of N roles, phase by phase, each timed on its own: the phases every
 * engine-floor figure and API-call count refers to.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { performance } from "node:perf_hooks";
import { secondsSince } from "./stats";

export const PHASES = [
  "preview (create)",
  "up (create)",
  "preview, no change",
  "up, no change",
  "update of 5",
  "refresh",
  "destroy",
] as const;
export type Phase = (typeof PHASES)[number];

/** Resources the "update of 5" phase changes (fewer in a smaller stack). */
export function updatedCount(n: number): number {
  return Math.min(5, n);
}

/** Throws unless the engine reports `want` resources to `op` in `what` (a phase), so a broken program cannot pass for a fast one. */
export function expectChanges(
  what: string,
  changes: Record<string, number> | undefined,
  op: string,
  want: number,
): void {
  const got = changes?.[op] ?? 0;
  if (got !== want) {
    throw new Error(
      `${what}: expected ${want} resources to ${op}, the engine reports ${JSON.stringify(changes)}`,
    );
  }
}

/**
 * Runs every phase on `stack` (a program of `n` roles, config `bench:changed` = 0, empty state) and
 * returns each phase's wall time in seconds; `afterPhase` runs after each (outside the timing). Throws
 * when a phase does not change what it should, so a broken program cannot pass for a fast one. Leaves
 * the stack empty with `bench:changed` = 0 again. `asMap`: the program holds the n roles in one
 * resource (a UserRoles map), so the engine counts one resource where it would count n.
 */
export async function runLifecycle(
  stack: Stack,
  n: number,
  afterPhase: (phase: Phase) => void | Promise<void> = () => undefined,
  asMap = false,
): Promise<Record<Phase, number>> {
  const resources = asMap ? 1 : n;
  const updated = asMap ? 1 : updatedCount(n);
  const times = {} as Record<Phase, number>;
  const timed = async <T>(phase: Phase, command: string, action: () => Promise<T>): Promise<T> => {
    const { result, seconds } = await timeCommand(stack, command, action);
    times[phase] = seconds;
    await afterPhase(phase);
    return result;
  };
  await stack.setConfig("bench:changed", { value: "0" });
  const preview = await timed("preview (create)", "preview", () => stack.preview());
  expectChanges("preview (create)", preview.changeSummary, "create", resources + 1); // + the stack resource
  const created = await timed("up (create)", "up", () => stack.up());
  expectChanges("up (create)", created.summary.resourceChanges, "create", resources + 1);
  await timed("preview, no change", "preview", () => stack.preview());
  const same = await timed("up, no change", "up", () => stack.up());
  expectChanges("up, no change", same.summary.resourceChanges, "update", 0);
  await stack.setConfig("bench:changed", { value: String(updatedCount(n)) });
  const changed = await timed("update of 5", "up", () => stack.up());
  expectChanges("update of 5", changed.summary.resourceChanges, "update", updated);
  await timed("refresh", "refresh", () => stack.refresh());
  const destroyed = await timed("destroy", "destroy", () => stack.destroy());
  expectChanges("destroy", destroyed.summary.resourceChanges, "delete", resources + 1);
  await stack.setConfig("bench:changed", { value: "0" });
  return times;
}

/** The Automation API's runner of `pulumi` commands (internal to it, so checked before use). */
type CommandRunner = { run: (args: string[], ...rest: unknown[]) => Promise<unknown> };

/**
 * Runs `action` (one Automation API call on `stack`) and returns its result and the seconds of its
 * `pulumi <command>` alone, from the process's start to its exit: what a user at the command line waits
 * for. After `up`, `refresh` and `destroy` the Automation API runs more commands (`stack output`,
 * `stack history`: about 4 s at load 17) that no user waits for, so the call's own wall time is not it.
 */
export async function timeCommand<T>(
  stack: Stack,
  command: string,
  action: () => Promise<T>,
): Promise<{ result: T; seconds: number }> {
  const runner = stack.workspace.pulumiCommand as unknown as Partial<CommandRunner>;
  const original = runner.run;
  if (typeof original !== "function") {
    throw new Error(
      "the Automation API's PulumiCommand has no run method: the bench cannot time its commands",
    );
  }
  const timings: number[] = [];
  runner.run = async (args: string[], ...rest: unknown[]) => {
    const start = performance.now();
    try {
      return await original.call(runner, args, ...rest);
    } finally {
      if (args[0] === command) timings.push(secondsSince(start));
    }
  };
  try {
    const result = await action();
    if (timings.length !== 1) {
      throw new Error(`expected one \`pulumi ${command}\` in the call, timed ${timings.length}`);
    }
    return { result, seconds: timings[0] };
  } finally {
    runner.run = original;
  }
}
