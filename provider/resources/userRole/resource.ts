import * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs, PulumiOutputs } from "../../pulumiTypes";
import { userRoleDefinition, type UserRoleInputs, type UserRoleState } from "./definition";
import { declaredProps, resourceOptions, warnAboutArguments } from "../../dynamic/resourceProps";
import { stubProvider } from "../../dynamic/stubProvider";

/** Arguments of {@link UserRole}. */
export type UserRoleArgs = PulumiArgs<UserRoleInputs>;

// Output properties come from the shape through interface merging, so they are written once and no
// class field initializer can overwrite the values the engine sets.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface UserRole extends PulumiOutputs<UserRoleState> {}

/**
 * The organization role of one user in a deployment (operation 1, `PATCH
 * /api/agent/deployments/{deploymentId}/users/{userId}/roles`). **Experimental** platform operation.
 *
 * - `deploymentId` and `userId` identify it (a change replaces it); `role` updates in place.
 * - Refresh reads the role back (operation 8) only when `userId` is the credentials' own user;
 *   for anyone else the platform has no read operation and the state is kept.
 * - Destroy sets `roleOnDestroy` when given (demote on destroy); otherwise it only removes the resource
 *   from the stack and the user keeps the role.
 *
 * @example
 * ```ts
 * import * as codesec from "pulumi-codesec";
 * const alice = new codesec.UserRole("alice", {
 *   deploymentId: "1001",
 *   userId: "502",
 *   role: "ORG_ROLE_ADMIN",
 *   roleOnDestroy: "ORG_ROLE_MEMBER",
 * });
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class UserRole extends pulumi.dynamic.Resource {
  /**
   * Looks up an existing UserRole by its id (`<deploymentId>/<key>`), as generated SDKs' `get` does:
   * the engine reads it and records it in the stack as a resource this program does not manage
   * (`pulumi destroy` forgets it and changes nothing). **Experimental**.
   *
   * The lookup uses the stack's default connection (stack config `codesec:baseUrl` and `codesec:token`,
   * else `CODESEC_BASE_URL` and `CODESEC_TOKEN`). It yields the role of the credentials' own user, read with operation 8; any other user is refused
   * at preview, since the platform cannot read another user's role.
   *
   * @example
   * ```ts
   * const me = codesec.UserRole.get("me", "1001/501"); // 501: the user behind the token
   * export const myRole = me.role;
   * ```
   */
  public static get(
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): UserRole {
    return new UserRole(name, undefined, { ...opts, id });
  }

  constructor(name: string, args: UserRoleArgs, opts?: pulumi.CustomResourceOptions);
  /** @internal A lookup by id: see {@link UserRole.get}. */
  constructor(
    name: string,
    args: undefined,
    opts: pulumi.CustomResourceOptions & { id: pulumi.Input<pulumi.ID> },
  );
  constructor(name: string, args: UserRoleArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider("UserRole"),
      name,
      declaredProps(userRoleDefinition, args),
      resourceOptions(userRoleDefinition, opts),
      "codesec",
      "UserRole",
    );
    warnAboutArguments(this, args, opts);
  }
}
