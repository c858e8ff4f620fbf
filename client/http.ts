/**
 * One HTTP attempt over node:http/https, reported as an outcome instead of thrown: a complete answer,
 * or what went wrong and whether the request may have reached the server. Nothing here retries,
 * follows a redirect, or knows about operations; transport.ts decides what an outcome means.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction, Socket } from "node:net";
import type { Readable } from "node:stream";
import { TLSSocket } from "node:tls";
import * as zlib from "node:zlib";

/** Largest answer body read, after decompression (a misconfigured base URL serving a file, say). */
export const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

// One keep-alive agent per protocol for the whole process, so clients to the same host share
// connections. The agent unrefs idle sockets, so they never keep a process alive.
let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;
function sharedAgent(url: URL | RequestTarget): http.Agent {
  if (url.protocol === "http:") return (httpAgent ??= new http.Agent({ keepAlive: true }));
  return (httpsAgent ??= new https.Agent({ keepAlive: true }));
}

/**
 * Where a request goes, already split as `http.request` wants it: a client builds its origin once and
 * only joins the path per request (cheaper than parsing a URL per request).
 */
export interface RequestTarget {
  protocol: "http:" | "https:";
  /** Without the brackets of an IPv6 literal. */
  hostname: string;
  /** Empty for the protocol's default port. */
  port: string;
  /** Path and query, percent-encoded. */
  path: string;
}

/** The target of `url`, for a client's base URL (http or https, checked beforehand). */
export function requestTarget(url: URL): RequestTarget {
  return {
    protocol: url.protocol === "https:" ? "https:" : "http:",
    hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port,
    path: `${url.pathname}${url.search}`,
  };
}

export interface HttpAttempt {
  url: URL | RequestTarget;
  method: string;
  headers: Readonly<Record<string, string>>;
  body?: Buffer;
  /** Covers connecting, sending, the headers and the whole body. */
  timeoutMs: number;
  /**
   * Open a new connection instead of reusing a keep-alive one. A failure on a reused socket may come
   * after the request arrived, so a request that must not be repeated blindly starts on a fresh one:
   * then a failure before it connects provably never reached the server.
   */
  freshConnection?: boolean;
  /** Name resolution override (tests simulate a resolver that never answers or fails). */
  lookup?: LookupFunction;
  /** Defaults to MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
}

export type AnswerHeaders = http.IncomingHttpHeaders;

/** A header's value (the first, when repeated). */
export function headerValue(headers: AnswerHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === "" ? undefined : first;
}

/**
 * What one attempt produced. `mayHaveArrived` is false only when the failure came before a fresh
 * socket connected (name resolution, refused, unreachable, a connect timeout; over TLS, until the
 * handshake completed).
 */
export type HttpOutcome =
  | { kind: "answer"; status: number; headers: AnswerHeaders; text: string }
  | { kind: "timeout"; mayHaveArrived: boolean }
  | { kind: "network"; mayHaveArrived: boolean; code?: string; reason: string }
  /** The connection closed before the body's declared end (Content-Length or the last chunk). */
  | {
      kind: "truncated";
      status: number;
      headers: AnswerHeaders;
      text: string;
      receivedBytes: number;
      expectedBytes?: number;
    }
  | { kind: "tooLarge"; status: number; headers: AnswerHeaders; limitBytes: number }
  /** A Content-Encoding that is unknown or whose data is corrupt. */
  | { kind: "undecodable"; status: number; headers: AnswerHeaders; reason: string };

/** Sends one request and resolves with its outcome; never rejects. */
export function sendHttpAttempt(attempt: HttpAttempt): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    const limit = attempt.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    let settled = false;
    // Whether the request may have reached the server: set once a fresh socket connects, or at once
    // on a reused keep-alive socket.
    let connected = false;

    const transport = attempt.url.protocol === "https:" ? https : http;
    let request: http.ClientRequest;
    try {
      const target = attempt.url instanceof URL ? requestTarget(attempt.url) : attempt.url;
      request = transport.request({
        protocol: target.protocol,
        hostname: target.hostname,
        ...(target.port === "" ? {} : { port: target.port }),
        path: target.path,
        method: attempt.method,
        headers: attempt.headers,
        agent: attempt.freshConnection === true ? false : sharedAgent(attempt.url),
        ...(attempt.lookup === undefined ? {} : { lookup: attempt.lookup }),
      });
    } catch (error) {
      // Refused before anything was sent (an invalid header, say): nothing can have arrived.
      resolve(networkOutcome(error as NodeJS.ErrnoException, false));
      return;
    }

