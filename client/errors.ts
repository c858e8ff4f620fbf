/**
 * The client's error classes. Every failure is one of these, so callers can branch with `instanceof`
 * and read structured fields instead of parsing messages. None of them ever holds the token: errors
 * are built from sanitized text only, and carry no reference to the request (headers) or the client.
 */
import { OPERATIONS, operationLabel, type OperationKey } from "../api/operations";

/**
 * The subject every message about an operation opens with, `CodeSec getScan (GET
 * /api/v2/deployments/42/scans/7)`; `path` is the path actually requested, when there is one.
 */
export function messageSubject(operation: OperationKey, path?: string): string {
  return `CodeSec ${operationLabel(operation, path)}`;
}

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
