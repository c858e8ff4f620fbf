/** Medians and paired ratios of interleaved repetitions (A, B, A, B, ...): the statistics every comparison reports. */

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The median of the per-repetition ratios `ours[i] / floor[i]`. Pairing the repetitions that ran next to
 * each other cancels most of a noisy machine's drift, which a ratio of two medians would keep.
 */
export function pairedRatio(ours: readonly number[], floor: readonly number[]): number {
  const count = Math.min(ours.length, floor.length);
  const ratios: number[] = [];
  for (let i = 0; i < count; i++) if (floor[i] > 0) ratios.push(ours[i] / floor[i]);
  return median(ratios);
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
