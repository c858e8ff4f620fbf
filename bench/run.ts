/**
 * `npm run bench` (full) and `npm run bench -- --smoke` (CI): runs every comparison, writes
 * `bench/results.json` (`bench/results.smoke.json` for a smoke run, so that CI never overwrites the
 * committed full results) and prints the figures as a markdown table. Asserts nothing about speed; exits
 * non-zero when a comparison cannot run.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { apiCallFigures } from "./apiCalls";
import { clientFigures } from "./clientComparison";
import { emulatorCapacity } from "./emulatorCapacity";
import { emulatorWriteCost } from "./emulatorWrites";
import { engineFloor } from "./engineFloor";
import { notificationRules } from "./notificationRules";
import { rateLimited } from "./rateLimited";
import { stateSize } from "./stateSize";
import { describeMachine } from "./support/machine";
import { benchOptions } from "./support/options";
import { markdownTable, machineLine, type BenchResults, type Figure } from "./support/results";
import { secondsSince } from "./support/stats";

/** Where a run's results go. */
export function resultsPath(smoke: boolean): string {
  return path.join(__dirname, smoke ? "results.smoke.json" : "results.json");
}

async function main(): Promise<void> {
  const options = benchOptions(process.argv.slice(2), process.env);
  const machine = describeMachine();
  const started = performance.now();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const log = (line: string) => console.error(line);
  const timings: Record<string, number> = {};
  const step = async (name: string, measure: () => Promise<Figure[]>) => {
    log(`[bench] ${name} ...`);
    const start = performance.now();
    figures.push(...(await measure()));
    timings[name] = Math.round(secondsSince(start));
    log(`[bench] ${name}: ${timings[name]} s`);
  };
  log(`[bench] ${options.smoke ? "smoke" : "full"} run on ${machineLine(machine)}`);

  await step("1 engine floor + 3 API calls", async () => {
    const { figures: floor, calls } = await engineFloor(options, log);
    return [...floor, ...apiCallFigures(calls)];
  });
  await step("2 state size", () => stateSize(options, log));
  await step("4 client", () => clientFigures(options));
  await step("5 emulator capacity", async () => [
    ...(await emulatorCapacity(options, log)),
    ...(await emulatorWriteCost(options, log)),
  ]);
  await step("6 getNotificationRules", () => notificationRules(options, log));
  await step("7 rate limits", () => rateLimited(options, log));

  const results: BenchResults = {
    mode: options.smoke ? "smoke" : "full",
    date: new Date().toISOString(),
    machine,
    ran: {
      sizes: options.sizes,
      repetitions: Object.fromEntries(options.sizes.map((n) => [`N=${n}`, options.repsFor(n)])),
      otherRepetitions: options.reps,
      ruleCounts: options.ruleCounts,
      largeStoreRules: options.largeStoreRules,
      capacitySeconds: options.capacitySeconds,
      writeCostRules: options.writeCostRules,
      writesPerMeasure: options.writesPerMeasure,
      rateLimited: options.rateLimited,
      secondsPerComparison: timings,
    },
    wallSeconds: Math.round(secondsSince(started)),
    figures,
    notes,
  };
  const file = resultsPath(options.smoke);
  writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
  console.log(markdownTable(figures));
  for (const note of notes) console.log(`\nNote: ${note}`);
  console.log(
    `\n${results.mode} run, ${results.wallSeconds} s on ${machineLine(machine)}; written to ${file}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
