/**
 * The reviewer's summary of a plan, in Markdown for a pull-request comment: access changes per user,
 * users touched twice, provisioning writes, webhooks and SCM apps added or removed, policy violations,
 * and the raw diff folded below. Kinds are named as the program names them (`UserRole "max"`), and no
 * secret value is ever printed (./shownValues.ts).
 */
import { accessChanges, touchedTwice, type AccessChange } from "./accessChanges";
import { type EngineOutput, type Step } from "./engineOutput";
import { isStackWide, nameOfUrn, stackOfUrn, typeOfUrn } from "./urn";
import { kindOfType, typeName } from "./kindView";
import { inputChanged, type ResourceDefinition } from "../resources/definition";
import { RESOURCE_DEFINITIONS, type ResourceKind } from "../resources/registry";
import { COMMENT_LIMIT, fittedMarkdown, type Section } from "./markdownBudget";
import { fencedBlock, markdownCode, markdownText as text } from "./markdownText";
import { SECRET, sameValue, shownFields, shownValue } from "./shownValues";

const WHAT_STEP_DOES: Record<string, string> = {
  create: "created",
  update: "updated",
  delete: "deleted",
  replace: "replaced",
  import: "imported",
};

/** How a step's resource reads, as plain text (`UserRole "max"`). */
function labelText(step: Step): string {
  return `${typeName(step.new?.type ?? step.old?.type ?? "")} "${nameOfUrn(step.urn)}"`;
}

/** The same, as Markdown. */
function label(step: Step): string {
  return text(labelText(step));
}

function changeLabel(change: AccessChange): string {
  return text(`${change.kind} "${change.name}"`);
}

function doneBy(change: AccessChange): string {
  return `${changeLabel(change)} ${text(WHAT_STEP_DOES[change.op] ?? change.op)}`;
}

function why(change: AccessChange): string {
  const by = doneBy(change);
  switch (change.reason) {
    case "granted":
      return `${by}: sets the role, whatever the user had`;
    case "changed":
      return by;
    case "role-on-destroy-changed":
      return (
        `${by}: role unchanged; roleOnDestroy ${text(change.roleOnDestroy?.before ?? "(none)")} → ` +
        `${text(change.roleOnDestroy?.after ?? "(none)")}`
      );
    case "demoted":
      return `${by}: roleOnDestroy demotes the user`;
    case "kept":
      return `${by} without roleOnDestroy: **the user keeps the role**`;
    case "demotion-skipped":
      return `${by}: its roleOnDestroy (${text(change.roleOnDestroy?.before ?? "")}) is not applied, because this plan declares the user again`;
  }
}

function accessSections(changes: readonly AccessChange[]): Section[] {
  if (changes.length === 0) return [];
  const rows = [...changes].sort(
    (a, b) =>
      a.deploymentId.localeCompare(b.deploymentId) ||
      a.userId.localeCompare(b.userId) ||
      a.name.localeCompare(b.name),
  );
  const table: Section = {
    rowsAre: "access changes",
    priority: 1,
    head: [
      "#### Access changes",
      "",
      "| user | deployment | before | after | why |",
      "|---|---|---|---|---|",
    ],
    rows: rows.map(
      (change) =>
        `| ${text(change.userId)} | ${text(change.deploymentId)} | ${text(change.before ?? "(not in the stack)")} | ` +
        `${text(change.after)}${change.reason === "kept" ? " (kept)" : ""} | ${why(change)} |`,
    ),
    foot: [""],
  };
  const twice = [...touchedTwice(rows).values()].map((list) => {
    const { userId, deploymentId } = list[0];
    const set = rolesSet(list);
    return (
      `- ⚠️ user ${text(userId)} of deployment ${text(deploymentId)} is touched by ${list.length} resources in this plan ` +
      `(${list.map(doneBy).join(", ")}): ` +
      (set.length > 1
        ? `they set different roles (${set.map((role) => text(role)).join(", ")}) and the engine runs them in parallel unless one ` +
          "depends on the other, so which role the user ends with is not known: declare the user's role once."
        : `check that the user ends with the role you mean (${text(set[0] ?? list[list.length - 1].after)}).`)
    );
  });
  return twice.length === 0
    ? [table]
    : [table, { rowsAre: "warnings of users touched twice", priority: 1, head: [], rows: twice, foot: [""] }];
}

