/**
 * Effort per committed line (metrics.md §5): tokens, dollars and active
 * seconds divided by `total_committed_lines` of the session's unambiguous
 * units. Null when the value is null (e.g. a cost with an unknown model) or
 * when there are no committed lines (0, negative or not a number): a session
 * that committed nothing has no per-line figure, not an infinite one.
 */

export function perCommittedLine(value: number | null, committedLines: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  if (!Number.isFinite(committedLines) || committedLines <= 0) return null;
  return value / committedLines;
}

export interface EffortTotals {
  tokens: number | null;
  cost_usd: number | null;
  active_s: number | null;
}

export interface EffortPerLine {
  tokens_per_line: number | null;
  usd_per_line: number | null;
  active_s_per_line: number | null;
}

/** The three per-line figures at once. */
export function effortPerCommittedLine(effort: EffortTotals, committedLines: number): EffortPerLine {
  return {
    tokens_per_line: perCommittedLine(effort.tokens, committedLines),
    usd_per_line: perCommittedLine(effort.cost_usd, committedLines),
    active_s_per_line: perCommittedLine(effort.active_s, committedLines),
  };
}
