/**
 * The client's errors, in one place: the classes every failure is one of, and every message of a failed
 * call, built here and nowhere else. Callers branch with `instanceof` and read structured fields instead
 * of parsing messages. None of them ever holds the token: errors are built from sanitized text only, and
 * carry no reference to the request (headers) or the client.
 *
 * First the error classes, then their messages: what every message is built from (the subject it opens
 * with, what it knows of the call), a failed call (status, timeout, network, cut-off answer), an unknown
 * outcome, an unusable answer, and the advice after an error status, per status and operation. A bad
 * argument's or option's message is built where it is checked (argumentValidation.ts, requestBody.ts,
 * the option checks), as it says what that check found; it still opens with {@link messageSubject}.
 * Reading a failed answer's body is errorBody.ts, a parser that builds no text.
 */
import { OPERATIONS, operationLabel, type OperationKey } from "../api/operations";
import { parseErrorBody } from "./errorBody";
import { headerValue, type AnswerHeaders, type HttpOutcome } from "./http";
import { MAX_RETRY_AFTER_MS, retryAfterOf, type RetryWait } from "./retryPolicy";
import type { SettingWords } from "./settingNames";
import type { CallResult } from "./transport";

// ---------------------------------------------------------------------------------------------------
// The error classes
// ---------------------------------------------------------------------------------------------------

/** Which operation failed; absent for errors raised before any operation (bad client options). */
export interface OperationRef {
  /** Client method name, e.g. `getScan`. */
  readonly operation: OperationKey;
  /** @deprecated Ignored: the number is read from the catalogue. */
  readonly operationNumber?: number;
}

/** Base class of every error the client throws. */
export class CodeSecError extends Error {
  /** Client method name, e.g. `getScan`; undefined for a bad client option. */
  declare readonly operation?: OperationKey;
  /**
   * @deprecated The operation's number in the platform spec, which means nothing to a reader: use
   * `operation`, or `requestLine(error.operation)` from `pulumi-codesec/api` for its method and path.
   * Still readable, but left out of `toJSON()`, `util.inspect` and `Object.keys`.
   */
  declare readonly operationNumber?: number;

  constructor(message: string, ref?: OperationRef) {
    super(message);
    this.name = new.target.name;
    if (ref !== undefined) {
      this.operation = ref.operation;
      Object.defineProperty(this, "operationNumber", {
        value: OPERATIONS[ref.operation].number,
        enumerable: false,
      });
    }
  }

  /** Structured form for logs: `message` and `name` are not enumerable on an Error, so add them. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, ...Object.fromEntries(Object.entries(this)) };
  }
}

/** An argument (or a client option) is invalid; raised before any request is sent. */
export class CodeSecInputError extends CodeSecError {
  /** The argument at fault, e.g. `scanId`, `filters.tagId`, `baseUrl`. */
  readonly field: string;

  constructor(field: string, message: string, ref?: OperationRef) {
    super(message, ref);
    this.field = field;
  }
}

/** Attempt bookkeeping shared by the errors raised after at least one request. */
export interface AttemptInfo {
  /** Requests sent for this call, retries included. */
  readonly attempts: number;
  /** Whether the call was retried (attempts > 1). */
  readonly retried: boolean;
  /** Whether the call's overall deadline (client option `deadlineMs`) ended the retries. */
  readonly deadlineReached: boolean;
}

function assignAttempts(
  target: { -readonly [K in keyof AttemptInfo]: AttemptInfo[K] },
  info: AttemptInfo,
): void {
  target.attempts = info.attempts;
  target.retried = info.retried;
  target.deadlineReached = info.deadlineReached;
}

/** What a {@link CodeSecApiError} records of the answer, beside the operation and the attempts. */
export interface ApiErrorDetails extends OperationRef, AttemptInfo {
  status: number;
  code?: string;
  platformMessage?: string;
  requestId?: string;
}

/** The platform answered with a non-2xx status. */
export class CodeSecApiError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  /** @deprecated See {@link CodeSecError.operationNumber}. */
  declare readonly operationNumber: number;
  /** HTTP status of the last attempt. */
  readonly status: number;
  /** The platform's error code (e.g. `NOT_FOUND`, `DEPLOYMENT_MIGRATED`), when the body names one. */
  declare readonly code?: string;
  /** What the platform said (sanitized and truncated). */
  declare readonly platformMessage?: string;
  /** From the `x-request-id` header, else from the body: quote it when reporting a problem. */
  declare readonly requestId?: string;
  declare readonly attempts: number;
  declare readonly retried: boolean;
  declare readonly deadlineReached: boolean;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details);
    this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    if (details.platformMessage !== undefined) this.platformMessage = details.platformMessage;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    assignAttempts(this, details);
  }
}