/** The roles the changes of one user set, in order of appearance; a role kept or not demoted sets none. */
function rolesSet(changes: readonly AccessChange[]): string[] {
  const setting = changes.filter(
    (change) => change.reason !== "kept" && change.reason !== "demotion-skipped",
  );
  return [...new Set(setting.map((change) => change.after))];
}

function inputsOf(step: Step): Readonly<Record<string, unknown>> {
  return (step.op === "delete" ? step.old?.inputs : step.new?.inputs) ?? {};
}

/** A field's value for prose, as Markdown: a string as it is, anything else as JSON (secrets hidden). */
function field(step: Step, name: string): string {
  const value = inputsOf(step)[name];
  const shown = shownValue(kindOfType(step.new?.type ?? step.old?.type ?? ""), name, value);
  return text(typeof value === "string" && shown !== SECRET ? value : shown);
}

const OP_ORDER = ["create", "update", "replace", "delete"];

/** Steps in a stable order (the engine's order varies from run to run): by operation, then name. */
function inOrder(steps: readonly Step[]): Step[] {
  const rank = (step: Step) => (OP_ORDER.includes(step.op) ? OP_ORDER.indexOf(step.op) : OP_ORDER.length);
  return [...steps].sort((a, b) => rank(a) - rank(b) || labelText(a).localeCompare(labelText(b)));
}

/** The inputs a step changes, as plain text: `name: old → new`. */
function changedInputs(step: Step): string[] {
  const kind = kindOfType(step.new?.type ?? step.old?.type ?? "");
  const old = step.old?.inputs ?? {};
  const next = step.new?.inputs ?? {};
  return [...new Set([...shownFields(old), ...shownFields(next)])]
    .sort()
    .filter((name) => changed(kind, name, old[name], next[name]))
    .map((name) => `${name}: ${shownValue(kind, name, old[name])} → ${shownValue(kind, name, next[name])}`);
}

/** Whether a field changed: a declared input by the providers' diff rule (its default, its own comparison). */
function changed(kind: ResourceKind | undefined, name: string, old: unknown, next: unknown): boolean {
  const input =
    kind === undefined ? undefined : (RESOURCE_DEFINITIONS[kind] as ResourceDefinition).inputs[name];
  return input === undefined ? !sameValue(old, next) : inputChanged(input, old, next);
}

/** The same, as Markdown for prose. */
function changedInputsText(step: Step): string {
  return changedInputs(step)
    .map((change) => text(change))
    .join("; ");
}

function provisioningSection(steps: readonly Step[]): Section[] {
  const lines = steps
    .filter((step) => kindOfType(step.new?.type ?? step.old?.type ?? "") === "WorkflowProvisioning")
    .flatMap((step) => {
      const where = `filters ${field(step, "filters")}, excludeIds ${field(step, "excludeIds")}`;
      switch (step.op) {
        case "create":
          return [
            `- ${label(step)} created: writes the CI workflow into the repositories of ${where}, with ghaOptions ${field(step, "ghaOptions")}`,
          ];
        case "update":
        case "replace":
          return [
            `- ${label(step)} ${WHAT_STEP_DOES[step.op]}: writes the CI workflow again into the repositories of ${where} ` +
              `(${changedInputsText(step)})`,
          ];
        case "delete":
          return [
            `- ${label(step)} deleted: leaves the stack; the workflow files stay in the repositories (the platform cannot remove them)`,
          ];
        default:
          return [];
      }
    });
  return lines.length > 0
    ? [
        {
          rowsAre: "workflow provisioning lines",
          priority: 2,
          head: ["#### Workflow provisioning", ""],
          rows: lines,
          foot: [""],
        },
      ]
    : [];
}

