/**
 * The figures a bench run produces and how they are written: `bench/results.json` (or
 * `bench/results.smoke.json` for a smoke run) and the markdown table printed at the end of a run and kept
 * in docs/performance.md (scripts/performance-report.ts).
 */

/** A bound a figure should respect. */
export interface Target {
  op: "<=" | ">=" | "==";
  value: number;
}

/** One measured figure. */
export interface Figure {
  /** The comparison it belongs to, e.g. "1 engine floor". */
  comparison: string;
  /** What was measured, e.g. "N=200 preview (create), ours / no-op floor". */
  name: string;
  value: number;
  /** "x" for a ratio, "s", "bytes", "calls", "req/s", "MB", ... */
  unit: string;
  /** The raw figures behind it (medians of both sides, repetitions). */
  detail?: string;
  target?: Target;
  /** Whether `value` respects `target` (absent without a target). */
  met?: boolean;
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
}

/** A figure with `met` filled in from its target. */
export function figure(fields: Omit<Figure, "met">): Figure {
  if (!fields.target || !Number.isFinite(fields.value)) return { ...fields };
  const { op, value } = fields.target;
  const met =
    op === "<=" ? fields.value <= value : op === ">=" ? fields.value >= value : fields.value === value;
  return { ...fields, met };
}

function formatNumber(value: number, unit: string): string {
  if (!Number.isFinite(value)) return "n/a";
  if (unit === "x") return `${value.toFixed(2)}x`;
  if (unit === "s") return `${value.toFixed(2)} s`;
  if (unit === "ms") return `${value.toFixed(1)} ms`;
  if (Number.isInteger(value)) return `${value.toLocaleString("en-US")} ${unit}`;
  return `${value.toFixed(value >= 100 ? 0 : 2)} ${unit}`;
}

/** A figure's value as the table shows it. */
export function formatValue(f: Pick<Figure, "value" | "unit">): string {
  return formatNumber(f.value, f.unit);
}

/** A figure's target as the table shows it ("" without one). */
export function formatTarget(f: Pick<Figure, "target" | "unit">): string {
  return f.target ? `${f.target.op} ${formatNumber(f.target.value, f.unit)}` : "";
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The figures as one markdown table: comparison, figure, measured, target, met, detail. */
export function markdownTable(figures: readonly Figure[]): string {
  const lines = ["| comparison | figure | measured | target | met | detail |", "|---|---|---|---|---|---|"];
  for (const f of figures) {
    const met = f.met === undefined ? "" : f.met ? "yes" : "**no**";
    lines.push(
      `| ${cell(f.comparison)} | ${cell(f.name)} | ${formatValue(f)} | ${cell(formatTarget(f))} | ${met} | ${cell(f.detail ?? "")} |`,
    );
  }
  return lines.join("\n");
}

/** The machine as one line, e.g. "2 x Intel Xeon, 8 GiB, Linux 6.1, Node v22.18.0, Pulumi v3.259.0". */
export function machineLine(m: Machine): string {
  return `${m.cpuCount} x ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}, Pulumi ${m.pulumi}`;
}
