/**
 * The calls behind `codesec.UserRoles` (its definition: ./definition.ts): setting a user's role per
 * entry that changes, concurrently (the client's rate limiter paces them); getting the current user reads
 * back the caller's own entry. The state's `roles` is always what was applied: a partial failure records
 * exactly the entries that were, so the next `pulumi up` writes only the rest.
 */
import { randomUUID } from "node:crypto";
import { checkerFor, firstSchemaIssue } from "../../../api/schemaIssues";
import { OpaqueId, OrgRole, ORG_ROLES } from "../../../api/schemas/common";
import { UpdateUserRoleArgs } from "../../../api/schemas/users";
import { quotedText } from "../../../api/messageText";
import { CodeSecError } from "../../../client";
import { currentUserOf, forgetCurrentUserAfterRoleWrite } from "../../clients";
import {
  clientOf,
  connectionOf,
  ownershipOfResource,
  platformOfResource,
  verifyConnectionOf,
} from "../../providerContext";
import { CodeSecResourceError, UserRolesPartialFailure } from "../../errors";
import type { KindContext, KindImplementation } from "../kindImplementation";
import { inputChanged } from "../definition";
import { operationArguments } from "../operationArguments";
import { formatResourceId } from "../resourceIds";
import { isPlatformNotFound } from "../platformNotFound";
import { withRotationAdvice } from "../staleCredentials";
import { credentialsDeploymentConfirmed } from "../credentialsDeployment";
import { declaredRoleOf, rememberDeclaredRole, userManagedTwice } from "../declaredRoles";
import type { UserRolesInputs, UserRolesState } from "./definition";

/**
 * The most users one map may hold: every entry is one request when applied, and all of them live in one
 * state.
 */
export const MAX_USER_ROLES = 5000;

type Roles = Record<string, UserRolesInputs["roles"][string]>;

/** One role to write: a user's declared role, or the role on leaving of a user who leaves the map. */
interface RoleWrite {
  readonly userId: string;
  readonly role: string;
  readonly leaving: boolean;
}

/** A write of one user's role that failed: the user and what the platform (or the network) said. */
interface FailedRoleWrite {
  readonly userId: string;
  readonly reason: string;
}

/** What a batch of writes did. */
interface WriteOutcome {
  /** Declared roles that were applied. */
  readonly written: Roles;
  /** Users who left with their role on leaving applied. */
  readonly demoted: string[];
  /** Users who left and are no longer members of the deployment (nothing to demote). */
  readonly gone: string[];
  readonly failed: FailedRoleWrite[];
}

/**
 * `updateUserRole` for each write, concurrently (the client's rate limiter paces them), with the write's
 * user and role and every other argument from the resource's inputs (`props`), except the
 * credentials' own, which goes last in the whole batch: a change to the caller's own role (a demotion, say)
 * would otherwise make the platform refuse the writes still in flight. A leaving user the platform no longer
 * knows (404 from a connection proven to reach the platform) has no role to demote: that counts as done, as
 * for UserRole. Never throws for a write: each failure is reported with its user.
 */
async function writeRoles(
  ctx: KindContext,
  props: UserRolesInputs,
  writes: RoleWrite[],
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { written: {}, demoted: [], gone: [], failed: [] };
  if (writes.length === 0) return outcome;
  const client = clientOf(ctx, props);
  let callerId: string | undefined;
  if (writes.length > 1) {
    try {
      callerId = (await currentUserOf(client)).id;
    } catch (error) {
      // Without knowing who the caller is no order is safe: nothing is written, and the next up tries again.
      const reason = reasonOf(error);
      return { ...outcome, failed: writes.map(({ userId }) => ({ userId, reason })) };
    }
  }
  const write = async ({ userId, role, leaving }: RoleWrite) => {
    try {
      const given = { userId, newRole: role as UpdateUserRoleArgs["newRole"] };
      const step = leaving ? "destroy" : "apply";
      await client.updateUserRole(
        operationArguments(UpdateUserRoleArgs, props, ctx.inputFields, { step, given }),
      );
      if (leaving) outcome.demoted.push(userId);
      else outcome.written[userId] = role as Roles[string];
    } catch (error) {
      let failure = error;
      if (leaving && isPlatformNotFound(error)) {
        try {
          await verifyConnectionOf(ctx, props);
          outcome.gone.push(userId);
          return;
        } catch (verifyError) {
          failure = verifyError;
        }
      }
      outcome.failed.push({ userId, reason: reasonOf(failure) });
    }
  };
  await Promise.all(writes.filter(({ userId }) => userId !== callerId).map(write));
  const own = writes.find(({ userId }) => userId === callerId);
  if (own !== undefined) await write(own);
  // The credentials' own role may have changed, if it was among the writes: later reads ask again.
  for (const { userId } of writes) forgetCurrentUserAfterRoleWrite(client, userId);
  const position = new Map(writes.map(({ userId }, i) => [userId, i]));
  outcome.failed.sort((a, b) => position.get(a.userId)! - position.get(b.userId)!);
  if (outcome.gone.length > 0) {
    ctx.log(
      "warning",
      `${ctx.type}: ${listed(outcome.gone)} no longer member(s) of deployment ${props.deploymentId}, so no role on ` +
        "leaving was applied to them.",
    );
  }
  return outcome;
}

