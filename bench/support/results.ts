/**
 * The figures a bench run produces and how they are written: `bench/results.json` (or
 * `bench/results.smoke.json` for a smoke run) and the markdown table printed at the end of a run and kept
 * in docs/performance.md (scripts/performance-report.ts).
 */
import { BENCH_STEPS } from "./options";

/**
 * The native provider comparison: its stacks' side (bench/engineFloor.ts) and the plugin's start-up
 * (bench/pluginStartup.ts) give its figures.
 */
export const NATIVE_COMPARISON = "native provider";

/** A bound a figure should respect. */
export interface Target {
  op: "<=" | ">=" | "==";
  value: number;
}

/** One measured figure. */
export interface Figure {
  /** The comparison it belongs to, e.g. "engine floor". */
  comparison: string;
  /** What was measured, e.g. "N=200 preview (create), ours / no-op floor". */
  name: string;
  value: number;
  /** "x" for a ratio, "s", "bytes", "calls", "req/s", "MB", ... */
  unit: string;
  /** The raw figures behind it (medians of both sides, repetitions). */
  detail?: string;
  target?: Target;
  /**
   * The lowest and highest of the repetitions' values, when the figure is the median of several (a paired
   * ratio per repetition, a rate per repetition...).
   */
  spread?: { low: number; high: number };
  /** How many repetitions the value and spread come from. */
  repetitions?: number;
  /**
   * Whether the figure respects `target` (absent without a target): with a spread, only when the whole
   * spread does (every repetition), so that a rerun on a quiet machine gives the same verdict.
   */
  met?: boolean;
  /** With a spread and a target: whether the median alone respects the target (met, or the spread crosses it). */
  medianMet?: boolean;
  /** The commit the figure was measured on ("+changes" when the work tree differed) and the load then. */
  measuredAt?: MeasuredAt;
  /**
   * The noise floor beside a ratio: the lowest and highest paired ratio of a side against itself in the
   * same run. A target is met only when the figure clears it (see figure()).
   */
  noise?: Noise;
  /** With a noise floor: whether every repetition clears the target by the noise. */
  clearsNoise?: boolean;
  /** With a noise floor of fewer than NOISE_PAIRS_NEEDED pairs: the verdict is not decided (met is false). */
  undecided?: boolean;
  /**
   * With a noise floor: true when the figure neither clears the target by the noise nor misses it by the
   * noise in every repetition, so the run cannot tell whether it is met (met is false).
   */
  insideNoise?: boolean;
}

/** Where and under what load a figure was measured. */
export interface MeasuredAt {
  commit: string;
  /** The 1-minute load average when the figure's comparison ended. */
  load: number;
}

/** The machine a run measured. */
export interface Machine {
  cpuModel: string;
  cpuCount: number;
  memoryGiB: number;
  os: string;
  node: string;
  pulumi: string;
}

/** What `bench/results.json` holds. */
export interface BenchResults {
  mode: "full" | "smoke";
  date: string;
  machine: Machine;
  /** Sizes and repetitions that ran. */
  ran: Record<string, unknown>;
  wallSeconds: number;
  figures: Figure[];
  /** Comparisons that could not run in full, and why. */
  notes: string[];
  /**
   * The digest of the sources measured (scripts/measuredSources.ts); absent when the figures come from runs
   * of different sources, or from runs that did not record it.
   */
  sourcesDigest?: string;
  /**
   * The steps of the run not finished when these results were written (results are written after every
   * step and every stack size, so that a run stopped early still publishes what it measured); absent or
   * empty for a whole run.
   */
  unfinished?: string[];
}

/** Noise pairs a noise floor needs before a figure beside it is judged against its target. */
export const NOISE_PAIRS_NEEDED = 3;

/** A noise floor: the lowest and highest paired ratio of a side against itself, and how many pairs. */
export interface Noise {
  low: number;
  high: number;
  /** Paired ratios behind low and high; fewer than NOISE_PAIRS_NEEDED decide nothing. */
  pairs?: number;
}

/**
 * The noise band a ratio is judged with: the measured band made symmetric around 1, as wide below as
 * above. A side against itself measures r and 1/r alike (which side is paired first is arbitrary), so a
 * band of 1.02x to 1.14x means a ratio can read as low as 1/1.14 = 0.877x of what it is.
 */
export function symmetricNoise(noise: Noise): { low: number; high: number } {
  return { low: Math.min(noise.low, 1 / noise.high), high: Math.max(noise.high, 1 / noise.low) };
}

/** Whether the noise floor rests on enough pairs to judge a figure by. */
function noiseKnown(noise: Noise): boolean {
  return (noise.pairs ?? 0) >= NOISE_PAIRS_NEEDED;
}

/**
 * Whether every value of `values` respects a `<=` or `>=` target even if the machine's noise made it look
 * better than it is: a measured ratio r may stand for anything from r / high to r / low of the symmetric
 * band. An `==` target has no noise margin.
 */
