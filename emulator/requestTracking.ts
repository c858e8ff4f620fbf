/**
 * Follows each API request from its arrival to the end of its answer or connection, and keeps its
 * request-log entry true to what happened: opened on arrival, finished when the answer is complete, or when
 * the connection closes first (the client went away: `abandoned`; or a fault, or the emulator's own
 * shutdown, closed it).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { OperationKey } from "pulumi-codesec/api";
import { closedByEmulator } from "./connections";
import { pathOf } from "./urlPath";
import type { FaultKind, OpenRequest, RequestLog, RequestLogEntry } from "./requestLog";

interface Tracked {
  open: OpenRequest;
  fault?: FaultKind;
}

export class RequestTracker {
  private readonly tracked = new WeakMap<FastifyRequest, Tracked>();
  private closing = false;

  constructor(
    private readonly log: RequestLog,
    /** Called once per request, with its finished entry. */
    private readonly onFinished: (entry: RequestLogEntry) => void,
  ) {}

  /** Opens the entry of an arriving request and arranges for it to be finished, whatever happens. */
  arrive(request: FastifyRequest, reply: FastifyReply, operation: OperationKey | null): void {
    const tracked: Tracked = {
      open: this.log.open({
        method: request.method,
        path: pathOf(request.url),
        operation,
        at: new Date().toISOString(),
        requestId: request.id,
      }),
    };
    this.tracked.set(request, tracked);
    const res = reply.raw;
    let finished = false;
    const finish = (complete: boolean) => {
      if (finished) return;
      finished = true;
      this.onFinished(
        tracked.open.finish({
          status: res.headersSent ? res.statusCode : 0,
          ...(tracked.fault ? { fault: tracked.fault } : {}),
          abandoned: !complete && !closedByEmulator(request.raw) && !this.closing,
        }),
      );
    };
    // "finish": the whole answer was handed to the connection. "close" before that: it never will be.
    res.once("finish", () => finish(true));
    res.once("close", () => finish(false));
  }

  /** Notes the fault that shapes the answer to `request`. */
  markFault(request: FastifyRequest, kind: FaultKind): void {
    const tracked = this.tracked.get(request);
    if (tracked) tracked.fault = kind;
  }

  /** From now on, connections that close are the emulator's doing (it is shutting down), not the clients'. */
  beginClose(): void {
    this.closing = true;
  }
}
