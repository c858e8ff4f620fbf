/**
 * What the Pulumi CLI writes about a run, read into one form: the steps (`pulumi preview --json`, or the
 * engine's event log) with each resource's state before and after, the policy violations and the errors
 * (the event log only: the CLI's JSON preview leaves policy events out, and a `refresh --preview-only
 * --json` shows no refreshed value of a provider that reports no detailed diff, as dynamic providers do).
 *
 * The event log is what `PULUMI_DEBUG_COMMANDS=true pulumi <command> --event-log <file>` writes: one JSON
 * engine event per line, the format the Automation API reads.
 */

import { MAX_NESTING_DEPTH, nestingIssue } from "../../api/nestingDepth";

/** A resource's state as the CLI prints it: secrets are already hidden (a signature object or "[secret]"). */
export interface ResourceState {
  readonly type: string;
  readonly id?: string;
  readonly inputs: Readonly<Record<string, unknown>>;
  readonly outputs: Readonly<Record<string, unknown>>;
  /**
   * Where the program declared the resource, as the engine records it (`project:///index.ts#12,5`),
   * when the input carries it.
   */
  readonly sourcePosition?: string;
}

/** One step of the plan (`create`, `update`, `delete`, `replace`, `same`, `refresh`, ...). */
export interface Step {
  readonly op: string;
  readonly urn: string;
  readonly old?: ResourceState;
  readonly new?: ResourceState;
  /** The inputs whose change replaces the resource. */
  readonly replaceReasons: readonly string[];
}

/** A policy violation as the engine reports it. */
export interface PolicyViolation {
  readonly policyName: string;
  readonly policyPackName: string;
  readonly enforcementLevel: string;
  /** The violation's own message (the engine's first line, the policy's description, removed). */
  readonly message: string;
  /** The policy's description (the first line of the engine's message), when it gave one. */
  readonly description?: string;
  readonly urn: string;
}

export interface EngineOutput {
  /** The steps before the engine ran them (a preview's plan; a refresh's reads). */
  readonly steps: readonly Step[];
  /** A refresh's results: the state each read returned (the event log only). */
  readonly refreshed: readonly Step[];
  readonly violations: readonly PolicyViolation[];
  /** Whether policy events could be read (an event log) or not (a JSON preview). */
  readonly policiesKnown: boolean;
  /** A policy pack was loaded (the event log of a run with `--policy-pack` holds its load event). */
  readonly policyPackLoaded?: true;
  /** Error diagnostics of the run. */
  readonly errors: readonly string[];
  /** `failed` when the run failed (the event log's summary). */
  readonly result?: string;
  /**
   * The CLI wrote no plan and no result: the run stopped before the engine started (a policy pack that
   * cannot be loaded, a stack that cannot be selected), and its error is only in the CLI's own output.
   * An event log without its summary event or any step, or a JSON preview holding nothing (`{}`).
   */
  readonly notRun?: true;
  /**
   * The run started and stopped before its end (killed, or its log cut short): an event log with steps
   * but without its summary event. What it holds is a part of the run.
   */
  readonly unfinished?: true;
}

/** Input that is neither a JSON preview nor an event log, or that misses what it must hold. */
export class EngineOutputError extends Error {
  override name = "EngineOutputError";
}

type Json = Record<string, unknown>;

/** What stands for a part of a value nested deeper than the reports walk. */
export const TOO_DEEP = `[nested deeper than ${MAX_NESTING_DEPTH} levels]`;

/**
 * The value with every object or array more than {@link MAX_NESTING_DEPTH} levels deep replaced by
 * {@link TOO_DEEP}: the reports walk values recursively (masking secrets, JSON.stringify), and a state
 * can hold values nested far deeper than the call stack allows.
 */
function bounded(value: unknown): unknown {
  if (nestingIssue(value) === undefined) return value;
  const copy = (inner: unknown, level: number): unknown => {
    if (inner === null || typeof inner !== "object") return inner;
    if (level > MAX_NESTING_DEPTH) return TOO_DEEP;
    if (Array.isArray(inner)) return inner.map((item) => copy(item, level + 1));
    return Object.fromEntries(Object.entries(inner).map(([key, item]) => [key, copy(item, level + 1)]));
  };
  return copy(value, 1);
}

// "preview failed" and the like only repeat the run's result.
const RUN_FAILED = /^(preview|update|refresh|destroy) failed$/;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stateOf(value: unknown): ResourceState | undefined {
  if (!isObject(value) || typeof value.type !== "string") return undefined;
  return {
    type: value.type,
    ...(typeof value.id === "string" && value.id !== "" ? { id: value.id } : {}),
    inputs: isObject(value.inputs) ? (bounded(value.inputs) as Json) : {},
    outputs: isObject(value.outputs) ? (bounded(value.outputs) as Json) : {},
    ...(typeof value.sourcePosition === "string" ? { sourcePosition: value.sourcePosition } : {}),
  };
}

function stepOf(op: unknown, urn: unknown, old: unknown, next: unknown, keys: unknown): Step {
  if (typeof op !== "string" || typeof urn !== "string") {
    throw new EngineOutputError("a step without op or urn: is this the output of the Pulumi CLI?");
  }
  const oldState = stateOf(old);
  const newState = stateOf(next);
  return {
    op,
    urn,
    ...(oldState ? { old: oldState } : {}),
    ...(newState ? { new: newState } : {}),
    replaceReasons: Array.isArray(keys) ? keys.filter((key): key is string => typeof key === "string") : [],
  };
}

