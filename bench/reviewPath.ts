/**
 * The review path a pull request waits for (docs/review-and-drift.md): `pulumi preview` with the policy
 * pack, its JSON and event log written, then `codesec-review` of them, against a bare `pulumi preview` of
 * the same stack, at each stack size of the run (N dynamic `codesec.UserRole`s, bench/programs/roles, a
 * preview of N creates). Per repetition, in an order that rotates: the bare preview, the check, and the
 * bare preview again (the noise floor: a side against itself in the same run). Target: the check at most
 * 1.3x the bare preview. The pack's own start is measured apart, as the engine starts it (the analyzer
 * launcher that `npm run setup` writes, in the pack's folder, until it prints its port), interleaved with
 * a bare `node -e` start, the least any Node.js process costs on this machine at this load.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator } from "../emulator/index";
import { repoRoot, runPulumi } from "../tests/e2e/support/harness";
import { setUpPolicyTools, type PolicyTools } from "../tests/e2e/support/policyLauncher";
import { interleavedStarts, type PluginForm } from "./pluginStartup";
import { benchFixtures } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";
import { pairedRatios, secondsSince, spreadOf, summarized } from "./support/stats";

export const REVIEW_PATH_COMPARISON = "review path";

/** The target: the check's wall time at most this many times the bare preview's. */
const TARGET_RATIO = 1.3;

/** Every role of the bench program is an admin: the admin count rule reports it, advisory, as a PR would see it. */
const PACK_CONFIG = { "codesec-admin-count": { enforcementLevel: "advisory" } };

/** The sides of a repetition: the bare preview, the check, and the bare preview again (the noise floor). */
const SIDES = ["bare", "check", "bare again"] as const;

/** What one PR check took: the preview with the pack, then codesec-review. */
interface CheckTimes {
  preview: number;
  review: number;
}

async function timedPulumi(
  stack: Stack,
  args: string[],
  what: string,
): Promise<{ seconds: number; output: string }> {
  const start = performance.now();
  const run = await runPulumi(stack, args, "bench-review-path");
  const seconds = secondsSince(start);
  if (run.code !== 0) throw new Error(`${what} exited ${run.code}:\n${run.output.slice(-2000)}`);
  return { seconds, output: run.output };
}

/** A bare preview: N creates, no pack. */
async function barePreview(stack: Stack, n: number): Promise<number> {
  const { seconds, output } = await timedPulumi(stack, ["preview", "--non-interactive"], "bare preview");
  if (!new RegExp(`\\+ ${n + 1} to create`).test(output))
    throw new Error(`bare preview: expected ${n + 1} creates:\n${output.slice(-2000)}`);
  return seconds;
}

/**
 * A PR check as docs/review-and-drift.md runs it: the preview with the pack (JSON and event log), then
 * codesec-review of both, as a user runs its bin. Checks that the pack ran (its advisory violation is in
 * the summary) and that the summary counts the creates.
 */
async function prCheck(
  stack: Stack,
  n: number,
  tools: PolicyTools,
  packConfig: string,
  dir: string,
): Promise<CheckTimes> {
  const events = path.join(dir, "events.jsonl");
  const json = path.join(dir, "preview.json");
  rmSync(events, { force: true });
  const preview = await timedPulumi(
    stack,
    [
      "preview",
      "--non-interactive",
      "--json",
      "--event-log",
      events,
      "--policy-pack",
      tools.pack,
      "--policy-pack-config",
      packConfig,
    ],
    "preview with the policy pack",
  );
  writeFileSync(json, preview.output.slice(preview.output.indexOf("{\n")));
  const start = performance.now();
  const review = spawnSync(
    process.execPath,
    [path.join(repoRoot, "bin", "codesec-review.js"), json, "--events", events],
    {
      encoding: "utf8",
      maxBuffer: 256 * 2 ** 20,
    },
  );
  const reviewSeconds = secondsSince(start);
  if (review.status !== 0) throw new Error(`codesec-review exited ${review.status}: ${review.stderr}`);
  const headline = review.stdout.split("\n")[2] ?? "";
  if (!headline.startsWith(`${n} to create.`) || !/Policies: .*advisory/.test(headline))
    throw new Error(`codesec-review: expected ${n} creates and an advisory violation, got: ${headline}`);
  return { preview: preview.seconds, review: reviewSeconds };
}

