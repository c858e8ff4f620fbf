/**
 * `codesec.UserRole`: operation 1 sets the role; operation 8 reads it back when the user is the caller;
 * destroy optionally demotes (`roleOnDestroy`), otherwise only forgets the resource.
 */
import * as pulumi from "@pulumi/pulumi";
import { checkerFor } from "../../../api/schemaIssues";
import { ORG_ROLES, OrgRole } from "../../../api/schemas/common";
import { USER_ROLE_IDENTITY, USER_ROLE_MUTABLE, UserRoleInputs, type UserRoleState } from "./shape";
import { checkAndDiff } from "../../dynamic/checkAndDiff";
import { withoutEngineKeys } from "../../dynamic/inputValidation";
import { isLookup, lookupRefused } from "../../dynamic/lookup";
import { formatResourceId, parseResourceId } from "../../dynamic/resourceIds";
import { isPlatformNotFound } from "../../dynamic/platformNotFound";
import { currentUserOf, forgetCurrentUser } from "../../clients";
import { clientForResource, verifyConnection } from "../../dynamic/runtimeCredentials";
import { withRotationAdvice } from "../../dynamic/staleCredentials";

const TYPE = "codesec:UserRole";

/** Operation 1. The credentials' own role may be the one that changed: later reads ask the platform again. */
async function setRole(state: UserRoleState, newRole: UserRoleState["role"]): Promise<void> {
  const client = clientForResource(state);
  try {
    await client.updateUserRole({ deploymentId: state.deploymentId, userId: state.userId, newRole });
  } finally {
    forgetCurrentUser(client);
  }
}

export const userRoleProvider: pulumi.dynamic.ResourceProvider<UserRoleState, UserRoleState> = {
  ...checkAndDiff(UserRoleInputs, TYPE, { replaceOn: USER_ROLE_IDENTITY, updateOn: USER_ROLE_MUTABLE }),

  async create(inputs) {
    const { deploymentId, userId, role } = inputs;
    await setRole(inputs, role);
    return { id: formatResourceId(deploymentId, userId), outs: withoutEngineKeys(inputs) };
  },

  async update(_id, olds, news) {
    // roleOnDestroy alone is state: only a different role needs operation 1.
    if (olds.role !== news.role) {
      await setRole(news, news.role);
    }
    return { outs: withoutEngineKeys(news) };
  },

  async read(id, props) {
    const { deploymentId, key: userId } = parseResourceId(id, TYPE, "userId");
    const state = (props ?? {}) as UserRoleState;
    const me = await withRotationAdvice(() => currentUserOf(clientForResource(state)));
    // The platform reads back only the caller's own role: for anyone else the state is kept as it is,
    // and a lookup by id has no state to keep.
    if (me.id !== userId) {
      if (!isLookup(props)) return { id, props: state };
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
    const refreshed = { ...state, deploymentId, userId, role: me.orgRole };
    // The inputs too: `@pulumi/pulumi`'s dynamic providers cannot return a detailed diff, so
    // `pulumi preview --diff` names the fields whose old and new inputs differ. With the role read back
    // into the old inputs, the update that sets the declared role again reads `~ role: "read" => "declared"`.
    // (The outputs of a UserRole are its inputs, so they are the inputs to keep.)
    return { id, props: refreshed, inputs: refreshed };
  },

  async delete(_id, props) {
    // Only an absent roleOnDestroy means "keep the role"; any other value goes to the client, which checks it.
    if (props.roleOnDestroy === undefined) return;
    const { deploymentId, userId } = props;
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