function reasonOf(error: unknown): string {
  return error instanceof CodeSecError || error instanceof Error ? error.message : String(error);
}

/** `user(s) a, b, c` for a warning, with at most 20 ids named (a map may hold thousands). */
function listed(userIds: string[]): string {
  const named = userIds.slice(0, 20).join(", ");
  return `user(s) ${named}${userIds.length > 20 ? ` and ${userIds.length - 20} more` : ""}`;
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
 * The writes for users leaving the map (on removal or destroy) who have a role to leave with, except
 * those the same run declares again (a UserRole or another map: provider/resources/declaredRoles.ts),
 * which keep the declared role, as the output says.
 */
function leavingWrites(
  ctx: KindContext,
  platform: string,
  deploymentId: string,
  leaving: string[],
  onLeaving: (userId: string) => string | undefined,
): RoleWrite[] {
  const writes: RoleWrite[] = [];
  const kept: string[] = [];
  for (const userId of leaving) {
    const role = onLeaving(userId);
    if (role === undefined) continue;
    if (declaredRoleOf(platform, deploymentId, userId) !== undefined) kept.push(userId);
    else writes.push({ userId, role, leaving: true });
  }
  if (kept.length > 0) {
    ctx.log(
      "warning",
      `${ctx.type}: the role on leaving was not applied to ${listed(kept)} of deployment ${deploymentId}, ` +
        "because this program declares their roles again; they keep the declared roles.",
    );
  }
  return writes;
}

/**
 * Whether an input other than the map whose change applies the resource again changed: each write sends
 * it, so every entry is written again.
 */
function appliedBesideRolesChanged(olds: UserRolesState, news: UserRolesInputs, ctx: KindContext): boolean {
  const before = olds as Record<string, unknown>;
  const after = news as Record<string, unknown>;
  return Object.entries(ctx.inputFields).some(
    ([name, field]) =>
      name !== "roles" && field.onChange === "update" && inputChanged(field, before[name], after[name]),
  );
}

export const userRolesImplementation: KindImplementation<UserRolesInputs, UserRolesState> = {
  sentArguments: [UpdateUserRoleArgs],

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
        const path = `${field}[${quotedText(userId)}]`;
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
      // One engine operation checks each resource once: an earlier declaration is another resource's.
      const earlier = declaredRoleOf(platform, inputs.deploymentId, userId);
      if (earlier !== undefined) {
        problems.push({
          ...userManagedTwice(inputs.deploymentId, userId, earlier.by, "UserRoles"),
          path: `roles[${quotedText(userId)}]`,
        });
      } else {
        rememberDeclaredRole(platform, inputs.deploymentId, userId, { role, by: "UserRoles" });
      }
    }
    return problems;
  },

  async create(inputs, ctx) {
    const id = formatResourceId(inputs.deploymentId, `userroles-${randomUUID()}`);
    const { written, failed } = await writeRoles(
      ctx,
      inputs,
      Object.entries(inputs.roles).map(([userId, role]) => ({ userId, role, leaving: false })),
    );
    const state = { ...inputs, roles: written };
    if (failed.length > 0)
      throw new UserRolesPartialFailure(ctx.type, id, state, failed, Object.keys(written).length);
    return { id, state };
  },

  async update(id, olds, news, plan, ctx) {
    const applied: Roles = { ...olds.roles };
    // Everything again on a move, or when an input applied with every entry changed (new triggers, a
    // re-assertion, or another sent input); otherwise only the entries that changed.
    const all = plan.ownership.kind === "moving" || appliedBesideRolesChanged(olds, news, ctx);
    const declared: RoleWrite[] = Object.entries(news.roles)
      .filter(([userId, role]) => all || applied[userId] !== role)
      .map(([userId, role]) => ({ userId, role, leaving: false }));
    const leaving = Object.keys(applied).filter((userId) => !Object.hasOwn(news.roles, userId));
    const roleOfLeaving = new Map(leaving.map((userId) => [userId, roleOnRemoval(userId, news, olds)]));
    const demotions = leavingWrites(ctx, plan.ownership.platform, news.deploymentId, leaving, (userId) =>
      roleOfLeaving.get(userId),
    );
    // One batch (the caller's own write last), on the program's connection: ownership is checked.
    const outcome = await writeRoles(ctx, news, [...declared, ...demotions]);
    Object.assign(applied, outcome.written);
    const rolesOnDestroy: Roles = { ...news.rolesOnDestroy };
    const failedUsers = new Set(outcome.failed.map((f) => f.userId));
    for (const userId of leaving) {
      if (!failedUsers.has(userId)) {
        delete applied[userId];
      } else if (roleOfLeaving.get(userId) !== undefined) {
        // Still in the record, with the role it leaves with, so the next `pulumi up` applies that role.
        rolesOnDestroy[userId] = roleOfLeaving.get(userId) as Roles[string];
      }
    }
    if (all) {
      // A re-assertion or a move that failed for a user: the recorded role may equal the declared one,
      // so only the user's absence from the record makes the next `pulumi up` write it again.
      for (const { userId, leaving: isLeaving } of declared)
        if (!isLeaving && failedUsers.has(userId)) delete applied[userId];
    }
    const state: Omit<UserRolesState, "platform"> = { ...news, roles: applied };
    if (Object.keys(rolesOnDestroy).length > 0) state.rolesOnDestroy = rolesOnDestroy;
    if (outcome.failed.length > 0) {
      const done = Object.keys(outcome.written).length + outcome.demoted.length + outcome.gone.length;
      throw new UserRolesPartialFailure(ctx.type, id, state, outcome.failed, done);
    }
    return state;
  },

  async read(id, state, ctx) {
    // The lifecycle refuses an import (the definition's import rule): a refresh always has a state.
    const recorded = state!;
    const { connection, client } = connectionOf(ctx, recorded);
    const me = await withRotationAdvice(() => currentUserOf(client), connection);
    if (!Object.hasOwn(recorded.roles, me.id) || recorded.roles[me.id] === me.orgRole)
      return { state: recorded };
    // Only a known role may reach the state: an unknown one would show as a diff that no update can fix.
    if (!checkerFor(OrgRole).Check(me.orgRole)) {
      throw new CodeSecResourceError(
        `${ctx.type}: the platform reports the role ${quotedText(me.orgRole.slice(0, 60))} for user ${me.id}, ` +
          `which is not one of ${ORG_ROLES.join(", ")}; the state was left as it was. A newer pulumi-codesec ` +
          "may know this role; otherwise set the user's role to a known one on the platform.",
      );
    }
    // The role read back is the caller's in the credentials' own deployment, which getting the current
    // user does not name: it is recorded for this map's deployment only once the platform confirms the
    // two are one; a refresh it does not confirm keeps the state (credentialsDeployment.ts).
    const confirmed = await credentialsDeploymentConfirmed(ctx, client, connection, {
      type: ctx.type,
      id,
      deploymentId: recorded.deploymentId,
      step: "refresh",
    });
    if (!confirmed) return { state: recorded };
    // The caller's own entry, read back: the plan then reads `~ roles["501"]: "read" => "declared"`.
    const refreshed = { ...recorded, roles: { ...recorded.roles, [me.id]: me.orgRole } };
    const { platform: _platform, ...inputs } = refreshed;
    return { state: refreshed, inputs };
  },

  async delete(id, state, ctx) {
    const ownership = ownershipOfResource(ctx, state.platform, state, {
      type: ctx.type,
      id,
      step: "destroy (roles on leaving)",
    });
    const writes = leavingWrites(
      ctx,
      ownership.platform,
      state.deploymentId,
      Object.keys(state.roles),
      (userId) => roleOnDestroy(userId, state),
    );
    if (writes.length === 0) return;
    const { failed } = await writeRoles(ctx, state, writes);
    if (failed.length > 0) {
      // The engine keeps the whole state of a failed delete: a retry writes every role on leaving again
      // (the same roles, so nothing changes for the users already demoted).
      throw new CodeSecResourceError(
        `${ctx.type} ${id}: ${failed.length} role(s) on leaving could not be applied; the resource stays in the ` +
          `stack, and \`pulumi destroy\` tries them again:\n  - ${failed.map((f) => `user ${f.userId}: ${f.reason}`).join("\n  - ")}`,
      );
    }
  },
};
