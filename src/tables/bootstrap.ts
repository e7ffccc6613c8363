import { seededRandom } from "../model/seeded-random";

/** mulberry32 (src/model/seeded-random.ts): the same seed gives the same resamples, so reports are reproducible. */
export { seededRandom };

export interface BootstrapOptions {
  iterations?: number;
  seed?: number;
  /** Confidence level, default 0.95. */
  level?: number;
}

/**
 * Percentile bootstrap interval of a statistic over groups (whole sessions):
 * each iteration draws as many groups as there are, with replacement.
 * Returns null when there are no groups or the statistic is never defined.
 */
export function bootstrapInterval<G>(
  groups: readonly G[],
  statistic: (sample: readonly G[]) => number | null,
  { iterations = 1000, seed = 1, level = 0.95 }: BootstrapOptions = {},
): [number, number] | null {
  if (groups.length === 0) return null;
  const random = seededRandom(seed);
  const values: number[] = [];
  const sample: G[] = new Array(groups.length);
  for (let it = 0; it < iterations; it++) {
    for (let i = 0; i < groups.length; i++) sample[i] = groups[Math.floor(random() * groups.length)];
    const v = statistic(sample);
    if (v !== null && Number.isFinite(v)) values.push(v);
  }
  if (values.length === 0) return null;
  values.sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return [quantileSorted(values, alpha), quantileSorted(values, 1 - alpha)];
}

/** Linear-interpolation quantile (type 7, as numpy and d3) of sorted values. */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 1) return sorted[0];
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;
}
