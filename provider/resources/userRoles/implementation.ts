/**
 * The calls behind `codesec.UserRoles` (its definition: ./definition.ts): operation 1 per entry that
 * changes, concurrently (the client's rate limiter paces them); operation 8 reads back the caller's own
 * entry. The state's `roles` is always what was applied: a partial failure records exactly the entries
 * that were, so the next `pulumi up` writes only the rest.
 */
import { randomUUID } from "node:crypto";
import { checkerFor, firstSchemaIssue } from "../../../api/schemaIssues";
import { OpaqueId, OrgRole, ORG_ROLES } from "../../../api/schemas/common";
import { CodeSecError } from "../../../sdk";
import { currentUserOf, forgetCurrentUser } from "../../clients";
import { clientOf, platformOfResource, type ProviderContext } from "../../providerContext";
import { ResourceInitError } from "../initFailure";
import { CodeSecResourceError } from "../resourceError";
import type { KindImplementation } from "../kindImplementation";
import { sameValue } from "../lifecycle";
import { formatResourceId } from "../resourceIds";
import { withRotationAdvice } from "../staleCredentials";
import { declaredRoleOf, rememberDeclaredRole } from "../declaredRoles";
import type { UserRolesInputs, UserRolesState } from "./definition";

/** The most users one map may hold: every entry is one request when applied, and all of them live in one state. */
export const MAX_USER_ROLES = 5000;

const TYPE = "codesec:UserRoles";

type Roles = Record<string, UserRolesInputs["roles"][string]>;

/** A write of one entry that failed: the user and what the platform (or the network) said. */
interface FailedWrite {
  readonly userId: string;
  readonly reason: string;
}

/**
 * Thrown when some entries could not be written. The engine records `properties` (with `roles` holding
 * exactly the entries applied) as the state of a resource that failed to initialize, so the next
 * `pulumi up` writes only what is left.
 */
export class UserRolesPartialFailure extends ResourceInitError {
  constructor(
    id: string,
    properties: Omit<UserRolesState, "platform">,
    failed: FailedWrite[],
    applied: number,
  ) {
    const reasons = failed.map(({ userId, reason }) => `user ${userId}: ${reason}`);
    super(
      id,
      properties,
      reasons,
      `${TYPE}: ${failed.length} of ${failed.length + applied} role write(s) failed; the ${applied} that ` +
        `succeeded are recorded, and the next \`pulumi up\` writes only the rest:\n  - ${reasons.join("\n  - ")}`,
    );
  }
}

/**
 * Operation 1 for each entry, concurrently, except the credentials' own entry, which goes last: a change
 * to the caller's own role (a demotion on destroy, say) would otherwise refuse the writes still in flight.
 * Reports which succeeded and which failed (never throws for a write).
 */
async function writeRoles(
  ctx: ProviderContext,
  inputs: UserRolesInputs,
  entries: [string, string][],
): Promise<{ written: Roles; failed: FailedWrite[] }> {
  const written: Roles = {};
  const failed: FailedWrite[] = [];
  if (entries.length === 0) return { written, failed };
  const client = clientOf(ctx, inputs);
  let callerId: string | undefined;
  if (entries.length > 1) {
    try {
      callerId = (await currentUserOf(client)).id;
    } catch (error) {
      // Without knowing who the caller is no order is safe: nothing is written, and the next up tries again.
      const reason = reasonOf(error);
      return { written, failed: entries.map(([userId]) => ({ userId, reason })) };
    }
  }
  const write = async ([userId, role]: [string, string]) => {
    try {
      await client.updateUserRole({ deploymentId: inputs.deploymentId, userId, newRole: role as never });
      written[userId] = role as Roles[string];
    } catch (error) {
      failed.push({ userId, reason: reasonOf(error) });
    }
  };
  await Promise.all(entries.filter(([userId]) => userId !== callerId).map(write));
  const own = entries.find(([userId]) => userId === callerId);
  if (own !== undefined) await write(own);
  // The credentials' own role may have changed: later reads ask the platform again.
  forgetCurrentUser(client);
  const position = new Map(entries.map(([userId], i) => [userId, i]));
  failed.sort((a, b) => position.get(a.userId)! - position.get(b.userId)!);
  return { written, failed };
}

