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
 * Whether going from `before` to `after` clearly lowers a user's role. The platform's spec does not order
 * its roles, so only the moves whose rights plainly shrink count: ORG_ROLE_ADMIN to ORG_ROLE_MEMBER, and
 * any role to ORG_ROLE_READONLY. IMPERSONATOR grants rights the others lack, so a move to or from it
 * (but to READONLY) is a change, neither lowering nor raising.
 */
export function lowersRole(before: OrgRole, after: OrgRole): boolean {
  return (
    before !== after &&
    (after === "ORG_ROLE_READONLY" || (before === "ORG_ROLE_ADMIN" && after === "ORG_ROLE_MEMBER"))
  );
}
