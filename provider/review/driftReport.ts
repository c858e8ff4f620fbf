/**
 * The drift report of a `pulumi refresh --preview-only` (read from the engine's event log): which
 * resources the platform no longer matches, field by field (the state's value and the platform's), which
 * ones left the platform, and what the platform cannot show at all (docs/drift.md), as Markdown for a CI
 * job summary or JSON for tools.
 */
import { type EngineOutput, type Step } from "./engineOutput";
import { nameOfUrn, stackOfUrn } from "./urn";
import { kindOfType } from "./kindView";
import { RESOURCE_DEFINITIONS } from "../resources/registry";
import type { RefreshBlindSpot, ResourceDefinition } from "../resources/definition";
import { fittedMarkdown, type Section } from "./markdownBudget";
import { markdownCode, markdownText as text } from "./markdownText";
import { maskedValue, sameValue, shownFields, shownValue } from "./shownValues";
import { splitRotationAdvice } from "../resources/staleCredentials";

/** Exit codes of `codesec-drift`. */
export const DRIFT_EXIT = { none: 0, error: 1, drift: 2 } as const;

export interface DriftedField {
  readonly field: string;
  /** The value the stack's state recorded (secrets as `[secret]`; absent: none). */
  readonly state: unknown;
  /** The value the platform has now. */
  readonly platform: unknown;
}

export interface DriftedResource {
  readonly kind: string;
  readonly name: string;
  readonly urn: string;
  /** `changed`: fields differ; `gone`: the platform no longer has it (the refresh removes it from the stack). */
  readonly drift: "changed" | "gone";
  readonly fields: readonly DriftedField[];
}

/** A resource whose drift the platform cannot show, or shows only in one case, and why. */
export interface UnseenResource {
  readonly kind: string;
  readonly name: string;
  readonly urn: string;
  readonly why: string;
  /**
   * `none`: the platform reads nothing back; `ownRoleOnly`: a UserRole, read back only when its user is the
   * token's owner, which the event log does not say (a role read back and unchanged looks like one not read).
   */
  readonly visibility: Visibility;
}

export type Visibility = RefreshBlindSpot["visibility"];

export interface DriftReport {
  readonly stack: string;
  readonly drifted: readonly DriftedResource[];
  readonly unseen: readonly UnseenResource[];
  readonly errors: readonly string[];
  /** 0 no drift, 2 drift, 1 the refresh failed or could not be read. */
  readonly exitCode: number;
}

// Outputs that record how a resource was applied, not what the platform has.
const BOOKKEEPING_OUTPUTS = new Set(["appliedApp", "platform", "platformReported"]);

const VISIBILITY_HEADING: Record<Visibility, string> = {
  none: "Not visible to this check (docs/drift.md):",
  ownRoleOnly: "Visible to this check only when it is the token owner's own role (docs/drift.md):",
};

function driftedFields(step: Step): DriftedField[] {
  const kind = kindOfType(step.new?.type ?? step.old?.type ?? "");
  const old = step.old?.outputs ?? {};
  const next = step.new?.outputs ?? {};
  return [...new Set([...shownFields(old), ...shownFields(next)])]
    .sort()
    .filter((field) => !BOOKKEEPING_OUTPUTS.has(field) && !sameValue(old[field], next[field]))
    .map((field) => ({
      field,
      state: maskedValue(kind, field, old[field]),
      platform: maskedValue(kind, field, next[field]),
    }));
}

/** The drift of a refresh's event log. */
export function driftReport(output: EngineOutput): DriftReport {
  const reads = output.steps.filter(
    (step) => step.op === "refresh" && kindOfType(step.old?.type ?? "") !== undefined,
  );
  const drifted: DriftedResource[] = [];
  for (const result of output.refreshed) {
    const kind = kindOfType(result.old?.type ?? result.new?.type ?? "");
    if (kind === undefined) continue;
    const at = { kind, name: nameOfUrn(result.urn), urn: result.urn };
    if (result.op === "delete") drifted.push({ ...at, drift: "gone", fields: [] });
    else if (result.op === "update") {
      const fields = driftedFields(result);
      if (fields.length > 0) drifted.push({ ...at, drift: "changed", fields });
    }
  }
  // A UserRole that drifted was read back (the token owner's own role): the others may not be.
  const seen = new Set(drifted.map((resource) => resource.urn));
  const unseen = reads.flatMap((step) => {
    const kind = kindOfType(step.old?.type ?? "")!;
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
    const unseenAs = seen.has(step.urn) ? undefined : definition.unseenByRefresh;
    return unseenAs ? [{ kind, name: nameOfUrn(step.urn), urn: step.urn, ...unseenAs }] : [];
  });
  // Each resource's 401 carries the token-rotation advice, in its provider's words (stack config, or an
  // explicit Provider's inputs): the report gives each once, after the errors, and identical lines (the
  // steps of one failed lookup) once.
  const split = output.errors.map(splitRotationAdvice);
  const errors = [
    ...new Set(split.map(({ text }) => text)),
    ...new Set(split.flatMap(({ advice }) => advice)),
    ...(output.result === "failed" && output.errors.length === 0 ? ["the refresh failed"] : []),
    ...(output.notRun && output.errors.length === 0
      ? ["the refresh did not run: the Pulumi CLI wrote no result (its error is in the CLI's own output)"]
      : []),
    ...(output.unfinished
      ? ["the refresh did not finish: its event log stops before the end (the run was stopped or killed)"]
      : []),
  ];
  const byName = (a: { kind: string; name: string }, b: { kind: string; name: string }) =>
    a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name);
  drifted.sort(byName);
  unseen.sort(byName);
  return {
    stack: stackOfUrn(output.steps[0]?.urn ?? output.refreshed[0]?.urn ?? ""),
    drifted,
    unseen,
    errors,
    exitCode: errors.length > 0 ? DRIFT_EXIT.error : drifted.length > 0 ? DRIFT_EXIT.drift : DRIFT_EXIT.none,
  };
}

