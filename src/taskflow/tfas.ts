import { flowCounts, splitEdgeKey } from "./flow";
import { type DivergenceTerm, jsd2 } from "./jsd";
import type { TaskFlow } from "./model";

/** The three component scores and their aggregate: never reported apart (the paper's reporting rule). */
export interface TfasScores {
  /** 1 − JSD₂ of the length distributions, in [0, 1]. */
  S_L: number | null;
  /** 1 − JSD₂ of the task-type distributions. */
  S_T: number | null;
  /** 1 − JSD₂ of the transition distributions. */
  S_R: number | null;
  /** 100 · (S_L · S_T · S_R)^(1/3), in [0, 100]; null when a component is undefined. */
  TFAS: number | null;
}

export interface TransitionTerm extends DivergenceTerm {
  from: string;
  to: string;
}

/** Where two flows differ: every bin, label and transition with its share on each side and its part of the JSD. */
export interface TfasDivergence {
  lengths: DivergenceTerm[];
  task_types: DivergenceTerm[];
  transitions: TransitionTerm[];
}

export interface TfasComparison extends TfasScores {
  divergence: TfasDivergence;
}

/** TFAS from its components (each in [0, 1]); null if any is null. A zero component collapses it to 0. */
export function tfasFromComponents(sL: number | null, sT: number | null, sR: number | null): number | null {
  if (sL === null || sT === null || sR === null) return null;
  const product = Math.max(0, sL) * Math.max(0, sT) * Math.max(0, sR);
  return Math.min(100, 100 * Math.cbrt(product));
}

/** Scores a benchmark's Task Flow against a target's. */
export function compareTaskFlows(target: TaskFlow, benchmark: TaskFlow): TfasComparison {
  const p = flowCounts(target);
  const q = flowCounts(benchmark);
  const L = jsd2(p.L, q.L);
  const T = jsd2(p.T, q.T);
  const R = jsd2(p.R, q.R);
  const S_L = L.jsd === null ? null : 1 - L.jsd;
  const S_T = T.jsd === null ? null : 1 - T.jsd;
  const S_R = R.jsd === null ? null : 1 - R.jsd;
  return {
    S_L,
    S_T,
    S_R,
    TFAS: tfasFromComponents(S_L, S_T, S_R),
    divergence: {
      lengths: L.terms,
      task_types: T.terms,
      transitions: R.terms.map((t) => {
        const [from, to] = splitEdgeKey(t.key);
        return { ...t, from, to };
      }),
    },
  };
}
