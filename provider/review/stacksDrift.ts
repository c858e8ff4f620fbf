/**
 * The drift of many stacks in one report (docs/drift.md, "Many stacks"): each stack's refresh read as
 * the single-stack check reads it ({@link driftReport}), compared with the last report the job kept (the
 * baseline), so only drift not reported before is alerted; drift that persists is shown, drift resolved is
 * noted. A stack whose refresh failed is an error of that stack; the others are still reported.
 */
import { redactCommandOutput } from "../../client/redaction";
import {
  DRIFT_ADVICE,
  DRIFT_EXIT,
  DRIFT_TABLE_HEAD,
  driftReport,
  driftRows,
  unseenCount,
  type DriftedResource,
  type DriftReport,
  type UnseenResource,
} from "./driftReport";
import { parseEngineOutput } from "./engineOutput";
import { fittedMarkdown, type Section } from "./markdownBudget";
import { markdownCode, markdownText as text } from "./markdownText";
import type { RefreshRun } from "./stackRefresh";

/** Version of the JSON report (and so of the baseline file, which is a JSON report). */
export const STACKS_DRIFT_VERSION = 1;

export interface StackDriftedResource extends DriftedResource {
  /** Not in the baseline's drift of this stack (or different there): alerted. */
  readonly new: boolean;
}

export interface ResolvedResource {
  readonly kind: string;
  readonly name: string;
  readonly urn: string;
}

export interface StackDrift {
  readonly stack: string;
  /** `none`: no drift; `drift`: some (new or not); `error`: the refresh failed, did not run or did not finish. */
  readonly status: "none" | "drift" | "error";
  readonly drifted: readonly StackDriftedResource[];
  /** Drift of the baseline that the platform no longer shows (empty when the refresh failed). */
  readonly resolved: readonly ResolvedResource[];
  readonly unseen: readonly UnseenResource[];
  readonly errors: readonly string[];
  /** A failed stack's drift as the baseline had it, kept so that the next run compares with it. */
  readonly carriedDrift?: readonly DriftedResource[];
}

/** A stack of the baseline that this run did not check: its drift kept for the run that checks it. */
export interface OtherStack {
  readonly stack: string;
  readonly drifted: readonly DriftedResource[];
}

/** What the stacks of a report belong to: a baseline of another project or backend is refused. */
export interface DriftScope {
  /** The project's name (Pulumi.yaml). */
  readonly project: string;
  /** PULUMI_BACKEND_URL without its credentials; absent: the backend the CLI is logged in to. */
  readonly backend?: string;
}

export interface StacksDriftReport extends DriftScope {
  readonly version: typeof STACKS_DRIFT_VERSION;
  /** Whether a baseline was read: without one, every drift is new. */
  readonly comparedWithBaseline: boolean;
  readonly stacks: readonly StackDrift[];
  /** Stacks of the baseline not checked in this run, kept in this report (the next baseline). */
  readonly otherStacks?: readonly OtherStack[];
  readonly total: {
    readonly stacks: number;
    readonly failed: number;
    readonly drifted: number;
    readonly newDrift: number;
    readonly resolved: number;
  };
  /** 1 a stack failed, else 2 new drift, else 0 (drift that persists included). */
  readonly exitCode: number;
}

/** The baseline: what it covers (absent in a report that did not record it) and its drift, by stack. */
export interface Baseline {
  readonly scope?: DriftScope;
  readonly drift: ReadonlyMap<string, readonly DriftedResource[]>;
}

/** The baseline file is no codesec-drift JSON report. */
export class BaselineError extends Error {}

/** What identifies one drift: the resource, and each drifted field with the platform's value. */
function driftKey(resource: DriftedResource): string {
  return JSON.stringify([
    resource.urn,
    resource.drift,
    resource.fields.map((field) => [field.field, field.platform]),
  ]);
}

