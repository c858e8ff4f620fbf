/**
 * `npm run release` on a warm machine: its script run in a committed copy of this tree
 * (tests/support/committedCopy.ts), once untimed in a full run (npm's, Go's and pip's caches, the copy's
 * first build), then timed for each repetition, as a maintainer runs it again on a tag. A smoke run, whose
 * figures only show that the comparison runs, leaves out the untimed run: it would repeat the timed one.
 * With `--allow-stale-performance`: the copy is not the commit docs/performance.md was measured on, and the
 * release's own check of that is a digest, a second or two of the whole. Besides the wall time, the seconds of each of the release's
 * stages, from the times its log lines (`[release] ...`) arrive: where the time goes.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { ALLOW_STALE_PERFORMANCE } from "../scripts/release/performanceFreshness";
import { scratchDir } from "../tests/e2e/support/harness";
import { committedCopy } from "../tests/support/committedCopy";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { summarized } from "./support/stats";

export const RELEASE_COMPARISON = "npm run release";

/** One run: its wall seconds and the seconds from each `[release]` stage's line to the next line's. */
interface ReleaseRun {
  seconds: number;
  stages: Map<string, number>;
}

/** What the time before the release's first stage line holds. */
const START = "start and checks (tree, versions, measured sources' digest)";

/**
 * A stage's name from its log line, or undefined for a line that starts none: "[release] npm tarballs" is
 * "npm tarballs", "[release] building 0.5.0 from <sha>" is the build.
 */
function stageOf(line: string): string | undefined {
  if (!line.startsWith("[release] ")) return undefined;
  const text = line.slice("[release] ".length);
  if (text.startsWith("building anyway") || text.startsWith("wrote ")) return undefined;
  return text.startsWith("building ") ? "build (scripts/build.sh)" : text.replace(/ \(.*\)$/, "");
}

/** Runs the release script in `copy` to its end, timing it and its stages; a failure throws its output. */
async function timedRelease(copy: string): Promise<ReleaseRun> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(copy, "scripts/release.ts"), ALLOW_STALE_PERFORMANCE],
    { cwd: copy, stdio: ["ignore", "pipe", "pipe"] },
  );
  const marks: { stage: string; at: number }[] = [{ stage: START, at: start }];
  let output = "";
  createInterface({ input: child.stderr }).on("line", (line) => {
    output += `${line}\n`;
    const stage = stageOf(line);
    if (stage) marks.push({ stage, at: performance.now() });
  });
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const end = performance.now();
  if (code !== 0) throw new Error(`npm run release exited ${code}:\n${output.slice(-4000)}`);
  const stages = new Map<string, number>();
  marks.forEach((mark, i) => {
    const next = marks[i + 1]?.at ?? end;
    stages.set(mark.stage, (stages.get(mark.stage) ?? 0) + (next - mark.at) / 1000);
  });
  return { seconds: (end - start) / 1000, stages };
}

/** The warm release's wall time and its stages' seconds, over `options.reps` timed runs. */
export async function releaseFigures(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const copy = scratchDir("bench-release");
  try {
    committedCopy(copy);
    if (!options.smoke) {
      log(`[bench] ${RELEASE_COMPARISON}: an untimed run first (caches, the copy's first build)`);
      await timedRelease(copy);
    }
    const runs: ReleaseRun[] = [];
    for (let rep = 0; rep < options.reps; rep++) {
      runs.push(await timedRelease(copy));
      log(`[bench] ${RELEASE_COMPARISON}: ${runs.at(-1)!.seconds.toFixed(1)} s`);
    }
    const detail = `${runs.length} timed runs${options.smoke ? "" : " after an untimed one"}, in a committed copy of the tree`;
    return [
      figure({
        comparison: RELEASE_COMPARISON,
        name: "warm `npm run release`, wall time",
        unit: "s",
        ...summarized(runs.map((run) => run.seconds)),
        detail,
      }),
      ...[...runs[0].stages.keys()].map((stage) =>
        figure({
          comparison: RELEASE_COMPARISON,
          name: `of which: ${stage}`,
          unit: "s",
          ...summarized(runs.map((run) => run.stages.get(stage) ?? 0)),
          detail: "from the time its `[release]` line arrives to the next one's",
        }),
      ),
    ];
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
