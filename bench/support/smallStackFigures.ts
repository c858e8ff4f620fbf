/**
 * The small real stack comparison's phases and the names of its figures (bench/smallStack.ts measures
 * them; scripts/performance-report.ts opens docs/performance.md with them).
 */

export const SMALL_STACK_COMPARISON = "small real stack";

export const SMALL_PHASES = ["up", "preview, no change", "refresh", "destroy"] as const;
export type SmallPhase = (typeof SMALL_PHASES)[number];

export type ProviderSide = "dynamic" | "native";
export const PROVIDER_SIDES: readonly ProviderSide[] = ["dynamic", "native"];

/** Each phase's base: what the CLI costs for that phase with nothing to do. */
export const BASE_OF: Record<SmallPhase, string> = {
  up: "an empty program's preview",
  "preview, no change": "an empty program's preview",
  refresh: "an empty stack's refresh",
  destroy: "an empty stack's destroy",
};

/** The names of the figures of one phase. */
export const smallStackNames = {
  secondsAbove: (phase: SmallPhase, side: ProviderSide) =>
    `${phase}, ${side}: seconds above ${BASE_OF[phase]}`,
  ratioToBase: (phase: SmallPhase, side: ProviderSide) => `${phase}, ${side} / ${BASE_OF[phase]}`,
  noiseFloor: (phase: SmallPhase) => `${phase}, noise floor: dynamic against dynamic`,
  nativeToDynamic: (phase: SmallPhase) => `${phase}, native / dynamic`,
};
