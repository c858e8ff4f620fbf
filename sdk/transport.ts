/**
 * Request execution: one HTTP call per attempt through node-fetch and a keep-alive agent, a timeout
 * per attempt, retries as retryPolicy.ts decides, and every failure mapped to a typed error. The
 * token lives only in a `#private` field and in the Authorization header of outgoing requests.
 */
import * as http from "http";
import * as https from "https";
import nodeFetch, { type RequestInit } from "node-fetch";
import { parseErrorBody } from "./errorBody";
import { hintFor } from "./errorHints";
import { CodeSecApiError, CodeSecNetworkError, CodeSecTimeoutError } from "./errors";
import { OPERATIONS, isMutating, type OperationKey } from "./operations";
import { sanitize } from "./redaction";
import { responseError } from "./responseValidation";
import {
  isRetryableNetworkFailure,
  isRetryableStatus,
  isRetryableTimeout,
  parseRetryAfterMs,
  retryDelayMs,
} from "./retryPolicy";

/** The fetch implementation (node-fetch 2, or a compatible fake in tests). */
export type FetchFunction = typeof nodeFetch;

// Bodies larger than this are not API answers (a misconfigured base URL serving a file, say).
const MAX_BODY_BYTES = 20 * 1024 * 1024;

// One pair of agents for the process: connections are reused across clients to the same host.
// Node unrefs idle keep-alive sockets, so they never keep the process alive.
let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;
function agentFor(url: URL): http.Agent {
  if (url.protocol === "http:") return (httpAgent ??= new http.Agent({ keepAlive: true }));
  return (httpsAgent ??= new https.Agent({ keepAlive: true }));
}

export interface TransportConfig {
  /** Normalized: no trailing slash. */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  retries: number;
  maxRetryDelayMs: number;
  userAgent: string;
  fetch: FetchFunction;
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

interface HeadersLike {
  get(name: string): string | null;
}

type Outcome =
  | { kind: "response"; status: number; text: string; headers: HeadersLike }
  | { kind: "timeout" }
  | { kind: "network"; code?: string; reason: string; beforeResponse: boolean }
  | { kind: "tooLarge"; status: number; headers: HeadersLike };

const TIMED_OUT = Symbol("timed out");

export class Transport {
  readonly #token: string;
  readonly #config: Omit<TransportConfig, "token">;

  constructor(config: TransportConfig) {
    const { token, ...rest } = config;
    this.#token = token;
    this.#config = rest;
  }

  /** Sends the request, retrying where safe; resolves only for a 2xx answer with a JSON body. */
  async call(request: CallRequest): Promise<CallResult> {
    const spec = OPERATIONS[request.operation];
    const secrets = [this.#token, ...(request.secrets ?? [])];
    const clean = (text: string, max?: number): string => sanitize(text, secrets, max);
    const url = this.#url(request);
    const init = this.#init(request);
    const maxAttempts = this.#config.retries + 1;

    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(url, init);
      if (outcome.kind === "response" && outcome.status >= 200 && outcome.status < 300) {
        return this.#success(request, outcome, attempt, clean);
      }
      const retryAfterMs =
        outcome.kind === "response" ? parseRetryAfterMs(outcome.headers.get("retry-after")) : undefined;
      if (attempt < maxAttempts && this.#retryable(outcome, isMutating(spec))) {
        await sleep(retryDelayMs({ attempt, capMs: this.#config.maxRetryDelayMs, retryAfterMs }));
        continue;
      }
      throw this.#failure(request, outcome, attempt, clean, retryAfterMs);
    }
  }

  #url(request: CallRequest): string {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) query.set(key, value);
    }
    const qs = query.toString();
    return `${this.#config.baseUrl}${request.path}${qs === "" ? "" : `?${qs}`}`;
  }

  #init(request: CallRequest): RequestInit {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#token}`,
      Accept: "application/json",
      "User-Agent": this.#config.userAgent,
    };
    const init: RequestInit = {
      method: OPERATIONS[request.operation].method,
      headers,
      // A redirect is a misconfigured base URL: report it rather than replay the credential elsewhere.
      redirect: "manual",
      size: MAX_BODY_BYTES,
      agent: agentFor,
    };
    if (request.body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(request.body);
    }
    return init;
  }

