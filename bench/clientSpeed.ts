/**
 * The typed client against a bare keep-alive `node:http` loop on the same emulator routes: a read
 * (getScan) and a write (updateUserRole), at concurrency 1 and 16. Repetitions
 * are interleaved (bare, client, bare, client, ...) in one process against one emulator, and each
 * repetition gives a paired ratio (client requests per second / bare requests per second); the figure is
 * the median ratio. Prints a markdown table; `measureClientSpeed()` returns the figures.
 *
 * Two client figures: with a limiter of a very high rate (`unlimited`: the speed of the client itself,
 * every check kept; the >= 0.9 target applies to it), and with the default limiter (100 requests per
 * second, 16 in flight), which by design caps a busy loop at 100 requests per second: that figure shows
 * the limiter does what it says, not how fast the client is.
 *
 * Run: `node -r ts-node/register/transpile-only bench/clientSpeed.ts` (BENCH_REQUESTS, BENCH_REPETITIONS).
 */
import * as http from "node:http";
import { performance } from "node:perf_hooks";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { CodeSecClient, MAX_REQUESTS_PER_SECOND, RateLimiter } from "../client";

export interface ClientSpeedOptions {
  /** Requests per measured run (bare and unlimited client). Default 2000. */
  requests?: number;
  /** Requests per run of the client with the default limiter (it runs at 100/s). Default 100. */
  limitedRequests?: number;
  /** Interleaved repetitions. Default 5. */
  repetitions?: number;
  /** Concurrency levels. Default [1, 16]. */
  concurrency?: number[];
}

export interface ClientSpeedFigure {
  route: "getScan" | "updateUserRole";
  concurrency: number;
  /** Medians over the repetitions, requests per second. */
  bareRps: number;
  clientRps: number;
  /** Median of the paired ratios client / bare, with a limiter of a very high rate (target >= 0.9). */
  ratio: number;
  /** Every repetition's paired ratio, in order. */
  ratios: number[];
  /** The client with the default limiter (100 requests per second): capped by design. */
  defaultLimiterRps: number;
  defaultLimiterRatio: number;
  /** Every repetition's rate of the client with the default limiter, in order. */
  defaultLimiterRates: number[];
  /** Every repetition's bare rate, in order. */
  bareRates: number[];
}

export interface ClientSpeedResult {
  requests: number;
  repetitions: number;
  figures: ClientSpeedFigure[];
}

type Route = ClientSpeedFigure["route"];

/** One request of the route, both ways: the client's method, and the same bytes sent bare. */
interface RouteCalls {
  client: (client: CodeSecClient) => Promise<unknown>;
  bare: { method: string; path: string; body?: string };
}

function routeCalls(emulator: EmulatorHandle, route: Route): RouteCalls {
  const { deploymentId, sample } = emulator;
  if (route === "getScan") {
    return {
      client: (client) => client.getScan({ deploymentId, scanId: sample.scanId }),
      bare: { method: "GET", path: `/api/v2/deployments/${deploymentId}/scans/${sample.scanId}` },
    };
  }
  const args = { deploymentId, userId: sample.memberUserId, newRole: "ORG_ROLE_MEMBER" as const };
  return {
    client: (client) => client.updateUserRole(args),
    bare: {
      method: "PATCH",
      path: `/api/agent/deployments/${deploymentId}/users/${sample.memberUserId}/roles`,
      body: JSON.stringify(args),
    },
  };
}

/** The floor: a keep-alive agent like the client's, the same headers and body, the body read whole. */
function bareCaller(emulator: EmulatorHandle, call: RouteCalls["bare"]): () => Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(`${emulator.baseUrl}${call.path}`);
  const body = call.body === undefined ? undefined : Buffer.from(call.body);
  const headers: Record<string, string> = {
    Authorization: `Bearer ${emulator.apiToken}`,
    Accept: "application/json",
    "User-Agent": "pulumi-codesec-sdk",
    ...(body === undefined
      ? {}
      : { "Content-Type": "application/json", "Content-Length": String(body.length) }),
  };
  return () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(url, { method: call.method, headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          Buffer.concat(chunks).toString("utf8");
          if (response.statusCode !== 200)
            reject(new Error(`bare ${call.method} answered ${response.statusCode}`));
          else resolve();
        });
        response.on("error", reject);
      });
      request.on("error", reject);
      request.end(body);
    });
}

