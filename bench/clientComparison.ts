/**
 * Comparison 4, the client against a bare keep-alive `node:http` loop on the same emulator routes, and
 * the cold load of the package's entry points. The measurements are the sdk's (`measureClientSpeed()` in
 * bench/clientSpeed.ts, `measureModuleLoad()` in bench/moduleLoad.ts); this module turns them into figures
 * with their targets: the client (every check kept, a limiter that never waits) at >= 0.9x the bare loop,
 * and `pulumi-codesec/dynamic` loading in <= 50 ms.
 */
import { measureClientSpeed } from "./clientSpeed";
import { measureModuleLoad } from "./moduleLoad";
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
  const load = measureModuleLoad({ runs: options.smoke ? 3 : 9 });
  for (const f of load.figures) {
    const dynamic = f.entry.endsWith("/dynamic");
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `cold require of ${f.entry}`,
        value: f.medianMs,
        unit: "ms",
        ...(dynamic ? { target: { op: "<=", value: 50 } } : {}),
        detail:
          `${f.modules} modules (${f.typeboxModules} TypeBox), median of ${load.runs} processes` +
          (f.withFirstCheck ? `; with the first check ${f.withFirstCheck.medianMs.toFixed(1)} ms` : ""),
      }),
    );
  }
  return figures;
}
