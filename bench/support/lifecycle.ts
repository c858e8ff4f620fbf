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
  const timed = async <T>(phase: Phase, action: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await action();
    times[phase] = secondsSince(start);
    await afterPhase(phase);
    return result;
  };
  await stack.setConfig("bench:changed", { value: "0" });
  const preview = await timed("preview (create)", () => stack.preview());
  expectChanges("preview (create)", preview.changeSummary, "create", resources + 1); // + the stack resource
  const created = await timed("up (create)", () => stack.up());
  expectChanges("up (create)", created.summary.resourceChanges, "create", resources + 1);
  await timed("preview, no change", () => stack.preview());
  const same = await timed("up, no change", () => stack.up());
  expectChanges("up, no change", same.summary.resourceChanges, "update", 0);
  await stack.setConfig("bench:changed", { value: String(updatedCount(n)) });
  const changed = await timed("update of 5", () => stack.up());
  expectChanges("update of 5", changed.summary.resourceChanges, "update", updated);
  await timed("refresh", () => stack.refresh());
  const destroyed = await timed("destroy", () => stack.destroy());
  expectChanges("destroy", destroyed.summary.resourceChanges, "delete", resources + 1);
  await stack.setConfig("bench:changed", { value: "0" });
  return times;
}
