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

/** The grants a resource declares: one for a UserRole, none for a kind that declares no role. */
export function roleGrantsOf(view: KindView): RoleGrant[] {
  switch (view.kind) {
    case "UserRole": {
      const { deploymentId, userId, role, roleOnDestroy } = view.inputs;
      return [{ deploymentId, userId, role, ...(roleOnDestroy !== undefined ? { roleOnDestroy } : {}) }];
    }
    default:
      return [];
  }
}

/** `1001/502`: how reports name a user of a deployment. */
export function grantKey(grant: Pick<RoleGrant, "deploymentId" | "userId">): string {
  return `${grant.deploymentId}/${grant.userId}`;
}
