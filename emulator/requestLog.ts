/**
 * The log of API requests the emulator received (`GET /__emulator/requests`), so that tests can assert
 * what a client called, including requests whose client went away. It records method, path (without the
 * query string), status and operation: never a header, a body or a query string, so no credential can end
 * up in it.
 *
 * An entry is opened when the request arrives (so none is lost, whatever happens next) and finished when
 * the answer is complete or the connection closes.
 */
import type { OperationKey } from "pulumi-codesec/api";

/** What an injected fault did to an answer. */
export type FaultKind = "status" | "latency" | "drop" | "malformed" | "truncate" | "stall" | "omitField";

/** One API request. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /**
   * HTTP status of the answer's head; 0 when no head was sent (a `drop` fault, or a client that went away
   * before the answer began).
   */
  status: number;
  /** The operation the path matched, or null for a path that matches none. */
  operation: OperationKey | null;
  /** When the request arrived (ISO 8601). */
  at: string;
  /** The request id (also in the x-request-id header of the answer). */
  requestId: string;
  /** Set when an injected fault shaped the answer. */
  fault?: FaultKind;
  /** The client closed the connection before the answer was finished. */
  abandoned?: true;
  /** The answer is still under way (a handler or a latency fault running, or a stalled body). */
  pending?: true;
}

/** Keeps the most recent entries only, so a long-running emulator does not grow without bound. */
export const REQUEST_LOG_LIMIT = 1000;

/** How an open entry ends. */
export interface RequestOutcome {
  status: number;
  fault?: FaultKind;
  abandoned: boolean;
}

/** An entry that is still open; `finish` closes it (once; later calls change nothing). */
export interface OpenRequest {
  finish(outcome: RequestOutcome): RequestLogEntry;
}

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  /** Records a request as it arrives (status 0, pending) and returns the handle that finishes it. */
  open(arrival: Omit<RequestLogEntry, "status" | "fault" | "abandoned" | "pending">): OpenRequest {
    const entry: RequestLogEntry = { ...arrival, status: 0, pending: true };
    this.push(entry);
    return {
      finish(outcome) {
        if (entry.pending) {
          // Mutated in place: the entry keeps its place in the log (arrival order). After a clear() it is
          // no longer listed, and finishing it changes nothing visible.
          delete entry.pending;
          entry.status = outcome.status;
          if (outcome.fault) entry.fault = outcome.fault;
          if (outcome.abandoned) entry.abandoned = true;
        }
        return { ...entry };
      },
    };
  }

  /** Records a request that is already answered (one that failed before it could be opened). */
  record(entry: RequestLogEntry): void {
    this.push({ ...entry });
  }

  /** The entries, oldest first. */
  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }

  private push(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > REQUEST_LOG_LIMIT)
      this.entries.splice(0, this.entries.length - REQUEST_LOG_LIMIT);
  }
}