/**
 * The platform answered 429 (too many requests) and the call ended there: the `Retry-After` it asked
 * for was above the client's cap (`maxRetryDelayMs`) or past the call's deadline, or the retries ran out.
 */
export class CodeSecRateLimitError extends CodeSecApiError {
  /** The wait the platform asked for (`Retry-After`), in ms, when it gave one. */
  declare readonly retryAfterMs?: number;
  /** When the platform accepts requests again (ISO 8601), when it gave a `Retry-After`. */
  declare readonly retryAt?: string;

  constructor(message: string, details: ApiErrorDetails & { retryAfterMs?: number; retryAt?: string }) {
    super(message, details);
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.retryAt !== undefined) this.retryAt = details.retryAt;
  }
}

/** No complete answer arrived within the attempt's timeout. */
export class CodeSecTimeoutError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  /** @deprecated See {@link CodeSecError.operationNumber}. */
  declare readonly operationNumber: number;
  /** The last attempt's timeout: client option `timeoutMs`, or less when the deadline was nearer. */
  readonly timeoutMs: number;
  /** False only when the last attempt timed out before its connection was established. */
  readonly requestMayHaveArrived: boolean;
  declare readonly attempts: number;
  declare readonly retried: boolean;
  declare readonly deadlineReached: boolean;

  constructor(
    message: string,
    details: OperationRef & AttemptInfo & { timeoutMs: number; requestMayHaveArrived: boolean },
  ) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
    this.requestMayHaveArrived = details.requestMayHaveArrived;
    assignAttempts(this, details);
  }
}

/** The platform could not be reached (refused, reset, DNS, TLS) or the connection broke mid-answer. */
export class CodeSecNetworkError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  /** @deprecated See {@link CodeSecError.operationNumber}. */
  declare readonly operationNumber: number;
  /** The client's base URL (never the token). */
  readonly baseUrl: string;
  /** System error code, e.g. `ECONNREFUSED`, when known. */
  declare readonly code?: string;
  /**
   * False only when the last attempt failed before its connection was established (name not
   * resolved, refused, unreachable): then the platform provably never received the request.
   */
  readonly requestMayHaveArrived: boolean;
  /** True when the connection closed in the middle of a 2xx answer's body (a cut-off answer). */
  readonly truncated: boolean;
  declare readonly attempts: number;
  declare readonly retried: boolean;
  declare readonly deadlineReached: boolean;

  constructor(
    message: string,
    details: OperationRef &
      AttemptInfo & { baseUrl: string; code?: string; requestMayHaveArrived: boolean; truncated?: boolean },
  ) {
    super(message, details);
    this.baseUrl = details.baseUrl;
    if (details.code !== undefined) this.code = details.code;
    this.requestMayHaveArrived = details.requestMayHaveArrived;
    this.truncated = details.truncated === true;
    assignAttempts(this, details);
  }
}

/** What ended an operation whose outcome is unknown. */
export type OutcomeUnknownFailure = "timeout" | "network" | "truncated" | "status";

/**
 * An operation that must not be repeated blindly (retry class `once`: `completeScmAppRequest` spends a
 * one-time code) failed after its request may have reached the platform, so it was not sent again and whether
 * the platform acted is unknown. The message says how to find out.
 */
