/**
 * `codesec.UserRoles`: the organization roles of a set of users in one deployment, as one authoritative
 * map (as pulumi-github's `TeamMembers` beside `TeamMembership`). Its one definition: every field, what a
 * change to it does, its id and import rule, and its implementation (./implementation.ts).
 */
import { describeOperation } from "../../../api/operations";
import { Type } from "../../../api/typeBuilder";
import { OrgRole } from "../../../api/schemas/common";
import { defineResource, type InputsOf, type StateOf } from "../definition";
import { connectionField, deploymentIdField, platformOutput, triggersField } from "../commonFields";
import { MAX_USER_ROLES, userRolesImplementation } from "./implementation";

const inputs = {
  deploymentId: deploymentIdField,
  roles: {
    schema: Type.Record(Type.String(), OrgRole),
    description:
      `User id -> the organization role the user holds (at most ${MAX_USER_ROLES} users). Applying it writes ` +
      "only the entries that changed (one write each, at the provider's rate limit); a user removed from " +
      "the map gets its `roleOnDestroy`, if any, and otherwise keeps the role.",
    onChange: "update",
    sentAs: "newRole",
  },
  roleOnDestroy: {
    schema: Type.Optional(OrgRole),
    description:
      "The role given to every user who leaves the map, or to all of them when the resource is destroyed " +
      "(demote on destroy); `rolesOnDestroy` overrides it per user. Without either a user who leaves keeps the " +
      "role. Not applied to a user the same run declares again (in this map, another UserRoles or a UserRole).",
    onChange: "record",
    sentAs: "newRole",
  },
  rolesOnDestroy: {
    schema: Type.Optional(Type.Record(Type.String(), OrgRole)),
    description:
      "User id -> the role that user gets on leaving the map or on destroy, instead of `roleOnDestroy`.",
    onChange: "record",
    sentAs: "newRole",
  },
  triggers: triggersField("writes every entry again"),
  connection: connectionField,
} as const;

const outputs = { platform: platformOutput } as const;

export type UserRolesInputs = InputsOf<typeof inputs>;
export type UserRolesState = StateOf<typeof inputs, typeof outputs>;

export const userRolesDefinition = defineResource({
  name: "UserRoles",
  description:
    "The organization roles of a set of users in one deployment, as one map from user id to role. Create, " +
    "update and delete write only the entries that change (one write each), concurrently within the " +
    "provider's rate limit, so a team of a thousand users applies at the platform's own pace. A partial " +
    "failure records exactly the entries that were applied; the next `pulumi up` writes the rest. Refresh " +
    "reads back the caller's own entry (the platform reads back no other user's role). A user " +
    "may be managed by a UserRoles or by a UserRole, not by both.",
  operations:
    `${describeOperation("updateUserRole")}; refresh: ${describeOperation("getCurrentUser")}, and ` +
    `${describeOperation("listNotificationRules")}, which confirms the deployment`,
  getExample: `// Refused: the platform reads back only the caller's own role, not a whole map.
const found = codesec.UserRoles.get("admins", "1001/userroles-<uuid>");`,
  idParts: ["deploymentId", "userroles-<uuid>"],
  inputs,
  outputs,
  importRule: {
    kind: "refused",
    why:
      "the platform reads back only the role of the credentials' own user, so there is no map to import. " +
      "Declare the map in the program instead: creating it sets every role, whatever each was.",
  },
  implementation: userRolesImplementation,
});
