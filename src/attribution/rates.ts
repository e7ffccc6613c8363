/** The rule of each rate (metrics.md §4), one small pure function each. */

const percent = (num: number, den: number): number | null => (den > 0 ? (100 * num) / den : null);

/** `100 · survived / final`; null when the agent left no line in its final state. */
export const codeSurvivalRate = (survived: number, final: number): number | null => percent(survived, final);

/** `100 · survived / produced`; null when the agent produced nothing. */
export const codingEfficiency = (survived: number, produced: number): number | null => percent(survived, produced);

/** `100 · survived / total committed`; null when the commit adds no line. */
export const agentAuthoredPct = (survived: number, committed: number): number | null => percent(survived, committed);

export type CodingMode = "human-only" | "collaborative" | "vibe";
export const CODING_MODES: readonly CodingMode[] = ["human-only", "collaborative", "vibe"];

/** SWE-chat's thresholds: 0 % human-only, ≥ 99 % vibe, else collaborative; null without committed lines. */
export function codingMode(agentPct: number | null): CodingMode | null {
  if (agentPct === null) return null;
  if (agentPct === 0) return "human-only";
  if (agentPct >= 99) return "vibe";
  return "collaborative";
}
