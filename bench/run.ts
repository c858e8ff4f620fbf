/**
 * `npm run bench` (full) and `npm run bench -- --smoke` (CI): runs every comparison, writes
 * `bench/results.json` (`bench/results.smoke.json` for a smoke run, so that CI never overwrites the
 * committed full results) and prints the figures as a markdown table. Asserts nothing about speed; exits
 * non-zero when a comparison cannot run.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { apiCallFigures } from "./apiCalls";
import { clientFigures } from "./clientComparison";
import { emulatorCapacity } from "./emulatorCapacity";
import { emulatorWriteCost } from "./emulatorWrites";
import { engineFloor, engineFloorFigures, nativeFigures, type SizeRun } from "./engineFloor";
import { ALIASES_COMPARISON, nativeAliases } from "./nativeAliases";
import { LARGE_STACKS_COMPARISON, largeStacks } from "./largeStacks";
import { pluginStartup } from "./pluginStartup";
import { userRolesMapFigures } from "./userRolesMap";
import { MAP_AT_LIMIT_STEP, userRolesMapAtLimit } from "./userRolesMapAtLimit";
import { notificationRules } from "./notificationRules";
import { rateLimited } from "./rateLimited";
import { INSTALLS_COMPARISON, installFigures } from "./installs";
import { RELEASE_COMPARISON, releaseFigures } from "./release";
import { SMALL_STACK_COMPARISON, smallStack } from "./smallStack";
import { REVIEW_PATH_COMPARISON, reviewPath } from "./reviewPath";
import { reviewTools } from "./reviewTools";
import { stateSize } from "./stateSize";
import { measuredSourcesDigest } from "../scripts/measuredSources";
import { SOURCES_CHANGED_NOTE, sourcesGuard } from "./support/sourcesGuard";
import { driftStacks } from "./driftStacks";
import { describeMachine } from "./support/machine";
import { benchOptions, type BenchStep } from "./support/options";
import { removeReleasedCopy } from "./support/releasedCopy";
import { markdownTable, machineLine, type BenchResults, type Figure } from "./support/results";
import { secondsSince } from "./support/stats";

/** The stacks' step (the engine floor, API calls, native provider and UserRoles map comparisons), per size. */
const ENGINE_STEP = "engine floor, native provider, UserRoles map";

/** Where a run's results go. */
export function resultsPath(smoke: boolean): string {
  return path.join(__dirname, smoke ? "results.smoke.json" : "results.json");
}

