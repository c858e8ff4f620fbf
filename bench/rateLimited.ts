/**
 * Comparison 7, rate limits at scale: `pulumi up` of N UserRoles (1,000 in a full run) against an
 * emulator that answers 429 beyond `rate` requests per second (`startEmulator({ rateLimit })`), with the
 * provider's client-side limiter set to the same rate (stack config `codesec:requestsPerSecond`).
 * Figures: time against its lower bound N / rate, the share of requests answered 429 (target at most
 * 1%), failed resources (target 0).
 */
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator/index";
import { ApiCallCounter } from "./support/apiCallCounter";
import { benchFixtures } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig, storedResources } from "./support/stacks";
import { secondsSince } from "./support/stats";

const COMPARISON = "7 rate limits";

export async function rateLimited(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const { resources: n, rate } = options.rateLimited;
  const emulator = await startEmulator({
    quiet: true,
    fixtures: benchFixtures({ members: n }),
    rateLimit: rate,
  });
  try {
    const stack = await benchStack("roles", `limited-n${n}`, {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "codesec:requestsPerSecond": { value: String(rate) },
      "bench:provider": { value: "codesec" },
      "bench:count": { value: String(n) },
    });
    const counter = new ApiCallCounter(emulator.control);
    const start = performance.now();
    let failure = "";
    try {
      await stack.up();
    } catch (error) {
      // A failed up is a figure (failed resources), not a failed comparison.
      failure = String(error instanceof Error ? error.message : error);
    }
    const seconds = secondsSince(start);
    const calls = counter.take();
    const created = storedResources(stack).filter((r) => r.type.endsWith(":UserRole")).length;
    const tooMany = calls.byStatus["429"] ?? 0;
    const lowerBound = n / rate;
    log(`  ${n} roles at ${rate} req/s: ${seconds.toFixed(1)} s, ${tooMany} of ${calls.total} answered 429`);
    const name = `up of ${n} UserRoles at ${rate} req/s`;
    return [
      figure({
        comparison: COMPARISON,
        name: `${name}, time / lower bound`,
        value: seconds / lowerBound,
        unit: "x",
        detail: `${seconds.toFixed(1)} s against N / rate = ${lowerBound.toFixed(1)} s`,
      }),
      figure({
        comparison: COMPARISON,
        name: `${name}, requests answered 429`,
        value: calls.total > 0 ? (100 * tooMany) / calls.total : Number.NaN,
        unit: "%",
        target: { op: "<=", value: 1 },
        detail: `${tooMany} of ${calls.total} requests`,
      }),
      figure({
        comparison: COMPARISON,
        name: `${name}, failed resources`,
        value: n - created,
        unit: "resources",
        target: { op: "==", value: 0 },
        ...(failure ? { detail: failure.split("\n").find((line) => line.includes("error:")) ?? "" } : {}),
      }),
    ];
  } finally {
    await emulator.close();
  }
}
