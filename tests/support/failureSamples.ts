/**
 * One failure of every class the package raises on purpose, and errors only a bug raises: what tests of
 * the provider's failure handling check every class against.
 */
import {
  CodeSecApiError,
  CodeSecError,
  CodeSecInputError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  CodeSecResponseError,
  CodeSecTimeoutError,
} from "../../client/errors";
import { STACK_CONFIG } from "../../provider/configOrigin";
import {
  CodeSecConnectionError,
  CodeSecResourceError,
  MissingCredentialsError,
  PlatformMismatchError,
  ProvisioningPartialFailure,
} from "../../provider/errors";

const ref = { operation: "getCurrentUser" } as const;
const attempts = { attempts: 1, retried: false, deadlineReached: false };

/** One instance of every class of failure the package raises on purpose. */
export const expectedFailures: Error[] = [
  new CodeSecError("bad client option"),
  new CodeSecInputError("scanId", "scanId must be a string"),
  new CodeSecApiError("HTTP 403", { ...ref, ...attempts, status: 403 }),
  new CodeSecRateLimitError("HTTP 429", { ...ref, ...attempts, status: 429, retryAfterMs: 1000 }),
  new CodeSecTimeoutError("timed out", { ...ref, ...attempts, timeoutMs: 10, requestMayHaveArrived: true }),
  new CodeSecNetworkError("refused", {
    ...ref,
    ...attempts,
    baseUrl: "http://x",
    requestMayHaveArrived: false,
  }),
  new CodeSecOutcomeUnknownError("unknown", { ...ref, ...attempts, failure: "timeout" }),
  new CodeSecResponseError("not JSON", { ...ref, status: 200 }),
  new CodeSecConnectionError("codesec:token", "codesec:token is blank"),
  new MissingCredentialsError(),
  new PlatformMismatchError(
    "http://old",
    "http://new",
    {
      source: "stack config",
      fields: { baseUrl: "codesec:baseUrl", token: "codesec:token" },
      origin: STACK_CONFIG,
      fromOrigin: true,
    },
    undefined,
    { type: "codesec:UserRole", id: "1001/502", step: "preview" },
  ),
  new ProvisioningPartialFailure("codesec:WorkflowProvisioning", "1001/ci", {
    deploymentId: "1001",
    repoFileUrls: {},
    errors: [{ code: "NO_REPO", message: "no repository", ids: ["7005"] }],
  }),
  new CodeSecResourceError(
    'codesec:ScmApp: no connected SCM app has request id "apprq-x" in deployment 1001.',
  ),
];

/** Errors that only a bug raises: they keep their stack. */
export const bugs: unknown[] = [
  new TypeError("Cannot read properties of undefined (reading 'role')"),
  new RangeError("Invalid time value"),
  new Error("something unexpected"),
  Object.assign(new Error("named like the client's"), { name: "CodeSecApiError" }),
];