export class CodeSecOutcomeUnknownError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  /** @deprecated See {@link CodeSecError.operationNumber}. */
  declare readonly operationNumber: number;
  /**
   * What happened to the last attempt: no answer in time, a broken connection, a cut-off answer, or a 5xx.
   */
  readonly failure: OutcomeUnknownFailure;
  /** The HTTP status, when the platform answered one (failure `status`, or a cut-off answer's status). */
  declare readonly status?: number;
  /** System error code, when failure is `network` and it is known. */
  declare readonly code?: string;
  declare readonly attempts: number;
  declare readonly retried: boolean;
  declare readonly deadlineReached: boolean;

  constructor(
    message: string,
    details: OperationRef & AttemptInfo & { failure: OutcomeUnknownFailure; status?: number; code?: string },
  ) {
    super(message, details);
    this.failure = details.failure;
    if (details.status !== undefined) this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    assignAttempts(this, details);
  }
}

/** A 2xx answer that cannot be used: not JSON, not the documented shape, or too large. Never retried. */
export class CodeSecResponseError extends CodeSecError {
  declare readonly operation: OperationKey;
  /** @deprecated See {@link CodeSecError.operationNumber}. */
  declare readonly operationNumber: number;
  readonly status: number;
  /** Dotted path of the offending field, e.g. `scan.findingsCounts.total`; `""` for the whole body. */
  declare readonly fieldPath?: string;
  /** What the schema expects there, e.g. `integer`. */
  declare readonly expected?: string;
  declare readonly requestId?: string;

  constructor(
    message: string,
    details: OperationRef & { status: number; fieldPath?: string; expected?: string; requestId?: string },
  ) {
    super(message, details);
    this.status = details.status;
    if (details.fieldPath !== undefined) this.fieldPath = details.fieldPath;
    if (details.expected !== undefined) this.expected = details.expected;
    if (details.requestId !== undefined) this.requestId = details.requestId;
  }
}

// ---------------------------------------------------------------------------------------------------
// What every message is built from: its subject, and what it knows of the call
// ---------------------------------------------------------------------------------------------------

/**
 * The subject every message about an operation opens with, `CodeSec getScan (GET
 * /api/v2/deployments/42/scans/7)`; `path` is the path actually requested, when there is one.
 */
export function messageSubject(operation: OperationKey, path?: string): string {
  return `CodeSec ${operationLabel(operation, path)}`;
}

/**
 * The failure of the last attempt, with what the message needs: the attempt's own outcome where it says
 * enough.
 */
export type CallFailure =
  | { kind: "status"; status: number; headers: AnswerHeaders; text: string }
  | Extract<HttpOutcome, { kind: "timeout" | "network" | "truncated" }>
  | { kind: "unusable"; status: number; headers: AnswerHeaders; problem: string };

/** Why the retries stopped early, when they did. */
export type RetryStop = Exclude<RetryWait, { kind: "wait" }>;

/**
 * How messages name a call's deadline when something other than the `deadlineMs` option chose it (the
 * native provider passes a resource's customTimeouts as the deadline): `limit` names the limit that was
 * reached (`the resource's customTimeouts (31 s for this step)`), `raise` what to raise to allow more
 * (`the resource's customTimeouts`). Without one, messages name `deadlineMs` and where it is set
 * (settingNames.ts). Not a setting name: `settingNames.deadlineMs` says where `deadlineMs` is set, and
 * messages quote its value beside it (`deadlineMs 300 ms, ...`); a label replaces both, as `deadlineMs`
 * did not choose the deadline.
 */
export interface DeadlineLabel {
  readonly limit: string;
  readonly raise: string;
}

