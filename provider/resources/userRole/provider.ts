/**
 * `codesec.UserRole`: operation 1 sets the role; operation 8 reads it back when the user is the caller;
 * destroy optionally demotes (`roleOnDestroy`), otherwise only forgets the resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { checkerFor } from "../../../api/schemaIssues";
import { ORG_ROLES, OrgRole } from "../../../api/schemas/common";
import {
  USER_ROLE_IDENTITY,
  USER_ROLE_MUTABLE,
  USER_ROLE_OUTPUTS,
  UserRoleInputs,
  type UserRoleState,
} from "./shape";

type Inputs = UserRoleInputs;
import { declaredRoleOf, rememberDeclaredRole } from "./declaredRoles";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { sameValue } from "../../dynamic/diffing";
import { containsUnknown, withoutEngineKeys } from "../../dynamic/inputValidation";
import { isLookup, lookupRefused } from "../../dynamic/lookup";
import { formatResourceId, parseResourceId } from "../../dynamic/resourceIds";
import { isPlatformNotFound } from "../../dynamic/platformNotFound";
import { currentUserOf, forgetCurrentUser } from "../../clients";
import {
  clientForResource,
  ownershipOfResource,
  platformOfResource,
  verifyConnection,
} from "../../dynamic/runtimeCredentials";
import { withRotationAdvice } from "../../dynamic/staleCredentials";

const TYPE = "codesec:UserRole";

/** Operation 1. The credentials' own role may be the one that changed: later reads ask the platform again. */
async function setRole(inputs: Inputs, newRole: UserRoleState["role"]): Promise<void> {
  const client = clientForResource(inputs);
  try {
    await client.updateUserRole({ deploymentId: inputs.deploymentId, userId: inputs.userId, newRole });
  } finally {
    forgetCurrentUser(client);
  }
}

/** The inputs of a state: what the engine keeps as the resource's inputs (no output such as `platform`). */
function inputsOf(state: UserRoleState): Inputs {
  const inputs: Record<string, unknown> = { ...state };
  for (const key of USER_ROLE_OUTPUTS) delete inputs[key];
  return inputs as Inputs;
}

const inputRules = checkAndDiff(UserRoleInputs, TYPE, {
  replaceOn: USER_ROLE_IDENTITY,
  updateOn: USER_ROLE_MUTABLE,
});

export const userRoleProvider: pulumi.dynamic.ResourceProvider<Inputs, UserRoleState> = {
  ...inputRules,

  async check(olds, news) {
    const result = await inputRules.check(olds, news);
    const inputs = result.inputs as Inputs | undefined;
    // Every user this program declares, so that no delete of this run demotes one (declaredRoles.ts).
    if (result.failures === undefined && inputs !== undefined && !containsUnknown(inputs)) {
      rememberDeclaredRole(platformOfResource(inputs), inputs.deploymentId, inputs.userId, inputs.role);
    }
    return result;
  },

  async create(inputs) {
    const { deploymentId, userId, role } = inputs;
    const platform = platformOfResource(inputs);
    await setRole(inputs, role);
    return { id: formatResourceId(deploymentId, userId), outs: { ...withoutEngineKeys(inputs), platform } };
  },

  async update(id, olds, news) {
    const ownership = ownershipOfResource(olds.platform, news, { type: TYPE, id, step: "update" });
    // roleOnDestroy alone is state: a different role, new triggers (a re-assertion), or a move to another
    // platform need operation 1. Recording the platform of an older state needs no call.
    if (ownership.kind === "moving" || olds.role !== news.role || !sameValue(olds.triggers, news.triggers)) {
      await setRole(news, news.role);
    }
    return { outs: { ...withoutEngineKeys(news), platform: ownership.platform } };
  },

  async read(id, props) {
    const { deploymentId, key: userId } = parseResourceId(id, TYPE, "userId");
    const state = (props ?? {}) as UserRoleState;
    const ownership = ownershipOfResource(state.platform, state, { type: TYPE, id, step: "refresh" });
    // Being moved: the platform it is moving to does not hold it yet; the move's `pulumi up` applies it.
    if (ownership.kind === "moving") return { id, props: state };
    const me = await withRotationAdvice(() => currentUserOf(clientForResource(state)));
    const recorded = { ...state, platform: ownership.platform };
    // The platform reads back only the caller's own role: for anyone else the state is kept as it is,
    // and a lookup by id has no state to keep.
    if (me.id !== userId) {
      if (!isLookup(props)) return { id, props: recorded };
      throw lookupRefused(
        TYPE,
        id,
        `the platform reads back only the role of the credentials' own user (operation 8), and user ${userId} ` +
          "is not that user.",
      );
    }
    // Only a known role may reach the state: an unknown one would show as a diff that no update can fix.
    if (!checkerFor(OrgRole).Check(me.orgRole)) {
      throw new Error(
        `${TYPE} ${id}: the platform reports the role ${JSON.stringify(me.orgRole.slice(0, 60))} for user ` +
          `${userId}, which is not one of ${ORG_ROLES.join(", ")}; the state was left as it was. A newer ` +
          "pulumi-codesec may know this role; otherwise set the user's role to a known one on the platform.",
      );
    }
    const refreshed = { ...recorded, deploymentId, userId, role: me.orgRole };
    // The inputs too: `@pulumi/pulumi`'s dynamic providers cannot return a detailed diff, so
    // `pulumi preview --diff` names the fields whose old and new inputs differ. With the role read back
    // into the old inputs, the update that sets the declared role again reads `~ role: "read" => "declared"`:
    // what the platform has now, then what `pulumi up` makes it.
    return { id, props: refreshed, inputs: inputsOf(refreshed) };
  },

  async delete(id, props) {
    // Only an absent roleOnDestroy means "keep the role"; any other value goes to the client, which checks it.
    if (props.roleOnDestroy === undefined) return;
    const { deploymentId, userId } = props;
    const ownership = ownershipOfResource(props.platform, props, {
      type: TYPE,
      id,
      step: `destroy (roleOnDestroy ${props.roleOnDestroy})`,
    });
    const declared = declaredRoleOf(ownership.platform, deploymentId, userId);
    if (declared !== undefined) {
      void pulumi.log.warn(
        `${TYPE} ${deploymentId}/${userId}: roleOnDestroy (${props.roleOnDestroy}) was not applied, because ` +
          `this program declares user ${userId}'s role in deployment ${deploymentId} again ` +
          `(${declared.role}), in a replacement or another UserRole; the user keeps the declared role.`,
      );
      return;
    }
    try {
      await withRotationAdvice(() => setRole(props, props.roleOnDestroy!));
    } catch (error) {
      // A user who left the organization has no role left to demote: nothing stands in destroy's way
      // (as terraform-provider-github's membership does on a 404). roleOnDestroy guards access, so the
      // 404 must be the platform's own answer, from a connection proven to reach the platform.
      if (!isPlatformNotFound(error)) throw error;
      await verifyConnection(props);
      void pulumi.log.warn(
        `${TYPE} ${deploymentId}/${userId}: the user is no longer a member of deployment ${deploymentId}, ` +
          `so roleOnDestroy (${props.roleOnDestroy}) was not applied; the resource is removed from the stack.`,
      );
    }
  },
};
