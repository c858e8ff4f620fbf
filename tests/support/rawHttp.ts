/**
 * One HTTP exchange over `node:http` that reports exactly what arrived, also when the answer is lost, cut
 * short or stalled (where a fetch client would only throw): the head, the bytes of the body, whether the
 * body was whole, and how the exchange failed.
 */
import { request, type Agent, type IncomingHttpHeaders } from "node:http";
import { connect, type Socket } from "node:net";

export interface RawExchange {
  /** Status of the answer's head; undefined when no head arrived. */
  status?: number;
  headers: IncomingHttpHeaders;
  /** The body bytes that arrived. */
  body: Buffer;
  /** Whether the whole body arrived (as many bytes as the head announced). */
  complete: boolean;
  /** Why the exchange ended early: "timeout" (nothing arrived for `idleTimeoutMs`) or the socket error. */
  failure?: string;
}

export interface RawRequestOptions {
  headers?: Record<string, string>;
  /** Sent as it is (set content-type in `headers`). */
  body?: string;
  /** The client gives up when nothing arrives for this long (default 10 s). */
  idleTimeoutMs?: number;
  agent?: Agent;
  /** Aborting it makes the client go away (the exchange then fails with "ABORT_ERR"). */
  signal?: AbortSignal;
}

/** Sends one request and resolves (never rejects) once the exchange is over, however it ended. */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let head: { status: number; headers: IncomingHttpHeaders } | undefined;
    let settled = false;
    const settle = (complete: boolean, failure?: string) => {
      if (settled) return;
      settled = true;
      resolve({
        ...(head ? { status: head.status } : {}),
        headers: head?.headers ?? {},
        body: Buffer.concat(chunks),
        complete,
        ...(failure !== undefined ? { failure } : {}),
      });
    };
    const req = request(`${baseUrl}${path}`, {
      method,
      headers: options.headers,
      ...(options.agent ? { agent: options.agent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    req.setTimeout(options.idleTimeoutMs ?? 10_000, () => {
      settle(false, "timeout");
      req.destroy();
    });
    req.on("error", (error: NodeJS.ErrnoException) => settle(false, error.code ?? error.message));
    req.on("response", (res) => {
      head = { status: res.statusCode ?? 0, headers: res.headers };
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => settle(res.complete));
      res.on("error", (error: NodeJS.ErrnoException) => settle(false, error.code ?? error.message));
      res.on("close", () => settle(res.complete, res.complete ? undefined : "closed"));
    });
    req.end(options.body);
  });
}

/** Headers of an API call with `credential` and, when there is a body, its JSON content type. */
export function apiHeaders(credential: string, withBody = false): Record<string, string> {
  return {
    authorization: `Bearer ${credential}`,
    ...(withBody ? { "content-type": "application/json" } : {}),
  };
}

/**
 * A bare TCP connection to the server of `baseUrl`, for what a well-behaved client never does: stay
 * silent, drip a request head or body, stop half-way, or keep an idle connection open.
 */
export interface RawConnection {
  socket: Socket;
  /** Everything received so far (latin1, byte for byte). */
  received(): string;
  /** Resolves with everything received once the connection is closed (this side never closes it). */
  closed: Promise<string>;
  /** Writes `text` one character every `everyMs` until the connection closes. */
  drip(text: string, everyMs: number): void;
}

/** Opens a bare TCP connection to the host and port of `baseUrl`. */
export function openConnection(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    let data = "";
    const socket = connect({ host, port: Number(url.port) });
    const closed = new Promise<string>((resolveClosed) => socket.once("close", () => resolveClosed(data)));
    socket.on("data", (chunk: Buffer) => (data += chunk.toString("latin1")));
    // A reset by the server is a close too; `closed` reports it.
    socket.on("error", () => undefined);
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => data,
        closed,
        drip(text, everyMs) {
          let next = 0;
          const timer = setInterval(() => {
            if (socket.destroyed || next >= text.length) {
              clearInterval(timer);
              return;
            }
            socket.write(text[next]);
            next += 1;
          }, everyMs);
          socket.once("close", () => clearInterval(timer));
        },
      }),
    );
    socket.once("error", reject);
  });
}