function scmSection(steps: readonly Step[]): Section[] {
  const lines = steps.flatMap((step) => {
    const kind = kindOfType(step.new?.type ?? step.old?.type ?? "");
    if (kind === "ScmWebhookSubscription") {
      const config = field(step, "configId");
      if (step.op === "create")
        return [`- ${label(step)} created: subscribes SCM configuration ${config} to webhooks`];
      if (step.op === "delete") {
        return [
          `- ${label(step)} deleted: leaves the stack; **the subscription of ${config} stays** (the platform has no unsubscribe)`,
        ];
      }
      if (step.op === "replace" || step.op === "update") {
        return [`- ${label(step)} ${WHAT_STEP_DOES[step.op]}: subscribes again (${changedInputsText(step)})`];
      }
    }
    if (kind === "ScmApp") {
      const request = field(step, "requestId");
      if (step.op === "create") {
        return [
          inputsOf(step).code === undefined
            ? `- ${label(step)} created: adopts the SCM app of request ${request}, already connected`
            : `- ${label(step)} created: connects the SCM app of request ${request} with its one-time code`,
        ];
      }
      if (step.op === "delete")
        return [`- ${label(step)} deleted: leaves the stack; the app stays connected`];
      if (step.op === "replace" || step.op === "update") {
        return [`- ${label(step)} ${WHAT_STEP_DOES[step.op]} (${changedInputsText(step)})`];
      }
    }
    return [];
  });
  return lines.length > 0
    ? [
        {
          rowsAre: "webhook and SCM app lines",
          priority: 2,
          head: ["#### Webhooks and SCM apps", ""],
          rows: lines,
          foot: [""],
        },
      ]
    : [];
}

/** Whether a policy pack ran: an event log of a run with a pack holds its load event. */
function policyPackRan(output: EngineOutput): boolean {
  return output.policyPackLoaded === true || output.violations.length > 0;
}

function policySection(output: EngineOutput): Section[] {
  if (!output.policiesKnown) {
    return [
      {
        head: [
          "#### Policy violations",
          "",
          "Not known: `pulumi preview --json` leaves policy events out; give `codesec-review` the engine's event log (`--events`).",
          "",
        ],
      },
    ];
  }
  if (output.violations.length === 0) return [];
  const rows = [...output.violations]
    .sort(
      (a, b) =>
        Number(b.enforcementLevel === "mandatory") - Number(a.enforcementLevel === "mandatory") ||
        a.policyName.localeCompare(b.policyName) ||
        a.urn.localeCompare(b.urn),
    )
    .map((violation) => {
      const icon = violation.enforcementLevel === "mandatory" ? "❌" : "⚠️";
      const where = isStackWide(violation.urn)
        ? "stack"
        : text(`${typeName(typeOfUrn(violation.urn))} "${nameOfUrn(violation.urn)}"`);
      return `- ${icon} ${text(violation.enforcementLevel)} ${markdownCode(violation.policyName)} (${where}): ${text(violation.message.replace(/\s*\n\s*/g, " "), 1000)}`;
    });
  return [
    { rowsAre: "policy violations", priority: 0, head: ["#### Policy violations", ""], rows, foot: [""] },
  ];
}

/**
 * Why the plan shown is not the whole change, as the headline says it: the run failed (other than on a
 * mandatory violation, which the policy verdict says) or stopped before its end. Undefined: it is whole.
 */
function incompleteRun(output: EngineOutput, counts: string): string | undefined {
  const planned = counts === "" ? "it planned no change to codesec resources" : `it planned ${counts}`;
  const checked =
    !output.policiesKnown || policyPackRan(output) ? "policies were not fully checked" : "no policy pack ran";
  if (output.unfinished) {
    return (
      `❗ The preview did not finish (its event log stops before the end: the run was stopped or killed). ` +
      `Until then ${planned}; ${checked}.`
    );
  }
  const mandatory = output.violations.some((v) => v.enforcementLevel === "mandatory");
  if (output.errors.length > 0 || (output.result === "failed" && !mandatory)) {
    const where = output.errors.length > 0 ? "errors below" : "its error is in the job's log";
    return `❗ The preview failed (${where}). Until then ${planned}; ${checked}.`;
  }
  return undefined;
}

