import type { Branch } from "../../api/schemas/scans";
import { getBranchDefinition } from "./definitions";
import { invokeFunction, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

/** Arguments of {@link getBranch}. */
export interface GetBranchArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** Numeric project id, as a string. */
  projectId: string;
  /** Numeric branch id, as a string. */
  branchId: string;
}

/**
 * Reads one branch of a project (operation 7, `GET
 * /api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}`). **Experimental**.
 *
 * @example
 * ```ts
 * const branch = await codesec.getBranch({ deploymentId: "1001", projectId: "7001", branchId: "9101" });
 * console.log(branch.name); // refs/heads/main
 * ```
 */
/** Result of {@link getBranch}. */
export type GetBranchResult = Branch;

export async function getBranch(args: GetBranchArgs, opts?: CodeSecInvokeOptions): Promise<GetBranchResult> {
  return invokeFunction(getBranchDefinition, args, opts);
}

/**
 * Output form of {@link getBranch}. **Experimental**.
 *
 * @example
 * ```ts
 * export const branchName = codesec.getBranchOutput({ deploymentId, projectId, branchId }).name;
 * ```
 */
export const getBranchOutput = outputForm(getBranch);
