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
import { lowersRole } from "./roleGrants";
import { inputChanged, type ResourceDefinition } from "../resources/definition";
import { RESOURCE_DEFINITIONS, type ResourceKind } from "../resources/registry";
import { COMMENT_LIMIT, fittedMarkdown, type Section } from "./markdownBudget";
import { fencedBlock, markdownCode, markdownText as text } from "./markdownText";
import { SECRET, sameValue, shownFields, shownValue } from "./shownValues";

// String.prototype.localeCompare's order, without building a collator per comparison.
const collate = new Intl.Collator().compare;

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
      return change.before !== undefined && lowersRole(change.before, change.after)
        ? `${by}: roleOnDestroy demotes the user`
        : `${by}: roleOnDestroy sets the role`;
    case "kept":
      return `${by} without roleOnDestroy: **the user keeps the role**`;
    case "demotion-skipped":
      return `${by}: its roleOnDestroy (${text(change.roleOnDestroy?.before ?? "")}) is not applied, because this plan declares the user again`;
  }
}

/** Access changes in the order the comment lists them: by deployment, user, then resource. */
function byUser(changes: readonly AccessChange[]): AccessChange[] {
  return [...changes].sort(
    (a, b) =>
      collate(a.deploymentId, b.deploymentId) || collate(a.userId, b.userId) || collate(a.name, b.name),
  );
}

