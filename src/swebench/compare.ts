/**
 * Comparing two runs on the instances both attempted: the 2×2 table of
 * resolved / not resolved, an exact McNemar test (a two-sided binomial test
 * on the discordant pairs), and a seeded paired bootstrap interval of the
 * difference in resolve rate; per repository and per difficulty where the
 * data has them. "Attempted" means in the subset and not `missing`: an empty
 * patch or a harness error is an attempt that failed.
 */
import { seededRandom } from "../model/seeded-random";
import type { InstanceRow } from "./rows";
import { sortIds } from "./subsets";

export interface PairTable {
  /** Instances both attempted. */
  n: number;
  /** Resolved by both, by A only, by B only, by neither. */
  both: number;
  a_only: number;
  b_only: number;
  neither: number;
  a_rate: number | null;
  b_rate: number | null;
  /** `a_rate − b_rate`, percentage points. */
  difference: number | null;
  mcnemar_p: number;
}

export interface BreakdownRow extends PairTable {
  group: string;
}

export interface Comparison extends PairTable {
  a: string;
  b: string;
  subset: string;
  /** Attempted by one run only: left out of the paired comparison. */
  a_only_attempted: number;
  b_only_attempted: number;
  /** Paired bootstrap percentile interval of `difference`. */
  interval: [number, number] | null;
  level: number;
  iterations: number;
  seed: number;
  by_repo: BreakdownRow[];
  /** Empty when no instance has a difficulty. */
  by_difficulty: BreakdownRow[];
}

export interface CompareOptions {
  seed?: number;
  iterations?: number;
  level?: number;
}

/**
 * Exact two-sided McNemar p-value: with `n = b + c` discordant pairs, under
 * the null each is A's win with probability ½, so
 * `p = min(1, 2 · P(X ≤ min(b, c)))`, `X ~ Binomial(n, ½)`; 1 when n = 0.
 * Up to n = 1000 the terms C(n,k)·2⁻ⁿ are built by exact ratios from 2⁻ⁿ;
 * beyond, 2⁻ⁿ underflows, so they are summed in log space.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  if (n <= 1000) {
    let term = 2 ** -n; // C(n, 0) · 2^-n
    for (let i = 0; i <= k; i++) {
      if (i > 0) term = (term * (n - i + 1)) / i;
      tail += term;
    }
  } else {
    let logC = 0;
    const terms: number[] = [];
    for (let i = 0; i <= k; i++) {
      if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
      terms.push(logC - n * Math.LN2);
    }
    const top = Math.max(...terms);
    tail = Math.exp(top) * terms.reduce((s, t) => s + Math.exp(t - top), 0);
  }
  return Math.min(1, 2 * tail);
}

function quantileSorted(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Percentile interval of `100 · (Σa − Σb) / n` over resamples of whole
 * instance pairs (each pair keeps A's and B's outcome together).
 */
export function pairedBootstrap(
  pairs: readonly [boolean, boolean][],
  { seed = 1, iterations = 2000, level = 0.95 }: CompareOptions = {},
): [number, number] | null {
  const n = pairs.length;
  if (n === 0) return null;
  const diff = pairs.map(([a, b]) => (a ? 1 : 0) - (b ? 1 : 0));
  const random = seededRandom(seed);
  const values: number[] = new Array(iterations);
  for (let it = 0; it < iterations; it++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diff[Math.floor(random() * n)];
    values[it] = (100 * s) / n;
  }
  values.sort((x, y) => x - y);
  const alpha = (1 - level) / 2;
  return [quantileSorted(values, alpha), quantileSorted(values, 1 - alpha)];
}

/** The 2×2 table and McNemar p of paired outcomes `[a resolved, b resolved]`. */
export function pairTable(pairs: readonly [boolean, boolean][]): PairTable {
  let both = 0,
    aOnly = 0,
    bOnly = 0,
    neither = 0;
  for (const [a, b] of pairs) {
    if (a && b) both++;
    else if (a) aOnly++;
    else if (b) bOnly++;
    else neither++;
  }
  const n = pairs.length;
  const aRate = n === 0 ? null : (100 * (both + aOnly)) / n;
  const bRate = n === 0 ? null : (100 * (both + bOnly)) / n;
  return {
    n,
    both,
    a_only: aOnly,
    b_only: bOnly,
    neither,
    a_rate: aRate,
    b_rate: bRate,
    difference: n === 0 ? null : (100 * (aOnly - bOnly)) / n,
    mcnemar_p: mcnemarExact(aOnly, bOnly),
  };
}

const attempted = (r: InstanceRow) => r.in_subset && r.class !== "missing";

function breakdown(
  ids: readonly string[],
  key: (id: string) => string | null,
  outcome: (id: string) => [boolean, boolean],
): BreakdownRow[] {
  const groups = new Map<string, [boolean, boolean][]>();
  for (const id of ids) {
    const k = key(id);
    if (k === null) continue;
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(outcome(id));
  }
  return sortIds(groups.keys()).map((group) => ({ group, ...pairTable(groups.get(group)!) }));
}

/** Compares run A with run B (their `instances` rows) on the instances both attempted. */
export function compareRuns(
  a: readonly InstanceRow[],
  b: readonly InstanceRow[],
  options: CompareOptions = {},
): Comparison {
  const { seed = 1, iterations = 2000, level = 0.95 } = options;
  const aById = new Map(a.filter(attempted).map((r) => [r.instance_id, r]));
  const bById = new Map(b.filter(attempted).map((r) => [r.instance_id, r]));
  const shared = sortIds(Array.from(aById.keys()).filter((id) => bById.has(id)));
  const outcome = (id: string): [boolean, boolean] => [aById.get(id)!.resolved, bById.get(id)!.resolved];
  const pairs = shared.map(outcome);
  const first = a[0] ?? b[0];
  return {
    a: a[0]?.run ?? "A",
    b: b[0]?.run ?? "B",
    subset: first?.subset ?? "",
    ...pairTable(pairs),
    a_only_attempted: aById.size - shared.length,
    b_only_attempted: bById.size - shared.length,
    interval: pairedBootstrap(pairs, { seed, iterations, level }),
    level,
    iterations,
    seed,
    by_repo: breakdown(shared, (id) => aById.get(id)!.repo ?? bById.get(id)!.repo, outcome),
    by_difficulty: breakdown(shared, (id) => aById.get(id)!.difficulty ?? bById.get(id)!.difficulty, outcome),
  };
}
