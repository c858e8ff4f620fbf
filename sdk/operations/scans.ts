/** Scans and branches: operations 6 (getScan) and 7 (getBranch). */
import { BranchResponse, ScanResponse, type Branch, type Scan } from "../schemas/scans";
import { argsObject } from "../inputValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export interface GetScanArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** Numeric scan id, as a string. */
  scanId: string;
}

export interface GetBranchArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** Numeric project id, as a string. */
  projectId: string;
  /** Numeric branch id, as a string. */
  branchId: string;
}

export async function getScan(transport: Transport, args: GetScanArgs): Promise<Scan> {
  const input = argsObject("getScan", args, "{ deploymentId, scanId }");
  const path = buildPath("getScan", input);
  const result = await transport.call({ operation: "getScan", path });
  return validateResponse(ScanResponse, result, "getScan").scan;
}

export async function getBranch(transport: Transport, args: GetBranchArgs): Promise<Branch> {
  const input = argsObject("getBranch", args, "{ deploymentId, projectId, branchId }");
  const path = buildPath("getBranch", input);
  const result = await transport.call({ operation: "getBranch", path });
  return validateResponse(BranchResponse, result, "getBranch").branch;
}
