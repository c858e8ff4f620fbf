/**
 * Cumulative counts of the API requests the emulator answered, by operation and status. The request log
 * keeps only its last entries (REQUEST_LOG_LIMIT); these counters keep counting, so that a benchmark can
 * count every call of a large `pulumi up`, and how many were refused (429), from one read. They hold
 * numbers only: no path, header, body or credential.
 */
import type { RequestLogEntry } from "./requestLog";

/** What `GET /__emulator/requests/counts` answers. */
export interface RequestCounts {
  /** API requests finished since the emulator started or the counters were last reset. */
  total: number;
  /**
   * By operation key (`"none"` for a path that matches no operation), then by HTTP status as a string
   * (`"0"` when no answer was sent: a dropped connection, or a client that went away first).
   */
  byOperation: Record<string, Record<string, number>>;
  /** By HTTP status, over every operation (e.g. `byStatus["429"]`: requests refused by the rate limit). */
  byStatus: Record<string, number>;
  /** When counting began (start or last reset), ISO 8601. */
  since: string;
}

/** The key of `byOperation` for requests whose path matches no operation. */
export const NO_OPERATION = "none";

export class RequestCounter {
  private counts: RequestCounts = RequestCounter.empty();

  /** Counts one finished request. */
  add(entry: Pick<RequestLogEntry, "operation" | "status">): void {
    const operation = entry.operation ?? NO_OPERATION;
    const status = String(entry.status);
    const byStatus = (this.counts.byOperation[operation] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    this.counts.byStatus[status] = (this.counts.byStatus[status] ?? 0) + 1;
    this.counts.total += 1;
  }

  /** The counts so far (a copy). */
  read(): RequestCounts {
    return structuredClone(this.counts);
  }

  /** Starts counting from zero. */
  reset(): void {
    this.counts = RequestCounter.empty();
  }

  private static empty(): RequestCounts {
    return { total: 0, byOperation: {}, byStatus: {}, since: new Date().toISOString() };
  }
}
