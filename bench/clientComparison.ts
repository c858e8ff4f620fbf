/**
 * Comparison 4, the client against a bare keep-alive `node:http` loop on the same emulator routes, and
 * the cold load of the package's entry points. The measurements are the sdk's (`measureClientSpeed()` in
 * bench/clientSpeed.ts, `measureModuleLoad()` in bench/moduleLoad.ts); this module turns them into figures
 * with their targets: the client (every check kept, a limiter that never waits) at >= 0.9x the bare loop,
 * and each provider entry (`pulumi-codesec/dynamic`, `pulumi-codesec/dynamic/UserRole`) loading in <= 50 ms.
 */
import { measureClientSpeed } from "./clientSpeed";
import { measureModuleLoad, type ModuleLoadResult } from "./moduleLoad";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";

const COMPARISON = "4 client";

export async function clientFigures(options: BenchOptions): Promise<Figure[]> {
  const speed = await measureClientSpeed(
    options.smoke
      ? { requests: 300, limitedRequests: 20, repetitions: 1 }
      : { repetitions: Math.max(options.reps, 3) },
  );
  const figures = speed.figures.map((f) =>
    figure({
      comparison: COMPARISON,
      name: `client / bare loop, ${f.route}, concurrency ${f.concurrency}`,
      value: f.ratio,
      unit: "x",
      target: { op: ">=", value: 0.9 },
      detail:
        `client ${f.clientRps.toFixed(0)} req/s, bare ${f.bareRps.toFixed(0)} req/s (median of ${speed.repetitions} ` +
        `x ${speed.requests}); with the default limiter ${f.defaultLimiterRps.toFixed(0)} req/s`,
    }),
  );
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
