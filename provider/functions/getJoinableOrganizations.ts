import { ListJoinableOrganizationsArgs, type JoinableOrganizationsResponse } from "../../api/schemas/users";
import { clientForInvoke, functionArguments, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

/** Arguments of {@link getJoinableOrganizations}. */
export interface GetJoinableOrganizationsArgs {
  /** The user to list for; must be the caller. Defaults to the caller. */
  userId?: string;
}

/**
 * Organizations (deployments) the user can join (operation 9, `GET
 * /api/auth/users/current/deployments/joinable`). **Experimental**.
 *
 * The platform accepts only a user JWT here: with an API token it answers 403, and the error says so.
 * Pass a JWT with a named connection (`opts.connection`, see docs/credentials.md) or as `codesec:token`.
 *
 * @example
 * ```ts
 * // codesec:connections.user holds the user's JWT (pulumi config set --secret --path ...).
 * const { orgs } = await codesec.getJoinableOrganizations({}, { connection: "user" });
 * ```
 */
export async function getJoinableOrganizations(
  args?: GetJoinableOrganizationsArgs,
  opts?: CodeSecInvokeOptions,
): Promise<JoinableOrganizationsResponse> {
  const input = functionArguments("getJoinableOrganizations", ListJoinableOrganizationsArgs, args, {
    optional: true,
  });
  return clientForInvoke("getJoinableOrganizations", opts).listJoinableOrganizations(input);
}

/**
 * Output form of {@link getJoinableOrganizations}. **Experimental**.
 *
 * @example
 * ```ts
 * export const joinable = codesec.getJoinableOrganizationsOutput({}, { connection: "user" }).orgs;
 * ```
 */
export const getJoinableOrganizationsOutput = outputForm(
  (args: GetJoinableOrganizationsArgs, opts?: CodeSecInvokeOptions) => getJoinableOrganizations(args, opts),
);
