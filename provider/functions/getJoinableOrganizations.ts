import type { JoinableOrganizationsResponse } from "../../api/schemas/users";
import { getJoinableOrganizationsDefinition } from "./definitions";
import type * as pulumi from "@pulumi/pulumi";
import type { PulumiArgs } from "../pulumiTypes";
import {
  invokeFunction,
  outputForm,
  type CodeSecInvokeOptions,
  type CodeSecInvokeOutputOptions,
} from "./invokeOptions";

/** Arguments of {@link getJoinableOrganizations}. */
export interface GetJoinableOrganizationsArgs {
  /** The user to list for; must be the caller. Defaults to the caller. */
  userId?: string;
}

/** Result of {@link getJoinableOrganizations}: `orgs`, the organizations the user can join. */
export type GetJoinableOrganizationsResult = JoinableOrganizationsResponse;

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
): Promise<GetJoinableOrganizationsResult> {
  return invokeFunction(getJoinableOrganizationsDefinition, args, opts);
}

const joinableOrganizationsOutput = outputForm(
  (args: GetJoinableOrganizationsArgs, opts?: CodeSecInvokeOptions) => getJoinableOrganizations(args, opts),
);

/**
 * Output form of {@link getJoinableOrganizations}; the arguments are optional. **Experimental**.
 *
 * @example
 * ```ts
 * export const joinable = codesec.getJoinableOrganizationsOutput({}, { connection: "user" }).orgs;
 * ```
 */
export function getJoinableOrganizationsOutput(
  args?: PulumiArgs<GetJoinableOrganizationsArgs>,
  opts?: CodeSecInvokeOutputOptions,
): pulumi.Output<GetJoinableOrganizationsResult> {
  return joinableOrganizationsOutput(args ?? {}, opts);
}
