/**
 * `npm run release` on a warm machine: its script run in a committed copy of this tree
 * (support/releasedCopy.ts), once untimed (npm's, Go's and pip's caches, the copy's first build),
 * then timed for each repetition, as a maintainer runs it again on a tag. With `--allow-stale-performance`:
 * the copy is not the commit docs/performance.md was measured on, and the release's own check of that is
 * a digest, a second or two of the whole. Besides the wall time, the seconds of each of the release's
 * stages, from the times its log lines (`[release] ...`) arrive: where the time goes.
 */
import { releasedCopy, runReleaseScript } from "./support/releasedCopy";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { summarized } from "./support/stats";

export const RELEASE_COMPARISON = "npm run release";

/** One run: its wall seconds and the seconds from each `[release]` stage's line to the next line's. */
interface TimedRun {
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

/** Runs the release script in `copy`, timing it and its stages; a failure throws its output. */
async function timedRelease(copy: string): Promise<TimedRun> {
  const run = await runReleaseScript(copy);
  const marks: { stage: string; at: number }[] = [{ stage: START, at: run.start }];
  for (const { line, at } of run.lines) {
    const stage = stageOf(line);
    if (stage) marks.push({ stage, at });
  }
  const stages = new Map<string, number>();
  marks.forEach((mark, i) => {
    const next = marks[i + 1]?.at ?? run.end;
    stages.set(mark.stage, (stages.get(mark.stage) ?? 0) + (next - mark.at) / 1000);
  });
  return { seconds: (run.end - run.start) / 1000, stages };
}

/** The warm release's wall time and its stages' seconds, over `options.reps` timed runs. */
export async function releaseFigures(options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const copy = await releasedCopy(log);
  const runs: TimedRun[] = [];
  for (let rep = 0; rep < options.reps; rep++) {
    runs.push(await timedRelease(copy));
    log(`[bench] ${RELEASE_COMPARISON}: ${runs.at(-1)!.seconds.toFixed(1)} s`);
  }
  const detail = `${runs.length} timed runs after an untimed one, in a committed copy of the tree`;
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
}