function reasonOf(error: unknown): string {
  return error instanceof CodeSecError || error instanceof Error ? error.message : String(error);
}

/**
 * The role a user removed from the map gets, if any: the user's own in the new inputs
 * (`rolesOnDestroy`), else the user's own in the state (a user is often removed from both maps in one
 * change), else the new inputs' role for all (`roleOnDestroy`; dropping it means "keep the role").
 */
function roleOnRemoval(userId: string, news: UserRolesInputs, olds: UserRolesState): string | undefined {
  return news.rolesOnDestroy?.[userId] ?? olds.rolesOnDestroy?.[userId] ?? news.roleOnDestroy;
}

/** The role a user gets when the resource is destroyed, if any: the user's own, else the one for all. */
function roleOnDestroy(userId: string, state: UserRolesState): string | undefined {
  return state.rolesOnDestroy?.[userId] ?? state.roleOnDestroy;
}

/**
 * Demotes the users leaving (on removal or destroy) who have a role to leave with, except those the same
 * run declares again (a UserRole or another map: provider/resources/declaredRoles.ts).
 */
async function demote(
  ctx: ProviderContext,
  state: UserRolesState,
  leaving: string[],
  onLeaving: (userId: string) => string | undefined,
): Promise<{ demoted: string[]; failed: FailedWrite[] }> {
  const platform = platformOfResource(ctx, state);
  const entries: [string, string][] = [];
  const kept: string[] = [];
  for (const userId of leaving) {
    const role = onLeaving(userId);
    if (role === undefined) continue;
    if (declaredRoleOf(platform, state.deploymentId, userId) !== undefined) kept.push(userId);
    else entries.push([userId, role]);
  }
  if (kept.length > 0) {
    ctx.log(
      "warning",
      `${TYPE}: the role on destroy was not applied to user(s) ${kept.join(", ")} of deployment ` +
        `${state.deploymentId}, because this program declares their roles again; they keep the declared roles.`,
    );
  }
  const { written, failed } = await writeRoles(ctx, state, entries);
  return { demoted: Object.keys(written), failed };
}

