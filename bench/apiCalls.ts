/**
 * Comparison 3, API calls per phase, counted by the emulator during comparison 1's codesec stacks and
 * held against what each phase needs: a preview makes only the credential check (one operation-8 read per
 * connection; the bench stacks have one), a no-change up none, a refresh one operation-8 read per
 * connection for all UserRoles, and a create, update or destroy one operation-1 call per changed resource.
 */
import type { PhaseCalls } from "./engineFloor";
import { updatedCount, type Phase } from "./support/lifecycle";
import { figure, type Figure, type Target } from "./support/results";

const COMPARISON = "3 API calls";

function targetOf(phase: Phase, n: number): Target {
  switch (phase) {
    case "preview (create)":
    case "preview, no change":
    case "refresh":
      return { op: "<=", value: 1 };
    case "up, no change":
      return { op: "==", value: 0 };
    case "update of 5":
      return { op: "==", value: updatedCount(n) };
    case "up (create)":
    case "destroy":
      return { op: "==", value: n };
  }
}

/** One figure per size and phase: the calls ours made (the HTTP floor's in the detail). */
export function apiCallFigures(all: readonly PhaseCalls[]): Figure[] {
  const figures: Figure[] = [];
  for (const { n, codesec, http } of all) {
    for (const phase of Object.keys(codesec) as Phase[]) {
      const calls = codesec[phase];
      const byOperation = Object.entries(calls.byOperation)
        .map(([operation, count]) => `${operation} ${count}`)
        .join(", ");
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `N=${n} ${phase}`,
          value: calls.total,
          unit: "calls",
          target: targetOf(phase, n),
          detail: `${byOperation || "none"}; HTTP floor ${http[phase].total}`,
        }),
      );
    }
  }
  return figures;
}
