/**
 * `codesec.UserRole`: the organization role of one user in a deployment. Its one definition: every field,
 * what a change to it does, its id and import rule, and its implementation (./implementation.ts).
 */
import { describeOperation } from "../../../api/operations";
import { Type } from "../../../api/typeBuilder";
import { OpaqueId, OrgRole } from "../../../api/schemas/common";
import { defineResource, type InputsOf, type StateOf } from "../definition";
import { connectionField, deploymentIdField, platformOutput, triggersField } from "../commonFields";
import { userRoleImplementation } from "./implementation";

const inputs = {
  deploymentId: deploymentIdField,
  userId: {
    schema: OpaqueId,
    description: "The user whose organization role is managed.",
    onChange: "replace",
  },
  role: {
    schema: OrgRole,
    description: "The organization role the user holds; create and update set it on the platform.",
    onChange: "update",
    sentAs: "newRole",
  },
  roleOnDestroy: {
    schema: Type.Optional(OrgRole),
    description:
      "When set, destroying the resource sets the user's role to this value (demote on destroy); otherwise " +
      "the resource only leaves the stack and the user keeps the role. Not applied when the same run " +
      "declares the user's role again (a replacement, a move, a second UserRole).",
    onChange: "record",
    sentAs: "newRole",
  },
  triggers: {
    ...triggersField("sets the declared role again"),
    description:
      `${triggersField("sets the declared role again").description} The platform reads back only the ` +
      "caller's own role, so this is how a scheduled job re-asserts other users' roles (docs/resources/" +
      'UserRole.md, "Re-asserting roles on a schedule").',
  },
  connection: connectionField,
} as const;

const outputs = { platform: platformOutput } as const;

export type UserRoleInputs = InputsOf<typeof inputs>;
export type UserRoleState = StateOf<typeof inputs, typeof outputs>;

export const userRoleDefinition = defineResource({
  name: "UserRole",
  description:
    "The organization role of one user in a deployment. Create and update set it; refresh reads it back " +
    "only when the user is the credentials' own (the platform reads back no other user's role) and the " +
    "platform confirms the deployment as the credentials' own (by listing its notification rules); " +
    "destroy sets `roleOnDestroy` when given, and otherwise only forgets the resource.",
  operations:
    `${describeOperation("updateUserRole")}; refresh: ${describeOperation("getCurrentUser")}, and ` +
    `${describeOperation("listNotificationRules")}, which confirms the deployment`,
  getExample: `const me = codesec.UserRole.get("me", "1001/501"); // 501: the user behind the token
export const myRole = me.role;`,
  idParts: ["deploymentId", "userId"],
  inputs,
  outputs,
  importRule: { kind: "read" },
  unseenByRefresh: {
    why:
      "the platform reads back no other user's role, so a change to another user's role made in the " +
      "platform's UI does not show",
    visibility: "ownRoleOnly",
  },
  implementation: userRoleImplementation,
});
