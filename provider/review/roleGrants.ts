/**
 * Role grants: who a resource makes hold which organization role, whichever kind declares it. Policy
 * rules and the reviewer's summary both read roles through this, so a kind that declares roles is added
 * here once.
 */
import type { OrgRole } from "../../api/schemas/common";
import type { KindView } from "./kindView";

/** One user's role as one resource declares it. */
export interface RoleGrant {
  readonly deploymentId: string;
  readonly userId: string;
  readonly role: OrgRole;
  /** The role the user is set to when the resource is destroyed; absent: the user keeps `role`. */
  readonly roleOnDestroy?: OrgRole;
}

function grant(
  deploymentId: string,
  userId: string,
  role: OrgRole,
  roleOnDestroy: OrgRole | undefined,
): RoleGrant {
  return { deploymentId, userId, role, ...(roleOnDestroy !== undefined ? { roleOnDestroy } : {}) };
}

/**
 * The grants a resource declares: one for a UserRole, one per entry of a UserRoles (its role on leaving:
 * `rolesOnDestroy[user]`, else `roleOnDestroy`), none for a kind that declares no role.
 */
export function roleGrantsOf(view: KindView): RoleGrant[] {
  switch (view.kind) {
    case "UserRole": {
      const { deploymentId, userId, role, roleOnDestroy } = view.inputs;
      return [grant(deploymentId, userId, role, roleOnDestroy)];
    }
    case "UserRoles": {
      const { deploymentId, roles, roleOnDestroy, rolesOnDestroy } = view.inputs;
      return Object.entries(roles ?? {}).map(([userId, role]) =>
        grant(deploymentId, userId, role, rolesOnDestroy?.[userId] ?? roleOnDestroy),
      );
    }
    default:
      return [];
  }
}

/** `1001/502`: how reports name a user of a deployment. */
export function grantKey(grant: Pick<RoleGrant, "deploymentId" | "userId">): string {
  return `${grant.deploymentId}/${grant.userId}`;
}

/**
 * Whether going from `before` to `after` lowers a user's role. Roles are ordered only where their
 * rights nest: ORG_ROLE_ADMIN above every other role, ORG_ROLE_READONLY below every other; MEMBER and
 * IMPERSONATOR grant different rights, so a move between them is a change, not a demotion.
 */
export function lowersRole(before: OrgRole, after: OrgRole): boolean {
  return before !== after && (before === "ORG_ROLE_ADMIN" || after === "ORG_ROLE_READONLY");
}
