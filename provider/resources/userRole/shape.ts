/** The shape of `codesec.UserRole`: written once, used for the class types, for `check` and for the docs. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../../../api/typeBuilder";
import { outputKeys } from "../../dynamic/resourceProps";
import { NumericId, OpaqueId, OrgRole } from "../../../api/schemas/common";
import { described } from "../../../api/schemaIssues";
import { ConnectionInput } from "../../connection";
import {
  CONNECTION_DESCRIPTION,
  DEPLOYMENT_ID_DESCRIPTION,
  TRIGGERS_DESCRIPTION,
} from "../fieldDescriptions";
import { PLATFORM_OUTPUT, type RecordedPlatform } from "../platformOutput";

export const UserRoleInputs = Type.Object(
  {
    deploymentId: described(NumericId, DEPLOYMENT_ID_DESCRIPTION),
    userId: described(OpaqueId, "The user whose organization role is managed."),
    role: described(OrgRole, "The organization role the user holds (set with operation 1)."),
    roleOnDestroy: described(
      Type.Optional(OrgRole),
      "When set, `pulumi destroy` sets the user's role to this value (demote on destroy); otherwise " +
        "destroy only removes the resource from the stack and the user keeps the role.",
    ),
    triggers: described(
      Type.Optional(Type.Unknown()),
      `${TRIGGERS_DESCRIPTION} The platform reads back only the caller's own role, so this is how a ` +
        "scheduled job re-asserts other users' roles (docs/resources/UserRole.md).",
    ),
    connection: described(Type.Optional(ConnectionInput), CONNECTION_DESCRIPTION),
  },
  { additionalProperties: false },
);
export type UserRoleInputs = Static<typeof UserRoleInputs>;

/** Beyond the inputs: the platform the role was set on. */
export const UserRoleOutputs = Type.Object({ ...PLATFORM_OUTPUT });
/**
 * Outputs: the inputs as applied (the role is refreshed from operation 8 when the user is the caller) and
 * the platform (absent from state written before 0.5.0, until the next `pulumi up` or refresh records it).
 */
export type UserRoleState = UserRoleInputs & RecordedPlatform;

export const USER_ROLE_IDENTITY = ["deploymentId", "userId"] as const;
/** A change to one of these calls operation 1. */
export const USER_ROLE_REAPPLY = ["role", "triggers"] as const;
/** A change to one of these updates the state only (it is used at destroy). */
export const USER_ROLE_STATE_ONLY = ["roleOnDestroy"] as const;
export const USER_ROLE_MUTABLE = [...USER_ROLE_REAPPLY, ...USER_ROLE_STATE_ONLY] as const;
export const USER_ROLE_OUTPUTS = outputKeys(UserRoleOutputs);
