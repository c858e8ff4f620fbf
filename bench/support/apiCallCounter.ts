/**
 * Counts the API requests an in-process emulator answers, by operation and status, phase by phase: the
 * emulator's cumulative request counters (not limited to the request log's last 1,000 entries), read and
 * started from zero at the end of each phase.
 */
import type { EmulatorControl } from "../../emulator/index";

/** API calls of one phase. */
export interface CallCounts {
  total: number;
  /** Requests by operation name (`getCurrentUser`, `updateUserRole`, ...; "none" for no operation). */
  byOperation: Record<string, number>;
  /** Requests by HTTP status ("0" when no answer head was sent). */
  byStatus: Record<string, number>;
}

export class ApiCallCounter {
  constructor(private readonly control: EmulatorControl) {
    control.resetRequestCounts();
  }

  /** The calls since the last `take()` (or since the counter was made); then counts anew. */
  take(): CallCounts {
    const counts = this.control.requestCounts();
    this.control.resetRequestCounts();
    const byOperation: Record<string, number> = {};
    for (const [operation, statuses] of Object.entries(counts.byOperation)) {
      byOperation[operation] = Object.values(statuses).reduce((sum, n) => sum + n, 0);
    }
    return { total: counts.total, byOperation, byStatus: { ...counts.byStatus } };
  }
}
