/**
 * What a bench run measures: the sizes and repetitions of each comparison. `--smoke` (CI) picks the
 * smallest sizes and one repetition, still running every comparison; `BENCH_SIZES` and `BENCH_REPS`
 * override the engine-floor sizes and repetitions of either mode.
 */
import { MAX_USER_ROLES } from "../../provider/resources/userRoles/implementation";

/** Sizes and repetitions of one bench run. */
export interface BenchOptions {
  smoke: boolean;
  /** Stack sizes (N resources) of the engine-floor comparison. */
  sizes: number[];
  /** Repetitions of every comparison: the engine floor's at every size, and the quicker ones. */
  reps: number;
  /** Rule counts of the getNotificationRules comparison. */
  ruleCounts: number[];
  /** Notification rules in the emulator's large store (capacity comparison). */
  largeStoreRules: number;
  /** Seconds of load per emulator capacity measurement. */
  capacitySeconds: number;
  /** Store sizes (notification rules) at which the cost of one emulator write is measured. */
  writeCostRules: number[];
  /** Writes per measure of that cost. */
  writesPerMeasure: number;
  /** Users of the UserRoles map and the emulator's rate (requests per second) of the rate-limited runs. */
  rateLimited: { resources: number; rate: number };
  /** Starts of the native plugin measured. */
  pluginStarts: number;
  /** Stacks, and UserRoles per stack, of the drift-across-stacks comparison. */
  driftStacks: { stacks: number; resources: number };
  /** Event-log sizes (steps) at which codesec-review and codesec-drift are timed. */
  reviewToolSteps: number[];
  /** Entries of the UserRoles map measured once at its documented maximum. */
  mapAtLimitEntries: number;
  /**
   * BENCH_ONLY: the steps to run, by name (BENCH_STEPS): "engine" (the stacks of the engine floor, API
   * calls, native provider and UserRoles map comparisons), "native SDK aliases" (stacks of the largest
   * size), "large stacks" (settings for a no-change preview of the largest size), or a quicker comparison ("plugin start-up" for the native provider's start-up); all when unset.
   */
  only?: BenchStep[];
}

function numberList(text: string, name: string): number[] {
  const values = text.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v <= 0)) {
    throw new Error(
      `${name} must be a comma-separated list of positive integers, got ${JSON.stringify(text)}`,
    );
  }
  return values;
}

/**
 * The steps of a run, by the names BENCH_ONLY takes and the run's log and `bench/results.json` give them:
 * the quicker comparisons first, then the stacks ("engine", logged with their size), then the native SDK's
 * aliases.
 */
export const BENCH_STEPS = [
  "state size",
  "client",
  "emulator capacity",
  "getNotificationRules",
  "rate limits",
  "plugin start-up",
  "npm run release",
  "install and first up",
  "small real stack",
  "drift across stacks",
  "review tools",
  "review path",
  "UserRoles map at its maximum",
  "engine",
  "native SDK aliases",
  "large stacks",
] as const;

/** One step of a run. */
export type BenchStep = (typeof BENCH_STEPS)[number];

function isStep(text: string): text is BenchStep {
  return (BENCH_STEPS as readonly string[]).includes(text);
}

function onlySteps(text: string): BenchStep[] {
  const steps = text.split(",").map((part) => part.trim());
  const unknown = steps.filter((step) => !isStep(step));
  if (unknown.length > 0 || steps.length === 0) {
    const known = BENCH_STEPS.map((step) => JSON.stringify(step)).join(", ");
    throw new Error(`BENCH_ONLY must list steps among ${known}, got ${JSON.stringify(text)}`);
  }
  return steps.filter(isStep);
}

function positiveInteger(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * The options of a run from its arguments and environment. Full-run defaults: three interleaved
 * repetitions of everything (a figure is met only when all its repetitions are), at N = 50, 200 and
 * 1,000 (docs/performance.md gives the latest run's time; N = 1,000 is most of it). The smoke run (CI)
 * runs each comparison once on small inputs, with the rate-limited run still above its limit (50 users
 * at 10 requests per second).
 */
export function benchOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const unknown = argv.filter((arg) => arg !== "--smoke");
  if (unknown.length > 0)
    throw new Error(`unknown argument(s) ${unknown.join(" ")}; the only one is --smoke`);
  const smoke = argv.includes("--smoke");
  const sizes = env.BENCH_SIZES ? numberList(env.BENCH_SIZES, "BENCH_SIZES") : smoke ? [10] : [50, 200, 1000];
  const fixedReps = env.BENCH_REPS ? positiveInteger(env.BENCH_REPS, "BENCH_REPS") : undefined;
  const reps = fixedReps ?? (smoke ? 1 : 3);
  return {
    smoke,
    sizes,
    reps,
    ruleCounts: smoke ? [10, 1000] : [10, 1000, 10_000],
    largeStoreRules: smoke ? 1000 : 10_000,
    capacitySeconds: smoke ? 1 : 4,
    writeCostRules: smoke ? [1000, 10_000] : [1000, 10_000, 50_000],
    writesPerMeasure: smoke ? 20 : 200,
    rateLimited: smoke ? { resources: 50, rate: 10 } : { resources: 1000, rate: 50 },
    pluginStarts: smoke ? 3 : 15,
    driftStacks: smoke ? { stacks: 3, resources: 5 } : { stacks: 20, resources: 50 },
    reviewToolSteps: smoke ? [500] : [500, 5_000, 50_000],
    mapAtLimitEntries: smoke ? 50 : MAX_USER_ROLES,
    ...(env.BENCH_ONLY ? { only: onlySteps(env.BENCH_ONLY) } : {}),
  };
}
