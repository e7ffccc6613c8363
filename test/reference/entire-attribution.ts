/**
 * metrics.md §4's last row: `entire_agent_lines`, `entire_total_committed`,
 * `entire_agent_percentage` are "Entire's own recorded `initial_attribution`, when the data has it".
 *
 * Where it is (formats.md §1.3): `initial_attribution` is a field of the *session* folder's
 * `metadata.json` (`CommittedMetadata`, `<id[:2]>/<id[2:]>/<n>/metadata.json`); the checkpoint-level
 * summary (`CheckpointSummary`) has `token_usage` but no attribution. A unit is (session, commit),
 * and its session folder is the one of the unit's checkpoint, so the unit takes that folder's record.
 * (Both corpora agree: no checkpoint-level metadata.json of the dev mirror has the field.)
 *
 * Which fields: `agent_lines`, `total_committed` and `agent_percentage`, copied as recorded.
 * With `metric_version: 2` (formats.md §1.6, newer Entire) `agent_percentage` is
 * `(agent_lines + agent_removed) / total_lines_changed`, not `agent_lines / total_committed`: the
 * column is Entire's number, so it is copied, not recomputed.
 *
 * Open points, written down (no option: no unit of either corpus shows them):
 * - a record with only some of the fields: each column takes its own field (the product keeps
 *   none of the three unless both counts are there);
 * - a checkpoint on several commits: Entire computed the record for the commit it condensed
 *   into; which one that was is not stored, so every unit of the folder shows the same record
 *   (these units are `multi-commit-checkpoint`, out of headline numbers anyway).
 */

export interface EntireColumns {
  entire_agent_lines: number | null;
  entire_total_committed: number | null;
  entire_agent_percentage: number | null;
}

export const ENTIRE_COLUMNS = [
  "entire_agent_lines",
  "entire_total_committed",
  "entire_agent_percentage",
] as const satisfies readonly (keyof EntireColumns)[];

const finite = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The three columns from a session folder's metadata.json (null when the folder has no metadata or no record). */
export function entireColumns(sessionMetadata: Record<string, unknown> | null): EntireColumns {
  const a = sessionMetadata?.initial_attribution;
  const rec = a && typeof a === "object" && !Array.isArray(a) ? (a as Record<string, unknown>) : {};
  return {
    entire_agent_lines: finite(rec.agent_lines),
    entire_total_committed: finite(rec.total_committed),
    entire_agent_percentage: finite(rec.agent_percentage),
  };
}