/** The access table and the warnings of users touched twice; `rows` in the order of {@link byUser}. */
function accessSections(rows: readonly AccessChange[]): Section[] {
  if (rows.length === 0) return [];
  const table: Section = {
    rowsAre: "access changes",
    priority: 2,
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
    : [table, { rowsAre: "warnings of users touched twice", priority: 2, head: [], rows: twice, foot: [""] }];
}

/** One user's role before the run and the role the plan ends with, over every resource that touches it. */
interface NetRole {
  readonly userId: string;
  readonly deploymentId: string;
  readonly before?: AccessChange["before"];
  readonly after: AccessChange["after"];
  /** The changes of this user, in the order of {@link byUser}. */
  readonly changes: readonly AccessChange[];
}

const DECLARES = new Set(["granted", "changed", "role-on-destroy-changed", "demotion-skipped"]);

/**
 * Each user's net role: a resource that declares the user decides the role it ends with, else a
 * roleOnDestroy applied, else the user keeps the role it had; `changes` in the order of {@link byUser}.
 */
function netRoles(changes: readonly AccessChange[]): NetRole[] {
  const byKey = new Map<string, AccessChange[]>();
  for (const change of changes) {
    const key = `${change.deploymentId}/${change.userId}`;
    const list = byKey.get(key);
    if (list) list.push(change);
    else byKey.set(key, [change]);
  }
  return [...byKey.values()].map((list) => {
    const before = list.find((change) => change.before !== undefined)?.before;
    const deciding =
      list.find((change) => DECLARES.has(change.reason)) ??
      list.find((change) => change.reason === "demoted");
    return {
      userId: list[0].userId,
      deploymentId: list[0].deploymentId,
      before,
      after: deciding?.after ?? before ?? list[0].after,
      changes: list,
    };
  });
}

/** How a user's net role reads at the top, with the resource that makes it; undefined: nothing to flag. */
interface Removal {
  /** The line when it is the only one of its resource. */
  readonly line: string;
  /** Its resource, its kind of line and, for several users of one resource, the line that counts them. */
  readonly urn?: string;
  readonly group?: string;
  readonly count?: (n: number) => string;
}

/**
 * A user's role lowered, changed sideways, raised by a deletion or left in place by an entry removed:
 * what a reviewer must not miss. The role compared is the one the whole plan ends with, since several
 * resources may touch the user.
 */
function removalOf(net: NetRole): Removal | undefined {
  const user = `user ${text(net.userId)} of deployment ${text(net.deploymentId)}`;
  const removes = net.changes.some(
    (change) =>
      change.reason === "kept" || change.reason === "demoted" || change.reason === "demotion-skipped",
  );
  const by = net.changes.map(doneBy).join(", ");
  const only = new Set(net.changes.map((change) => change.urn)).size === 1 ? net.changes[0] : undefined;
  const counted = (what: string) =>
    only === undefined
      ? {}
      : {
          urn: only.urn,
          group: `${only.urn}\n${what}`,
          count: (n: number) => `- ${doneBy(only)}: ${n.toLocaleString("en-US")} entries ${what}`,
        };
  if (net.changes.every((change) => change.reason === "kept")) {
    const what = "removed; without roleOnDestroy the users keep their roles on the platform";
    return {
      line: `- ${user}: removed from ${by}; without roleOnDestroy the user keeps ${text(net.after)} on the platform`,
      ...counted(what),
    };
  }
  if (net.before === undefined || net.before === net.after) return undefined;
  const roleOnDestroy = only?.reason === "demoted" ? " (its roleOnDestroy)" : "";
  const move = `${text(net.before)} → ${text(net.after)}`;
  if (lowersRole(net.before, net.after)) {
    return {
      line: `- ${user}: ${move}, lowered by ${by}${roleOnDestroy}`,
      ...counted(`lowered (${move})${roleOnDestroy}`),
    };
  }
  if (lowersRole(net.after, net.before)) {
    if (!removes) return undefined;
    return {
      line: `- ${user}: ${move}, raised by ${by}${roleOnDestroy}`,
      ...counted(`raised (${move})${roleOnDestroy}`),
    };
  }
  const sideways = `changed from ${text(net.before)} to ${text(net.after)}`;
  return {
    line: `- ${user}: ${sideways} by ${by}${roleOnDestroy}`,
    ...counted(`${sideways}${roleOnDestroy}`),
  };
}

/** The removals as lines: several users of one resource with the same kind of line make one line that counts them. */
function removalLines(removals: readonly Removal[]): string[] {
  const sizes = new Map<string, number>();
  for (const removal of removals) {
    if (removal.group !== undefined) sizes.set(removal.group, (sizes.get(removal.group) ?? 0) + 1);
  }
  const written = new Set<string>();
  return removals.flatMap((removal) => {
    const size = removal.group === undefined ? 1 : sizes.get(removal.group)!;
    if (size === 1) return [removal.line];
    if (written.has(removal.group!)) return [];
    written.add(removal.group!);
    return [removal.count!(size)];
  });
}

/**
 * Deletions and demotions, named at the top of the comment: roles lowered or changed, role entries
 * removed (one line per resource when it removes several), then every resource deleted or replaced that
 * no line above names already; `changes` in the order of {@link byUser}.
 */
function deletionsSection(steps: readonly Step[], changes: readonly AccessChange[]): Section[] {
  const removals = netRoles(changes).flatMap((net) => {
    const removal = removalOf(net);
    return removal === undefined ? [] : [{ removal, urns: net.changes.map((change) => change.urn) }];
  });
  const named = new Set(removals.flatMap((item) => item.urns));
  const resources = steps
    .filter((step) => (step.op === "delete" || step.op === "replace") && !named.has(step.urn))
    .map(
      (step) =>
        `- ${label(step)} ${text(WHAT_STEP_DOES[step.op])}` +
        (step.op === "replace" && step.replaceReasons.length > 0
          ? ` (replace: ${text(step.replaceReasons.join(", "))})`
          : ""),
    );
  const rows = [...removalLines(removals.map((item) => item.removal)), ...resources];
  if (rows.length === 0) return [];
  return [
    {
      rowsAre: "deletions and demotions",
      // After the errors and policy violations: a plan of many deletions must not push them out.
      priority: 1,
      head: [`#### ⚠️ Deletions and demotions (${rows.length.toLocaleString("en-US")})`, ""],
      rows,
      foot: [""],
    },
  ];
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

/**
 * Steps in a stable order (the engine's order varies from run to run): by operation, then name; each
 * step's sort key made once, since a plan may hold tens of thousands.
 */
function inOrder(steps: readonly Step[]): Step[] {
  const rank = (step: Step) => (OP_ORDER.includes(step.op) ? OP_ORDER.indexOf(step.op) : OP_ORDER.length);
  return steps
    .map((step) => ({ step, rank: rank(step), label: labelText(step) }))
    .sort((a, b) => a.rank - b.rank || collate(a.label, b.label))
    .map(({ step }) => step);
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
          priority: 3,
          head: [`<details><summary>Workflow provisioning (${lines.length})</summary>`, ""],
          rows: lines,
          foot: ["", "</details>", ""],
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
          priority: 3,
          head: [`<details><summary>Webhooks and SCM apps (${lines.length})</summary>`, ""],
          rows: lines,
          foot: ["", "</details>", ""],
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
      priority: 4,
      head: ["<details><summary>Raw diff</summary>", "", open],
      rows: rest.slice(0, -1),
      foot: [rest[rest.length - 1], "", "</details>", ""],
    },
  ];
}

/** The heading of every summary, and of the note that replaces one when the review fails. */
export function summaryTitle(stack?: string): string {
  return `### codesec: what this change does${stack ? ` to stack ${markdownCode(stack)}` : ""}`;
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
  const title = summaryTitle(stack);
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
  // Sorted once for both sections that list them.
  const changes = byUser(accessChanges(steps));
  const headline =
    incompleteRun(output, counts.join(", ")) ??
    `${counts.length > 0 ? counts.join(", ") : "No change to codesec resources"}. ${verdict(output)}`;
  return fittedMarkdown(
    [
      { head: [title, "", headline, ""] },
      ...deletionsSection(steps, changes),
      ...accessSections(changes),
      ...provisioningSection(steps),
      ...scmSection(steps),
      ...policySection(output),
      ...errors,
      ...rawDiff(steps),
    ],
    limit,
  );
}
