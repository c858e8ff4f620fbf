import { Type } from "@sinclair/typebox";
import type { CurrentUser } from "../../api/schemas/users";
import { clientForInvoke, functionArguments, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

const NoArguments = Type.Object({}, { additionalProperties: false });

/** No arguments: the user is the one behind the credentials. */
export type GetCurrentUserArgs = Record<string, never>;

/**
 * The user behind the credentials: role, e-mail, authentication details (operation 8, `GET
 * /api/auth/users/current`). With an API token this is the token's owner. **Experimental**.
 *
 * @example
 * ```ts
 * const me = await codesec.getCurrentUser();
 * console.log(me.login, me.orgRole);
 * ```
 */
export async function getCurrentUser(
  args?: GetCurrentUserArgs,
  opts?: CodeSecInvokeOptions,
): Promise<CurrentUser> {
  functionArguments("getCurrentUser", NoArguments, args, { optional: true });
  return clientForInvoke("getCurrentUser", opts).getCurrentUser();
}

/**
 * Output form of {@link getCurrentUser}. **Experimental**.
 *
 * @example
 * ```ts
 * export const whoami = codesec.getCurrentUserOutput({}).login;
 * ```
 */
export const getCurrentUserOutput = outputForm((args: GetCurrentUserArgs, opts?: CodeSecInvokeOptions) =>
  getCurrentUser(args, opts),
);
