/** Scans and branches: operations 6 and 7. */
import { Type, type Static } from "@sinclair/typebox";
import { DateTime, NumericId } from "./common";

/** Arguments of `getScan` (operation 6). */
export const GetScanArgs = Type.Object(
  { deploymentId: NumericId, scanId: NumericId },
  { additionalProperties: false },
);
export type GetScanArgs = Static<typeof GetScanArgs>;

/** Arguments of `getBranch` (operation 7). */
export const GetBranchArgs = Type.Object(
  { deploymentId: NumericId, projectId: NumericId, branchId: NumericId },
  { additionalProperties: false },
);
export type GetBranchArgs = Static<typeof GetBranchArgs>;

export const FindingsCounts = Type.Object({
  total: Type.Integer(),
  code: Type.Integer(),
  supplyChain: Type.Integer(),
  secrets: Type.Integer(),
});
export type FindingsCounts = Static<typeof FindingsCounts>;

export const Scan = Type.Object({
  id: NumericId,
  deploymentId: NumericId,
  projectId: NumericId,
  branchId: NumericId,
  commit: Type.String(),
  startTime: DateTime,
  /** Absent while the scan has not completed. */
  completeTime: Type.Optional(DateTime),
  /** Absent while the scan has not completed. */
  exitCode: Type.Optional(Type.Integer()),
  isFullScan: Type.Boolean(),
  /** Seconds (the spec leaves the unit open; see docs/api-behaviour.md). */
  duration: Type.Optional(Type.Number()),
  findingsCounts: FindingsCounts,
  /** SCAN_STATUS_RUNNING is the value the spec gives; unknown values are kept as they come. */
  status: Type.String(),
  /** PRODUCT_SAST, PRODUCT_SCA, PRODUCT_SECRETS are the values the spec has seen; others are kept. */
  enabledProducts: Type.Array(Type.String()),
});
export type Scan = Static<typeof Scan>;

export const ScanResponse = Type.Object({ scan: Scan });
export type ScanResponse = Static<typeof ScanResponse>;

export const Branch = Type.Object({
  id: Type.Integer(),
  /** Full reference name: refs/heads/<branch_name>. */
  name: Type.String(),
});
export type Branch = Static<typeof Branch>;

export const BranchResponse = Type.Object({ branch: Branch });
export type BranchResponse = Static<typeof BranchResponse>;