/** What a failed call's message needs to know about the call. */
export interface FailureContext {
  operation: OperationKey;
  path: string;
  baseUrl: string;
  attempts: number;
  clean: (text: string, max?: number) => string;
  /** The last attempt's timeout (the option, or less when the deadline was nearer). */
  timeoutMs: number;
  /** The client options, for messages. */
  options: {
    timeoutMs: number;
    deadlineMs: number;
    maxRetryDelayMs: number;
    deadlineLabel?: DeadlineLabel | undefined;
  };
  /** Where the caller's users set each setting a message names (settingNames.ts). */
  words: SettingWords;
  /** When the last attempt's answer arrived (for `retryAt`). */
  receivedAt: number;
}

/** The subject of a failed call's message: the operation and the path requested. */
function labelOf(ctx: FailureContext): string {
  return messageSubject(ctx.operation, ctx.path);
}

function afterAttempts(ctx: FailureContext): string {
  return ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
}

/**
 * The words for the deadline of `ctx`'s call: its label, else the `deadlineMs` option and where it is set.
 */
function deadlineWords(ctx: FailureContext): { limit: string; value: string; raise: string } {
  const label = ctx.options.deadlineLabel;
  if (label !== undefined) return { limit: label.limit, value: label.limit, raise: label.raise };
  return {
    limit: `deadlineMs ${ctx.options.deadlineMs} ms, ${ctx.words.deadlineMs}`,
    value: `deadlineMs ${ctx.options.deadlineMs} ms`,
    raise: ctx.words.raiseDeadlineMs,
  };
}

function deadlineSentence(ctx: FailureContext): string {
  return `The call's deadline was reached (${deadlineWords(ctx).limit}), so it was not tried again.`;
}

// ---------------------------------------------------------------------------------------------------
// A failed call: the failure that ended it, as its typed error
// ---------------------------------------------------------------------------------------------------

/**
 * The typed error for the failure that ended a call: which operation, what happened (the status and what
 * the platform said, sanitized), and what to do. `stop` says why the retries stopped early, when they did.
 */
export function failureError(ctx: FailureContext, failure: CallFailure, stop?: RetryStop): CodeSecError {
  const timedOutAtDeadline = failure.kind === "timeout" && ctx.timeoutMs < ctx.options.timeoutMs;
  const deadlineReached = stop?.kind === "pastDeadline" || timedOutAtDeadline;
  const ref: OperationRef & AttemptInfo = {
    operation: ctx.operation,
    attempts: ctx.attempts,
    retried: ctx.attempts > 1,
    deadlineReached,
  };
  const deadline = deadlineReached ? ` ${deadlineSentence(ctx)}` : "";
  const label = labelOf(ctx);
  const after = afterAttempts(ctx);
  const { baseUrl, words } = ctx;

  switch (failure.kind) {
    case "timeout": {
      const within = timedOutAtDeadline
        ? `${ctx.timeoutMs} ms (the time left before the deadline; timeoutMs is ${ctx.options.timeoutMs} ms)`
        : `${ctx.timeoutMs} ms (timeoutMs)`;
      return new CodeSecTimeoutError(
        `${label} timed out${after}: no complete answer from ${baseUrl} within ${within}.${deadline} ` +
          "The platform is slow or unreachable; it is safe to run again later. " +
          waitLonger(ctx, deadlineReached, timedOutAtDeadline),
        { ...ref, timeoutMs: ctx.timeoutMs, requestMayHaveArrived: failure.mayHaveArrived },
      );
    }
    case "network": {
      const reason = ctx.clean(failure.reason, 200);
      const code = failure.code === undefined ? "" : ` (${ctx.clean(failure.code, 40)})`;
      const what = failure.mayHaveArrived
        ? `lost the connection to ${baseUrl}${after}: ${reason}${code}.`
        : `could not reach ${baseUrl}${after}: ${reason}${code}; the request never reached the platform.`;
      return new CodeSecNetworkError(
        `${label} ${what}${deadline} Check the base URL (${words.baseUrl}) and that the platform is ` +
          `reachable from this machine; it is safe to run again.`,
        {
          ...ref,
          baseUrl,
          requestMayHaveArrived: failure.mayHaveArrived,
          ...(failure.code === undefined ? {} : { code: ctx.clean(failure.code, 40) }),
        },
      );
    }
    case "truncated": {
      const of = failure.expectedBytes === undefined ? "" : ` of ${failure.expectedBytes}`;
      return new CodeSecNetworkError(
        `${label}: the connection to ${baseUrl} closed before the whole answer arrived${after} (HTTP ` +
          `${failure.status}, ${failure.receivedBytes}${of} bytes of the body).${deadline} ` +
          "The platform or a proxy on the way dropped it; it is safe to run again.",
        { ...ref, baseUrl, requestMayHaveArrived: true, truncated: true },
      );
    }
    case "unusable": {
      const requestId = headerValue(failure.headers, "x-request-id");
      return responseError(
        ctx.operation,
        {
          status: failure.status,
          path: ctx.path,
          ...(requestId === undefined ? {} : { requestId: ctx.clean(requestId, 100) }),
        },
        // The problem may quote a header (an unknown Content-Encoding): server text.
        ctx.clean(failure.problem, 200),
      );
    }
    case "status":
      return statusError(ctx, failure, ref, stop, deadline);
  }
}

