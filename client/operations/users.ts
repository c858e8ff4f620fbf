/** Users, roles and organizations: `updateUserRole`, `getCurrentUser` and `listJoinableOrganizations`. */
import {
  CurrentUserResponse,
  JoinableOrganizationsResponse,
  ListJoinableOrganizationsArgs,
  UpdateUserRoleArgs,
  UpdateUserRoleResponse,
  type CurrentUser,
  type UpdateUserRoleBody,
} from "../../api/schemas/users";
import { operationSubject, validateArguments } from "../argumentValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export async function updateUserRole(transport: Transport, args: UpdateUserRoleArgs): Promise<void> {
  const op = "updateUserRole";
  const input = validateArguments(operationSubject(op), UpdateUserRoleArgs, args);
  // The spec leaves open whether body ids must equal path ids; sending the same values makes it moot.
  const body: UpdateUserRoleBody = {
    deploymentId: input.deploymentId,
    userId: input.userId,
    newRole: input.newRole,
  };
  const result = await transport.call({
    operation: op,
    path: buildPath(op, input),
    body,
    allowEmptyBody: true,
  });
  validateResponse(UpdateUserRoleResponse, result, op);
}

export async function getCurrentUser(transport: Transport): Promise<CurrentUser> {
  const op = "getCurrentUser";
  const result = await transport.call({ operation: op, path: buildPath(op, {}) });
  return validateResponse(CurrentUserResponse, result, op).user;
}

export async function listJoinableOrganizations(
  transport: Transport,
  args?: ListJoinableOrganizationsArgs,
): Promise<JoinableOrganizationsResponse> {
  const op = "listJoinableOrganizations";
  const input = validateArguments(operationSubject(op), ListJoinableOrganizationsArgs, args, {
    optional: true,
  });
  const result = await transport.call({
    operation: op,
    path: buildPath(op, {}),
    query: { userId: input.userId },
  });
  return validateResponse(JoinableOrganizationsResponse, result, op);
}

export type { UpdateUserRoleArgs, ListJoinableOrganizationsArgs };
