/**
 * `codesec.UserRole`: operation 1 sets the role; operation 8 reads it back when the user is the caller;
 * destroy optionally demotes (`roleOnDestroy`), otherwise only forgets the resource.
 */
import type * as pulumi from "@pulumi/pulumi";
import {
  USER_ROLE_IDENTITY,
  USER_ROLE_MUTABLE,
  UserRoleInputs,
  type UserRoleState,
} from "../shapes/userRole";
import { checkAndDiff } from "./checkAndDiff";
import { withoutEngineKeys } from "./inputValidation";
import { formatResourceId, parseResourceId } from "./resourceIds";
import { clientForResource } from "./runtimeCredentials";

const TYPE = "codesec:UserRole";

export const userRoleProvider: pulumi.dynamic.ResourceProvider<UserRoleState, UserRoleState> = {
  ...checkAndDiff(UserRoleInputs, TYPE, { replaceOn: USER_ROLE_IDENTITY, updateOn: USER_ROLE_MUTABLE }),

  async create(inputs) {
    const { deploymentId, userId, role } = inputs;
    await clientForResource(inputs).updateUserRole({ deploymentId, userId, newRole: role });
    return { id: formatResourceId(deploymentId, userId), outs: withoutEngineKeys(inputs) };
  },

  async update(_id, olds, news) {
    // roleOnDestroy alone is state: only a different role needs operation 1.
    if (olds.role !== news.role) {
      await clientForResource(news).updateUserRole({
        deploymentId: news.deploymentId,
        userId: news.userId,
        newRole: news.role,
      });
    }
    return { outs: withoutEngineKeys(news) };
  },

  async read(id, props) {
    const { deploymentId, key: userId } = parseResourceId(id, TYPE, "userId");
    const state = (props ?? {}) as UserRoleState;
    const me = await clientForResource(state).getCurrentUser();
    // The platform reads back only the caller's own role: for anyone else the state is kept as it is.
    if (me.id !== userId) return { id, props: state };
    return { id, props: { ...state, deploymentId, userId, role: me.orgRole as UserRoleState["role"] } };
  },

  async delete(_id, props) {
    if (props.roleOnDestroy !== undefined && props.roleOnDestroy !== null) {
      await clientForResource(props).updateUserRole({
        deploymentId: props.deploymentId,
        userId: props.userId,
        newRole: props.roleOnDestroy,
      });
    }
  },
};
