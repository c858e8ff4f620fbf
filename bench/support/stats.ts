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
  return median(pairedRatios(ours, floor));
}

/** The per-repetition ratios `ours[i] / floor[i]`, in order (a repetition whose floor is 0 left out). */
export function pairedRatios(ours: readonly number[], floor: readonly number[]): number[] {
  const count = Math.min(ours.length, floor.length);
  const ratios: number[] = [];
  for (let i = 0; i < count; i++) if (floor[i] > 0) ratios.push(ours[i] / floor[i]);
  return ratios;
}

/** The lowest and highest of `values`: the spread a figure's verdict must hold over. */
export function spreadOf(values: readonly number[]): { low: number; high: number } {
  return { low: Math.min(...values), high: Math.max(...values) };
}

/**
 * A figure's value and spread from its repetitions' values (per-repetition ratios, rates, times): the
 * median, the lowest and highest, and how many there were; ready to spread into `figure({...})`.
 */
export function summarized(values: readonly number[]): {
  value: number;
  spread: { low: number; high: number };
  repetitions: number;
} {
  return { value: median(values), spread: spreadOf(values), repetitions: values.length };
}

/** Seconds since `start` (a `performance.now()` reading). */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}