    const settle = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      // A complete answer leaves its socket to the agent for reuse; anything else is not wanted.
      if (outcome.kind !== "answer") request.destroy();
    };
    const timer = setTimeout(() => settle({ kind: "timeout", mayHaveArrived: connected }), attempt.timeoutMs);

    request.on("socket", (socket: Socket) => {
      if (request.reusedSocket) connected = true;
      // Over TLS, no byte of the request leaves before the handshake completes.
      else if (socket instanceof TLSSocket) socket.once("secureConnect", () => (connected = true));
      else if (socket.connecting || socket.remoteAddress === undefined)
        socket.once("connect", () => (connected = true));
      else connected = true;
    });
    request.on("error", (error: NodeJS.ErrnoException) => settle(networkOutcome(error, connected)));
    request.on("response", (response) => readAnswer(response, limit, settle));
    request.end(attempt.body);
  });
}

function networkOutcome(error: NodeJS.ErrnoException, mayHaveArrived: boolean): HttpOutcome {
  return {
    kind: "network",
    mayHaveArrived,
    reason: error.message,
    ...(typeof error.code === "string" ? { code: error.code } : {}),
  };
}

function readAnswer(
  response: http.IncomingMessage,
  limit: number,
  settle: (outcome: HttpOutcome) => void,
): void {
  const status = response.statusCode ?? 0;
  const headers = response.headers;
  const declared = contentLength(headers);
  if (declared !== undefined && declared > limit) {
    settle({ kind: "tooLarge", status, headers, limitBytes: limit });
    return;
  }
  let decoded: Readable;
  try {
    decoded = decoderFor(response, headers["content-encoding"]);
  } catch (error) {
    settle({ kind: "undecodable", status, headers, reason: (error as Error).message });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let receivedBytes = 0;
  const text = (): string => Buffer.concat(chunks).toString("utf8");
  const truncated = (): void =>
    settle({
      kind: "truncated",
      status,
      headers,
      text: text(),
      receivedBytes,
      ...(declared === undefined ? {} : { expectedBytes: declared }),
    });

  // Decoded or not, the bytes received count towards a cut-off answer's report.
  if (decoded !== response) response.on("data", (chunk: Buffer) => (receivedBytes += chunk.length));
  // A connection closed mid-body ('aborted', then 'error' and 'close' without completing) is
  // reported at once instead of waiting for the timeout.
  response.on("error", truncated);
  response.on("close", () => {
    if (!response.complete) truncated();
  });
  if (decoded !== response) {
    decoded.on("error", (error: Error) =>
      settle({ kind: "undecodable", status, headers, reason: error.message }),
    );
  }
  decoded.on("data", (chunk: Buffer) => {
    if (decoded === response) receivedBytes += chunk.length;
    size += chunk.length;
    if (size > limit) settle({ kind: "tooLarge", status, headers, limitBytes: limit });
    else chunks.push(chunk);
  });
  decoded.on("end", () => settle({ kind: "answer", status, headers, text: text() }));
}

function contentLength(headers: AnswerHeaders): number | undefined {
  const value = headers["content-length"];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

// The client asks for no encoding, but a server or proxy may compress anyway.
function decoderFor(response: http.IncomingMessage, header: string | undefined): Readable {
  const encoding = (header ?? "").trim().toLowerCase();
  switch (encoding) {
    case "":
    case "identity":
      return response;
    case "gzip":
    case "x-gzip":
      return response.pipe(zlib.createGunzip());
    case "deflate":
      return response.pipe(zlib.createInflate());
    case "br":
      return response.pipe(zlib.createBrotliDecompress());
    default:
      // The header as it came (not cut, lower-cased or escaped): the caller redacts and cleans it, and an
      // altered echo of a secret could not be recognized.
      throw new Error(`unsupported Content-Encoding "${header}"`);
  }
}