function clearsNoiseFloor(values: number[], target: Target, noise: Noise): boolean {
  const band = symmetricNoise(noise);
  if (target.op === "<=") return values.every((x) => x <= target.value * band.low);
  if (target.op === ">=") return values.every((x) => x >= target.value * band.high);
  return true;
}

/**
 * Whether every value of `values` misses a `<=` or `>=` target even if the machine's noise made it look
 * worse than it is. An `==` target has no noise margin.
 */
function missesNoiseFloor(values: number[], target: Target, noise: Noise): boolean {
  const band = symmetricNoise(noise);
  if (target.op === "<=") return values.every((x) => x > target.value * band.high);
  if (target.op === ">=") return values.every((x) => x < target.value * band.low);
  return true;
}

/** Whether `x` respects `target`. */
function respects(x: number, target: Target): boolean {
  return target.op === "<=" ? x <= target.value : target.op === ">=" ? x >= target.value : x === target.value;
}

/** The figure's median and, with a spread, its lowest and highest repetitions. */
function valuesOf(f: Pick<Figure, "value" | "spread">): number[] {
  return f.spread ? [f.value, f.spread.low, f.spread.high] : [f.value];
}

/** A figure with `met` filled in from its target (and its noise floor, when it has one). */
export function figure(
  fields: Omit<Figure, "met" | "medianMet" | "clearsNoise" | "undecided" | "insideNoise">,
): Figure {
  const target = fields.target;
  if (!target || !Number.isFinite(fields.value)) return { ...fields };
  if (fields.noise && target.op !== "==" && !noiseKnown(fields.noise))
    return { ...fields, met: false, undecided: true };
  const medianMet = respects(fields.value, target);
  const values = valuesOf(fields);
  const inside = values.every((x) => respects(x, target));
  const clearsNoise = fields.noise ? clearsNoiseFloor(values, target, fields.noise) : undefined;
  const insideNoise =
    clearsNoise === false && fields.noise && !missesNoiseFloor(values, target, fields.noise);
  const noise = clearsNoise === undefined ? {} : { clearsNoise, ...(insideNoise ? { insideNoise } : {}) };
  if (!fields.spread) return { ...fields, met: medianMet && clearsNoise !== false, ...noise };
  return { ...fields, met: inside && clearsNoise !== false, medianMet, ...noise };
}

/** A stored figure judged again by figure(), so that a page follows today's rules, not those of its run. */
export function judged(f: Figure): Figure {
  const { met, medianMet, clearsNoise, undecided, insideNoise, ...fields } = f;
  void [met, medianMet, clearsNoise, undecided, insideNoise];
  return figure(fields);
}

/**
 * "met", "not met", "not met (median inside the target, spread crosses it)", "inside the noise floor:
 * cannot tell (...)" when the repetitions neither clear nor miss the target by the noise, or "not
 * decided: noise floor unknown (...)" when the noise floor has too few pairs.
 */
export function verdictOf(
  f: Pick<
    Figure,
    | "met"
    | "medianMet"
    | "noise"
    | "clearsNoise"
    | "undecided"
    | "insideNoise"
    | "spread"
    | "value"
    | "target"
  >,
): string {
  if (f.met === undefined) return "";
  if (f.undecided)
    return `not decided: noise floor unknown (${f.noise?.pairs ?? 0} noise pairs, ${NOISE_PAIRS_NEEDED} needed)`;
  if (f.met) return "met";
  if (f.insideNoise && f.noise) {
    const band = symmetricNoise(f.noise);
    const measured = `${f.noise.low.toFixed(2)}x to ${f.noise.high.toFixed(2)}x`;
    const taken = `${band.low.toFixed(2)}x to ${band.high.toFixed(2)}x`;
    return `inside the noise floor: cannot tell (a side against itself: ${measured}${taken === measured ? "" : `, taken as ${taken}`})`;
  }
  return f.medianMet ? "not met: the median is inside the target, the spread crosses it" : "not met";
}

function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return "n/a";
  if (unit === "x") return `${value.toFixed(2)}x`;
  if (unit === "s") return `${value.toFixed(2)} s`;
  if (unit === "ms") return `${value.toFixed(1)} ms`;
  if (Number.isInteger(value)) return `${value.toLocaleString("en-US")} ${unit}`;
  return `${value.toFixed(value >= 100 ? 0 : 2)} ${unit}`;
}

/**
 * A number as formatNumber shows it, with one more digit when it would show the target's own value
 * without being it: 0.9016 against "<= 0.90x" reads 0.902x, not a 0.90x marked not met.
 */
function formatAgainst(value: number, unit: string, target: Target | undefined): string {
  const shown = formatNumber(value, unit);
  if (!target || value === target.value || shown !== formatNumber(target.value, unit)) return shown;
  if (unit === "x") return `${value.toFixed(3)}x`;
  if (unit === "s") return `${value.toFixed(3)} s`;
  if (unit === "ms") return `${value.toFixed(2)} ms`;
  return shown;
}