function statusError(
  ctx: FailureContext,
  failure: Extract<CallFailure, { kind: "status" }>,
  ref: OperationRef & AttemptInfo,
  stop: RetryStop | undefined,
  deadline: string,
): CodeSecApiError {
  const { clean } = ctx;
  const parsed = parseErrorBody(failure.text);
  const rawId = headerValue(failure.headers, "x-request-id") ?? parsed.requestId;
  const requestId = rawId === undefined ? undefined : clean(rawId, 100);
  const code = parsed.code === undefined ? undefined : clean(parsed.code, 80);
  const platformMessage = parsed.message === undefined ? undefined : clean(parsed.message, 300) || undefined;
  const location = headerValue(failure.headers, "location");
  const baseUrlPath = new URL(ctx.baseUrl).pathname.replace(/\/+$/, "");
  const details = {
    ...ref,
    status: failure.status,
    ...(code === undefined ? {} : { code }),
    ...(platformMessage === undefined ? {} : { platformMessage }),
    ...(requestId === undefined ? {} : { requestId }),
  };
  const what =
    `${labelOf(ctx)} ${failure.status === 429 ? "was rate limited" : "failed"}${afterAttempts(ctx)}: ` +
    `HTTP ${failure.status}${code === undefined ? "" : ` ${code}`}` +
    `${platformMessage === undefined ? "" : `: ${platformMessage}`}` +
    `${requestId === undefined ? "" : ` (request id ${requestId})`}.`;

  const retryAfterMs = retryAfterOf(failure, ctx.receivedAt);
  const retryAt =
    retryAfterMs === undefined ? undefined : new Date(ctx.receivedAt + retryAfterMs).toISOString();
  const wait = retryAfterMs === undefined ? "" : waitSentence(ctx, retryAfterMs, retryAt!, stop);
  const hint = hintFor({
    operation: ctx.operation,
    words: ctx.words,
    status: failure.status,
    ...(code === undefined ? {} : { code }),
    ...(location === undefined ? {} : { location: clean(location, 200) }),
    ...(baseUrlPath === "" ? {} : { baseUrlPath: clean(baseUrlPath, 100) }),
  });
  if (failure.status === 429) {
    // The platform's own wait, when it named one, is the advice.
    return new CodeSecRateLimitError(`${what}${wait === "" ? `${deadline} ${hint}` : wait}`, {
      ...details,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs, retryAt }),
    });
  }
  return new CodeSecApiError(`${what}${wait === "" ? deadline : wait} ${hint}`, details);
}

