/**
 * The calls behind `codesec.UserRole` (its definition: ./definition.ts): setting a user's role, getting
 * the current user to read it back when the user is the caller, and destroy optionally demotes.
 */
import { quotedText } from "../../../api/messageText";
import { checkerFor } from "../../../api/schemaIssues";
import { ORG_ROLES, OrgRole } from "../../../api/schemas/common";
import { UpdateUserRoleArgs } from "../../../api/schemas/users";
import { currentUserOf, forgetCurrentUserAfterRoleWrite } from "../../clients";
import { formatResourceId, parseResourceId } from "../resourceIds";
import { isPlatformNotFound } from "../platformNotFound";
import { withRotationAdvice } from "../staleCredentials";
import { credentialsDeploymentConfirmed } from "../credentialsDeployment";
import {
  clientOf,
  connectionOf,
  ownershipOfResource,
  platformOfResource,
  verifyConnectionOf,
} from "../../providerContext";
import type { KindContext, KindImplementation } from "../kindImplementation";
import { operationArguments, type SendingStep } from "../operationArguments";
import type { UserRoleInputs, UserRoleState } from "./definition";
import { declaredRoleOf, rememberDeclaredRole, userManagedTwice } from "../declaredRoles";
import { CodeSecResourceError } from "../../errors";

/**
 * Sets a user's role: the declared one when applied, `roleOnDestroy` when destroyed. When the user may be
 * the credentials' own, later reads of that user ask the platform again.
 */
async function setRole(ctx: KindContext, inputs: UserRoleInputs, step: SendingStep) {
  const client = clientOf(ctx, inputs);
  try {
    await client.updateUserRole(operationArguments(UpdateUserRoleArgs, inputs, ctx.inputFields, { step }));
  } finally {
    forgetCurrentUserAfterRoleWrite(client, inputs.userId);
  }
}

/** The inputs of a state: what the engine keeps as the resource's inputs (no output such as `platform`). */
function inputsOf(state: Partial<UserRoleState>): Record<string, unknown> {
  const { platform: _platform, ...inputs } = state;
  return inputs;
}

export const userRoleImplementation: KindImplementation<UserRoleInputs, UserRoleState> = {
  sentArguments: [UpdateUserRoleArgs],

  checked(inputs, ctx) {
    // Every user this program declares, so that no delete of this run demotes one (declaredRoles.ts).
    const platform = platformOfResource(ctx, inputs);
    const earlier = declaredRoleOf(platform, inputs.deploymentId, inputs.userId);
    if (earlier?.by === "UserRoles")
      return [userManagedTwice(inputs.deploymentId, inputs.userId, "UserRoles", "UserRole")];
    rememberDeclaredRole(platform, inputs.deploymentId, inputs.userId, { role: inputs.role, by: "UserRole" });
  },

  async create(inputs, ctx) {
    await setRole(ctx, inputs, "apply");
    return { id: formatResourceId(inputs.deploymentId, inputs.userId), state: inputs };
  },

  async update(_id, _olds, news, plan, ctx) {
    // roleOnDestroy alone is state: only a different role, new triggers (a re-assertion) or a move to
    // another platform need to set the role again.
    if (plan.reapply) await setRole(ctx, news, "apply");
    return news;
  },

  async read(id, state, ctx) {
    const { deploymentId, key: userId } = parseResourceId(id, ctx.type, "userId");
    const { connection, client } = connectionOf(ctx, state ?? {});
    const me = await withRotationAdvice(() => currentUserOf(client), connection);
    // The platform reads back only the caller's own role: for anyone else a refresh keeps the state as
    // it is, and an import has no state to keep.
    if (me.id !== userId) {
      if (state !== undefined) return { state };
      throw new CodeSecResourceError(
        `${ctx.type} ${id} cannot be looked up by id or imported: the platform reads back only the role of the ` +
          "credentials' own user (get the current user), " +
          `and user ${userId} is not that user (the credentials are user ${me.id}'s), so there is nothing ` +
          "to read it from. Declare the role in the program instead: creating the resource sets it " +
          `(set a user's role), whatever it was. Only the caller's own role imports (${deploymentId}/${me.id}).`,
      );
    }
    // Only a known role may reach the state: an unknown one would show as a diff that no update can fix.
    if (!checkerFor(OrgRole).Check(me.orgRole)) {
      throw new CodeSecResourceError(
        `${ctx.type} ${id}: the platform reports the role ${quotedText(me.orgRole.slice(0, 60))} for user ` +
          `${userId}, which is not one of ${ORG_ROLES.join(", ")}; the state was left as it was. A newer ` +
          "pulumi-codesec may know this role; otherwise set the user's role to a known one on the platform.",
      );
    }
    // A refresh that would record nothing new asks nothing more (as UserRoles does for an unchanged entry).
    if (state?.deploymentId === deploymentId && state.userId === userId && state.role === me.orgRole)
      return { state };
    // The role read back is the caller's in the credentials' own deployment, which getting the current
    // user does not name: it is recorded for this deployment only once the platform confirms the two are
    // one; a refresh it does not confirm keeps the state (credentialsDeployment.ts).
    const confirmed = await credentialsDeploymentConfirmed(
      ctx,
      client,
      connection,
      state === undefined
        ? { type: ctx.type, id, deploymentId, step: "import", importIdIn: (d) => formatResourceId(d, userId) }
        : { type: ctx.type, id, deploymentId, step: "refresh" },
    );
    if (!confirmed) return { state: state! };
    const refreshed = { ...state, deploymentId, userId, role: me.orgRole };
    // The inputs too: with the role read back into the old inputs, the update that sets the declared role
    // again reads `~ role: "read" => "declared"` in `pulumi preview --diff`: what the platform has now,
    // then what `pulumi up` makes it (the dynamic provider cannot return a per-property diff).
    return { state: refreshed, inputs: inputsOf(refreshed) };
  },

  async delete(id, state, ctx) {
    // Only an absent roleOnDestroy means "keep the role"; any other value goes to the client, which checks it.
    if (state.roleOnDestroy === undefined) return;
    const { deploymentId, userId } = state;
    const ownership = ownershipOfResource(ctx, state.platform, state, {
      type: ctx.type,
      id,
      step: `destroy (roleOnDestroy ${state.roleOnDestroy})`,
    });
    const declared = declaredRoleOf(ownership.platform, deploymentId, userId);
    if (declared !== undefined) {
      ctx.log(
        "warning",
        `${ctx.type} ${deploymentId}/${userId}: roleOnDestroy (${state.roleOnDestroy}) was not applied, because ` +
          `this program declares user ${userId}'s role in deployment ${deploymentId} again ` +
          `(${declared.role}), in a replacement or another UserRole; the user keeps the declared role.`,
      );
      return;
    }
    try {
      await withRotationAdvice(() => setRole(ctx, state, "destroy"), connectionOf(ctx, state).connection);
    } catch (error) {
      // A user who left the organization has no role left to demote: nothing stands in destroy's way
      // (as terraform-provider-github's membership does on a 404). roleOnDestroy guards access, so the
      // 404 must be the platform's own answer, from a connection proven to reach the platform.
      if (!isPlatformNotFound(error)) throw error;
      await verifyConnectionOf(ctx, state);
      ctx.log(
        "warning",
        `${ctx.type} ${deploymentId}/${userId}: the user is no longer a member of deployment ${deploymentId}, ` +
          `so roleOnDestroy (${state.roleOnDestroy}) was not applied; the resource is removed from the stack.`,
      );
    }
  },
};
