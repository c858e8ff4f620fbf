/**
 * The catalogue of the platform's ten operations: one row each, shared by the client (URL building,
 * path-parameter rules, error hints) and the emulator (routing, authentication rules).
 */
import type { Maturity } from "./schemas/common";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH";

/** Which bearer credentials an operation accepts. */
export type AuthScheme = "apiToken" | "jwt";

/**
 * How a path parameter must look. Every parameter is also non-empty, without `/`, `..` or control characters.
 */
export type PathParamKind = "numeric" | "opaque";

/**
 * When a failed request may be sent again (docs/api-behaviour.md, "Retry classes", says why for each row):
 * - `read`: changes nothing, so any transient failure (429, 502, 503, 504, a connection failure, a
 *   timeout, a cut-off answer) is retried;
 * - `idempotentWrite`: sets a state that a second identical request leaves as the first did, so it is
 *   retried like a read;
 * - `once`: a second request is not harmless (completing an SCM app request spends a one-time code), so it is
 *   repeated only when the first provably never reached the platform (connection refused, name not resolved,
 *   or an explicit 429 refusal); any other failure after sending is an outcome-unknown error.
 */
export type RetryClass = "read" | "idempotentWrite" | "once";

export interface OperationSpec {
  /** Number of the operation in the spec (1-10). */
  readonly number: number;
  /**
   * What it does, as user-facing text names it ("set a user's role"): a phrase that fits after "to" or
   * "could not", in lower case.
   */
  readonly summary: string;
  /** The platform's operation name where the spec gives one, else a descriptive one. */
  readonly operationName: string;
  readonly method: HttpMethod;
  /** Path template with `{param}` placeholders, exactly as in the spec. */
  readonly path: string;
  readonly pathParams: Readonly<Record<string, PathParamKind>>;
  readonly maturity: Maturity;
  readonly schemes: readonly AuthScheme[];
  /** When a failed request may be repeated; see {@link RetryClass}. */
  readonly retryClass: RetryClass;
}

/** Whether an operation changes anything on the platform (a preview must never call one). */
export function isMutating(operation: OperationSpec): boolean {
  return operation.retryClass !== "read";
}

const both: readonly AuthScheme[] = ["apiToken", "jwt"];

export const OPERATIONS = {
  updateUserRole: {
    number: 1,
    summary: "set a user's role",
    operationName: "DeploymentService_PatchDeploymentUser",
    method: "PATCH",
    path: "/api/agent/deployments/{deploymentId}/users/{userId}/roles",
    pathParams: { deploymentId: "numeric", userId: "opaque" },
    maturity: "experimental",
    schemes: both,
    retryClass: "idempotentWrite",
  },
  provisionWorkflows: {
    number: 2,
    summary: "provision CI workflows",
    operationName: "ProvisionCiWorkflow",
    method: "POST",
    path: "/api/agent/deployments/{deploymentId}/repos/_provision",
    pathParams: { deploymentId: "numeric" },
    maturity: "experimental",
    schemes: both,
    retryClass: "idempotentWrite",
  },
  completeScmAppRequest: {
    number: 3,
    summary: "complete an SCM app request",
    operationName: "CompleteScmAppRequest",
    method: "PUT",
    path: "/api/scm/app_request_complete",
    pathParams: {},
    maturity: "experimental",
    schemes: both,
    retryClass: "once",
  },
  getScmApp: {
    number: 4,
    summary: "read an SCM app",
    operationName: "GetScmApp",
    method: "GET",
    path: "/api/scm/deployments/{deploymentId}/scm_apps/{requestId}",
    pathParams: { deploymentId: "numeric", requestId: "opaque" },
    maturity: "experimental",
    schemes: both,
    retryClass: "read",
  },
  subscribeScmWebhook: {
    number: 5,
    summary: "subscribe an SCM configuration to webhooks",
    operationName: "SubscribeScmWebhook",
    method: "PUT",
    path: "/api/scm/deployments/{deploymentId}/subscriptions/{configId}",
    pathParams: { deploymentId: "numeric", configId: "opaque" },
    maturity: "experimental",
    schemes: both,
    retryClass: "idempotentWrite",
  },
  getScan: {
    number: 6,
    summary: "read a scan",
    operationName: "GetScan",
    method: "GET",
    path: "/api/v2/deployments/{deploymentId}/scans/{scanId}",
    pathParams: { deploymentId: "numeric", scanId: "numeric" },
    maturity: "beta",
    schemes: both,
    retryClass: "read",
  },
  getBranch: {
    number: 7,
    summary: "read a branch",
    operationName: "GetBranch",
    method: "GET",
    path: "/api/v2/deployments/{deploymentId}/projects/{projectId}/branches/{branchId}",
    pathParams: { deploymentId: "numeric", projectId: "numeric", branchId: "numeric" },
    maturity: "experimental",
    schemes: both,
    retryClass: "read",
  },
  getCurrentUser: {
    number: 8,
    summary: "read the current user",
    operationName: "GetCurrentUser",
    method: "GET",
    path: "/api/auth/users/current",
    pathParams: {},
    maturity: "experimental",
    schemes: both,
    retryClass: "read",
  },
  listJoinableOrganizations: {
    number: 9,
    summary: "list the joinable organizations",
    operationName: "ListJoinableOrganizations",
    method: "GET",
    path: "/api/auth/users/current/deployments/joinable",
    pathParams: {},
    maturity: "experimental",
    schemes: ["jwt"],
    retryClass: "read",
  },
  listNotificationRules: {
    number: 10,
    summary: "list notification rules",
    operationName: "ListNotificationRules",
    method: "POST",
    path: "/api/agent/deployments/{deploymentId}/actions/list",
    pathParams: { deploymentId: "numeric" },
    maturity: "experimental",
    schemes: both,
    retryClass: "read",
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationKey = keyof typeof OPERATIONS;

/**
 * The request line of an operation, `PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`: how
 * messages and docs name an operation. `path` is the path actually requested, when there is one.
 */
export function requestLine(operation: OperationKey, path: string = OPERATIONS[operation].path): string {
  const spec: OperationSpec = OPERATIONS[operation];
  return `${spec.method} ${path}`;
}

/**
 * How a message names the operation it is about, `getScan (GET /api/v2/deployments/42/scans/7)`: the
 * client's method name and the request line. `path` is the path actually requested, when there is one.
 */
export function operationLabel(operation: OperationKey, path?: string): string {
  return `${operation} (${requestLine(operation, path)})`;
}

/**
 * An operation as the reference docs and hover docs name it: what it does, its request and its maturity,
 * "set a user's role (`PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`, experimental)".
 */
export function describeOperation(operation: OperationKey): string {
  const spec: OperationSpec = OPERATIONS[operation];
  return `${spec.summary} (\`${requestLine(operation)}\`, ${spec.maturity})`;
}

/**
 * Largest request body the platform accepts, in bytes (the spec leaves it open; docs/api-behaviour.md
 * sets it). The client refuses to send a larger body, and the emulator answers 400 to one.
 */
export const REQUEST_BODY_LIMIT_BYTES = 64 * 1024;
