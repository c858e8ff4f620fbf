import type { Scan } from "../../api/schemas/scans";
import { getScanDefinition } from "./definitions";
import { invokeFunction, outputForm, type CodeSecInvokeOptions } from "./invokeOptions";

/** Arguments of {@link getScan}. */
export interface GetScanArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  /** Numeric scan id, as a string. */
  scanId: string;
}

/**
 * Reads one scan (operation 6, `GET /api/v2/deployments/{deploymentId}/scans/{scanId}`). **Beta**.
 *
 * @example
 * ```ts
 * const scan = await codesec.getScan({ deploymentId: "1001", scanId: "3001" });
 * console.log(scan.status, scan.findingsCounts.total);
 * ```
 */
/** Result of {@link getScan}. */
export type GetScanResult = Scan;

export async function getScan(args: GetScanArgs, opts?: CodeSecInvokeOptions): Promise<GetScanResult> {
  return invokeFunction(getScanDefinition, args, opts);
}

/**
 * Output form of {@link getScan}: arguments may be Outputs. **Beta**.
 *
 * @example
 * ```ts
 * export const scanStatus = codesec.getScanOutput({ deploymentId, scanId }).status;
 * ```
 */
export const getScanOutput = outputForm(getScan);