/** What the check cannot see, or sees only for the token owner's own role: a section each, a line per reason. */
export function unseenSections(unseen: readonly UnseenResource[]): Section[] {
  return (Object.keys(VISIBILITY_HEADING) as Visibility[]).flatMap((visibility) => {
    const byWhy = new Map<string, string[]>();
    for (const item of unseen.filter((resource) => resource.visibility === visibility)) {
      const names = byWhy.get(item.why) ?? [];
      names.push(text(`${item.kind} "${item.name}"`));
      byWhy.set(item.why, names);
    }
    if (byWhy.size === 0) return [];
    return [
      {
        rowsAre: "reasons a resource is not visible to this check",
        priority: 1,
        head: [VISIBILITY_HEADING[visibility], ""],
        rows: [...byWhy].map(([why, names]) => `- ${names.join(", ")}: ${why}`),
        foot: [""],
      },
    ];
  });
}

/** How many resources the check cannot see, or sees only when they are the token owner's own role. */
export function unseenCount(unseen: readonly UnseenResource[]): string {
  const none = unseen.filter((resource) => resource.visibility === "none").length;
  const ownRoleOnly = unseen.length - none;
  return [
    `${none} it cannot`,
    ...(ownRoleOnly > 0 ? [`${ownRoleOnly} UserRole(s) only when the token owner's own`] : []),
  ].join(", ");
}

/** The header of the table {@link driftRows} fills. */
export const DRIFT_TABLE_HEAD = ["| resource | field | state | platform |", "|---|---|---|---|"] as const;

/** The drifted resources as rows of a table, a row per field (a resource gone: one row). */
export function driftRows(drifted: readonly DriftedResource[]): string[] {
  return drifted.flatMap((resource) => {
    const name = text(`${resource.kind} "${resource.name}"`);
    return resource.drift === "gone"
      ? [`| ${name} | (all) | present | gone: the next refresh removes it from the stack |`]
      : resource.fields.map(
          (field) =>
            `| ${name} | ${text(field.field)} | ${text(shownValue(undefined, field.field, field.state))} | ` +
            `${text(shownValue(undefined, field.field, field.platform))} |`,
        );
  });
}

/** What a stack's drift is set back with, after its table. */
export const DRIFT_ADVICE =
  "`pulumi up` sets a UserRole's role back; an SCM app cannot be changed back (undo it in the platform's UI, or let `pulumi up` record it).";

/** The report as Markdown: one line when nothing drifted. */
export function driftMarkdown(report: DriftReport): string {
  const stack = report.stack ? ` in stack ${markdownCode(report.stack)}` : "";
  if (report.errors.length > 0) {
    return fittedMarkdown([
      { head: [`### ❗ codesec drift check failed${stack}`, ""] },
      { rowsAre: "errors", head: [], rows: report.errors.map((error) => `- ${text(error, 1000)}`) },
    ]);
  }
  if (report.drifted.length === 0) {
    return `✅ No drift${stack}: the platform matches the state of every resource it can read back (${unseenCount(report.unseen)}: docs/drift.md).\n`;
  }
  const rows = driftRows(report.drifted);
  return fittedMarkdown([
    {
      head: [
        `### ❌ codesec drift${stack}: ${report.drifted.length} resource(s) differ from the platform`,
        "",
      ],
    },
    {
      rowsAre: "drifted fields",
      head: [...DRIFT_TABLE_HEAD],
      rows,
      foot: [""],
    },
    {
      head: [DRIFT_ADVICE, ""],
    },
    ...unseenSections(report.unseen),
  ]);
}

/** The report as JSON (one document). */
export function driftJson(report: DriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
