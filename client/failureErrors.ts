/**
 * Turns the failure that ended a call into its typed error, with a message that says which operation,
 * what happened (the status and what the platform said, sanitized), and what to do.
 */
import { parseErrorBody } from "./errorBody";
import { hintFor, outcomeUnknownAdvice } from "./errorHints";
import {
  CodeSecApiError,
  CodeSecNetworkError,
  CodeSecOutcomeUnknownError,
  CodeSecRateLimitError,
  CodeSecTimeoutError,
  type AttemptInfo,
  type CodeSecError,
  type OperationRef,
  type OutcomeUnknownFailure,
  messageSubject,
} from "./errors";
import type { AnswerHeaders, HttpOutcome } from "./http";
import type { OperationKey } from "../api/operations";
import { responseError } from "./responseValidation";
import { MAX_RETRY_AFTER_MS, parseRetryAfterMs, type RetryWait } from "./retryPolicy";
import { settingWords, type SettingNames } from "./settingNames";

/**
 * The failure of the last attempt, with what the message needs: the attempt's own outcome where it says
 * enough.
 */
export type CallFailure =
  | { kind: "status"; status: number; headers: AnswerHeaders; text: string }
  | Extract<HttpOutcome, { kind: "timeout" | "network" | "truncated" }>
  | { kind: "unusable"; status: number; headers: AnswerHeaders; problem: string };

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

/**
 * The words for the deadline of `ctx`'s call: its label, else the `deadlineMs` option and where it is set.
 */
function deadlineWords(ctx: FailureContext): { limit: string; value: string; raise: string } {
  const label = ctx.options.deadlineLabel;
  if (label !== undefined) return { limit: label.limit, value: label.limit, raise: label.raise };
  const words = settingWords(ctx.options.settingNames);
  return {
    limit: `deadlineMs ${ctx.options.deadlineMs} ms, ${words.deadlineMs}`,
    value: `deadlineMs ${ctx.options.deadlineMs} ms`,
    raise: words.raiseDeadlineMs,
  };
}

/** Why the retries stopped early, when they did. */
export type RetryStop = Exclude<RetryWait, { kind: "wait" }>;

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
    settingNames?: SettingNames | undefined;
  };
  /** When the last attempt's answer arrived (for `retryAt`). */
  receivedAt: number;
}

/** A header's value (the first, when repeated). */
export function headerValue(headers: AnswerHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}

export function retryAfterOf(failure: CallFailure, now: number): number | undefined {
  if (failure.kind !== "status") return undefined;
  return parseRetryAfterMs(headerValue(failure.headers, "retry-after"), now);
}

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
  const { baseUrl } = ctx;
  const words = settingWords(ctx.options.settingNames);

  switch (failure.kind) {
    case "timeout": {
      const within = timedOutAtDeadline
        ? `${ctx.timeoutMs} ms (the time left before the deadline; timeoutMs is ${ctx.options.timeoutMs} ms)`
        : `${ctx.timeoutMs} ms (timeoutMs)`;
      return new CodeSecTimeoutError(
        `${label} timed out${after}: no complete answer from ${baseUrl} within ${within}.${deadline} ` +
          `The platform is slow or unreachable; it is safe to run again later. ${waitLonger(ctx, deadlineReached, timedOutAtDeadline)}`,
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
          `${failure.status}, ${failure.receivedBytes}${of} bytes of the body).${deadline} The platform or a ` +
          `proxy on the way dropped it; it is safe to run again.`,
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
  if (failure.status === 429) {
    const advice =
      wait !== ""
        ? wait
        : `${deadline} The platform is rate limiting this client; try again later, or send fewer requests at once.`;
    return new CodeSecRateLimitError(`${what}${advice}`, {
      ...details,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs, retryAt }),
    });
  }
  const hint = hintFor({
    operation: ctx.operation,
    words: settingWords(ctx.options.settingNames),
    status: failure.status,
    ...(code === undefined ? {} : { code }),
    ...(location === undefined ? {} : { location: clean(location, 200) }),
    ...(baseUrlPath === "" ? {} : { baseUrlPath: clean(baseUrlPath, 100) }),
  });
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
      ` ${asked}, longer than this client waits on its own (maxRetryDelayMs ${ctx.options.maxRetryDelayMs} ms). ` +
      `Run again after that time, or raise the cap: ${settingWords(ctx.options.settingNames).raiseMaxRetryDelayMs}.`
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
  const timeoutMs = settingWords(ctx.options.settingNames).timeoutMs;
  if (!deadlineReached) return `To wait longer, raise timeoutMs (${timeoutMs}).`;
  const deadline = `To wait longer, raise the deadline: ${deadlineWords(ctx).raise}`;
  return timedOutAtDeadline && ctx.attempts === 1
    ? `${deadline}.`
    : `${deadline}; each attempt is also bounded by timeoutMs (${timeoutMs}).`;
}

function deadlineSentence(ctx: FailureContext): string {
  return `The call's deadline was reached (${deadlineWords(ctx).limit}), so it was not tried again.`;
}

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
      happened = `the connection broke (${ctx.clean(failure.reason, 200)}${code === undefined ? "" : `, ${code}`})`;
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
      happened = `the platform answered HTTP ${failure.status}${said === undefined ? "" : ` (${ctx.clean(said, 200)})`}`;
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

function labelOf(ctx: FailureContext): string {
  return messageSubject(ctx.operation, ctx.path);
}

function afterAttempts(ctx: FailureContext): string {
  return ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
}
