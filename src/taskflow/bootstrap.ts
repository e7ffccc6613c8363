import { quantileSorted, seededRandom } from "../tables/bootstrap";
import { edgeKey, resolveFlowOptions, sessionParts } from "./flow";
import type { TaskFlow } from "./model";
import { tfasFromComponents } from "./tfas";

export interface TfasBootstrapOptions {
  /** Replicates (default 1000). */
  replicates?: number;
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export type Interval = [number, number] | null;

export interface TfasIntervals {
  S_L: Interval;
  S_T: Interval;
  S_R: Interval;
  TFAS: Interval;
  level: number;
  replicates: number;
  seed: number;
  method: "percentile, whole sessions resampled";
  /** A side without stored sequences (a published flow of counts only) is held fixed, not resampled. */
  resampled: { target: boolean; benchmark: boolean };
}

/** One side of the comparison, ready to resample: per distinct sequence, its count vectors over shared key indices. */
interface Side {
  weights: number[];
  /** expanded[i] = index of the distinct sequence of session i. */
  expanded: number[];
  parts: { L: number[]; T: number[]; R: number[] }[];
  /** Set when the side has no sequences: its counts as (key index, count) pairs, the same in every replicate. */
  fixed: { L: Pair[]; T: Pair[]; R: Pair[] } | null;
}

type Pair = readonly [number, number];

/**
 * Percentile intervals of S_L, S_T, S_R and TFAS from a bootstrap that
 * resamples whole sessions (the paper: "resample complete sessions rather
 * than individual edges"), each side independently, with a seeded PRNG.
 */
export function bootstrapTfas(
  target: TaskFlow,
  benchmark: TaskFlow,
  options: TfasBootstrapOptions = {},
): TfasIntervals {
  const replicates = options.replicates ?? 1000;
  const seed = options.seed ?? 1;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1)
    throw new RangeError(`replicates must be a whole number ≥ 1, got ${replicates}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const index = { L: new Map<string, number>(), T: new Map<string, number>(), R: new Map<string, number>() };
  const t = prepare(target, index);
  const b = prepare(benchmark, index);
  const size = { L: index.L.size, T: index.T.size, R: index.R.size };
  const random = seededRandom(seed);
  const values = { S_L: [] as number[], S_T: [] as number[], S_R: [] as number[], TFAS: [] as number[] };
  const pt = { L: new Float64Array(size.L), T: new Float64Array(size.T), R: new Float64Array(size.R) };
  const qt = { L: new Float64Array(size.L), T: new Float64Array(size.T), R: new Float64Array(size.R) };
  for (let it = 0; it < replicates; it++) {
    draw(t, pt, random);
    draw(b, qt, random);
    const sL = sim(pt.L, qt.L);
    const sT = sim(pt.T, qt.T);
    const sR = sim(pt.R, qt.R);
    if (sL !== null) values.S_L.push(sL);
    if (sT !== null) values.S_T.push(sT);
    if (sR !== null) values.S_R.push(sR);
    const a = tfasFromComponents(sL, sT, sR);
    if (a !== null) values.TFAS.push(a);
  }
  const alpha = (1 - level) / 2;
  const interval = (v: number[]): Interval => {
    if (v.length === 0) return null;
    v.sort((x, y) => x - y);
    return [quantileSorted(v, alpha), quantileSorted(v, 1 - alpha)];
  };
  return {
    S_L: interval(values.S_L),
    S_T: interval(values.S_T),
    S_R: interval(values.S_R),
    TFAS: interval(values.TFAS),
    level,
    replicates,
    seed,
    method: "percentile, whole sessions resampled",
    resampled: { target: t.fixed === null, benchmark: b.fixed === null },
  };
}

type KeyIndex = { L: Map<string, number>; T: Map<string, number>; R: Map<string, number> };

function prepare(flow: TaskFlow, index: KeyIndex): Side {
  const id = (m: Map<string, number>, k: string) => {
    let i = m.get(k);
    if (i === undefined) m.set(k, (i = m.size));
    return i;
  };
  if (!flow.sequences || flow.sequences.length === 0) {
    // Counts only: the side is what it is in every replicate.
    const L = Object.entries(flow.lengths).map(([k, v]): Pair => [id(index.L, k), v]);
    const T = Object.entries(flow.task_types).map(([k, v]): Pair => [id(index.T, k), v]);
    const R = flow.transitions.map((e): Pair => [id(index.R, edgeKey(e.from, e.to)), e.count]);
    return { weights: [], expanded: [], parts: [], fixed: { L, T, R } };
  }
  const o = resolveFlowOptions({
    minMessages: flow.min_messages,
    nonInstantiable: flow.non_instantiable,
    allExcluded: flow.all_excluded,
  });
  const side: Side = { weights: [], expanded: [], parts: [], fixed: null };
  flow.sequences.forEach((s, i) => {
    const parts = sessionParts(s.labels, o);
    const p = { L: [] as number[], T: [] as number[], R: [] as number[] };
    if (parts) {
      p.L.push(id(index.L, parts.bin));
      for (const t of parts.types) p.T.push(id(index.T, t));
      for (const e of parts.edges) p.R.push(id(index.R, e));
    }
    side.parts.push(p);
    side.weights.push(0);
    for (let k = 0; k < s.n; k++) side.expanded.push(i);
  });
  return side;
}

function draw(side: Side, into: { L: Float64Array; T: Float64Array; R: Float64Array }, random: () => number): void {
  into.L.fill(0);
  into.T.fill(0);
  into.R.fill(0);
  const fixed = side.fixed;
  if (fixed) {
    for (const [i, v] of fixed.L) into.L[i] += v;
    for (const [i, v] of fixed.T) into.T[i] += v;
    for (const [i, v] of fixed.R) into.R[i] += v;
    return;
  }
  const n = side.expanded.length;
  side.weights.fill(0);
  for (let i = 0; i < n; i++) side.weights[side.expanded[Math.floor(random() * n)]]++;
  for (let s = 0; s < side.parts.length; s++) {
    const w = side.weights[s];
    if (w === 0) continue;
    const p = side.parts[s];
    for (const i of p.L) into.L[i] += w;
    for (const i of p.T) into.T[i] += w;
    for (const i of p.R) into.R[i] += w;
  }
}

/** 1 − JSD₂ of two count vectors on one index (null when a side has no mass). */
function sim(p: Float64Array, q: Float64Array): number | null {
  let ps = 0;
  let qs = 0;
  for (let i = 0; i < p.length; i++) {
    ps += p[i];
    qs += q[i];
  }
  if (ps <= 0 || qs <= 0) return null;
  let j = 0;
  for (let i = 0; i < p.length; i++) {
    const a = p[i] / ps;
    const b = q[i] / qs;
    if (a === 0 && b === 0) continue;
    const m = (a + b) / 2;
    if (a > 0) j += 0.5 * a * Math.log2(a / m);
    if (b > 0) j += 0.5 * b * Math.log2(b / m);
  }
  return 1 - Math.min(1, Math.max(0, j));
}
