/**
 * The API calls comparison: calls per phase, counted by the emulator during the engine floor's stacks and
 * held against what each phase needs: every phase that runs `check` (preview, up) makes the credential
 * check (one read of the current user, `GET /api/auth/users/current`, per connection per process; the
 * bench stacks have one) and nothing else but one role write (`PATCH .../users/{userId}/roles`) per
 * changed resource; a refresh one current-user read per connection for all UserRoles; a destroy one role
 * write per resource (roleOnDestroy). A no-change up keeps the credential check on purpose (it is what
 * makes a rotated or wrong token fail before any write, docs/credentials.md), so its target is that one
 * read, not zero calls.
 */
import type { CallCounts } from "./support/apiCallCounter";
import { updatedCount, type Phase } from "./support/lifecycle";
import { figure, type Figure, type Target } from "./support/results";

const COMPARISON = "API calls";
/** The one current-user read per connection of a process that runs `check`. */
const CREDENTIAL_CHECK = 1;

function targetOf(phase: Phase, n: number): Target {
  switch (phase) {
    case "preview (create)":
    case "preview, no change":
    case "up, no change":
    case "refresh":
      return { op: "<=", value: CREDENTIAL_CHECK };
    case "update of 5":
      return { op: "==", value: updatedCount(n) + CREDENTIAL_CHECK };
    case "up (create)":
      return { op: "==", value: n + CREDENTIAL_CHECK };
    case "destroy":
      return { op: "==", value: n };
  }
}

/** API calls per phase of one stack size: the dynamic UserRoles, the native ones, and the HTTP floor. */
export interface PhaseCalls {
  n: number;
  codesec: Record<Phase, CallCounts>;
  native?: Record<Phase, CallCounts>;
  http: Record<Phase, CallCounts>;
}

function byOperation(calls: CallCounts): string {
  return (
    Object.entries(calls.byOperation)
      .map(([operation, count]) => `${operation} ${count}`)
      .join(", ") || "none"
  );
}

/**
 * One figure per size and phase: the calls the dynamic UserRoles made (the HTTP floor's in the detail);
 * and, with the native provider's counts, the native calls held to the same targets (the native provider
 * makes the same calls as the dynamic one).
 */
export function apiCallFigures(all: readonly PhaseCalls[]): Figure[] {
  const figures: Figure[] = [];
  for (const { n, codesec, native, http } of all) {
    for (const phase of Object.keys(codesec) as Phase[]) {
      const calls = codesec[phase];
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `N=${n} ${phase}`,
          value: calls.total,
          unit: "calls",
          target: targetOf(phase, n),
          detail: `${byOperation(calls)}; HTTP floor ${http[phase].total}`,
        }),
      );
    }
    if (!native) continue;
    for (const phase of Object.keys(native) as Phase[]) {
      const calls = native[phase];
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `N=${n} ${phase}, native provider`,
          value: calls.total,
          unit: "calls",
          target: targetOf(phase, n),
          detail: `${byOperation(calls)}; dynamic ${codesec[phase].total}`,
        }),
      );
    }
  }
  return figures;
}