function verdict(output: EngineOutput): string {
  if (!output.policiesKnown) return "Policies: not checked.";
  if (!policyPackRan(output)) return "Policies: not checked: no policy pack ran.";
  const mandatory = output.violations.filter((v) => v.enforcementLevel === "mandatory").length;
  const advisory = output.violations.length - mandatory;
  if (mandatory > 0) {
    const also = advisory > 0 ? ` and ${advisory} advisory` : "";
    return `Policies: ❌ ${mandatory} mandatory${also} violation(s): this change cannot be applied as it is.`;
  }
  if (advisory > 0) return `Policies: ⚠️ ${advisory} advisory violation(s).`;
  return "Policies: ✅ no violation.";
}

const OP_MARK: Record<string, string> = { create: "+", delete: "-", update: "~", replace: "+-" };

function rawDiff(steps: readonly Step[]): Section[] {
  const body = steps.flatMap((step) => {
    const mark = OP_MARK[step.op];
    if (mark === undefined) return [];
    const reasons =
      step.op === "replace" && step.replaceReasons.length > 0
        ? ` (replace: ${step.replaceReasons.join(", ")})`
        : ` (${step.op})`;
    const kind = kindOfType(step.new?.type ?? step.old?.type ?? "");
    const detail =
      step.op === "create" || step.op === "delete"
        ? shownFields(inputsOf(step)).map(
            (name) => `${name}: ${shownValue(kind, name, inputsOf(step)[name])}`,
          )
        : changedInputs(step);
    return [`${mark} ${labelText(step)}${reasons}`, ...detail.map((line) => `    ${line}`)];
  });
  if (body.length === 0) return [];
  const [open, ...rest] = fencedBlock("text", body);
  return [
    {
      rowsAre: "lines of the raw diff",
      priority: 3,
      head: ["<details><summary>Raw diff</summary>", "", open],
      rows: rest.slice(0, -1),
      foot: [rest[rest.length - 1], "", "</details>", ""],
    },
  ];
}

/** The Markdown summary of a preview, within GitHub's limit for a comment. */
export function reviewSummary(output: EngineOutput, limit: number = COMMENT_LIMIT): string {
  const steps = inOrder(
    output.steps.filter(
      (step) => step.op !== "same" && kindOfType(step.new?.type ?? step.old?.type ?? "") !== undefined,
    ),
  );
  const stack = stackOfUrn(output.steps[0]?.urn ?? "");
  const counts = Object.entries(
    steps.reduce<Record<string, number>>((acc, step) => {
      acc[step.op] = (acc[step.op] ?? 0) + 1;
      return acc;
    }, {}),
  ).map(([op, count]) => `${count} to ${text(op)}`);
  const title = `### codesec: what this change does${stack ? ` to stack ${markdownCode(stack)}` : ""}`;
  const errors: Section[] =
    output.errors.length > 0
      ? [
          {
            rowsAre: "errors",
            priority: 0,
            head: ["#### Errors", ""],
            rows: output.errors.map((error) => `- ${text(error, 1000)}`),
            foot: [""],
          },
        ]
      : [];
  if (output.notRun) {
    return fittedMarkdown(
      [
        {
          head: [
            title,
            "",
            "❗ The preview did not run: the Pulumi CLI wrote no plan (its error is in the job's log). Nothing was checked, policies included.",
          ],
        },
        ...(output.errors.length > 0 ? [{ ...errors[0], head: [], foot: [] }] : []),
      ],
      limit,
    );
  }
  const headline =
    incompleteRun(output, counts.join(", ")) ??
    `${counts.length > 0 ? counts.join(", ") : "No change to codesec resources"}. ${verdict(output)}`;
  return fittedMarkdown(
    [
      { head: [title, "", headline, ""] },
      ...accessSections(accessChanges(steps)),
      ...provisioningSection(steps),
      ...scmSection(steps),
      ...policySection(output),
      ...errors,
      ...rawDiff(steps),
    ],
    limit,
  );
}
