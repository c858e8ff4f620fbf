/** CI workflow provisioning: `provisionWorkflows`. */
import { isDeepStrictEqual } from "node:util";
import {
  ProvisionBody,
  ProvisionResult,
  type ProvisionError,
  type ProvisionFilters,
} from "pulumi-codesec/api";
import { requireRole } from "../auth";
import type { FixtureProject } from "../fixtureSchema";
import { operationRoute, type EmulatorContext } from "../operationRoute";
import type { EmulatorFastify } from "../typeProvider";
import { type ProvisionErrorCode } from "../vocabulary";
import { requireSameId } from "./users";

/** A partial failure without its ids; its code is one of the emulator's own (the spec fixes no set). */
interface Refusal extends Omit<ProvisionError, "ids" | "code"> {
  code: ProvisionErrorCode;
}

/** Where the workflow file goes in each repository. */
export const WORKFLOW_FILE_PATH = ".github/workflows/codesec.yml";

/** Whether a project matches every given filter (absent filters match everything). */
export function matchesFilters(project: FixtureProject, filters: ProvisionFilters): boolean {
  if (filters.search !== undefined && filters.search !== "") {
    const found = project.name.toLowerCase().includes(filters.search.toLowerCase());
    if (found === (filters.invertSearch === true)) return false;
  }
  if (filters.codeAccess !== undefined && project.codeAccess !== filters.codeAccess) return false;
  if (filters.lastScanSince !== undefined) {
    if (
      project.lastScanAt === undefined ||
      Date.parse(project.lastScanAt) < Date.parse(filters.lastScanSince)
    ) {
      return false;
    }
  }
  if (filters.setup !== undefined && project.setup !== filters.setup) return false;
  if (filters.archived !== undefined && project.archived !== filters.archived) return false;
  if (filters.ids !== undefined && !filters.ids.includes(project.id)) return false;
  if (filters.hasSmsSetup !== undefined && project.hasSmsSetup !== filters.hasSmsSetup) return false;
  if (filters.isScmRepository !== undefined && project.isScmRepository !== filters.isScmRepository)
    return false;
  if (filters.isLocalScanProject !== undefined && project.isLocalScanProject !== filters.isLocalScanProject) {
    return false;
  }
  if (filters.tagId !== undefined && !project.tagIds.includes(filters.tagId)) return false;
  return true;
}

/** URL of the workflow file in a project's repository. */
export function workflowFileUrl(project: FixtureProject): string {
  return `${project.repoUrl ?? ""}/blob/${project.defaultBranch ?? "main"}/${WORKFLOW_FILE_PATH}`;
}

/** Why a matching project cannot get the workflow, as an error entry (without ids), or undefined. */
function refusal(project: FixtureProject, deploymentId: string): Refusal | undefined {
  if (!project.isScmRepository || project.repoUrl === undefined) {
    return {
      code: "UPDATE_ERROR_CODE_BAD_REQUEST",
      message: `these projects of deployment ${deploymentId} have no SCM repository (local-scan projects)`,
    };
  }
  if (project.archived) {
    return {
      code: "UPDATE_ERROR_CODE_BAD_REQUEST",
      message: `these projects of deployment ${deploymentId} are archived; their repositories are read-only`,
    };
  }
  if (!project.codeAccess) {
    return {
      code: "UPDATE_ERROR_CODE_NO_CODE_ACCESS",
      message: `the platform has no code access to the repositories of these projects of deployment ${deploymentId}`,
    };
  }
  return undefined;
}

export function registerProvisioningRoutes(app: EmulatorFastify, ctx: EmulatorContext): void {
  operationRoute(
    app,
    ctx,
    "provisionWorkflows",
    { body: ProvisionBody, response: ProvisionResult },
    ({ params, body, caller }) => {
      const deploymentId = params.deploymentId;
      requireSameId("deploymentId", body.deploymentId, deploymentId);
      requireRole(ctx.store, caller, deploymentId, "admin");
      const filters = body.filters ?? {};
      const excluded = new Set(body.excludeIds ?? []);
      const projects = ctx.store.projects(deploymentId);
      const matching = projects.filter((p) => !excluded.has(p.id) && matchesFilters(p, filters));

      // Errors are grouped by code and reason, each listing the ids it affects (in request order).
      const errors: ProvisionError[] = [];
      const addError = (entry: Omit<ProvisionError, "ids">, id: string) => {
        const existing = errors.find((e) => e.code === entry.code && e.message === entry.message);
        if (existing) {
          if (!existing.ids.includes(id)) existing.ids.push(id);
        } else errors.push({ ...entry, ids: [id] });
      };
      const known = new Set(projects.map((p) => p.id));
      for (const id of filters.ids ?? []) {
        if (!known.has(id) && !excluded.has(id)) {
          addError(
            {
              code: "UPDATE_ERROR_CODE_NOT_FOUND",
              message: `no project with these ids in deployment ${deploymentId}`,
            },
            id,
          );
        }
      }

      const repoFileUrls: Record<string, string> = {};
      const ghaOptions = body.ghaOptions ?? {};
      for (const project of matching) {
        const reason = refusal(project, deploymentId);
        if (reason) {
          addError(reason, project.id);
          continue;
        }
        const fileUrl = workflowFileUrl(project);
        repoFileUrls[project.id] = fileUrl;
        // Writing the same workflow again changes nothing (no new commit, no state write).
        if (
          project.workflow?.fileUrl !== fileUrl ||
          !isDeepStrictEqual(project.workflow.ghaOptions, ghaOptions)
        ) {
          ctx.store.recordWorkflow(project.id, {
            fileUrl,
            provisionedAt: ctx
              .now()
              .toISOString()
              .replace(/\.\d{3}Z$/, "Z"),
            ghaOptions,
          });
        }
      }
      return { repoFileUrls, errors };
    },
  );
}
