/**
 * Round trips of the typed client against the local emulator (loopback only): sequential latency
 * percentiles and concurrent throughput for a read (operation 6) and a write (operation 1), plus the
 * cost of a retried 503. Bounded in count; prints figures, asserts nothing.
 */
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator/index";
import { CodeSecClient, MAX_REQUESTS_PER_SECOND, RateLimiter } from "../sdk";

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 500);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 2000);
const PARALLELISM = 16;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(name: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 20; i++) await call(); // warm-up: JIT, keep-alive sockets
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: PARALLELISM }, async () => {
      while (next++ < CONCURRENT) await call();
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${percentile(times, 95).toFixed(2)} ms  ` +
      `p99 ${percentile(times, 99).toFixed(2)} ms  | ${PARALLELISM} in flight: ${(CONCURRENT / seconds).toFixed(0)} req/s`,
  );
}

async function main(): Promise<void> {
  const emulator = await startEmulator({ quiet: true });
  try {
    // The client's own latency: a limiter that never holds a request back (the default paces at 100/s).
    const rateLimiter = new RateLimiter({ requestsPerSecond: MAX_REQUESTS_PER_SECOND, maxInFlight: 1000 });
    const client = new CodeSecClient({ baseUrl: emulator.baseUrl, token: emulator.apiToken, rateLimiter });
    const { deploymentId, sample } = emulator;
    await measure("getScan (op 6)", () => client.getScan({ deploymentId, scanId: sample.scanId }));
    await measure("updateUserRole (op 1)", () =>
      client.updateUserRole({ deploymentId, userId: sample.memberUserId, newRole: "ORG_ROLE_MEMBER" }),
    );
    await measure("listNotificationRules (op 10)", () => client.listNotificationRules({ deploymentId }));

    const retrying = new CodeSecClient({ baseUrl: emulator.baseUrl, token: emulator.apiToken, retries: 1 });
    const runs = 20;
    let total = 0;
    for (let i = 0; i < runs; i++) {
      emulator.control.addFault({ operation: "getScan", status: 503, count: 1 });
      const start = performance.now();
      await retrying.getScan({ deploymentId, scanId: sample.scanId });
      total += performance.now() - start;
    }
    console.log(
      `${"getScan after one 503".padEnd(28)} mean ${(total / runs).toFixed(1)} ms (backoff included)`,
    );
  } finally {
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