  async #attempt(url: string, init: RequestInit): Promise<Outcome> {
    const controller = new AbortController();
    // The race guards against a fetch that ignores the signal; node-fetch itself honours it.
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
      controller.signal.addEventListener("abort", () => resolve(TIMED_OUT), { once: true });
    });
    const timer = setTimeout(() => controller.abort(), this.#config.timeoutMs);
    try {
      const signal = controller.signal as unknown as NonNullable<RequestInit["signal"]>;
      let response: Awaited<ReturnType<FetchFunction>> | typeof TIMED_OUT;
      try {
        response = await Promise.race([this.#config.fetch(url, { ...init, signal }), timedOut]);
      } catch (error) {
        return controller.signal.aborted ? { kind: "timeout" } : networkOutcome(error, true);
      }
      if (response === TIMED_OUT) return { kind: "timeout" };
      const { status, headers } = response;
      try {
        const text = await Promise.race([response.text(), timedOut]);
        if (text === TIMED_OUT) return { kind: "timeout" };
        return { kind: "response", status, text, headers };
      } catch (error) {
        if (controller.signal.aborted) return { kind: "timeout" };
        if ((error as { type?: unknown }).type === "max-size") return { kind: "tooLarge", status, headers };
        // The status alone still says what failed; only a broken 2xx body is a network failure.
        if (status < 200 || status >= 300) return { kind: "response", status, text: "", headers };
        return networkOutcome(error, false);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  #retryable(outcome: Outcome, mutating: boolean): boolean {
    switch (outcome.kind) {
      case "response":
        return isRetryableStatus(outcome.status);
      case "timeout":
        return isRetryableTimeout(mutating);
      case "network":
        return outcome.beforeResponse && isRetryableNetworkFailure(outcome.code, outcome.reason);
      default:
        return false;
    }
  }

  #success(
    request: CallRequest,
    outcome: Extract<Outcome, { kind: "response" }>,
    attempts: number,
    clean: CallResult["sanitize"],
  ): CallResult {
    const requestIdHeader = outcome.headers.get("x-request-id");
    const result: CallResult = {
      status: outcome.status,
      body: undefined,
      attempts,
      path: request.path,
      sanitize: clean,
      ...(requestIdHeader ? { requestId: clean(requestIdHeader, 100) } : {}),
    };
    if (outcome.text.trim() === "") {
      if (request.allowEmptyBody === true) return { ...result, body: {} };
      throw responseError(request.operation, result, "the body is empty, expected a JSON object");
    }
    try {
      return { ...result, body: JSON.parse(outcome.text) };
    } catch {
      const type = clean(outcome.headers.get("content-type") ?? "none", 80);
      throw responseError(
        request.operation,
        result,
        `the body is not JSON (content-type ${type}): ${JSON.stringify(clean(outcome.text, 120))}`,
      );
    }
  }

  #failure(
    request: CallRequest,
    outcome: Outcome,
    attempts: number,
    clean: CallResult["sanitize"],
    retryAfterMs: number | undefined,
  ): Error {
    const { operation } = request;
    const spec = OPERATIONS[operation];
    const ref = { operation, operationNumber: spec.number, attempts, retried: attempts > 1 };
    const label = `CodeSec ${operation} (operation ${spec.number}, ${spec.method} ${request.path})`;
    const after = attempts > 1 ? ` after ${attempts} attempts` : "";
    const baseUrl = this.#config.baseUrl;

    switch (outcome.kind) {
      case "timeout": {
        const { timeoutMs } = this.#config;
        const notRetried = isMutating(spec)
          ? " It was not retried: the request may already have been applied, so check the current state before running again."
          : "";
        return new CodeSecTimeoutError(
          `${label} timed out${after}: no complete answer from ${baseUrl} within ${timeoutMs} ms (timeoutMs).` +
            `${notRetried} The platform is slow or unreachable; try again later or raise timeoutMs.`,
          { ...ref, timeoutMs },
        );
      }
      case "network": {
        const reason = clean(outcome.reason, 200);
        const what = outcome.beforeResponse
          ? `could not reach ${baseUrl}${after}: ${reason}`
          : `lost the connection to ${baseUrl} while reading the answer: ${reason}`;
        return new CodeSecNetworkError(
          `${label} ${what}. Check the base URL (codesec:baseUrl / CODESEC_BASE_URL) and that the platform is ` +
            `reachable from this machine, then try again.`,
          { ...ref, baseUrl, ...(outcome.code === undefined ? {} : { code: outcome.code }) },
        );
      }
      case "tooLarge": {
        const requestId = outcome.headers.get("x-request-id");
        return responseError(
          operation,
          {
            status: outcome.status,
            path: request.path,
            ...(requestId ? { requestId: clean(requestId, 100) } : {}),
          },
          `the body is larger than ${MAX_BODY_BYTES} bytes`,
        );
      }
      case "response": {
        const parsed = parseErrorBody(outcome.text);
        const headerId = outcome.headers.get("x-request-id");
        const rawId = headerId || parsed.requestId;
        const requestId = rawId ? clean(rawId, 100) : undefined;
        const code = parsed.code === undefined ? undefined : clean(parsed.code, 80);
        const platformMessage =
          parsed.message === undefined ? undefined : clean(parsed.message, 300) || undefined;
        const location = outcome.headers.get("location");
        const hint = hintFor({
          operation,
          status: outcome.status,
          ...(code === undefined ? {} : { code }),
          ...(location ? { location: clean(location, 200) } : {}),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        });
        const said = platformMessage === undefined ? "" : `: ${platformMessage}`;
        const id = requestId === undefined ? "" : ` (request id ${requestId})`;
        return new CodeSecApiError(
          `${label} failed${after}: HTTP ${outcome.status}${code === undefined ? "" : ` ${code}`}${said}${id}. ${hint}`,
          {
            ...ref,
            status: outcome.status,
            ...(code === undefined ? {} : { code }),
            ...(platformMessage === undefined ? {} : { platformMessage }),
            ...(requestId === undefined ? {} : { requestId }),
          },
        );
      }
    }
  }
}

function networkOutcome(error: unknown, beforeResponse: boolean): Outcome {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown };
  const code = typeof e.code === "string" ? e.code : typeof e.errno === "string" ? e.errno : undefined;
  const message = typeof e.message === "string" ? e.message : String(error);
  // node-fetch wraps the system error as "request to <url> failed, reason: <why>"; keep the why.
  const reason = /reason: (.*)$/s.exec(message)?.[1] ?? message;
  return { kind: "network", reason, beforeResponse, ...(code === undefined ? {} : { code }) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