/** What the platform's `Retry-After` means for the caller, given why the retries stopped. */
function waitSentence(ctx: FailureContext, retryAfterMs: number, retryAt: string, stop?: RetryStop): string {
  // A longer wait was read as the cap (retryPolicy.ts): say so rather than quote a number it did not send.
  const asked =
    retryAfterMs >= MAX_RETRY_AFTER_MS
      ? `The platform asks to wait ${MAX_RETRY_AFTER_MS / 1000} s or more (until ${retryAt} or later)`
      : `The platform asks to wait ${Math.ceil(retryAfterMs / 1000)} s (until ${retryAt})`;
  if (stop?.kind === "retryAfterAboveCap") {
    return (
      ` ${asked}, longer than this client waits on its own ` +
      `(maxRetryDelayMs ${ctx.options.maxRetryDelayMs} ms). ` +
      `Run again after that time, or raise the cap: ${ctx.words.raiseMaxRetryDelayMs}.`
    );
  }
  if (stop?.kind === "pastDeadline") {
    const deadline = deadlineWords(ctx);
    return (
      ` ${asked}, past the call's deadline (${deadline.value}). Run again after that time, ` +
      `or raise the deadline: ${deadline.raise}.`
    );
  }
  return ` ${asked}; run again after that time.`;
}

/**
 * What to raise after a timeout: the limit that ended the wait. An attempt cut short by the call's deadline
 * was ended by that deadline (a resource's customTimeouts, or deadlineMs), which timeoutMs cannot lengthen;
 * after earlier attempts ran their full timeoutMs, both bound the wait.
 */
function waitLonger(ctx: FailureContext, deadlineReached: boolean, timedOutAtDeadline: boolean): string {
  const timeoutMs = ctx.words.timeoutMs;
  if (!deadlineReached) return `To wait longer, raise timeoutMs (${timeoutMs}).`;
  const deadline = `To wait longer, raise the deadline: ${deadlineWords(ctx).raise}`;
  return timedOutAtDeadline && ctx.attempts === 1
    ? `${deadline}.`
    : `${deadline}; each attempt is also bounded by timeoutMs (${timeoutMs}).`;
}

// ---------------------------------------------------------------------------------------------------
// An unknown outcome: a call that must not be repeated blindly
// ---------------------------------------------------------------------------------------------------

/** The request may have reached the platform, and repeating it is not harmless: say so, and how to check. */
export function outcomeUnknownError(ctx: FailureContext, failure: CallFailure): CodeSecOutcomeUnknownError {
  const { whyNotRepeated, howToCheck } = outcomeUnknownAdvice(ctx.operation);
  let kind: OutcomeUnknownFailure;
  let happened: string;
  let status: number | undefined;
  let code: string | undefined;
  // The attempt had less than timeoutMs when the call's deadline was nearer: that deadline is the limit.
  let deadlineReached = false;
  switch (failure.kind) {
    case "timeout":
      kind = "timeout";
      deadlineReached = ctx.timeoutMs < ctx.options.timeoutMs;
      happened = deadlineReached
        ? `no complete answer arrived within ${ctx.timeoutMs} ms, the time left before the call's deadline ` +
          `(${deadlineWords(ctx).limit})`
        : `no complete answer arrived within ${ctx.timeoutMs} ms (timeoutMs)`;
      break;
    case "network":
      kind = "network";
      code = failure.code === undefined ? undefined : ctx.clean(failure.code, 40);
      happened =
        `the connection broke (${ctx.clean(failure.reason, 200)}` +
        `${code === undefined ? "" : `, ${code}`})`;
      break;
    case "truncated":
      kind = "truncated";
      status = failure.status;
      happened = `the connection closed in the middle of the answer (HTTP ${failure.status})`;
      break;
    default: {
      kind = "status";
      status = failure.status;
      const said = failure.kind === "status" ? parseErrorBody(failure.text).message : undefined;
      happened =
        `the platform answered HTTP ${failure.status}` +
        `${said === undefined ? "" : ` (${ctx.clean(said, 200)})`}`;
    }
  }
  return new CodeSecOutcomeUnknownError(
    `${labelOf(ctx)}: the outcome is unknown: ${happened}${afterAttempts(ctx)}, after the request may have ` +
      `reached the platform. It was not sent again, because ${whyNotRepeated}. ${howToCheck}`,
    {
      operation: ctx.operation,
      attempts: ctx.attempts,
      retried: ctx.attempts > 1,
      deadlineReached,
      failure: kind,
      ...(status === undefined ? {} : { status }),
      ...(code === undefined ? {} : { code }),
    },
  );
}

