/**
 * Jensen–Shannon divergence in bits (metrics.md §7): on the union of the two
 * supports, 0·log 0 = 0, no smoothing. Inputs are counts or shares; each side
 * is normalised on its own.
 */

export interface DivergenceTerm {
  key: string;
  /** Share on the target side. */
  p: number;
  /** Share on the benchmark side. */
  q: number;
  /** ½p·log₂(p/m) + ½q·log₂(q/m): this key's part of the JSD (≥ 0; the terms sum to the JSD). */
  contribution: number;
}

export interface JsdResult {
  /** In [0, 1]; null when a side has no mass (a distribution over nothing). */
  jsd: number | null;
  /** Every key of the union, largest contribution first (ties by key). */
  terms: DivergenceTerm[];
}

export function jsd2(target: ReadonlyMap<string, number>, benchmark: ReadonlyMap<string, number>): JsdResult {
  const pt = total(target);
  const qt = total(benchmark);
  const keys = Array.from(new Set([...target.keys(), ...benchmark.keys()])).sort();
  const terms: DivergenceTerm[] = [];
  let sum = 0;
  for (const key of keys) {
    const p = pt > 0 ? (target.get(key) ?? 0) / pt : 0;
    const q = qt > 0 ? (benchmark.get(key) ?? 0) / qt : 0;
    if (p === 0 && q === 0) continue;
    const m = (p + q) / 2;
    // Each term is non-negative (½p·log(p/m) + ½q·log(q/m) ≥ 0 pointwise for the pair), so the terms localise the divergence.
    const c = (p > 0 ? 0.5 * p * Math.log2(p / m) : 0) + (q > 0 ? 0.5 * q * Math.log2(q / m) : 0);
    terms.push({ key, p, q, contribution: c });
    sum += c;
  }
  terms.sort((a, b) => b.contribution - a.contribution || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (pt <= 0 || qt <= 0) return { jsd: null, terms };
  return { jsd: Math.min(1, Math.max(0, sum)), terms };
}

/** S = 1 − JSD₂, or null when the JSD is undefined. */
export function similarity(target: ReadonlyMap<string, number>, benchmark: ReadonlyMap<string, number>): number | null {
  const { jsd } = jsd2(target, benchmark);
  return jsd === null ? null : 1 - jsd;
}

function total(m: ReadonlyMap<string, number>): number {
  let s = 0;
  for (const v of m.values()) {
    if (!(v >= 0) || !Number.isFinite(v))
      throw new RangeError(`a distribution holds ${v}: counts must be finite and ≥ 0`);
    s += v;
  }
  return s;
}
