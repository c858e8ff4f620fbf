/** The shape of `codesec.UserRole`: written once, used for the class types and for `check`. */
import { Type, type Static } from "@sinclair/typebox";
import { NumericId, OpaqueId, OrgRole } from "../../../api/schemas/common";
import { ConnectionInput } from "../../connection";

export const UserRoleInputs = Type.Object(
  {
    /** Deployment (organization) id. Changing it replaces the resource. */
    deploymentId: NumericId,
    /** The user whose organization role is managed. Changing it replaces the resource. */
    userId: OpaqueId,
    /** The organization role to hold. Changing it updates in place (operation 1). */
    role: OrgRole,
    /** When set, `pulumi destroy` sets the user's role to this value (demote on destroy). */
    roleOnDestroy: Type.Optional(OrgRole),
    /** Which connection to use: a name from stack config codesec:connections (a second organization in one stack). Never diffed. */
    connection: Type.Optional(ConnectionInput),
  },
  { additionalProperties: false },
);
export type UserRoleInputs = Static<typeof UserRoleInputs>;

/** Outputs: the inputs as applied (the role is refreshed from operation 8 when the user is the caller). */
export type UserRoleState = UserRoleInputs;

export const USER_ROLE_IDENTITY = ["deploymentId", "userId"] as const;
export const USER_ROLE_MUTABLE = ["role", "roleOnDestroy"] as const;
export const USER_ROLE_OUTPUTS: readonly (keyof UserRoleState)[] = [];