/** Requests per second of `count` calls, `concurrency` at a time. */
async function run(call: () => Promise<unknown>, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) await call();
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Measures the client against the bare loop on one emulator; see the file's comment. */
export async function measureClientSpeed(options: ClientSpeedOptions = {}): Promise<ClientSpeedResult> {
  const requests = options.requests ?? 2000;
  const limitedRequests = options.limitedRequests ?? 100;
  const repetitions = options.repetitions ?? 5;
  const levels = options.concurrency ?? [1, 16];
  const emulator = await startEmulator({ quiet: true });
  try {
    const base = { baseUrl: emulator.baseUrl, token: emulator.apiToken };
    // The client's own speed: a limiter that never holds a request back.
    const unlimited = new CodeSecClient({
      ...base,
      rateLimiter: new RateLimiter({ requestsPerSecond: MAX_REQUESTS_PER_SECOND, maxInFlight: 1000 }),
    });
    const limited = () => new CodeSecClient(base);
    const cases = (["getScan", "updateUserRole"] as const).flatMap((route) =>
      levels.map((concurrency) => {
        const calls = routeCalls(emulator, route);
        return { route, concurrency, calls, bare: bareCaller(emulator, calls.bare) };
      }),
    );
    // Warm-up: JIT, sockets, compiled checks.
    for (const c of cases) {
      await run(c.bare, 300, c.concurrency);
      await run(() => c.calls.client(unlimited), 300, c.concurrency);
    }
    const samples = cases.map(() => ({
      bare: [] as number[],
      client: [] as number[],
      limited: [] as number[],
    }));
    for (let rep = 0; rep < repetitions; rep++) {
      for (const [i, c] of cases.entries()) {
        samples[i].bare.push(await run(c.bare, requests, c.concurrency));
        samples[i].client.push(await run(() => c.calls.client(unlimited), requests, c.concurrency));
        // A fresh client each time, so the limiter starts from rest as a new provider process would.
        const client = limited();
        samples[i].limited.push(await run(() => c.calls.client(client), limitedRequests, c.concurrency));
      }
    }
    const figures = cases.map((c, i): ClientSpeedFigure => {
      const { bare, client, limited: capped } = samples[i];
      const ratios = client.map((rps, rep) => rps / bare[rep]);
      return {
        route: c.route,
        concurrency: c.concurrency,
        bareRps: median(bare),
        clientRps: median(client),
        ratio: median(ratios),
        ratios,
        defaultLimiterRps: median(capped),
        defaultLimiterRatio: median(capped.map((rps, rep) => rps / bare[rep])),
        defaultLimiterRates: capped,
        bareRates: bare,
      };
    });
    return { requests, repetitions, figures };
  } finally {
    await emulator.close();
  }
}

/** The figures as a markdown table. */
export function clientSpeedTable(result: ClientSpeedResult): string {
  const lines = [
    `Client vs bare keep-alive node:http loop (${result.repetitions} interleaved repetitions of ${result.requests} requests; median of paired ratios; target >= 0.9 for the unlimited client)`,
    "",
    "| route | concurrency | bare req/s | client req/s | ratio | ratios | default limiter req/s |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const f of result.figures) {
    lines.push(
      `| ${f.route} | ${f.concurrency} | ${f.bareRps.toFixed(0)} | ${f.clientRps.toFixed(0)} | ${f.ratio.toFixed(2)} | ` +
        `${f.ratios.map((r) => r.toFixed(2)).join(" ")} | ${f.defaultLimiterRps.toFixed(0)} |`,
    );
  }
  return lines.join("\n");
}

if (require.main === module) {
  measureClientSpeed({
    requests: Number(process.env.BENCH_REQUESTS ?? 2000),
    repetitions: Number(process.env.BENCH_REPETITIONS ?? 5),
  })
    .then((result) => console.log(clientSpeedTable(result)))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
