/**
 * The client comparison: the client against a bare keep-alive `node:http` loop on the same emulator routes,
 * and the cold load of the package's entry points. The measurements are the client's (`measureClientSpeed()` in
 * bench/clientSpeed.ts, `measureModuleLoad()` in bench/moduleLoad.ts); this module turns them into figures
 * with their targets. The headline is the client as users get it, with its default limiter (100 requests per
 * second, 16 in flight: the platform's documented limit per credential, docs/api-behaviour.md, so that a
 * large stack does not set off a storm of 429s): its rate against the bare loop (no target: the cap is by
 * design), and against its own cap (target >= 0.9x: the limiter delivers the rate it promises). Beside it,
 * the client tuned to never wait (`requestsPerSecond` 100,000, 1,000 in flight): the client's own cost, every
 * check kept, at >= 0.9x the bare loop. And each provider entry (`pulumi-codesec/dynamic`,
 * `pulumi-codesec/dynamic/UserRole`) loading in <= 50 ms.
 */
import { measureClientSpeed } from "./clientSpeed";
import { measureModuleLoad, type ModuleLoadResult } from "./moduleLoad";
import type { BenchOptions } from "./support/options";
import { DEFAULT_REQUESTS_PER_SECOND } from "../client";
import { figure, type Figure } from "./support/results";
import { pairedRatios, summarized } from "./support/stats";

const COMPARISON = "client";

export async function clientFigures(options: BenchOptions): Promise<Figure[]> {
  const speed = await measureClientSpeed(
    options.smoke
      ? { requests: 300, limitedRequests: 20, repetitions: 1 }
      : { repetitions: Math.max(options.reps, 3) },
  );
  const cap = DEFAULT_REQUESTS_PER_SECOND;
  const figures = speed.figures.flatMap((f) => [
    figure({
      comparison: COMPARISON,
      name: `default client / bare loop, ${f.route}, concurrency ${f.concurrency}`,
      ...summarized(pairedRatios(f.defaultLimiterRates, f.bareRates)),
      unit: "x",
      detail: `default client ${f.defaultLimiterRps.toFixed(0)} req/s (capped at ${cap} by design), bare ${f.bareRps.toFixed(0)} req/s`,
    }),
    figure({
      comparison: COMPARISON,
      name: `default client / its cap of ${cap} req/s, ${f.route}, concurrency ${f.concurrency}`,
      ...summarized(f.defaultLimiterRates.map((rps) => rps / cap)),
      unit: "x",
      target: { op: ">=", value: 0.9 },
      detail: `${f.defaultLimiterRates.map((rps) => rps.toFixed(0)).join(", ")} req/s`,
    }),
    figure({
      comparison: COMPARISON,
      name: `tuned client (limiter never waits) / bare loop, ${f.route}, concurrency ${f.concurrency}`,
      ...summarized(f.ratios),
      unit: "x",
      target: { op: ">=", value: 0.9 },
      detail: `client ${f.clientRps.toFixed(0)} req/s, bare ${f.bareRps.toFixed(0)} req/s (medians of ${speed.repetitions} x ${speed.requests} requests)`,
    }),
  ]);
  return [...figures, ...moduleLoadFigures(measureModuleLoad({ runs: options.smoke ? 3 : 9 }))];
}

/** The cold-load figures of each entry point (CPU time: see bench/moduleLoad.ts), with the target of the provider entries. */
export function moduleLoadFigures(load: ModuleLoadResult): Figure[] {
  return load.figures.map((f) =>
    figure({
      comparison: COMPARISON,
      name: `cold require of ${f.entry}, CPU time`,
      value: f.cpuMs,
      unit: "ms",
      ...(f.entry.includes("/dynamic") ? { target: { op: "<=", value: 50 } } : {}),
      detail:
        `wall ${f.medianMs.toFixed(1)} ms; ${f.modules} modules (${f.typeboxModules} TypeBox), median of ${load.runs} processes` +
        (f.withFirstCheck
          ? `; with the first check ${f.withFirstCheck.cpuMs.toFixed(1)} ms CPU, ${f.withFirstCheck.medianMs.toFixed(1)} ms wall, ` +
            `${f.withFirstCheck.modules} modules (${f.withFirstCheck.typeboxModules} TypeBox)`
          : ""),
    }),
  );
}
