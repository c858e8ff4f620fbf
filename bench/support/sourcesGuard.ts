/**
 * The measured sources' digest of a bench run, re-checked before each save of its results: a source
 * changed mid-run (an edit, a checkout) makes every figure saved from then on hold for no one commit, so
 * the results lose the digest at the first save after the change, not only at the run's end.
 */

/** The note the results carry once the sources changed during the run. */
export const SOURCES_CHANGED_NOTE =
  "The provider, plugin or SDK sources changed during this run: its figures hold for no one commit.";

export interface SourcesGuard {
  /** Compares the sources with the run's start; returns the digest to record (undefined once changed). */
  check(): string | undefined;
  /** Whether the sources were seen changed. */
  readonly changed: boolean;
}

/** A guard of the sources whose digest `current` computes, as they are now. */
export function sourcesGuard(current: () => string): SourcesGuard {
  const atStart = current();
  let changed = false;
  return {
    check() {
      if (!changed && current() !== atStart) changed = true;
      return changed ? undefined : atStart;
    },
    get changed() {
      return changed;
    },
  };
}