function fromPreviewJson(document: Json): EngineOutput {
  const steps = Array.isArray(document.steps) ? document.steps : [];
  const errors = (Array.isArray(document.diagnostics) ? document.diagnostics : [])
    .filter((d): d is Json => isObject(d) && d.severity === "error" && typeof d.message === "string")
    .map((d) => (d.message as string).trim().replace(/^error: /, ""))
    .filter((message, index, all) => !RUN_FAILED.test(message) && all.indexOf(message) === index);
  const empty = steps.length === 0 && errors.length === 0 && !("changeSummary" in document);
  return {
    steps: steps.filter(isObject).map((s) => stepOf(s.op, s.urn, s.oldState, s.newState, s.replaceReasons)),
    refreshed: [],
    violations: [],
    policiesKnown: false,
    errors,
    ...(empty ? { notRun: true as const } : {}),
  };
}

// Steps a preview shows as one `replace` (the event log also lists its two halves).
const REPLACE_HALVES = new Set(["create-replacement", "delete-replaced", "discard-replaced"]);

/**
 * The events of an event log. A last line that is not JSON was cut short (the run was killed while the
 * engine wrote it): the log then holds part of a run. Any other line that is not JSON is no event log.
 */
function fromEventLog(lines: string[]): EngineOutput {
  const steps: Step[] = [];
  const refreshed: Step[] = [];
  const violations: PolicyViolation[] = [];
  const errors: string[] = [];
  let result: string | undefined;
  let summarized = false;
  let cut = false;
  let policyPackLoaded = false;
  for (const [index, line] of lines.entries()) {
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      if (index === lines.length - 1 && index > 0) {
        cut = true;
        break;
      }
      throw new EngineOutputError(
        index === 0
          ? "the input is not JSON: neither `pulumi preview --json` output nor an event log (or it is cut short)"
          : `line ${index + 1} of the event log is not JSON`,
      );
    }
    if (!isObject(event)) continue;
    if (isObject(event.policyLoadEvent)) policyPackLoaded = true;
    const pre = event.resourcePreEvent;
    const outputs = event.resOutputsEvent;
    const policy = event.policyEvent;
    const diagnostic = event.diagnosticEvent;
    const summary = event.summaryEvent;
    if (isObject(pre) && isObject(pre.metadata)) {
      const m = pre.metadata;
      if (typeof m.op === "string" && !REPLACE_HALVES.has(m.op))
        steps.push(stepOf(m.op, m.urn, m.old, m.new, m.keys));
    } else if (isObject(outputs) && isObject(outputs.metadata)) {
      const m = outputs.metadata;
      refreshed.push(stepOf(m.op, m.urn, m.old, m.new, m.keys));
    } else if (isObject(policy)) {
      // The engine prefixes the message with the policy's description, on a line of its own.
      const text = typeof policy.message === "string" ? policy.message.trim() : "";
      const newline = text.indexOf("\n");
      violations.push({
        policyName: String(policy.policyName),
        policyPackName: String(policy.policyPackName),
        enforcementLevel: String(policy.enforcementLevel),
        message: newline >= 0 ? text.slice(newline + 1).trim() : text,
        ...(newline > 0 ? { description: text.slice(0, newline).trim() } : {}),
        urn: typeof policy.resourceUrn === "string" ? policy.resourceUrn : "",
      });
    } else if (
      isObject(diagnostic) &&
      diagnostic.severity === "error" &&
      typeof diagnostic.message === "string"
    ) {
      // Steps that share a failure (one failed lookup) report the same line each: keep one.
      const message = diagnostic.message.trim();
      if (!RUN_FAILED.test(message) && !errors.includes(message)) errors.push(message);
    } else if (isObject(summary)) {
      summarized = true;
      if (typeof summary.result === "string") result = summary.result;
    }
  }
  return {
    steps,
    refreshed,
    violations,
    policiesKnown: true,
    errors,
    ...(policyPackLoaded ? { policyPackLoaded: true as const } : {}),
    ...(result ? { result } : {}),
    ...(summarized
      ? {}
      : cut || steps.length + refreshed.length + violations.length > 0
        ? { unfinished: true as const }
        : { notRun: true as const }),
  };
}

/** Reads either a JSON preview (one document with `steps`) or an event log (JSON lines). */
export function parseEngineOutput(text: string): EngineOutput {
  const trimmed = text.trim();
  if (trimmed === "") throw new EngineOutputError("the input is empty: the Pulumi CLI wrote nothing?");
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch {
    const lines = trimmed.split("\n").filter((line) => line.trim() !== "");
    // `pulumi preview --json` prints one indented document: its first line is a lone brace.
    if (lines.length > 0 && lines[0].trim() === "{") {
      throw new EngineOutputError(
        "the JSON preview is cut short (it ends before its closing brace): the run was stopped or killed " +
          "while it wrote it; give its event log alone (--events)",
      );
    }
    return fromEventLog(lines);
  }
  // `{}`: what `pulumi preview --json` prints when the run stops before the engine starts.
  if (
    isObject(document) &&
    ("steps" in document ||
      "changeSummary" in document ||
      "diagnostics" in document ||
      Object.keys(document).length === 0)
  ) {
    return fromPreviewJson(document);
  }
  if (isObject(document)) return fromEventLog([trimmed]);
  throw new EngineOutputError(
    "the input is JSON but neither `pulumi preview --json` output nor an event log",
  );
}
