/** Scans and branches: `getScan` and `getBranch`. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described } from "../schemaIssues";
import { DateTime, NumericId } from "./common";

/** Arguments of `getScan`. */
export const GetScanArgs = Type.Object(
  {
    deploymentId: described(NumericId, "Deployment (organization) id."),
    scanId: described(NumericId, "The scan to read."),
  },
  { additionalProperties: false },
);
export type GetScanArgs = Static<typeof GetScanArgs>;

/** Arguments of `getBranch`. */
export const GetBranchArgs = Type.Object(
  {
    deploymentId: described(NumericId, "Deployment (organization) id."),
    projectId: described(NumericId, "The project (repository) the branch belongs to."),
    branchId: described(NumericId, "The branch to read."),
  },
  { additionalProperties: false },
);
export type GetBranchArgs = Static<typeof GetBranchArgs>;

export const FindingsCounts = Type.Object({
  total: described(Type.Integer(), "Findings of every kind."),
  code: described(Type.Integer(), "Findings in the code (static analysis)."),
  supplyChain: described(Type.Integer(), "Findings in dependencies (supply chain)."),
  secrets: described(Type.Integer(), "Secrets found in the code."),
});
export type FindingsCounts = Static<typeof FindingsCounts>;

export const Scan = Type.Object({
  id: described(NumericId, "The scan's id."),
  deploymentId: described(NumericId, "Deployment (organization) id."),
  projectId: described(NumericId, "The scanned project."),
  branchId: described(NumericId, "The scanned branch."),
  commit: described(Type.String(), "The scanned commit."),
  startTime: described(DateTime, "When the scan started."),
  completeTime: described(Type.Optional(DateTime), "When the scan completed; absent until then."),
  exitCode: described(
    Type.Optional(Type.Integer()),
    "The scanner's exit code; absent until the scan completes.",
  ),
  isFullScan: described(Type.Boolean(), "Whether the whole repository was scanned (not only a diff)."),
  // The spec leaves the unit open; docs/api-behaviour.md records the choice.
  duration: described(Type.Optional(Type.Number()), "How long the scan ran, in seconds."),
  findingsCounts: described(
    FindingsCounts,
    "Numbers of findings: `total`, `code`, `supplyChain`, `secrets` (integers).",
  ),
  status: described(
    Type.String(),
    "The scan's state, e.g. `SCAN_STATUS_RUNNING` (the only value the spec gives; the emulator's are in " +
      "docs/api-behaviour.md); an unknown value is kept as it comes.",
  ),
  enabledProducts: described(
    Type.Array(Type.String()),
    "Products the scan ran, e.g. `PRODUCT_SAST` (values the spec has seen; others are kept as they come).",
  ),
});
export type Scan = Static<typeof Scan>;

export const ScanResponse = Type.Object({ scan: Scan });
export type ScanResponse = Static<typeof ScanResponse>;

export const Branch = Type.Object({
  id: described(Type.Integer(), "The branch's id (an integer in this answer)."),
  name: described(Type.String(), "Full reference name: `refs/heads/<branch_name>`."),
});
export type Branch = Static<typeof Branch>;

export const BranchResponse = Type.Object({ branch: Branch });
export type BranchResponse = Static<typeof BranchResponse>;
