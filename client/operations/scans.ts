/** Scans and branches: `getScan` and `getBranch`. */
import {
  BranchResponse,
  GetBranchArgs,
  GetScanArgs,
  ScanResponse,
  type Branch,
  type Scan,
} from "../../api/schemas/scans";
import { operationSubject, validateArguments } from "../argumentValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export async function getScan(transport: Transport, args: GetScanArgs): Promise<Scan> {
  const op = "getScan";
  const input = validateArguments(operationSubject(op), GetScanArgs, args);
  const result = await transport.call({ operation: op, path: buildPath(op, input) });
  return validateResponse(ScanResponse, result, op).scan;
}

export async function getBranch(transport: Transport, args: GetBranchArgs): Promise<Branch> {
  const op = "getBranch";
  const input = validateArguments(operationSubject(op), GetBranchArgs, args);
  const result = await transport.call({ operation: op, path: buildPath(op, input) });
  return validateResponse(BranchResponse, result, op).branch;
}

export type { GetScanArgs, GetBranchArgs };
