/**
 * The users whose role the running program declares, per platform and deployment, so that a delete does
 * not demote a user that the same run grants a role to, and so that one user is not managed by both a
 * UserRole and a UserRoles (each would undo the other).
 *
 * The engine creates a replacement before it deletes the resource it replaces, and deletes resources that
 * left the program only after everything else: so when one run both declares a user (a replacement under
 * the same id after `pulumi up --replace` or a `replaceOnChanges`, a UserRole moved into a component
 * without an alias, a second UserRole for the same user) and deletes an older UserRole of that user with
 * `roleOnDestroy`, the demotion would come last and silently undo the declared role, which no refresh can
 * see (the platform reads back only the caller's own role). Every UserRole of the program passes `check`
 * before any delete of the run, in the same provider process, so `check` records each declared user here
 * and `delete` skips the demotion of a user recorded here, saying so.
 *
 * A provider process serves one engine operation: what is recorded here lives as long as that run. A
 * `pulumi destroy` runs no program, so every `roleOnDestroy` applies.
 */

/** One declaration: which kind declared which role. */
export interface DeclaredRole {
  readonly role: string;
  /** `UserRole` or `UserRoles`: a user may be managed by one form only. */
  readonly by: string;
}

const declared = new Map<string, DeclaredRole>();

function keyOf(platform: string, deploymentId: string, userId: string): string {
  return JSON.stringify([platform, deploymentId, userId]);
}

/** Records that the running program declares `userId`'s role in `deploymentId` on `platform`. */
export function rememberDeclaredRole(
  platform: string,
  deploymentId: string,
  userId: string,
  declaration: DeclaredRole,
): void {
  declared.set(keyOf(platform, deploymentId, userId), declaration);
}

/** The role the running program declares for the user, or undefined when it declares none. */
export function declaredRoleOf(
  platform: string,
  deploymentId: string,
  userId: string,
): DeclaredRole | undefined {
  return declared.get(keyOf(platform, deploymentId, userId));
}

/** For tests: forget every declaration (a new run). */
export function forgetDeclaredRoles(): void {
  declared.clear();
}

/**
 * The check failure for a user declared by both a UserRole and a UserRoles in one deployment: each would
 * set the role the other does not declare, and removing one would demote a user the other still grants.
 */
export function userManagedTwice(deploymentId: string, userId: string): { path: string; reason: string } {
  return {
    path: "userId",
    reason:
      `user ${userId} of deployment ${deploymentId} is declared both by a UserRole and by a UserRoles map: ` +
      'manage each user with one of them (docs/resources/UserRoles.md, "Moving users between UserRole and ' +
      'UserRoles").',
  };
}
