/**
 * Request execution for the operations: builds the request, sends attempts (http.ts) within the
 * call's deadline, repeats them only as the operation's retry class allows (retryPolicy.ts), and turns
 * the failure that ends a call into a typed error (failureErrors.ts). The token lives only in a
 * `#private` field and in the Authorization header of outgoing requests.
 */
import {
  failureError,
  headerValue,
  outcomeUnknownError,
  retryAfterOf,
  type CallFailure,
  type FailureContext,
} from "./failureErrors";
import { sendHttpAttempt, type HttpOutcome } from "./http";
import { OPERATIONS, type OperationKey } from "../api/operations";
import { serializeRequestBody } from "./requestBody";
import { sanitize } from "./redaction";
import { responseError } from "./responseValidation";
import { decideRetry, planRetryWait } from "./retryPolicy";

export interface TransportConfig {
  /** Normalized (baseUrl.ts): no trailing slash. */
  baseUrl: string;
  token: string;
  /** Per attempt: connecting, sending, headers and the whole body. */
  timeoutMs: number;
  /** The whole call: attempts, backoff and Retry-After waits. */
  deadlineMs: number;
  /** Extra attempts after the first, where the retry class allows one. */
  retries: number;
  /** Cap of each backoff wait; a longer Retry-After fails the call at once. */
  maxRetryDelayMs: number;
  userAgent: string;
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
  /** Accept an empty 2xx body as `{}` (operation 1 answers an empty object). */
  allowEmptyBody?: boolean;
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

  constructor(config: TransportConfig) {
    const { token, ...rest } = config;
    this.#token = token;
    this.#config = rest;
  }

  /** Sends the request, retrying where its retry class allows; resolves only for a 2xx JSON answer. */
  async call(request: CallRequest): Promise<CallResult> {
    const spec = OPERATIONS[request.operation];
    const config = this.#config;
    const secrets = [this.#token, ...(request.secrets ?? [])];
    const clean = (text: string, max?: number): string => sanitize(text, secrets, max);
    const body = encodeBody(request);
    const url = this.#url(request);
    const headers = this.#headers(body);
    const deadlineAt = Date.now() + config.deadlineMs;

    for (let attempt = 1; ; attempt++) {
      const timeoutMs = Math.max(1, Math.min(config.timeoutMs, deadlineAt - Date.now()));
      const outcome = await sendHttpAttempt({
        url,
        method: spec.method,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs,
        // A stale keep-alive socket must not turn a request that may not be repeated into an unknown outcome.
        freshConnection: spec.retryClass === "once",
      });
      const receivedAt = Date.now();
      if (outcome.kind === "answer" && isSuccess(outcome.status)) {
        return success(request, outcome, attempt, clean);
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
        receivedAt,
      };
      const decision = decideRetry(spec.retryClass, failure);
      if (decision === "outcomeUnknown") throw outcomeUnknownError(ctx, failure);
      if (decision === "retry" && attempt <= config.retries) {
        const wait = planRetryWait({
          attempt,
          capMs: config.maxRetryDelayMs,
          remainingMs: deadlineAt - Date.now(),
          timeoutMs: config.timeoutMs,
          retryAfterMs: retryAfterOf(failure, receivedAt),
        });
        if (wait.kind !== "wait") throw failureError(ctx, failure, wait);
        await sleep(wait.ms);
        continue;
      }
      throw failureError(ctx, failure);
    }
  }

  #url(request: CallRequest): URL {
    const url = new URL(`${this.#config.baseUrl}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    return url;
  }

  #headers(body: Buffer | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#token}`,
      Accept: "application/json",
      "User-Agent": this.#config.userAgent,
    };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(body.length);
    }
    return headers;
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
): CallResult {
  const requestIdHeader = headerValue(outcome.headers, "x-request-id");
  const result: CallResult = {
    status: outcome.status,
    body: undefined,
    attempts,
    path: request.path,
    sanitize: clean,
    ...(requestIdHeader === undefined ? {} : { requestId: clean(requestIdHeader, 100) }),
  };
  if (outcome.text.trim() === "") {
    if (request.allowEmptyBody === true) return { ...result, body: {} };
    throw responseError(request.operation, result, "the body is empty, expected a JSON object");
  }
  try {
    return { ...result, body: JSON.parse(outcome.text) };
  } catch {
    const type = clean(headerValue(outcome.headers, "content-type") ?? "none", 80);
    throw responseError(
      request.operation,
      result,
      `the body is not JSON (content-type ${type}): ${JSON.stringify(clean(outcome.text, 120))}`,
    );
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
