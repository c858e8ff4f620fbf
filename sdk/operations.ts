/**
 * The catalogue of the platform's ten operations: one row each, shared by the client (URL building,
 * path-parameter rules, error hints) and the emulator (routing, authentication rules).
 */
import type { Maturity } from "./schemas/common";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH";

/** Which bearer credentials an operation accepts. */
export type AuthScheme = "apiToken" | "jwt";

/** How a path parameter must look. Every parameter is also non-empty, without `/`, `..` or control characters. */
export type PathParamKind = "numeric" | "opaque";

export interface OperationSpec {
  /** Number of the operation in the spec (1-10). */
  readonly number: number;
  /** The platform's operation name where the spec gives one, else a descriptive one. */
  readonly operationName: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` placeholders, exactly as in the spec. */
  readonly path: string;
  readonly pathParams: Readonly<Record<string, PathParamKind>>;
  readonly maturity: Maturity;
  readonly schemes: readonly AuthScheme[];
  /** Writes must never be retried after a response; all of these are idempotent, but say so explicitly. */
  readonly mutating: boolean;
}

const both: readonly AuthScheme[] = ["apiToken", "jwt"];

export const OPERATIONS = {
  updateUserRole: {
    number: 1,
    operationName: "DeploymentService_PatchDeploymentUser",
    method: "PATCH",
    path: "/api/agent/deployments/{deploymentId}/users/{userId}/roles",
    pathParams: { deploymentId: "numeric", userId: "opaque" },
    maturity: "experimental",
    schemes: both,
    mutating: true,
  },
  provisionWorkflows: {
    number: 2,
    operationName: "ProvisionCiWorkflow",
    method: "POST",
    path: "/api/agent/deployments/{deploymentId}/repos/_provision",
    pathParams: { deploymentId: "numeric" },
    maturity: "experimental",
    schemes: both,
    mutating: true,
  },
  completeScmAppRequest: {
    number: 3,
    operationName: "CompleteScmAppRequest",
    method: "PUT",
    path: "/api/scm/app_request_complete",
    pathParams: {},
    maturity: "experimental",
    schemes: both,
    mutating: true,
  },
  getScmApp: {
    number: 4,
    operationName: "GetScmApp",
    method: "GET",
    path: "/api/scm/deployments/{deploymentId}/scm_apps/{requestId}",
    pathParams: { deploymentId: "numeric", requestId: "opaque" },
    maturity: "experimental",
    schemes: both,
    mutating: false,
  },
  subscribeScmWebhook: {
    number: 5,
    operationName: "SubscribeScmWebhook",
    method: "PUT",
    path: "/api/scm/deployments/{deploymentId}/subscriptions/{configId}",
    pathParams: { deploymentId: "numeric", configId: "opaque" },
    maturity: "experimental",
    schemes: both,
    mutating: true,
  },
  getScan: {
    number: 6,
    operationName: "GetScan",
    method: "GET",
    path: "/api/v2/deployments/{deploymentId}/scans/{scanId}",
    pathParams: { deploymentId: "numeric", scanId: "numeric" },
    maturity: "beta",
    schemes: both,
    mutating: false,
  },
  getBranch: {
    number: 7,
    operationName: "GetBranch",
    method: "GET",
    path: "/api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}",
    pathParams: { deploymentId: "numeric", projectId: "numeric", branchId: "numeric" },
    maturity: "experimental",
    schemes: both,
    mutating: false,
  },
  getCurrentUser: {
    number: 8,
    operationName: "GetCurrentUser",
    method: "GET",
    path: "/api/auth/users/current",
    pathParams: {},
    maturity: "experimental",
    schemes: both,
    mutating: false,
  },
  listJoinableOrganizations: {
    number: 9,
    operationName: "ListJoinableOrganizations",
    method: "GET",
    path: "/api/auth/users/current/deployments/joinable",
    pathParams: {},
    maturity: "experimental",
    schemes: ["jwt"],
    mutating: false,
  },
  listNotificationRules: {
    number: 10,
    operationName: "ListNotificationRules",
    method: "POST",
    path: "/api/agent/deployments/{deploymentId}/actions/list",
    pathParams: { deploymentId: "numeric" },
    maturity: "experimental",
    schemes: both,
    mutating: false,
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationKey = keyof typeof OPERATIONS;