/** Why an operation of retry class `once` is not sent again, and how to learn whether it took effect. */
interface OutcomeAdvice {
  whyNotRepeated: string;
  howToCheck: string;
}

function outcomeUnknownAdvice(operation: OperationKey): OutcomeAdvice {
  if (operation === "completeScmAppRequest") {
    return {
      whyNotRepeated: "a second request with the same one-time code would be refused",
      howToCheck:
        `To find out, read the app with ${operationLabel("getScmApp")}: ` +
        "if it returns the app, the request was completed; if it answers 404, it was not, and running " +
        "again with the same code is safe.",
    };
  }
  return {
    whyNotRepeated: "a second identical request is not harmless for this operation",
    howToCheck: "Read the object back to find out whether the platform applied it before running again.",
  };
}

// ---------------------------------------------------------------------------------------------------
// An unusable answer: a body the client cannot use
// ---------------------------------------------------------------------------------------------------

/** A CodeSecResponseError with the standard wording (operation, what is wrong, what to do). */
export function responseError(
  operation: OperationKey,
  result: Pick<CallResult, "status" | "requestId" | "path">,
  problem: string,
  fieldPath?: string,
  expected?: string,
): CodeSecResponseError {
  const spec = OPERATIONS[operation];
  const requestId = result.requestId === undefined ? "" : ` (request id ${result.requestId})`;
  const message =
    `${messageSubject(operation, result.path)}: the platform answered ` +
    `HTTP ${result.status} with an unexpected body: ${problem}${requestId}. ` +
    `The ${spec.maturity} API may have changed, or the base URL points at something other than the ` +
    "platform API; report this with the request id.";
  return new CodeSecResponseError(message, {
    operation,
    status: result.status,
    ...(fieldPath === undefined ? {} : { fieldPath }),
    ...(expected === undefined ? {} : { expected }),
    ...(result.requestId === undefined ? {} : { requestId: result.requestId }),
  });
}

// ---------------------------------------------------------------------------------------------------
// What to do after an error status: the advice per status and operation
// ---------------------------------------------------------------------------------------------------

interface HintContext {
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
function hintFor(ctx: HintContext): string {
  const { operation, status, code, words } = ctx;
  if (status === 401) {
    return (
      "Check the token: it is missing, malformed, expired or revoked. Set a valid API token or user JWT " +
      `where this connection's token is set (${words.token}).`
    );
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
    return (
      "The platform failed to answer; this operation can be repeated without harm, so it is safe to run " +
      "again (later, if the failure persists)."
    );
  }
  if (status >= 300 && status < 400) {
    const where = ctx.location === undefined ? "" : ` to ${ctx.location}`;
    return (
      `The server redirected${where}; redirects are not followed ` +
      "(the credential goes to the configured host only). " +
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
    "an API token also needs the Web API permission and no scope restriction (both set in the " +
    "organization settings' tokens section)";
  if ("deploymentId" in OPERATIONS[operation].pathParams) {
    return (
      "A credential reaches only its own organization's deployment: check deploymentId and which " +
      `connection (credential) is used; then its user's role, which must allow this operation; ${credential}.`
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
    `${base} The base URL has the path ${ctx.baseUrlPath}, which is put in front of the operation's ` +
    "path (which already starts with /api/): " +
    `if the platform is not served under ${ctx.baseUrlPath}, drop it from the base URL ` +
    `(${ctx.words.baseUrl}).`
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
        "The SCM app request is already completed: its one-time code cannot be used again; read the app " +
        `with ${operationLabel("getScmApp")}.`
      );
    default:
      return (
        "The request conflicts with the current state on the platform; its message says which state to " +
        "change first."
      );
  }
}
