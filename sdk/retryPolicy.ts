/**
 * Which failures are retried and how long to wait. Only failures where the platform certainly did
 * not act, or where acting twice is harmless, are retried:
 * - 429 (the request was refused), 502, 503, 504 (the gateway or service was unavailable; every
 *   operation in the catalogue is idempotent, so a repeat is harmless). A `Retry-After` on any of
 *   them (seconds or HTTP date) sets the wait, capped like the backoff;
 * - connection failures before any response (refused, reset, socket hang up, DNS try-again);
 * - a timeout, for read-only operations only: a mutating request that timed out may have been
 *   applied, so it is surfaced instead of being sent again.
 * Never: other 4xx, 500 (a bug that a repeat will not fix), malformed 2xx bodies, broken bodies.
 */

/** Statuses worth another attempt. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** System error codes meaning no response was received and another attempt may succeed. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "EAI_AGAIN",
]);

/** First backoff step; doubled each attempt, then jittered and capped. */
export const BASE_DELAY_MS = 200;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Whether a failure before any response is transient (code from the system error, or its message). */
export function isRetryableNetworkFailure(code: string | undefined, message: string): boolean {
  if (code !== undefined && RETRYABLE_NETWORK_CODES.has(code)) return true;
  return /socket hang up/i.test(message);
}

/** Timeouts are retried only when repeating the request cannot apply it twice. */
export function isRetryableTimeout(mutating: boolean): boolean {
  return !mutating;
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
 * `Retry-After` in ms: delta-seconds (`"120"`) or an HTTP date. Undefined when absent or unreadable,
 * so the caller falls back to backoff. A date in the past means "now" (0).
 */
export function parseRetryAfterMs(
  header: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === "") return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Only an HTTP date: Date.parse would also accept things like "1.5" or "-3" as dates.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The wait before the next attempt: the server's `Retry-After` when given, else backoff; both capped. */
export function retryDelayMs(options: {
  attempt: number;
  capMs: number;
  retryAfterMs?: number;
  random?: () => number;
}): number {
  if (options.retryAfterMs !== undefined) return Math.min(options.capMs, options.retryAfterMs);
  return backoffDelayMs(options.attempt, options.capMs, options.random);
}
