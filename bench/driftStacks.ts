/**
 * Drift across many stacks: `codesec-drift --stack ...` over S stacks of R dynamic `codesec.UserRole`s each
 * (bench/programs/roles, one project folder, one state backend), through the real Pulumi CLI, with the
 * default concurrency limit against the same refreshes one after the other (--concurrency 1),
 * interleaved repetition by repetition; with the most refreshes seen running at once.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { performance } from "node:perf_hooks";
import { startEmulator } from "../emulator/index";
import { DEFAULT_CONCURRENCY, driftMain } from "../provider/review/commands";
import { cliRefresh, projectName, projectStacks } from "../provider/review/stackRefresh";
import type { StacksDriftReport } from "../provider/review/stacksDrift";
import { createStack, stackStateOf } from "../tests/e2e/support/harness";
import { benchFixtures } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import { median, pairedRatios, secondsSince, summarized } from "./support/stats";

export const DRIFT_STACKS_COMPARISON = "drift across stacks";

interface Check {
  seconds: number;
  maxRunning: number;
}

/** One `codesec-drift` over every stack at `limit`, timed, counting the refreshes running at once. */
async function check(
  stacks: readonly string[],
  dir: string,
  env: NodeJS.ProcessEnv,
  limit: number,
): Promise<Check> {
  const refresh = cliRefresh(dir, env);
  let running = 0;
  let maxRunning = 0;
  let stdout = "";
  let stderr = "";
  const start = performance.now();
  const code = await driftMain(
    [...stacks.flatMap((stack) => ["--stack", stack]), "--concurrency", String(limit), "--format", "json"],
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), stdin: () => "" },
    env,
    {
      project: projectName(dir),
      listStacks: () => projectStacks(dir, env, projectName(dir)),
      refresh: async (stack) => {
        maxRunning = Math.max(maxRunning, ++running);
        try {
          return await refresh(stack);
        } finally {
          running--;
        }
      },
    },
  );
  const seconds = secondsSince(start);
  const report = JSON.parse(stdout) as StacksDriftReport;
  if (code !== 0 || report.total.stacks !== stacks.length) {
    throw new Error(
      `codesec-drift exited ${code} over ${report.total.stacks} stack(s): ${stderr}${stdout.slice(0, 2000)}`,
    );
  }
  return { seconds, maxRunning };
}

export async function driftStacks(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const { stacks: count, resources } = options.driftStacks;
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: resources }) });
  try {
    const config = {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "bench:provider": { value: "codesec" },
      "bench:count": { value: String(resources) },
    };
    const first = await benchStack("roles", "drift-0", config);
    const dir = first.workspace.workDir;
    const stacks: Stack[] = [first];
    for (let i = 1; i < count; i++) stacks.push(await createStack(dir, `drift-${i}`, config));
    const applied = performance.now();
    for (const stack of stacks) await stack.up();
    log(`  ${count} stacks of ${resources} UserRoles applied in ${secondsSince(applied).toFixed(0)} s`);
    const { backendUrl, passphrase } = stackStateOf(first);
    const env = { ...process.env, PULUMI_BACKEND_URL: backendUrl, PULUMI_CONFIG_PASSPHRASE: passphrase };
    const names = stacks.map((stack) => stack.name);
    const oneByOne: Check[] = [];
    const atOnce: Check[] = [];
    for (let rep = 0; rep < options.reps; rep++) {
      oneByOne.push(await check(names, dir, env, 1));
      atOnce.push(await check(names, dir, env, DEFAULT_CONCURRENCY));
      log(
        `  rep ${rep + 1}: one after the other ${oneByOne[rep].seconds.toFixed(1)} s, ` +
          `${DEFAULT_CONCURRENCY} at once ${atOnce[rep].seconds.toFixed(1)} s (at most ${atOnce[rep].maxRunning} running)`,
      );
    }
    const size = `${count} stacks × ${resources} UserRoles`;
    const seen = (checks: Check[]) => Math.max(...checks.map((c) => c.maxRunning));
    const sequential = oneByOne.map((c) => c.seconds);
    const concurrent = atOnce.map((c) => c.seconds);
    const speedups = pairedRatios(sequential, concurrent);
    return [
      figure({
        comparison: DRIFT_STACKS_COMPARISON,
        name: `${size}, one after the other (--concurrency 1)`,
        unit: "s",
        ...summarized(sequential),
        detail: `at most ${seen(oneByOne)} refresh running at once`,
      }),
      figure({
        comparison: DRIFT_STACKS_COMPARISON,
        name: `${size}, --concurrency ${DEFAULT_CONCURRENCY} (the default)`,
        unit: "s",
        ...summarized(concurrent),
        detail: `at most ${seen(atOnce)} refreshes running at once`,
      }),
      figure({
        comparison: DRIFT_STACKS_COMPARISON,
        name: `${size}: refreshes running at once at most, --concurrency ${DEFAULT_CONCURRENCY}`,
        unit: "refreshes",
        value: seen(atOnce),
        detail: `the limit respected, in every repetition`,
        target: { op: "<=", value: DEFAULT_CONCURRENCY },
      }),
      figure({
        comparison: DRIFT_STACKS_COMPARISON,
        name: `${size}: one after the other / --concurrency ${DEFAULT_CONCURRENCY}`,
        unit: "x",
        ...summarized(speedups),
        detail: `medians ${median(sequential).toFixed(1)} s and ${median(concurrent).toFixed(1)} s`,
      }),
    ];
  } finally {
    await emulator.close();
  }
}