/** The pack's start as the engine starts it, and a bare Node.js start, interleaved. */
async function packStart(tools: PolicyTools, starts: number, log: (line: string) => void): Promise<Figure[]> {
  const forms: PluginForm[] = [
    { name: "node -e", command: process.execPath, args: ["-e", "console.log(0)"] },
    {
      name: "policy pack",
      command: path.join(tools.bin, "pulumi-analyzer-policy-codesec-nodejs"),
      // As the engine runs it: in the pack's folder, with the engine's address and the pack's folder.
      args: ["127.0.0.1:9", tools.pack],
      cwd: tools.pack,
    },
  ];
  const times = await interleavedStarts(forms, starts);
  const node = times.get("node -e")!;
  const pack = times.get("policy pack")!;
  log(
    `  policy pack start: ${pack.map((ms) => ms.toFixed(0)).join(", ")} ms; node -e: ${node.map((ms) => ms.toFixed(0)).join(", ")} ms`,
  );
  return [
    figure({
      comparison: REVIEW_PATH_COMPARISON,
      name: "policy pack start, launcher to port",
      unit: "ms",
      ...summarized(pack),
      detail: `the analyzer launcher as the engine starts it, in the pack's folder, to its printed port; ${starts} starts interleaved with node -e`,
    }),
    figure({
      comparison: REVIEW_PATH_COMPARISON,
      name: "bare Node.js start (node -e), to its first line",
      unit: "ms",
      ...summarized(node),
    }),
    figure({
      comparison: REVIEW_PATH_COMPARISON,
      name: "policy pack start / bare Node.js start",
      unit: "x",
      ...summarized(pairedRatios(pack, node)),
      detail: "paired start by start",
    }),
  ];
}

export async function reviewPath(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const tools = setUpPolicyTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), "codesec-bench-review-path-"));
  const packConfig = path.join(dir, "pack-config.json");
  writeFileSync(packConfig, JSON.stringify(PACK_CONFIG));
  const emulator = await startEmulator({
    quiet: true,
    fixtures: benchFixtures({ members: Math.max(...options.sizes) }),
  });
  const figures: Figure[] = [];
  try {
    figures.push(...(await packStart(tools, options.pluginStarts, log)));
    for (const n of options.sizes) {
      const stack = await benchStack(
        "roles",
        `review-path-${n}`,
        {
          ...connectionConfig(emulator.baseUrl, emulator.apiToken),
          "bench:provider": { value: "codesec" },
          "bench:count": { value: String(n) },
        },
        {
          // The launcher first on PATH; the event log (--event-log) is a debug command flag.
          PATH: `${tools.bin}:${process.env.PATH}`,
          PULUMI_DEBUG_COMMANDS: "true",
        },
      );
      // Untimed: the language host's and the pack's first start (file cache, compile cache).
      await barePreview(stack, n);
      await prCheck(stack, n, tools, packConfig, dir);
      const bare: Record<"bare" | "bare again", number[]> = { bare: [], "bare again": [] };
      const checks: CheckTimes[] = [];
      for (let rep = 0; rep < options.reps; rep++) {
        const order = SIDES.map((_, i) => SIDES[(i + rep) % SIDES.length]);
        for (const side of order) {
          if (side === "check") checks.push(await prCheck(stack, n, tools, packConfig, dir));
          else bare[side].push(await barePreview(stack, n));
        }
        log(`[bench] ${REVIEW_PATH_COMPARISON} N=${n}: repetition ${rep + 1} of ${options.reps}`);
      }
      const total = checks.map((c) => c.preview + c.review);
      const noise = pairedRatios(bare["bare again"], bare.bare);
      const at = `N=${n}`;
      figures.push(
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} bare preview`,
          unit: "s",
          ...summarized(bare.bare),
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} PR check (preview with the pack, then codesec-review)`,
          unit: "s",
          ...summarized(total),
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} PR check: seconds above the bare preview`,
          unit: "s",
          ...summarized(total.map((t, i) => t - bare.bare[i])),
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} codesec-review alone`,
          unit: "s",
          ...summarized(checks.map((c) => c.review)),
          detail: "its bin in a Node.js process of its own, on the preview's JSON and event log",
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} noise floor: bare preview against itself`,
          unit: "x",
          ...summarized(noise),
          detail:
            "a second bare preview against the first, paired by repetition: a ratio inside this range is noise",
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} preview with the pack / bare preview`,
          unit: "x",
          ...summarized(
            pairedRatios(
              checks.map((c) => c.preview),
              bare.bare,
            ),
          ),
        }),
        figure({
          comparison: REVIEW_PATH_COMPARISON,
          name: `${at} PR check / bare preview`,
          unit: "x",
          ...summarized(pairedRatios(total, bare.bare)),
          target: { op: "<=", value: TARGET_RATIO },
          noise: { ...spreadOf(noise), pairs: noise.length },
        }),
      );
    }
    return figures;
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
