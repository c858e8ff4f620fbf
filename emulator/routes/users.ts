/**
 * Users and organizations: setting a role (`updateUserRole`), the current user (`getCurrentUser`) and the
 * joinable organizations (`listJoinableOrganizations`).
 */
import {
  CurrentUserResponse,
  JoinableOrganizationsQuery,
  JoinableOrganizationsResponse,
  UpdateUserRoleBody,
  UpdateUserRoleResponse,
  type CurrentUser,
  type JoinableOrganization,
} from "pulumi-codesec/api";
import { requireRole } from "../auth";
import { apiError } from "../errors";
import { operationRoute, type EmulatorContext } from "../operationRoute";
import type { EmulatorFastify } from "../typeProvider";

/** Throws 400 when a body id is given and differs from the path id it repeats. */
export function requireSameId(field: string, bodyValue: string | undefined, pathValue: string): void {
  if (bodyValue === undefined || bodyValue === pathValue) return;
  throw apiError(
    "INVALID_ARGUMENT",
    `body.${field} (${JSON.stringify(bodyValue)}) must equal the path parameter ${field} (${JSON.stringify(pathValue)})`,
  );
}

export function registerUserRoutes(app: EmulatorFastify, ctx: EmulatorContext): void {
  operationRoute(
    app,
    ctx,
    "updateUserRole",
    { body: UpdateUserRoleBody, response: UpdateUserRoleResponse },
    ({ params, body, caller }) => {
      const deploymentId = params.deploymentId;
      const userId = params.userId;
      requireSameId("deploymentId", body.deploymentId, deploymentId);
      requireSameId("userId", body.userId, userId);
      requireRole(ctx.store, caller, deploymentId, "admin");
      const current = ctx.store.roleOf(userId, deploymentId);
      if (current === undefined) {
        throw apiError("NOT_FOUND", `user ${userId} is not a member of deployment ${deploymentId}`);
      }
      if (current === body.newRole) return {};
      if (current === "ORG_ROLE_ADMIN" && ctx.store.adminCount(deploymentId) === 1) {
        throw apiError(
          "FAILED_PRECONDITION",
          `user ${userId} is the last ORG_ROLE_ADMIN of deployment ${deploymentId}; make another user admin first`,
        );
      }
      ctx.store.setRole(userId, deploymentId, body.newRole);
      return {};
    },
  );

  operationRoute(app, ctx, "getCurrentUser", { response: CurrentUserResponse }, ({ caller }) => {
    const role = requireRole(ctx.store, caller, caller.deploymentId, "read");
    const user = ctx.store.user(caller.userId);
    if (!user) throw apiError("NOT_FOUND", `user ${caller.userId} not found`);
    const current: CurrentUser = {
      id: user.id,
      name: user.name,
      email: user.email,
      login: user.login,
      authDetails: user.authDetails,
      orgRole: role,
      ...(user.deletedAt !== undefined ? { deletedAt: user.deletedAt } : {}),
    };
    return { user: current };
  });

  operationRoute(
    app,
    ctx,
    "listJoinableOrganizations",
    { query: JoinableOrganizationsQuery, response: JoinableOrganizationsResponse },
    ({ query, caller }) => {
      const userId = query.userId ?? caller.userId;
      if (userId !== caller.userId) {
        throw apiError(
          "PERMISSION_DENIED",
          `query parameter userId must be the caller's own user id; this JWT belongs to user ${caller.userId}`,
        );
      }
      const orgs: JoinableOrganization[] = ctx.store.joinableDeployments(userId).map((d) => ({
        id: d.id,
        name: d.name,
        displayName: d.displayName,
        slug: d.slug,
        sourceType: d.sourceType,
        organizationId: d.organizationId,
        features: d.features,
      }));
      return { userId, orgs };
    },
  );
}
