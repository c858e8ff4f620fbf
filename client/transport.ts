/**
 * Request execution for the operations: builds the request, sends attempts (http.ts) within the
 * call's deadline, repeats them only as the operation's retry class allows (retryPolicy.ts), and turns
 * the failure that ends a call into a typed error (errors.ts). The token lives only in a
 * `#private` field and in the Authorization header of outgoing requests.
 */
import {
  failureError,
  outcomeUnknownError,
  responseError,
  type CallFailure,
  type DeadlineLabel,
  type FailureContext,
} from "./errors";
import { headerValue, requestTarget, sendHttpAttempt, type HttpOutcome, type RequestTarget } from "./http";
import { OPERATIONS, type OperationKey } from "../api/operations";
import { serializeRequestBody } from "./requestBody";
import { mentionsSecret, sanitize } from "./redaction";
import type { RateLimiter } from "./rateLimiter";
import { decideRetry, planRetryWait, retryAfterOf } from "./retryPolicy";
import { settingWords, type SettingNames } from "./settingNames";

export interface TransportConfig {
  /** Normalized (baseUrl.ts): no trailing slash. */
  baseUrl: string;
  token: string;
  /** Per attempt: connecting, sending, headers and the whole body. */
  timeoutMs: number;
  /** The whole call: attempts, backoff and Retry-After waits. */
  deadlineMs: number;
  /** How messages name the deadline, when something other than `deadlineMs` chose it. */
  deadlineLabel?: DeadlineLabel | undefined;
  /** Where the caller's users set the settings, for messages (settingNames.ts). */
  settingNames?: SettingNames | undefined;
  /** Extra attempts after the first, where the retry class allows one. */
  retries: number;
  /** Cap of each backoff wait; a longer Retry-After fails the call at once. */
  maxRetryDelayMs: number;
  userAgent: string;
  /** Paces every attempt; possibly shared with other clients. */
  rateLimiter: RateLimiter;
}

export interface CallRequest {
  operation: OperationKey;
  /** Path with its parameters already validated and percent-encoded (pathParams.buildPath). */
  path: string;
  query?: Readonly<Record<string, string | undefined>>;
  /** JSON-serialized when defined; no body otherwise. */
  body?: unknown;
  /** Request-specific secrets (e.g. the SCM app code) to redact from anything echoed back. */
  secrets?: readonly string[];
  /** Accept an empty 2xx body as `{}` (`updateUserRole` answers an empty object). */
  allowEmptyBody?: boolean;
  /** Resolve with the 2xx status alone: the body is neither parsed nor required (`body` stays undefined). */
  statusOnly?: boolean;
}

/** A successful (2xx) answer with its JSON body parsed but not yet validated. */
export interface CallResult {
  status: number;
  body: unknown;
  requestId?: string;
  attempts: number;
  /** The request path, for messages. */
  path: string;
  /** Redacts the token and request secrets from server text, for messages. */
  sanitize: (text: string, max?: number) => string;
}

export class Transport {
  readonly #token: string;
  readonly #config: Omit<TransportConfig, "token">;
  /** The base URL split once (its path without a trailing slash): every request only appends its path. */
  readonly #origin: RequestTarget;
  /** Headers of a request without a body; requests with one add their content headers. */
  readonly #headers: Readonly<Record<string, string>>;

