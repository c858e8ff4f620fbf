/**
 * Access changes of a plan, per user: who gains or loses which role, and why, from the steps of the kinds
 * that declare roles. It applies the provider's rules: a delete (or the delete half of a replace) sets the
 * old entry's `roleOnDestroy`, or leaves the role in place without one; and a delete never demotes a user
 * that the same run declares again (docs/resources/UserRole.md).
 */
import type { OrgRole } from "../../api/schemas/common";
import type { Step } from "./engineOutput";
import { nameOfUrn } from "./urn";
import { viewOf } from "./kindView";
import { grantKey, roleGrantsOf, type RoleGrant } from "./roleGrants";

export type AccessChangeReason =
  /** Created (or added to a bulk resource): set to `after`, whatever the user had. */
  | "granted"
  /** Updated in place from `before` to `after`. */
  | "changed"
  /** Only `roleOnDestroy` changed: nothing happens now. */
  | "role-on-destroy-changed"
  /** Deleted or replaced away with a `roleOnDestroy`: demoted to it. */
  | "demoted"
  /** Deleted or replaced away without a `roleOnDestroy`: the role stays on the platform. */
  | "kept"
  /** Deleted with a `roleOnDestroy` that is not applied, because this plan declares the user again. */
  | "demotion-skipped";

export interface AccessChange {
  readonly deploymentId: string;
  readonly userId: string;
  /** The role before the run, as the stack recorded it; absent when the stack did not manage it. */
  readonly before?: OrgRole;
  /** The role after the run. */
  readonly after: OrgRole;
  readonly reason: AccessChangeReason;
  /** `roleOnDestroy` before and after, for `role-on-destroy-changed`. */
  readonly roleOnDestroy?: { readonly before?: OrgRole; readonly after?: OrgRole };
  /** The step's operation and resource. */
  readonly op: string;
  readonly kind: string;
  readonly name: string;
  readonly urn: string;
}

function grantsOf(state: Step["old"]): RoleGrant[] {
  if (!state) return [];
  const view = viewOf(state.type, state.inputs);
  return view ? roleGrantsOf(view) : [];
}

/** The access changes of the plan's steps, in step order; users declared again keep their new role. */
export function accessChanges(steps: readonly Step[]): AccessChange[] {
  const changes: AccessChange[] = [];
  for (const step of steps) {
    const type = step.new?.type ?? step.old?.type ?? "";
    const kind = viewOf(type, {})?.kind;
    if (kind === undefined) continue;
    const at = { op: step.op, kind, name: nameOfUrn(step.urn), urn: step.urn };
    const removes = step.op === "delete" || step.op === "replace" || step.op === "update";
    const adds = step.op === "create" || step.op === "replace" || step.op === "update";
    const before = new Map((removes ? grantsOf(step.old) : []).map((grant) => [grantKey(grant), grant]));
    const after = new Map((adds ? grantsOf(step.new) : []).map((grant) => [grantKey(grant), grant]));
    for (const [key, grant] of after) {
      const old = before.get(key);
      const ids = { deploymentId: grant.deploymentId, userId: grant.userId };
      if (old === undefined) changes.push({ ...ids, after: grant.role, reason: "granted", ...at });
      else if (old.role !== grant.role) {
        changes.push({ ...ids, before: old.role, after: grant.role, reason: "changed", ...at });
      } else if (old.roleOnDestroy !== grant.roleOnDestroy) {
        changes.push({
          ...ids,
          before: old.role,
          after: grant.role,
          reason: "role-on-destroy-changed",
          roleOnDestroy: { before: old.roleOnDestroy, after: grant.roleOnDestroy },
          ...at,
        });
      }
    }
    for (const [key, old] of before) {
      if (after.has(key)) continue;
      const ids = { deploymentId: old.deploymentId, userId: old.userId };
      changes.push(
        old.roleOnDestroy !== undefined
          ? { ...ids, before: old.role, after: old.roleOnDestroy, reason: "demoted", ...at }
          : { ...ids, before: old.role, after: old.role, reason: "kept", ...at },
      );
    }
  }
  // A delete never demotes a user the same run declares (the provider skips its roleOnDestroy).
  const declared = new Map<string, OrgRole>();
  for (const change of changes) {
    if (change.reason === "granted" || change.reason === "changed")
      declared.set(grantKey(change), change.after);
  }
  return changes.map((change) => {
    const role = declared.get(grantKey(change));
    return change.reason === "demoted" && role !== undefined
      ? { ...change, after: role, reason: "demotion-skipped", roleOnDestroy: { before: change.after } }
      : change;
  });
}

/** Users whose role two or more resources touch in the plan: `1001/502` -> its changes. */
export function touchedTwice(changes: readonly AccessChange[]): Map<string, AccessChange[]> {
  const byUser = new Map<string, AccessChange[]>();
  for (const change of changes) {
    const key = grantKey(change);
    const list = byUser.get(key) ?? [];
    list.push(change);
    byUser.set(key, list);
  }
  return new Map([...byUser].filter(([, list]) => new Set(list.map((change) => change.urn)).size > 1));
}
