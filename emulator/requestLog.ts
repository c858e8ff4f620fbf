/**
 * The log of API requests the emulator answered (`GET /__emulator/requests`), so that tests can assert
 * what a client called. It records method, path (without the query string), status and operation: never
 * a header, a body or a query string, so no credential can end up in it.
 */
import type { OperationKey } from "../sdk/operations";

/** One answered API request. */
export interface RequestLogEntry {
  method: string;
  path: string;
  /** HTTP status answered; 0 when a fault dropped the connection before any response. */
  status: number;
  /** The operation the path matched, or null for a path that matches none. */
  operation: OperationKey | null;
  /** When the request arrived (ISO 8601). */
  at: string;
  /** The request id (also in the x-request-id header of the answer). */
  requestId: string;
  /** Set when an injected fault shaped the answer. */
  fault?: "status" | "latency" | "drop" | "malformed";
}

/** Keeps the most recent entries only, so a long-running emulator does not grow without bound. */
export const REQUEST_LOG_LIMIT = 1000;

export class RequestLog {
  private entries: RequestLogEntry[] = [];

  record(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > REQUEST_LOG_LIMIT)
      this.entries.splice(0, this.entries.length - REQUEST_LOG_LIMIT);
  }

  /** The entries, oldest first. */
  list(): RequestLogEntry[] {
    return this.entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.entries = [];
  }
}