/** The drift of a baseline file's text (a JSON report of an earlier run). */
export function parseBaseline(textOfFile: string): Baseline {
  let document: unknown;
  try {
    document = JSON.parse(textOfFile);
  } catch {
    throw new BaselineError("it is not JSON (cut short, or another file)");
  }
  const report = document as Partial<StacksDriftReport> | null;
  if (typeof report !== "object" || report === null || report.version !== STACKS_DRIFT_VERSION) {
    throw new BaselineError(`it is no codesec-drift report of version ${STACKS_DRIFT_VERSION}`);
  }
  if (!Array.isArray(report.stacks)) throw new BaselineError("it has no list of stacks");
  if (report.otherStacks !== undefined && !Array.isArray(report.otherStacks))
    throw new BaselineError("its otherStacks is no list");
  if (
    (report.project !== undefined && typeof report.project !== "string") ||
    (report.backend !== undefined && typeof report.backend !== "string")
  )
    throw new BaselineError("its project or backend is no text");
  const baseline = new Map<string, DriftedResource[]>();
  for (const entry of [...(report.stacks as unknown[]), ...((report.otherStacks ?? []) as unknown[])]) {
    const stack = entry as Partial<StackDrift> | null;
    if (typeof stack?.stack !== "string" || !Array.isArray(stack.drifted)) {
      throw new BaselineError("a stack of it has no name or no list of drifted resources");
    }
    const carried: unknown = stack.carriedDrift ?? [];
    if (!Array.isArray(carried))
      throw new BaselineError(`stack ${stack.stack} of it has a carriedDrift that is no list`);
    const resources: unknown[] = [...(stack.drifted as unknown[]), ...(carried as unknown[])];
    for (const resource of resources as Partial<DriftedResource>[]) {
      if (
        typeof resource?.urn !== "string" ||
        (resource.drift !== "changed" && resource.drift !== "gone") ||
        !Array.isArray(resource.fields)
      ) {
        throw new BaselineError(`a drifted resource of stack ${stack.stack} is not one codesec-drift writes`);
      }
    }
    baseline.set(stack.stack, resources as DriftedResource[]);
  }
  return {
    ...(typeof report.project === "string"
      ? {
          scope: {
            project: report.project,
            ...(report.backend !== undefined ? { backend: report.backend } : {}),
          },
        }
      : {}),
    drift: baseline,
  };
}

/** The first `error:` lines of what the CLI printed, for a refresh that wrote no event log. */
function cliErrors(output: string): string[] {
  const errors = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^error: /.test(line))
    .map((line) => line.replace(/^error: /, ""));
  return [...new Set(errors)].slice(0, 5);
}

/** One stack's drift report from its refresh, whatever the CLI left. */
export function refreshDrift(stack: string, run: RefreshRun): DriftReport {
  let report: DriftReport;
  if (run.events.trim() === "") {
    const said = cliErrors(run.cliOutput);
    report = {
      stack,
      drifted: [],
      unseen: [],
      errors: [
        `the refresh did not run: the Pulumi CLI wrote no event log${said.length > 0 ? "" : " (and no error line)"}`,
        ...said,
      ],
      exitCode: DRIFT_EXIT.error,
    };
  } else {
    try {
      report = { ...driftReport(parseEngineOutput(run.events)), stack };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      report = {
        stack,
        drifted: [],
        unseen: [],
        errors: [`the refresh's event log could not be read: ${message}`],
        exitCode: DRIFT_EXIT.error,
      };
    }
  }
  const ended =
    run.signal !== null
      ? [`the Pulumi CLI was stopped (${run.signal}) before it finished`]
      : run.exitCode !== 0 && report.errors.length === 0
        ? [`the Pulumi CLI exited ${run.exitCode}`, ...cliErrors(run.cliOutput)]
        : [];
  if (ended.length === 0) return report;
  return { ...report, errors: [...report.errors, ...ended], exitCode: DRIFT_EXIT.error };
}

/**
 * The stacks' reports compared with the baseline (none: every drift is new), every error with the
 * secrets and URLs' credentials redacted (a CLI's error may quote its environment and its backend).
 */
export function stacksDrift(
  scope: DriftScope,
  reports: readonly DriftReport[],
  baseline: Baseline | undefined,
  secrets: readonly string[],
): StacksDriftReport {
  const stacks = reports.map((report): StackDrift => {
    const before = baseline?.drift.get(report.stack) ?? [];
    const errors = report.errors.map((error) => redactCommandOutput(error, secrets));
    if (errors.length > 0) {
      return {
        stack: report.stack,
        status: "error",
        drifted: [],
        resolved: [],
        unseen: report.unseen,
        errors,
        ...(before.length > 0 ? { carriedDrift: before } : {}),
      };
    }
    const known = new Set(before.map(driftKey));
    const now = new Set(report.drifted.map((resource) => resource.urn));
    return {
      stack: report.stack,
      status: report.drifted.length > 0 ? "drift" : "none",
      drifted: report.drifted.map((resource) => ({ ...resource, new: !known.has(driftKey(resource)) })),
      resolved: before
        .filter((resource) => !now.has(resource.urn))
        .map(({ kind, name, urn }) => ({ kind, name, urn })),
      unseen: report.unseen,
      errors: [],
    };
  });
  const count = (of: (stack: StackDrift) => number) => stacks.reduce((sum, stack) => sum + of(stack), 0);
  const total = {
    stacks: stacks.length,
    failed: stacks.filter((stack) => stack.status === "error").length,
    drifted: count((stack) => stack.drifted.length),
    newDrift: count((stack) => stack.drifted.filter((resource) => resource.new).length),
    resolved: count((stack) => stack.resolved.length),
  };
  const checked = new Set(reports.map((report) => report.stack));
  const otherStacks = [...(baseline?.drift ?? [])]
    .filter(([stack]) => !checked.has(stack))
    .map(([stack, drifted]) => ({ stack, drifted }));
  return {
    version: STACKS_DRIFT_VERSION,
    project: scope.project,
    ...(scope.backend !== undefined ? { backend: scope.backend } : {}),
    comparedWithBaseline: baseline !== undefined,
    stacks,
    ...(otherStacks.length > 0 ? { otherStacks } : {}),
    total,
    exitCode: total.failed > 0 ? DRIFT_EXIT.error : total.newDrift > 0 ? DRIFT_EXIT.drift : DRIFT_EXIT.none,
  };
}