export const userRolesImplementation: KindImplementation<UserRolesInputs, UserRolesState> = {
  inputProblems(inputs) {
    const problems: { path: string; reason: string }[] = [];
    const count = Object.keys(inputs.roles).length;
    if (count > MAX_USER_ROLES) {
      problems.push({
        path: "roles",
        reason:
          `roles holds ${count} users, more than the ${MAX_USER_ROLES} one UserRoles may hold; split them ` +
          "over several UserRoles resources (one per team, say).",
      });
    }
    for (const [field, map] of [
      ["roles", inputs.roles],
      ["rolesOnDestroy", inputs.rolesOnDestroy ?? {}],
    ] as const) {
      for (const userId of Object.keys(map)) {
        const issue = firstSchemaIssue(OpaqueId, userId);
        if (issue === undefined) continue;
        const path = `${field}[${JSON.stringify(userId)}]`;
        const rule = issue.rule ?? `must be ${issue.expected}`;
        problems.push({ path, reason: `${path}: a key of ${field} is a user id, which ${rule}` });
      }
    }
    return problems;
  },

  checked(inputs, ctx) {
    // Every user this map declares: no delete of this run demotes one, and no UserRole may declare one too.
    const platform = platformOfResource(ctx, inputs);
    const problems: { path: string; reason: string }[] = [];
    for (const [userId, role] of Object.entries(inputs.roles)) {
      if (declaredRoleOf(platform, inputs.deploymentId, userId)?.by === "UserRole") {
        problems.push({
          path: `roles[${JSON.stringify(userId)}]`,
          reason:
            `user ${userId} of deployment ${inputs.deploymentId} is declared both by a UserRole and by a ` +
            'UserRoles map: manage each user with one of them (docs/resources/UserRoles.md, "Moving users ' +
            'between UserRole and UserRoles").',
        });
      } else {
        rememberDeclaredRole(platform, inputs.deploymentId, userId, { role, by: "UserRoles" });
      }
    }
    return problems;
  },

  async create(inputs, ctx) {
    const id = formatResourceId(inputs.deploymentId, `userroles-${randomUUID()}`);
    const { written, failed } = await writeRoles(ctx, inputs, Object.entries(inputs.roles));
    const state = { ...inputs, roles: written };
    if (failed.length > 0) throw new UserRolesPartialFailure(id, state, failed, Object.keys(written).length);
    return { id, state };
  },

  async update(id, olds, news, plan, ctx) {
    const applied: Roles = { ...olds.roles };
    // Everything again on a move or a re-assertion (new triggers); otherwise only what changed.
    const all = plan.ownership.kind === "moving" || !sameValue(olds.triggers, news.triggers);
    const toWrite = Object.entries(news.roles).filter(([userId, role]) => all || applied[userId] !== role);
    const leaving = Object.keys(applied).filter((userId) => !Object.hasOwn(news.roles, userId));
    const [writes, demotions] = await Promise.all([
      writeRoles(ctx, news, toWrite),
      demote(ctx, olds, leaving, (userId) => roleOnRemoval(userId, news, olds)),
    ]);
    Object.assign(applied, writes.written);
    // A user whose demotion failed stays in the record, so the next `pulumi up` tries again.
    const failedDemotions = new Set(demotions.failed.map((f) => f.userId));
    for (const userId of leaving) if (!failedDemotions.has(userId)) delete applied[userId];
    const state = { ...news, roles: applied };
    const failed = [...writes.failed, ...demotions.failed];
    if (failed.length > 0) {
      const done = Object.keys(writes.written).length + demotions.demoted.length;
      throw new UserRolesPartialFailure(id, state, failed, done);
    }
    return state;
  },

  async read(_id, state, ctx) {
    // The lifecycle refuses an import (the definition's import rule): a refresh always has a state.
    const recorded = state!;
    const me = await withRotationAdvice(() => currentUserOf(clientOf(ctx, recorded)));
    if (!Object.hasOwn(recorded.roles, me.id) || recorded.roles[me.id] === me.orgRole)
      return { state: recorded };
    // Only a known role may reach the state: an unknown one would show as a diff that no update can fix.
    if (!checkerFor(OrgRole).Check(me.orgRole)) {
      throw new CodeSecResourceError(
        `${TYPE}: the platform reports the role ${JSON.stringify(me.orgRole.slice(0, 60))} for user ${me.id}, ` +
          `which is not one of ${ORG_ROLES.join(", ")}; the state was left as it was. A newer pulumi-codesec ` +
          "may know this role; otherwise set the user's role to a known one on the platform.",
      );
    }
    // The caller's own entry, read back: the plan then reads `~ roles["501"]: "read" => "declared"`.
    const refreshed = { ...recorded, roles: { ...recorded.roles, [me.id]: me.orgRole } };
    const { platform: _platform, ...inputs } = refreshed;
    return { state: refreshed, inputs };
  },

  async delete(id, state, ctx) {
    const { failed } = await demote(ctx, state, Object.keys(state.roles), (userId) =>
      roleOnDestroy(userId, state),
    );
    if (failed.length > 0) {
      throw new CodeSecResourceError(
        `${TYPE} ${id}: ${failed.length} role(s) on destroy could not be applied; the resource stays in the ` +
          `stack, and \`pulumi destroy\` tries them again:\n  - ${failed.map((f) => `user ${f.userId}: ${f.reason}`).join("\n  - ")}`,
      );
    }
  },
};
