/** Users, roles and organizations: operations 1 (updateUserRole), 8 (getCurrentUser), 9 (listJoinableOrganizations). */
import { ORG_ROLES, type OrgRole } from "../schemas/common";
import {
  CurrentUserResponse,
  JoinableOrganizationsResponse,
  UpdateUserRoleBody,
  UpdateUserRoleResponse,
  type CurrentUser,
} from "../schemas/users";
import { argsObject, conformingBody, oneOf, optionalArgsObject, optionalString } from "../inputValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export interface UpdateUserRoleArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  userId: string;
  newRole: OrgRole;
}

export interface ListJoinableOrganizationsArgs {
  /** Must be the caller's own user id; omitted from the query when undefined. */
  userId?: string;
}

export async function updateUserRole(transport: Transport, args: UpdateUserRoleArgs): Promise<void> {
  const input = argsObject("updateUserRole", args, "{ deploymentId, userId, newRole }");
  const path = buildPath("updateUserRole", input);
  const newRole = oneOf("updateUserRole", "newRole", input.newRole, ORG_ROLES);
  // The spec leaves open whether body ids must equal path ids; sending the same values makes it moot.
  const body: UpdateUserRoleBody = {
    deploymentId: input.deploymentId as string,
    userId: input.userId as string,
    newRole,
  };
  conformingBody("updateUserRole", UpdateUserRoleBody, body);
  const result = await transport.call({ operation: "updateUserRole", path, body, allowEmptyBody: true });
  validateResponse(UpdateUserRoleResponse, result, "updateUserRole");
}

export async function getCurrentUser(transport: Transport): Promise<CurrentUser> {
  const path = buildPath("getCurrentUser", {});
  const result = await transport.call({ operation: "getCurrentUser", path });
  return validateResponse(CurrentUserResponse, result, "getCurrentUser").user;
}

export async function listJoinableOrganizations(
  transport: Transport,
  args?: ListJoinableOrganizationsArgs,
): Promise<JoinableOrganizationsResponse> {
  const input = optionalArgsObject("listJoinableOrganizations", args, "{ userId? }");
  const userId = optionalString("listJoinableOrganizations", "userId", input.userId);
  const path = buildPath("listJoinableOrganizations", {});
  const result = await transport.call({ operation: "listJoinableOrganizations", path, query: { userId } });
  return validateResponse(JoinableOrganizationsResponse, result, "listJoinableOrganizations");
}
