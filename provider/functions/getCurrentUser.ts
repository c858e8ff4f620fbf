import type { CurrentUser } from "../../api/schemas/users";
import type * as pulumi from "@pulumi/pulumi";
import { getCurrentUserDefinition } from "./definitions";
import {
  invokeFunction,
  outputForm,
  type CodeSecInvokeOptions,
  type CodeSecInvokeOutputOptions,
} from "./invokeOptions";

/** No arguments: the user is the one behind the credentials. */
export type GetCurrentUserArgs = Record<string, never>;

/** Result of {@link getCurrentUser}: the user behind the credentials. */
export type GetCurrentUserResult = CurrentUser;

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
): Promise<GetCurrentUserResult> {
  return invokeFunction(getCurrentUserDefinition, args, opts);
}

const currentUserOutput = outputForm((args: GetCurrentUserArgs, opts?: CodeSecInvokeOptions) =>
  getCurrentUser(args, opts),
);

/**
 * Output form of {@link getCurrentUser}; it takes no arguments. **Experimental**.
 *
 * @example
 * ```ts
 * export const whoami = codesec.getCurrentUserOutput().login;
 * ```
 */
export function getCurrentUserOutput(
  args?: GetCurrentUserArgs,
  opts?: CodeSecInvokeOutputOptions,
): pulumi.Output<GetCurrentUserResult> {
  return currentUserOutput(args ?? {}, opts);
}
