/**
 * The rate limits comparison: `pulumi up` creating one `codesec.UserRoles` of N users (1,000 in a full run)
 * against an emulator that answers 429 beyond `rate` requests per second per credential. The map sends its N
 * writes concurrently through the client's limiter, so the load it offers is the limiter's, not the engine's
 * (N separate UserRoles offer what the engine's pace allows, about 10 per second at N = 1,000 on a 2-core
 * machine, see the engine floor comparison: they never reach a limit of 50). Three runs:
 *
 * - **limiter at the limit** (`codesec:requestsPerSecond` = rate): the figures with targets, repeated: it
 *   must reach the limit (peak offered rate at least 0.9x of it) and converge with at most 1% 429s;
 * - **default limiter** (100 per second, the platform's documented limit) against the lower limit;
 * - **limiter off** (`codesec:requestsPerSecond` = 100,000, 16 in flight): what the limiter saves.
 *
 * The offered rate is read from the emulator's request log: the most requests (answered or refused) that
 * arrived within any one second. Each run has an emulator of its own, so every write changes a role.
 */
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { ApiCallCounter } from "./support/apiCallCounter";
import { BENCH_DEPLOYMENT, benchFixtures, benchUserId } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import { secondsSince, summarized } from "./support/stats";

const COMPARISON = "rate limits";
/** The client's highest rate: a limiter that never holds a request back. */
const LIMITER_OFF = 100_000;

type Setting = "at the limit" | "default" | "off";

interface LimitedRun {
  seconds: number;
  requests: number;
  refused: number;
  peakPerSecond: number;
  /** Users of the map whose role the emulator does not hold at the end. */
  notApplied: number;
  failure: string;
}

/** The most log entries whose arrival falls within any one second. */
export function peakPerSecond(arrivals: readonly number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let peak = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[last] - sorted[first] >= 1000) first++;
    peak = Math.max(peak, last - first + 1);
  }
  return peak;
}

/** The line of a failed `pulumi up`'s output that says why: the map's own message, else the last error line. */
function failureLine(message: string): string {
  const lines = message.split("\n").map((line) => line.trim());
  const own = lines.find((line) => /role write\(s\) failed/.test(line));
  const errors = lines.filter((line) => line.includes("error:") && !/\d+ errors? occurred/.test(line));
  return (own ?? errors.at(-1) ?? message.slice(0, 200)).slice(0, 300);
}

async function limitedUp(n: number, rate: number, setting: Setting, tag: string): Promise<LimitedRun> {
  const emulator: EmulatorHandle = await startEmulator({
    quiet: true,
    fixtures: benchFixtures({ members: n }),
    rateLimit: rate,
  });
  try {
    const clientRate = setting === "at the limit" ? rate : setting === "off" ? LIMITER_OFF : undefined;
    const stack = await benchStack("roles", `limited-${tag}`, {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      ...(clientRate === undefined ? {} : { "codesec:requestsPerSecond": { value: String(clientRate) } }),
      "bench:provider": { value: "map" },
      "bench:count": { value: String(n) },
    });
    const counter = new ApiCallCounter(emulator.control);
    emulator.control.clearRequests();
    const start = performance.now();
    let failure = "";
    try {
      await stack.up();
    } catch (error) {
      // A failed up is a figure (entries not applied), not a failed comparison.
      const message = String(error instanceof Error ? error.message : error);
      failure = failureLine(message);
    }
    const seconds = secondsSince(start);
    const calls = counter.take();
    const users = emulator.control.state().users;
    let notApplied = 0;
    for (let i = 0; i < n; i++) {
      const user = users.find((u) => u.id === benchUserId(i));
      if (user?.roles[BENCH_DEPLOYMENT] !== "ORG_ROLE_ADMIN") notApplied++;
    }
    return {
      seconds,
      requests: calls.total,
      refused: calls.byStatus["429"] ?? 0,
      peakPerSecond: peakPerSecond(emulator.control.requests().map((r) => Date.parse(r.at))),
      notApplied,
      failure,
    };
  } finally {
    await emulator.close();
  }
}

export async function rateLimited(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const { resources: n, rate } = options.rateLimited;
  const runs = new Map<Setting, LimitedRun[]>();
  // The targeted run is repeated; the two runs that show what happens without it once each.
  const plan: Setting[] = [];
  for (let rep = 0; rep < options.reps; rep++) plan.push("at the limit");
  plan.push("default", "off");
  for (const [i, setting] of plan.entries()) {
    const result = await limitedUp(n, rate, setting, `${setting.replace(/ /g, "-")}-${i}`);
    runs.set(setting, [...(runs.get(setting) ?? []), result]);
    log(
      `  map of ${n} at ${rate} req/s, client limiter ${setting}: ${result.seconds.toFixed(1)} s, ` +
        `peak ${result.peakPerSecond} req/s, ${result.refused} of ${result.requests} answered 429, ` +
        `${result.notApplied} not applied${result.failure ? ` (${result.failure})` : ""}`,
    );
  }
  const figures: Figure[] = [];
  for (const [setting, results] of runs) {
    const targeted = setting === "at the limit";
    const limiter =
      setting === "at the limit"
        ? `client limiter at ${rate} req/s`
        : setting === "default"
          ? "default client limiter (100 req/s)"
          : "client limiter off";
    const name = `up of a ${n}-user UserRoles at an emulator limit of ${rate} req/s, ${limiter}`;
    const pick = (f: (r: LimitedRun) => number) => results.map(f);
    const lowerBound = n / rate;
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `${name}: peak offered rate / limit`,
        ...summarized(pick((r) => r.peakPerSecond / rate)),
        unit: "x",
        ...(targeted ? { target: { op: ">=", value: 0.9 } } : {}),
        detail: `peak ${pick((r) => r.peakPerSecond).join(", ")} requests within one second (answered or refused)`,
      }),
      figure({
        comparison: COMPARISON,
        name: `${name}: requests answered 429`,
        ...summarized(pick((r) => (r.requests > 0 ? (100 * r.refused) / r.requests : Number.NaN))),
        unit: "%",
        ...(targeted ? { target: { op: "<=", value: 1 } } : {}),
        detail: results.map((r) => `${r.refused} of ${r.requests}`).join("; "),
      }),
      figure({
        comparison: COMPARISON,
        name: `${name}: entries not applied`,
        ...summarized(pick((r) => r.notApplied)),
        unit: "entries",
        ...(targeted ? { target: { op: "==", value: 0 } } : {}),
        ...(results.some((r) => r.failure)
          ? { detail: results.map((r) => r.failure || "converged").join("; ") }
          : {}),
      }),
      figure({
        comparison: COMPARISON,
        name: `${name}: time / lower bound`,
        ...summarized(pick((r) => r.seconds / lowerBound)),
        unit: "x",
        detail: `${results.map((r) => r.seconds.toFixed(1)).join(", ")} s against N / rate = ${lowerBound.toFixed(1)} s`,
      }),
    );
  }
  return figures;
}
