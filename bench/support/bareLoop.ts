/**
 * The bare keep-alive HTTP loop: `node:http` with a keep-alive agent and nothing else (no validation, no
 * timeout, no retry but the one Node's documentation prescribes for keep-alive, as the HTTP floor's: a
 * request on a reused socket that the server had closed meanwhile never reached it, and is sent once more
 * on a new one; a full run once stopped on such a "socket hang up"). The reference the client and the
 * emulator's capacity are measured with.
 */
import * as http from "node:http";
import { performance } from "node:perf_hooks";

/** One request the loop repeats. */
export interface BareRequest {
  baseUrl: string;
  token: string;
  method: string;
  path: string;
  body?: unknown;
  /**
   * The path and body of the n-th request (0-based), in place of `path` and `body`: for writes that each
   * change something.
   */
  vary?: (n: number) => { path: string; body?: unknown };
}

/** What a loop did. */
export interface LoopResult {
  requests: number;
  seconds: number;
  perSecond: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
}

function send(agent: http.Agent, request: BareRequest, n: number, retried = false): Promise<number> {
  const { path, body } = request.vary ? request.vary(n) : request;
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${request.token}` };
  if (data !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(data);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, request.baseUrl),
      { method: request.method, headers, agent },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried) {
        send(agent, request, n, true).then(resolve, reject);
      } else {
        reject(error);
      }
    });
    req.end(data);
  });
}

/**
 * The one loop both forms run: `workers` loops, each claiming the next request's number (`claim` answers
 * undefined when the loop is done) and, when `startsAt` is given, waiting until that request's start time
 * (milliseconds after the first) before sending it.
 */
async function runLoop(
  request: BareRequest,
  workers: number,
  claim: (elapsedMs: number) => number | undefined,
  startsAt?: (n: number) => number,
): Promise<LoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  const statuses: Record<string, number> = {};
  let sent = 0;
  const start = performance.now();
  try {
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let n = claim(0); n !== undefined; n = claim(performance.now() - start)) {
          // Whole milliseconds, checked again: a timer can fire early (libuv's cached loop time).
          const due = startsAt === undefined ? 0 : start + startsAt(n);
          for (let wait = due - performance.now(); wait > 0; wait = due - performance.now())
            await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
          const status = await send(agent, request, n);
          sent += 1;
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - start) / 1000;
  return { requests: sent, seconds, perSecond: sent / seconds, statuses };
}

/**
 * Sends `request` from `concurrency` loops until `limit` is reached: a number of requests, or a
 * duration in seconds (whichever `limit` names).
 */
export function bareLoop(
  request: BareRequest,
  concurrency: number,
  limit: { requests: number } | { seconds: number },
): Promise<LoopResult> {
  let next = 0;
  return runLoop(request, concurrency, (elapsedMs) =>
    ("requests" in limit ? next < limit.requests : elapsedMs < limit.seconds * 1000) ? next++ : undefined,
  );
}

/**
 * Sends `requests` requests paced as the client's limiter paces them: the n-th (0-based) starts no
 * earlier than n / `perSecond` seconds after the first, with at most `inFlight` at once. The API floor
 * of a batch of writes at a rate limit: the least time the same requests can take at that rate.
 */
export function pacedLoop(
  request: BareRequest,
  pace: { perSecond: number; inFlight: number },
  requests: number,
): Promise<LoopResult> {
  let next = 0;
  return runLoop(
    request,
    Math.min(pace.inFlight, requests),
    () => (next < requests ? next++ : undefined),
    (n) => (n * 1000) / pace.perSecond,
  );
}
