/** Scans and branches: `getScan` and `getBranch`. */
import { BranchResponse, ScanResponse } from "pulumi-codesec/api";
import { requireRole } from "../auth";
import { apiError } from "../errors";
import { operationRoute, type EmulatorContext } from "../operationRoute";
import type { EmulatorFastify } from "../typeProvider";

export function registerScanRoutes(app: EmulatorFastify, ctx: EmulatorContext): void {
  operationRoute(app, ctx, "getScan", { response: ScanResponse }, ({ params, caller }) => {
    const deploymentId = params.deploymentId;
    const scanId = params.scanId;
    requireRole(ctx.store, caller, deploymentId, "read");
    const scan = ctx.store.scan(scanId);
    // A scan of another deployment is "not found" here: ids never reveal other organizations' data.
    if (!scan || scan.deploymentId !== deploymentId) {
      throw apiError("NOT_FOUND", `no scan ${scanId} in deployment ${deploymentId}`);
    }
    return { scan };
  });

  operationRoute(app, ctx, "getBranch", { response: BranchResponse }, ({ params, caller }) => {
    const deploymentId = params.deploymentId;
    const projectId = params.projectId;
    const branchId = params.branchId;
    requireRole(ctx.store, caller, deploymentId, "read");
    const project = ctx.store.project(projectId);
    if (!project || project.deploymentId !== deploymentId) {
      throw apiError("NOT_FOUND", `no project ${projectId} in deployment ${deploymentId}`);
    }
    const branch = Number.isSafeInteger(Number(branchId)) ? ctx.store.branch(Number(branchId)) : undefined;
    if (!branch || String(branch.id) !== branchId || branch.projectId !== projectId) {
      throw apiError("NOT_FOUND", `no branch ${branchId} in project ${projectId}`);
    }
    return { branch: { id: branch.id, name: branch.name } };
  });
}