/** A stack's line in the summary table. */
function stackResult(stack: StackDrift): string {
  if (stack.status === "error") return `❗ the refresh failed (${stack.errors.length} error(s))`;
  const resolved = stack.resolved.length > 0 ? `; ${stack.resolved.length} resolved` : "";
  if (stack.status === "none") return `✅ no drift${resolved}`;
  const fresh = stack.drifted.filter((resource) => resource.new).length;
  const mark = fresh > 0 ? "❌" : "⚠️";
  return `${mark} ${stack.drifted.length} resource(s) differ: ${fresh} new, ${stack.drifted.length - fresh} reported before${resolved}`;
}

function headline(report: StacksDriftReport): string {
  const { total } = report;
  const across = `across ${total.stacks} stack(s)`;
  if (total.failed > 0) {
    // A failure must not hide new drift: its headline counts it too.
    const fresh = total.newDrift > 0 ? `; ${total.newDrift} resource(s) newly differ from the platform` : "";
    return `### ❗ codesec drift check failed for ${total.failed} of ${total.stacks} stack(s)${fresh}`;
  }
  if (total.newDrift > 0)
    return `### ❌ codesec drift ${across}: ${total.newDrift} resource(s) newly differ from the platform`;
  if (total.drifted > 0)
    return `### ⚠️ No new drift ${across}: ${total.drifted} resource(s) still differ, reported before`;
  return `### ✅ No drift ${across}`;
}

/** The sections of one stack's details: its errors, or its drift (new, then reported before) and what resolved. */
function stackSections(stack: StackDrift): Section[] {
  const name = markdownCode(stack.stack);
  if (stack.status === "error") {
    return [
      {
        rowsAre: "errors",
        priority: 0,
        head: [`#### ❗ stack ${name}: the refresh failed`, ""],
        rows: stack.errors.map((error) => `- ${text(error, 1000)}`),
        foot: [""],
      },
    ];
  }
  if (stack.drifted.length === 0 && stack.resolved.length === 0) return [];
  const fresh = stack.drifted.filter((resource) => resource.new);
  const before = stack.drifted.filter((resource) => !resource.new);
  const table = (title: string, resources: readonly DriftedResource[], priority: number): Section[] =>
    resources.length === 0
      ? []
      : [
          {
            rowsAre: "drifted fields",
            priority,
            head: [title, "", ...DRIFT_TABLE_HEAD],
            rows: driftRows(resources),
            foot: [""],
          },
        ];
  return [
    { head: [`#### stack ${name}`, ""] },
    ...table("New drift:", fresh, 0),
    ...table("Reported before (not alerted again):", before, 1),
    ...(stack.resolved.length > 0
      ? [
          {
            rowsAre: "resolved resources",
            priority: 2,
            head: ["Resolved since the last report:", ""],
            rows: stack.resolved.map((resource) => `- ${text(`${resource.kind} "${resource.name}"`)}`),
            foot: [""],
          },
        ]
      : []),
  ];
}

/** The report as Markdown: a headline, a line per stack and the total, then each stack's details. */
export function stacksDriftMarkdown(report: StacksDriftReport): string {
  const { total } = report;
  const unseen = report.stacks.flatMap((stack) => stack.unseen);
  const totalLine =
    `Total: ${total.stacks} stack(s), ${total.failed} failed; ${total.drifted} resource(s) differ ` +
    `(${total.newDrift} new); ${total.resolved} resolved` +
    (report.comparedWithBaseline ? "." : " (no baseline: every drift counts as new).");
  return fittedMarkdown([
    { head: [headline(report), ""] },
    {
      rowsAre: "stacks",
      priority: 0,
      head: ["| stack | result |", "|---|---|"],
      rows: report.stacks.map((stack) => `| ${text(stack.stack)} | ${stackResult(stack)} |`),
      foot: [""],
    },
    { head: [totalLine, ""] },
    ...report.stacks.flatMap(stackSections),
    ...(total.drifted > 0 ? [{ head: [DRIFT_ADVICE, ""] }] : []),
    {
      head: [
        `Not visible to this check, or only for the token owner's own role: ${unseenCount(unseen)} (docs/drift.md).`,
      ],
    },
  ]);
}

/** The report as JSON (one document; also the baseline of the next run). */
export function stacksDriftJson(report: StacksDriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