  constructor(config: TransportConfig) {
    const { token, ...rest } = config;
    this.#token = token;
    this.#config = rest;
    const origin = requestTarget(new URL(config.baseUrl));
    this.#origin = { ...origin, path: origin.path.replace(/\/$/, "") };
    this.#headers = {
      Authorization: `Bearer ${token}`,
      Accept: "application/json",
      "User-Agent": config.userAgent,
    };
  }

  /** Sends the request, retrying where its retry class allows; resolves only for a 2xx JSON answer. */
  async call(request: CallRequest): Promise<CallResult> {
    const spec = OPERATIONS[request.operation];
    const config = this.#config;
    const secrets = request.secrets === undefined ? [this.#token] : [this.#token, ...request.secrets];
    const clean = (text: string, max?: number): string => sanitize(text, secrets, max);
    const body = encodeBody(request);
    const url = this.#target(request);
    const headers = this.#headersFor(body);
    const limiter = config.rateLimiter;
    // Set when the first attempt gets its slot, and moved on by every later wait in the limiter's
    // queue: queueing is not charged to the deadline (a call behind thousands must not time out unsent).
    let deadlineAt = Number.NaN;

    for (let attempt = 1; ; attempt++) {
      let release = limiter.tryAcquire();
      let queuedMs = 0;
      if (release === undefined) {
        const queuedAt = Date.now();
        release = await limiter.acquire();
        queuedMs = Date.now() - queuedAt;
      }
      const sentAt = Date.now();
      deadlineAt = attempt === 1 ? sentAt + config.deadlineMs : deadlineAt + queuedMs;
      const timeoutMs = Math.max(1, Math.min(config.timeoutMs, deadlineAt - sentAt));
      let outcome: HttpOutcome;
      try {
        outcome = await sendHttpAttempt({
          url,
          method: spec.method,
          headers,
          ...(body === undefined ? {} : { body }),
          timeoutMs,
          // A stale keep-alive socket must not turn a request that may not be repeated into an unknown
          // outcome.
          freshConnection: spec.retryClass === "once",
        });
      } finally {
        release();
      }
      const receivedAt = Date.now();
      if (outcome.kind === "answer" && isSuccess(outcome.status)) {
        return success(request, outcome, attempt, clean, secrets);
      }
      const failure = asFailure(outcome);
      const ctx: FailureContext = {
        operation: request.operation,
        path: request.path,
        baseUrl: config.baseUrl,
        attempts: attempt,
        clean,
        timeoutMs,
        options: config,
        words: settingWords(config.settingNames),
        receivedAt,
      };
      const decision = decideRetry(spec.retryClass, failure);
      if (decision === "outcomeUnknown") throw outcomeUnknownError(ctx, failure);
      if (decision === "retry" && attempt <= config.retries) {
        const retryAfterMs = retryAfterOf(failure, receivedAt);
        const wait = planRetryWait({
          attempt,
          capMs: config.maxRetryDelayMs,
          remainingMs: deadlineAt - Date.now(),
          timeoutMs: config.timeoutMs,
          retryAfterMs,
        });
        if (wait.kind !== "wait") throw failureError(ctx, failure, wait);
        if (retryAfterMs !== undefined && failure.kind === "status" && failure.status === 429) {
          // The platform said when to come back: hold every client sharing the limiter until then.
          limiter.pauseFor(wait.ms - (Date.now() - receivedAt));
        }
        await sleep(wait.ms);
        continue;
      }
      throw failureError(ctx, failure);
    }
  }

  #target(request: CallRequest): RequestTarget {
    let path = `${this.#origin.path}${request.path}`;
    if (request.query !== undefined) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(request.query)) {
        if (value !== undefined) query.set(key, value);
      }
      const text = query.toString();
      if (text !== "") path += `?${text}`;
    }
    return { ...this.#origin, path };
  }

  #headersFor(body: Buffer | undefined): Readonly<Record<string, string>> {
    if (body === undefined) return this.#headers;
    return {
      ...this.#headers,
      "Content-Type": "application/json",
      "Content-Length": String(body.length),
    };
  }
}

/** The JSON body as bytes; a body above the platform's limit is refused before any request. */
function encodeBody(request: CallRequest): Buffer | undefined {
  if (request.body === undefined) return undefined;
  return Buffer.from(serializeRequestBody(request.operation, request.body), "utf8");
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** What a failed attempt means: a non-2xx status is judged by its status, even if its body broke. */
function asFailure(outcome: HttpOutcome): CallFailure {
  switch (outcome.kind) {
    case "answer":
      return { kind: "status", status: outcome.status, headers: outcome.headers, text: outcome.text };
    case "timeout":
    case "network":
      return outcome;
    case "truncated":
      if (!isSuccess(outcome.status)) {
        return { kind: "status", status: outcome.status, headers: outcome.headers, text: outcome.text };
      }
      return outcome;
    case "tooLarge":
    case "undecodable": {
      // A failed status says what failed even when its body is unusable; a 2xx with one is unusable.
      if (!isSuccess(outcome.status)) {
        return { kind: "status", status: outcome.status, headers: outcome.headers, text: "" };
      }
      const problem =
        outcome.kind === "tooLarge"
          ? `the body is larger than ${outcome.limitBytes} bytes`
          : `the body cannot be decoded: ${outcome.reason}`;
      return { kind: "unusable", status: outcome.status, headers: outcome.headers, problem };
    }
  }
}

function success(
  request: CallRequest,
  outcome: Extract<HttpOutcome, { kind: "answer" }>,
  attempts: number,
  clean: CallResult["sanitize"],
  secrets: readonly string[],
): CallResult {
  const requestIdHeader = headerValue(outcome.headers, "x-request-id");
  const result: CallResult = {
    status: outcome.status,
    body: undefined,
    attempts,
    path: request.path,
    sanitize: clean,
  };
  if (requestIdHeader !== undefined) result.requestId = cleanRequestId(requestIdHeader, secrets, clean);
  if (request.statusOnly === true) return result;
  if (BLANK.test(outcome.text)) {
    if (request.allowEmptyBody !== true) {
      throw responseError(request.operation, result, "the body is empty, expected a JSON object");
    }
    result.body = {};
    return result;
  }
  try {
    result.body = JSON.parse(outcome.text);
    return result;
  } catch {
    const type = clean(headerValue(outcome.headers, "content-type") ?? "none", 80);
    throw responseError(
      request.operation,
      result,
      `the body is not JSON (content-type ${type}): ${JSON.stringify(clean(outcome.text, 120))}`,
    );
  }
}

/** Only whitespace (or nothing): stops at the first other character, unlike trimming a copy. */
const BLANK = /^\s*$/;

// A request id is echoed into errors, so it is sanitized; the common form (a UUID, a short token of
// word characters) cannot hold a bearer credential, a control character or a cut, so only the secrets
// themselves, in any of their forms (a hex or base64url echo is word characters too), need looking for.
const PLAIN_ID = /^[\w.-]{1,100}$/;
function cleanRequestId(id: string, secrets: readonly string[], clean: CallResult["sanitize"]): string {
  return PLAIN_ID.test(id) && !mentionsSecret(id, secrets) ? id : clean(id, 100);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
