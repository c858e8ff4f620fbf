/**
 * Comparison 7, rate limits at scale: `pulumi up` of N UserRoles (1,000 in a full run) against an
 * emulator that answers 429 beyond `rate` requests per second, with the provider's client-side limiter set
 * to the same rate (stack config `codesec:requestsPerSecond`). Figures: time against its lower bound
 * N / rate, the share of requests answered 429 (target at most 1%), failed resources (target 0).
 */
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { ApiCallCounter } from "./support/apiCallCounter";
import { bareLoop } from "./support/bareLoop";
import { benchFixtures } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig, storedResources } from "./support/stacks";
import { secondsSince } from "./support/stats";

const COMPARISON = "7 rate limits";

/**
 * PENDING (emulator helper): `startEmulator({ rateLimit })` is being added in another branch. Until it is
 * merged the option is passed untyped, and a probe tells whether the emulator enforces it.
 */
function startLimitedEmulator(members: number, rate: number): Promise<EmulatorHandle> {
  const rateLimit: object = { rateLimit: rate };
  return startEmulator({ quiet: true, fixtures: benchFixtures({ members }), ...rateLimit });
}

/** Whether the emulator answers 429 to a burst of three seconds' worth of requests. */
async function enforcesLimit(emulator: EmulatorHandle, rate: number): Promise<boolean> {
  const burst = await bareLoop(
    { baseUrl: emulator.baseUrl, token: emulator.apiToken, method: "GET", path: "/api/auth/users/current" },
    16,
    { requests: rate * 3 },
  );
  await new Promise((resolve) => setTimeout(resolve, 2000)); // let the limiter's budget refill
  return (burst.statuses["429"] ?? 0) > 0;
}

export async function rateLimited(
  options: BenchOptions,
  log: (line: string) => void,
  notes: string[],
): Promise<Figure[]> {
  const { resources: n, rate } = options.rateLimited;
  const emulator = await startLimitedEmulator(n, rate);
  let counter: ApiCallCounter | undefined;
  try {
    if (!(await enforcesLimit(emulator, rate))) {
      const note = "rate-limited run: the emulator does not enforce `rateLimit` yet (not yet available)";
      log(`  ${note}`);
      notes.push(note);
      return [];
    }
    const stack = await benchStack("roles", `limited-n${n}`, {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "codesec:requestsPerSecond": { value: String(rate) },
      "bench:provider": { value: "codesec" },
      "bench:count": { value: String(n) },
    });
    counter = new ApiCallCounter(emulator.control);
    const start = performance.now();
    let failure = "";
    try {
      await stack.up();
    } catch (error) {
      failure = String(error instanceof Error ? error.message : error).slice(0, 300);
    }
    const seconds = secondsSince(start);
    const calls = counter.take();
    const created = storedResources(stack).filter((r) => r.type.endsWith(":UserRole")).length;
    const tooMany = calls.byStatus["429"] ?? 0;
    const lowerBound = n / rate;
    log(`  ${n} roles at ${rate} req/s: ${seconds.toFixed(1)} s, ${tooMany} of ${calls.total} answered 429`);
    return [
      figure({
        comparison: COMPARISON,
        name: `up of ${n} UserRoles at ${rate} req/s, time / lower bound`,
        value: seconds / lowerBound,
        unit: "x",
        detail: `${seconds.toFixed(1)} s against N / rate = ${lowerBound.toFixed(1)} s`,
      }),
      figure({
        comparison: COMPARISON,
        name: `up of ${n} UserRoles at ${rate} req/s, requests answered 429`,
        value: calls.total > 0 ? (100 * tooMany) / calls.total : Number.NaN,
        unit: "%",
        target: { op: "<=", value: 1 },
        detail:
          `${tooMany} of ${calls.total} requests` +
          (counter.overflowed ? " (log overflowed: lower bounds)" : ""),
      }),
      figure({
        comparison: COMPARISON,
        name: `up of ${n} UserRoles at ${rate} req/s, failed resources`,
        value: n - created,
        unit: "resources",
        target: { op: "==", value: 0 },
        ...(failure ? { detail: failure.split("\n")[0] } : {}),
      }),
    ];
  } finally {
    counter?.stop();
    await emulator.close();
  }
}
