/**
 * Which failed attempts are sent again, and how long to wait first. Pure functions: transport.ts
 * applies them. The rule depends on the operation's retry class (api/operations.ts):
 * - `read` and `idempotentWrite`: a repeat is harmless, so every transient failure is retried: 429,
 *   502, 503, 504, a connection failure before or after sending, a timeout, a cut-off answer;
 * - `once`: a repeat is not harmless (`completeScmAppRequest` spends a one-time code), so it is retried only
 *   when the request provably never arrived (the connection was never established) or the platform explicitly
 *   refused it (429). Any other failure after it may have arrived is an unknown outcome.
 * Never retried: other 4xx, 500 (a bug that a repeat will not fix), a malformed, mis-shaped or
 * oversized 2xx answer, a name that does not resolve (ENOTFOUND), a TLS failure.
 */
import type { RetryClass } from "../api/operations";
import type { CallFailure } from "./errors";
import { headerValue } from "./http";
import { parseHttpDate } from "./httpDate";

/** Statuses worth another attempt of a `read` or `idempotentWrite` operation. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** System error codes of a connection failure that another attempt may not meet. */
export const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
]);

/** First backoff step; doubled each attempt, then jittered and capped. */
export const BASE_DELAY_MS = 200;

/** A retry is made only when its wait ends at least this long before the deadline (or timeoutMs, if less). */
export const MIN_ATTEMPT_MS = 100;

/** One failed attempt, as the policy sees it. */
export type AttemptFailure =
  | { kind: "status"; status: number }
  | { kind: "timeout"; mayHaveArrived: boolean }
  | { kind: "network"; mayHaveArrived: boolean; code?: string; reason: string }
  | { kind: "truncated" }
  /** A 2xx answer that cannot be used (not JSON, too large, undecodable): repeating will not fix it. */
  | { kind: "unusable" };

/** Send again, fail with the failure's own error, or fail because the outcome is unknown. */
export type RetryDecision = "retry" | "fail" | "outcomeUnknown";

export function isTransientNetworkFailure(code: string | undefined, reason: string): boolean {
  if (code !== undefined && TRANSIENT_NETWORK_CODES.has(code)) return true;
  return /socket hang up/i.test(reason);
}

export function decideRetry(retryClass: RetryClass, failure: AttemptFailure): RetryDecision {
  if (retryClass === "once") return decideOnce(failure);
  switch (failure.kind) {
    case "status":
      return RETRYABLE_STATUSES.has(failure.status) ? "retry" : "fail";
    case "timeout":
    case "truncated":
      return "retry";
    case "network":
      return isTransientNetworkFailure(failure.code, failure.reason) ? "retry" : "fail";
    case "unusable":
      return "fail";
  }
}

function decideOnce(failure: AttemptFailure): RetryDecision {
  switch (failure.kind) {
    case "status":
      // 429 is an explicit refusal: nothing was done. A 5xx may come after the platform acted.
      if (failure.status === 429) return "retry";
      return failure.status >= 500 ? "outcomeUnknown" : "fail";
    case "timeout":
      return failure.mayHaveArrived ? "outcomeUnknown" : "retry";
    case "network":
      if (failure.mayHaveArrived) return "outcomeUnknown";
      return isTransientNetworkFailure(failure.code, failure.reason) ? "retry" : "fail";
    case "truncated":
      return "outcomeUnknown";
    case "unusable":
      return "fail";
  }
}

/**
 * Exponential backoff with "equal jitter": half the step fixed, half random, so concurrent clients
 * spread out while each still waits at least half the step. `attempt` is the attempt that failed (1-based).
 */
export function backoffDelayMs(attempt: number, capMs: number, random: () => number = Math.random): number {
  const step = BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1);
  const jittered = step / 2 + random() * (step / 2);
  return Math.round(Math.min(capMs, jittered));
}

/**
 * The longest `Retry-After` read as it is: 2^31 seconds (about 68 years), the value RFC 9111 (section
 * 1.2.2) says to use for any larger delta-seconds. Any wait is at most this, so the moment it ends is
 * always a valid date (a wait of 8.64e12 s or more would overflow `Date`), and any wait this long is far
 * above what a client waits on its own: the call fails at once, saying when to come back.
 */
export const MAX_RETRY_AFTER_MS = 2 ** 31 * 1000;

/**
 * `Retry-After` in ms: delta-seconds (`"120"`) or an HTTP date (RFC 9110's three forms), at most
 * {@link MAX_RETRY_AFTER_MS}. Undefined when absent or unreadable (negative, fractional, any other text),
 * so the caller falls back to backoff. A date in the past means "now" (0).
 */
export function parseRetryAfterMs(
  header: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  // Any number of digits: Number() of a very long run is Infinity, which the cap brings back.
  if (/^\d+$/.test(value)) return capped(Number(value) * 1000);
  const at = parseHttpDate(value, now);
  return at === undefined ? undefined : capped(Math.max(0, at - now));
}

/** The wait a failed answer's `Retry-After` asks for, in ms (see {@link parseRetryAfterMs}). */
export function retryAfterOf(failure: CallFailure, now: number): number | undefined {
  if (failure.kind !== "status") return undefined;
  return parseRetryAfterMs(headerValue(failure.headers, "retry-after"), now);
}

function capped(ms: number): number {
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** What to do before the next attempt. */
export type RetryWait =
  | { kind: "wait"; ms: number }
  /** The server's `Retry-After` is longer than the client may wait (`maxRetryDelayMs`). */
  | { kind: "retryAfterAboveCap"; retryAfterMs: number }
  /** The wait would end at or after the call's deadline. */
  | { kind: "pastDeadline"; waitMs: number };

/**
 * The wait before the next attempt: the server's `Retry-After` when given (honoured as it is, never
 * shortened: a shorter wait would only be refused again), else backoff capped by `capMs`. Either must
 * end early enough before the deadline to leave the attempt MIN_ATTEMPT_MS (or `timeoutMs`, if less).
 */
export function planRetryWait(options: {
  attempt: number;
  capMs: number;
  remainingMs: number;
  timeoutMs: number;
  retryAfterMs?: number;
  random?: () => number;
}): RetryWait {
  const { retryAfterMs, remainingMs } = options;
  if (retryAfterMs !== undefined && retryAfterMs > options.capMs) {
    return { kind: "retryAfterAboveCap", retryAfterMs };
  }
  const ms = retryAfterMs ?? backoffDelayMs(options.attempt, options.capMs, options.random);
  const attemptMs = Math.min(MIN_ATTEMPT_MS, options.timeoutMs);
  return ms + attemptMs <= remainingMs ? { kind: "wait", ms } : { kind: "pastDeadline", waitMs: ms };
}
