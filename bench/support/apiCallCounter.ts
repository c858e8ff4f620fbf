/**
 * Counts the API requests an in-process emulator answers, by operation and status, phase by phase.
 *
 * PENDING (emulator helper): when the emulator's cumulative counters by operation and status land on its
 * control surface, read them here instead. Until then the counts come from the request log, which keeps
 * only the latest 1,000 entries: it is polled every 100 ms (far faster than any bench fills it) and
 * entries are told apart by request id, so a request is counted once and its final status wins.
 */
import type { EmulatorControl, RequestLogEntry } from "../../emulator/index";

/** API calls of one phase. */
export interface CallCounts {
  total: number;
  /** Requests by operation name (`getCurrentUser`, `updateUserRole`, ...; "unmatched" for none). */
  byOperation: Record<string, number>;
  /** Requests by HTTP status ("0" when no answer head was sent). */
  byStatus: Record<string, number>;
}

const LOG_LIMIT = 1000;
const POLL_MS = 100;

export class ApiCallCounter {
  /** Requests of the current phase, by request id (the latest copy of each entry). */
  private readonly current = new Map<string, RequestLogEntry>();
  /** Ids of requests counted in earlier phases that may still be in the log. */
  private counted = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  /** Set when a poll found the log full of entries never seen: some requests may have been missed. */
  overflowed = false;

  constructor(private readonly control: EmulatorControl) {
    control.clearRequests();
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  private poll(): RequestLogEntry[] {
    const entries = this.control.requests();
    const first = entries[0]?.requestId;
    if (
      entries.length >= LOG_LIMIT &&
      this.current.size + this.counted.size > 0 &&
      !this.current.has(first) &&
      !this.counted.has(first)
    ) {
      this.overflowed = true;
    }
    for (const entry of entries)
      if (!this.counted.has(entry.requestId)) this.current.set(entry.requestId, entry);
    return entries;
  }

  /** The calls since the last `take()` (or since the counter started); then counts anew. */
  take(): CallCounts {
    const inLog = this.poll();
    const counts: CallCounts = { total: 0, byOperation: {}, byStatus: {} };
    for (const entry of this.current.values()) {
      counts.total++;
      const operation = entry.operation ?? "unmatched";
      counts.byOperation[operation] = (counts.byOperation[operation] ?? 0) + 1;
      counts.byStatus[String(entry.status)] = (counts.byStatus[String(entry.status)] ?? 0) + 1;
    }
    this.counted = new Set(inLog.map((entry) => entry.requestId));
    this.current.clear();
    return counts;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
