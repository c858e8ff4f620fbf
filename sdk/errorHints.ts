/**
 * What to do about a failed status, per operation. The spec leaves non-200 answers open, so these
 * hints name the usual causes (token, permission, scope, JWT-only operation, id, migration) plainly.
 */
import { OPERATIONS, type OperationKey } from "./operations";

const TOKEN_SOURCES =
  "stack config codesec:token (set with --secret) or the CODESEC_TOKEN environment variable";
const BASE_URL_SOURCES = "codesec:baseUrl / CODESEC_BASE_URL";

export interface HintContext {
  operation: OperationKey;
  status: number;
  code?: string;
  /** `Location` header of a redirect (sanitized). */
  location?: string;
  /** Parsed `Retry-After` of the last answer, in ms. */
  retryAfterMs?: number;
}

/** One or two sentences telling the caller what to check or do next. */
export function hintFor(ctx: HintContext): string {
  const { operation, status, code } = ctx;
  if (status === 401) {
    return `Check the token: it is missing, malformed, expired or revoked. Set a valid API token or user JWT in ${TOKEN_SOURCES}.`;
  }
  if (status === 403 && operation === "listJoinableOrganizations") {
    return (
      "listJoinableOrganizations (operation 9) accepts only a user JWT, not an API token, and userId must be " +
      "the caller's own user id (omit it or pass the id that getCurrentUser returns)."
    );
  }
  if (status === 403) {
    return (
      "The token needs the Web API permission and no scope restriction (both set in the organization " +
      "settings' tokens section), and its user needs a role that allows this operation."
    );
  }
  if (status === 404) {
    const ids = Object.keys(OPERATIONS[operation].pathParams);
    const which = ids.length > 0 ? `the ids (${ids.join(", ")})` : "the ids in the request";
    return `Check ${which} and that the token's user can see the object (an API token also needs the Web API permission).`;
  }
  if (status === 410 && code === "DEPLOYMENT_MIGRATED") {
    return (
      "The deployment moved to the unified policies model, where this operation no longer applies; " +
      "manage it through the unified policies instead."
    );
  }
  if (status === 410) return "The object is gone; remove it from your configuration or recreate it.";
  if (status === 429) {
    const asked =
      ctx.retryAfterMs === undefined
        ? ""
        : ` (the platform asked to wait ${Math.ceil(ctx.retryAfterMs / 1000)} s before retrying)`;
    return `The platform is rate limiting this client${asked}; try again later, or run fewer operations in parallel (pulumi up --parallel).`;
  }
  if (status >= 500) return "The platform failed to answer; try again later.";
  if (status >= 300 && status < 400) {
    const where = ctx.location === undefined ? "" : ` to ${ctx.location}`;
    return `The server redirected${where}; set the base URL (${BASE_URL_SOURCES}) to the platform API's final address.`;
  }
  if (status === 400 || status === 422)
    return "The platform rejected the arguments; correct them and try again.";
  if (status === 409)
    return "The request conflicts with the object's current state; read it again, then retry.";
  return "Check the arguments and the base URL.";
}
