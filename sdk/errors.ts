/**
 * The client's error classes. Every failure is one of these, so callers can branch with `instanceof`
 * and read structured fields instead of parsing messages. None of them ever holds the token: errors
 * are built from sanitized text only, and carry no reference to the request (headers) or the client.
 */
import type { OperationKey } from "./operations";

/** Which operation failed; absent for errors raised before any operation (bad client options). */
export interface OperationRef {
  /** Client method name, e.g. `getScan`. */
  readonly operation: OperationKey;
  /** Number of the operation in the platform spec (1-10). */
  readonly operationNumber: number;
}

/** Base class of every error the client throws. */
export class CodeSecError extends Error {
  /** Client method name, e.g. `getScan`; undefined for a bad client option. */
  declare readonly operation?: OperationKey;
  declare readonly operationNumber?: number;

  constructor(message: string, ref?: OperationRef) {
    super(message);
    this.name = new.target.name;
    if (ref !== undefined) {
      this.operation = ref.operation;
      this.operationNumber = ref.operationNumber;
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
}

/** The platform answered with a non-2xx status. */
export class CodeSecApiError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  declare readonly operationNumber: number;
  /** HTTP status of the last attempt. */
  readonly status: number;
  /** The platform's error code (e.g. `NOT_FOUND`, `DEPLOYMENT_MIGRATED`), when the body names one. */
  declare readonly code?: string;
  /** What the platform said (sanitized and truncated). */
  declare readonly platformMessage?: string;
  /** From the `x-request-id` header, else from the body: quote it when reporting a problem. */
  declare readonly requestId?: string;
  readonly retried: boolean;
  readonly attempts: number;

  constructor(
    message: string,
    details: OperationRef &
      AttemptInfo & { status: number; code?: string; platformMessage?: string; requestId?: string },
  ) {
    super(message, details);
    this.status = details.status;
    if (details.code !== undefined) this.code = details.code;
    if (details.platformMessage !== undefined) this.platformMessage = details.platformMessage;
    if (details.requestId !== undefined) this.requestId = details.requestId;
    this.retried = details.retried;
    this.attempts = details.attempts;
  }
}

/** No complete answer arrived within `timeoutMs`. */
export class CodeSecTimeoutError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  declare readonly operationNumber: number;
  /** The per-request timeout that expired (client option `timeoutMs`). */
  readonly timeoutMs: number;
  readonly retried: boolean;
  readonly attempts: number;

  constructor(message: string, details: OperationRef & AttemptInfo & { timeoutMs: number }) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
    this.retried = details.retried;
    this.attempts = details.attempts;
  }
}

/** The platform could not be reached (refused, reset, DNS, TLS) or the connection broke mid-answer. */
export class CodeSecNetworkError extends CodeSecError implements AttemptInfo {
  declare readonly operation: OperationKey;
  declare readonly operationNumber: number;
  /** The client's base URL (never the token). */
  readonly baseUrl: string;
  /** System error code, e.g. `ECONNREFUSED`, when known. */
  declare readonly code?: string;
  readonly retried: boolean;
  readonly attempts: number;

  constructor(message: string, details: OperationRef & AttemptInfo & { baseUrl: string; code?: string }) {
    super(message, details);
    this.baseUrl = details.baseUrl;
    if (details.code !== undefined) this.code = details.code;
    this.retried = details.retried;
    this.attempts = details.attempts;
  }
}

/** A 2xx answer that cannot be used: not JSON, or not the documented shape. Never retried. */
export class CodeSecResponseError extends CodeSecError {
  declare readonly operation: OperationKey;
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
