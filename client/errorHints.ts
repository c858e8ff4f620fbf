/**
 * What to do about a failure, per operation and cause. The spec leaves non-200 answers open, so these
 * hints name the usual causes in their likely order. They name client options and where they are set
 * (settingNames.ts: by default the stack config keys that set them), nothing else of Pulumi: the provider
 * adds its own advice.
 */
import { OPERATIONS, operationLabel, type OperationKey } from "../api/operations";
import type { SettingWords } from "./settingNames";

export interface HintContext {
  operation: OperationKey;
  /** Where the settings a hint names are set. */
  words: SettingWords;
  status: number;
  code?: string;
  /** `Location` header of a redirect (sanitized). */
  location?: string;
  /** The path part of the client's base URL, when it has one (e.g. `/codesec`). */
  baseUrlPath?: string;
}

/** One or two sentences telling the caller what to check or do next, for a non-2xx status. */
export function hintFor(ctx: HintContext): string {
  const { operation, status, code, words } = ctx;
  if (status === 401) {
    return `Check the token: it is missing, malformed, expired or revoked. Set a valid API token or user JWT where this connection's token is set (${words.token}).`;
  }
  if (status === 403) return forbiddenHint(operation);
  if (status === 404) return notFoundHint(ctx);
  if (status === 409) return conflictHint(operation);
  if (status === 410 && code === "DEPLOYMENT_MIGRATED") {
    return (
      "The deployment moved to the unified policies model, where this operation no longer applies; " +
      "manage it through the unified policies instead."
    );
  }
  if (status === 410) return "The object is gone; remove it from your configuration or recreate it.";
  if (status === 429)
    return "The platform is rate limiting this client; try again later, or send fewer requests at once.";
  if (status >= 500) {
    // A `once` operation never gets here with a 5xx: that is an outcome-unknown error instead.
    return "The platform failed to answer; this operation can be repeated without harm, so it is safe to run again (later, if the failure persists).";
  }
  if (status >= 300 && status < 400) {
    const where = ctx.location === undefined ? "" : ` to ${ctx.location}`;
    return (
      `The server redirected${where}; redirects are not followed (the credential goes to the configured host only). ` +
      `Set the base URL (${words.baseUrl}) to the platform API's final address.`
    );
  }
  if (status === 400 || status === 422) {
    return "The platform rejected the arguments; correct them and try again.";
  }
  return `Check the arguments and the base URL (${words.baseUrl}).`;
}

function forbiddenHint(operation: OperationKey): string {
  if (operation === "listJoinableOrganizations") {
    return (
      "listJoinableOrganizations accepts only a user JWT, not an API token, and userId must be " +
      "the caller's own user id (omit it or pass the id that getCurrentUser returns)."
    );
  }
  const credential =
    "an API token also needs the Web API permission and no scope restriction (both set in the organization settings' tokens section)";
  if ("deploymentId" in OPERATIONS[operation].pathParams) {
    return (
      "A credential reaches only its own organization's deployment: check deploymentId and which connection " +
      `(credential) is used; then its user's role, which must allow this operation; ${credential}.`
    );
  }
  return `Check the credential's user's role, which must allow this operation; ${credential}.`;
}

function notFoundHint(ctx: HintContext): string {
  const ids = Object.keys(OPERATIONS[ctx.operation].pathParams);
  const which = ids.length > 0 ? `the ids (${ids.join(", ")})` : "the ids in the request";
  const base = `Check ${which} and that the credential's user can see the object.`;
  if (ctx.baseUrlPath === undefined) return base;
  return (
    `${base} The base URL has the path ${ctx.baseUrlPath}, which is put in front of the operation's path ` +
    `(which already starts with /api/): if the platform is not served under ${ctx.baseUrlPath}, drop it from ` +
    `the base URL (${ctx.words.baseUrl}).`
  );
}

function conflictHint(operation: OperationKey): string {
  switch (operation) {
    case "updateUserRole":
      return (
        "The platform refused the change in the deployment's current state, for example demoting its last " +
        "ORG_ROLE_ADMIN: make another user admin first."
      );
    case "completeScmAppRequest":
      return (
        "The SCM app request is already completed: its one-time code cannot be used again; read the app with " +
        `${operationLabel("getScmApp")}.`
      );
    default:
      return "The request conflicts with the current state on the platform; its message says which state to change first.";
  }
}

/** Why an operation of retry class `once` is not sent again, and how to learn whether it took effect. */
export interface OutcomeAdvice {
  whyNotRepeated: string;
  howToCheck: string;
}

export function outcomeUnknownAdvice(operation: OperationKey): OutcomeAdvice {
  if (operation === "completeScmAppRequest") {
    return {
      whyNotRepeated: "a second request with the same one-time code would be refused",
      howToCheck:
        `To find out, read the app with ${operationLabel("getScmApp")}: ` +
        "if it returns the app, the request was completed; if it answers 404, it was not, and running again " +
        "with the same code is safe.",
    };
  }
  return {
    whyNotRepeated: "a second identical request is not harmless for this operation",
    howToCheck: "Read the object back to find out whether the platform applied it before running again.",
  };
}