/** A figure's value as the table shows it, with its spread: "1.02x (0.97-1.08x, 3 reps)". */
export function formatValue(f: Pick<Figure, "value" | "unit" | "spread" | "repetitions" | "target">): string {
  const value = formatAgainst(f.value, f.unit, f.target);
  if (!f.spread || !Number.isFinite(f.value) || (f.repetitions ?? 0) < 2) return value;
  const low = formatAgainst(f.spread.low, f.unit, f.target);
  const high = formatAgainst(f.spread.high, f.unit, f.target);
  return `${value} (${low} to ${high}, ${f.repetitions ?? "?"} reps)`;
}

/** A figure's target as the table shows it ("" without one). */
export function formatTarget(f: Pick<Figure, "target" | "unit">): string {
  return f.target ? `${f.target.op} ${formatNumber(f.target.value, f.unit)}` : "";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** Where a figure was measured, as the page and the table show it: "commit 1a2b3c4, load 1.20". */
export function formatMeasuredAt(f: Pick<Figure, "measuredAt">): string {
  return f.measuredAt
    ? `commit ${f.measuredAt.commit}, load ${f.measuredAt.load.toFixed(2)}`
    : "commit and load not recorded";
}

/** The figures as one markdown table: comparison, figure, measured, target, met, where measured, detail. */
export function markdownTable(figures: readonly Figure[]): string {
  const lines = [
    "| comparison | figure | measured | target | met | measured at | detail |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    const met =
      f.met === undefined
        ? ""
        : f.undecided
          ? "**not decided** (noise floor unknown)"
          : f.met
            ? "yes"
            : f.insideNoise
              ? "**cannot tell** (noise)"
              : f.medianMet
                ? "**no** (spread)"
                : "**no**";
    lines.push(
      `| ${cell(f.comparison)} | ${cell(f.name)} | ${formatValue(f)} | ${cell(formatTarget(f))} | ${met} | ${cell(formatMeasuredAt(f))} | ${cell(f.detail ?? "")} |`,
    );
  }
  return lines.join("\n");
}

/** The steps a run planned: its own, or every merged run's. */
function plannedSteps(results: BenchResults): string[] {
  const ran = results.ran as { steps?: string[]; runs?: { ran: { steps?: string[] } }[] };
  const runs = ran.runs?.map((run) => run.ran) ?? [ran];
  return runs.flatMap((one) => one.steps ?? []);
}

/**
 * Why `results` cannot stand for a release's figures, or undefined when they can: only a full run (or
 * runs merged from full runs of the same sources) that finished every step of BENCH_STEPS measures what a
 * release publishes; a smoke run, a BENCH_ONLY run of some steps or a run stopped early does not.
 */
export function notReleaseMeasurement(results: BenchResults): string | undefined {
  if (results.mode !== "full") return `a ${results.mode} run, not a full one`;
  if (!results.sourcesDigest) return "its runs recorded no one digest of the sources they measured";
  const unfinished = results.unfinished ?? [];
  if (unfinished.length > 0) return `steps not finished: ${unfinished.join("; ")}`;
  // The stacks' steps are named with their size ("engine at N=200").
  const planned = new Set(plannedSteps(results).map((step) => step.replace(/ at N=\d+$/, "")));
  const missing = BENCH_STEPS.filter((step) => !planned.has(step));
  if (missing.length > 0) return `steps not run: ${missing.join(", ")}`;
  return undefined;
}

const NOT_RELEASE_LINE = "Measured sources: no release can take these figures: ";

/**
 * The line of docs/performance.md that names the measured sources' digest when the results are a
 * release's measurement (notReleaseMeasurement), or says why they are not.
 */
export function sourcesDigestLine(results: BenchResults): string {
  const why = notReleaseMeasurement(results);
  return why === undefined
    ? `Measured sources: \`${results.sourcesDigest}\` (scripts/measuredSources.ts; \`npm run release\` requires its own).`
    : `${NOT_RELEASE_LINE}${why}.`;
}

/** The measured sources' digest a page names (see sourcesDigestLine), if it names one. */
export function publishedSourcesDigest(page: string): string | undefined {
  return /^Measured sources: `(sha256:[0-9a-f]{64})`/m.exec(page)?.[1];
}

/** Why a page's figures are no release's measurement, as it says (see sourcesDigestLine), if it says so. */
export function publishedNotReleaseMeasurement(page: string): string | undefined {
  const line = page.split("\n").find((text) => text.startsWith(NOT_RELEASE_LINE));
  return line?.slice(NOT_RELEASE_LINE.length).replace(/\.$/, "");
}

/** The machine as one line, e.g. "2 x Intel Xeon, 8 GiB, Linux 6.1, Node v22.18.0, Pulumi v3.259.0". */
export function machineLine(m: Machine): string {
  return `${m.cpuCount} x ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, Pulumi ${m.pulumi}`;
}