/** The commit the run measures, with "+changes" when the work tree differs from it. */
function treeCommit(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync(
      "git",
      ["status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results*.json"],
      {
        encoding: "utf8",
      },
    ).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return "unknown";
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

async function main(): Promise<void> {
  const options = benchOptions(process.argv.slice(2), process.env);
  const machine = describeMachine();
  const loadAtStart = os.loadavg()[0];
  const commit = treeCommit();
  // What release compares with its own (scripts/release/performanceFreshness.ts); checked before each save.
  const sources = sourcesGuard(measuredSourcesDigest);
  let sourcesDigest: string | undefined = sources.check();
  /** Each figure with the commit and the load it was measured at (the load when its comparison ended). */
  const stamped = (measured: Figure[]): Figure[] =>
    measured.map((f) => (f.measuredAt ? f : { ...f, measuredAt: { commit, load: round2(os.loadavg()[0]) } }));
  const started = performance.now();
  const figures: Figure[] = [];
  const notes: string[] = [];
  const log = (line: string) => console.error(line);
  const timings: Record<string, number> = {};
  const sizesDone: number[] = [];
  const repetitionsDone: Record<string, number> = {};
  /** BENCH_ONLY: the steps to run (BENCH_STEPS, by name), else all. */
  const only = options.only;
  const runs = (step: BenchStep) => only === undefined || only.includes(step);
  const engineSteps = options.sizes.map((n) => `${ENGINE_STEP} at N=${n}`);
  // The quicker comparisons, each one step named as BENCH_ONLY names it.
  const quickSteps: [BenchStep, () => Promise<Figure[]>][] = [
    ["state size", () => stateSize(options, log)],
    ["client", () => clientFigures(options)],
    [
      "emulator capacity",
      async () => [...(await emulatorCapacity(options, log)), ...(await emulatorWriteCost(options, log))],
    ],
    ["getNotificationRules", () => notificationRules(options, log)],
    ["rate limits", () => rateLimited(options, log)],
    ["plugin start-up", () => pluginStartup(options.pluginStarts, log)],
    [RELEASE_COMPARISON, () => releaseFigures(options, log)],
    [INSTALLS_COMPARISON, () => installFigures(options, log)],
    [SMALL_STACK_COMPARISON, () => smallStack(options, log)],
    ["drift across stacks", () => driftStacks(options, log)],
    ["review tools", () => reviewTools({ sizes: options.reviewToolSteps, repetitions: options.reps }, log)],
    [REVIEW_PATH_COMPARISON, () => reviewPath(options, log)],
    [MAP_AT_LIMIT_STEP, () => userRolesMapAtLimit(options, log)],
  ];
  const unfinished: string[] = [
    ...quickSteps.filter(([name]) => runs(name)).map(([name]) => name),
    ...(runs("engine") ? engineSteps : []),
    ...(runs(ALIASES_COMPARISON) ? [ALIASES_COMPARISON] : []),
    ...(runs(LARGE_STACKS_COMPARISON) ? [LARGE_STACKS_COMPARISON] : []),
  ];
  const planned = [...unfinished];
  const file = resultsPath(options.smoke);
  const results = (): BenchResults => ({
    mode: options.smoke ? "smoke" : "full",
    date: new Date().toISOString(),
    machine,
    ran: {
      sizes: sizesDone,
      repetitions: repetitionsDone,
      otherRepetitions: options.reps,
      ruleCounts: options.ruleCounts,
      largeStoreRules: options.largeStoreRules,
      capacitySeconds: options.capacitySeconds,
      writeCostRules: options.writeCostRules,
      writesPerMeasure: options.writesPerMeasure,
      rateLimited: options.rateLimited,
      pluginStarts: options.pluginStarts,
      driftStacks: options.driftStacks,
      reviewToolSteps: options.reviewToolSteps,
      mapAtLimitEntries: options.mapAtLimitEntries,
      secondsPerComparison: timings,
      steps: planned,
      commit,
      loadAverage: { start: round2(loadAtStart), end: round2(os.loadavg()[0]) },
    },
    wallSeconds: Math.round(secondsSince(started)),
    figures,
    notes,
    unfinished,
    ...(sourcesDigest ? { sourcesDigest } : {}),
  });
  // Written after every step and every size: a run stopped early still leaves what it measured.
  const save = () => {
    sourcesDigest = sources.check();
    if (sources.changed && !notes.includes(SOURCES_CHANGED_NOTE)) notes.push(SOURCES_CHANGED_NOTE);
    writeFileSync(file, JSON.stringify(results(), null, 2) + "\n");
  };
  // The entry, or the entry with how far it got ("... (1 of 3 repetitions done)").
  const done = (name: string) => {
    const at = unfinished.findIndex((entry) => entry === name || entry.startsWith(`${name} (`));
    if (at >= 0) unfinished.splice(at, 1);
    save();
  };
  // A comparison that cannot run fails the run, but only at its end: the others still measure (one failed
  // request early in a full run would otherwise cost the hour the later comparisons take).
  const failures: string[] = [];
  const failed = (name: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    failures.push(`${name}: ${message}`);
    notes.push(`${name} could not run: ${message}`);
    log(`[bench] ${name} FAILED: ${error instanceof Error ? (error.stack ?? message) : message}`);
    save();
  };
  const step = async (name: string, measure: () => Promise<Figure[]>) => {
    log(`[bench] ${name} ...`);
    const start = performance.now();
    try {
      figures.push(...stamped(await measure()));
    } catch (error) {
      failed(name, error);
      return;
    }
    timings[name] = Math.round(secondsSince(start));
    log(`[bench] ${name}: ${timings[name]} s`);
    done(name);
  };
  log(`[bench] ${options.smoke ? "smoke" : "full"} run on ${machineLine(machine)}`);

  // The quicker comparisons first, then the stacks from the smallest size up.
  for (const [name, measure] of quickSteps) if (runs(name)) await step(name, measure);
  // The release's and the installs' comparisons, its users, are quick steps.
  await removeReleasedCopy();
  if (runs("engine")) {
    log(`[bench] ${ENGINE_STEP} ...`);
    const engineStart = performance.now();
    const bySize = new Map<number, Figure[]>();
    const quick = [...figures];
    try {
      await engineFloor(options, log, (run: SizeRun) => {
        // After every repetition: this size's figures from all its repetitions so far replace the last ones.
        bySize.set(
          run.n,
          stamped([
            ...engineFloorFigures(run),
            ...apiCallFigures([
              { n: run.n, codesec: run.calls.codesec, native: run.calls.native, http: run.calls.http },
            ]),
            ...nativeFigures(run),
            ...userRolesMapFigures(run),
          ]),
        );
        figures.splice(0, figures.length, ...quick, ...[...bySize.values()].flat());
        if (!sizesDone.includes(run.n)) sizesDone.push(run.n);
        repetitionsDone[`N=${run.n}`] = run.repetitions;
        const step = engineSteps[options.sizes.indexOf(run.n)];
        timings[`N=${run.n}`] = Math.round(secondsSince(engineStart));
        if (run.repetitions < run.plannedRepetitions) {
          const at = unfinished.findIndex((name) => name.startsWith(step));
          unfinished[at] = `${step} (${run.repetitions} of ${run.plannedRepetitions} repetitions done)`;
          save();
          log(`[bench] N=${run.n} rep ${run.repetitions} saved`);
        } else {
          unfinished.splice(
            unfinished.findIndex((name) => name.startsWith(step)),
            1,
          );
          save();
          log(`[bench] N=${run.n} done (${timings[`N=${run.n}`]} s into the stacks)`);
        }
      });
    } catch (error) {
      failed(ENGINE_STEP, error);
    }
  }

  // After the stacks, so that a run of everything has the native provider's figures, which this comparison
  // explains, even if it is stopped during this one's large stacks. Like the engine step, its figures so
  // far are saved after every repetition, and `unfinished` says how many repetitions were done.
  if (runs(ALIASES_COMPARISON)) {
    log(`[bench] ${ALIASES_COMPARISON} ...`);
    const start = performance.now();
    const before = figures.length;
    try {
      await nativeAliases(options, log, (measured, repetitions) => {
        figures.splice(before, figures.length - before, ...stamped(measured));
        timings[ALIASES_COMPARISON] = Math.round(secondsSince(start));
        const at = unfinished.findIndex((entry) => entry.startsWith(ALIASES_COMPARISON));
        if (at >= 0)
          unfinished[at] = `${ALIASES_COMPARISON} (${repetitions} of ${options.reps} repetitions done)`;
        save();
      });
      log(`[bench] ${ALIASES_COMPARISON}: ${timings[ALIASES_COMPARISON]} s`);
      done(ALIASES_COMPARISON);
    } catch (error) {
      failed(ALIASES_COMPARISON, error);
    }
  }

  // Last: settings of a no-change preview at the largest size, on stacks of its own (see bench/largeStacks.ts).
  if (runs(LARGE_STACKS_COMPARISON)) {
    log(`[bench] ${LARGE_STACKS_COMPARISON} ...`);
    const start = performance.now();
    const before = figures.length;
    try {
      await largeStacks(options, log, (measured, repetitions) => {
        figures.splice(before, figures.length - before, ...stamped(measured));
        timings[LARGE_STACKS_COMPARISON] = Math.round(secondsSince(start));
        const at = unfinished.findIndex((entry) => entry.startsWith(LARGE_STACKS_COMPARISON));
        if (at >= 0)
          unfinished[at] = `${LARGE_STACKS_COMPARISON} (${repetitions} of ${options.reps} repetitions done)`;
        save();
      });
      log(`[bench] ${LARGE_STACKS_COMPARISON}: ${timings[LARGE_STACKS_COMPARISON]} s`);
      done(LARGE_STACKS_COMPARISON);
    } catch (error) {
      failed(LARGE_STACKS_COMPARISON, error);
    }
  }

  save();
  console.log(markdownTable(figures));
  for (const note of notes) console.log(`\nNote: ${note}`);
  console.log(
    `\n${options.smoke ? "smoke" : "full"} run, ${results().wallSeconds} s on ${machineLine(machine)}; written to ${file}`,
  );
  if (failures.length > 0) {
    console.error(`[bench] ${failures.length} comparison(s) could not run:\n${failures.join("\n")}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
