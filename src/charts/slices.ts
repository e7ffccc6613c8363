import { ALL_LENGTH_BINS } from "../effort/length";
import type { SessionRow, UnitRow } from "../model";
import { isHeadlineUnit } from "../tables/summarize";
import { MODE_ORDER } from "./theme";

/** The slicings the report charts: `units` columns, plus the session's `length_bin`. */
export type SliceDimension = "model" | "agent" | "repo" | "length_bin" | "coding_mode";

/** The fields a slicing reads: a strict unit and a (session, group) row both have them, so one slicing serves both views. */
export type SlicedRow = Pick<UnitRow, "session_id" | "coding_mode" | "model" | "agent" | "repo">;

export interface Slicing {
  dimension: SliceDimension;
  /** Axis title. */
  label: string;
  /** The slice of a unit (the key `summarizeUnits` groups by). */
  sliceOf: (u: SlicedRow) => string | null;
  /** Slice keys in display order (largest first for names; natural order for bins and modes). */
  order: string[];
  /** Names folded into the "other" slice, when the dimension keeps only its top N. */
  folded: string[];
}

export const SLICE_LABELS: Record<SliceDimension, string> = {
  model: "model (most output tokens)",
  agent: "agent",
  repo: "repository",
  length_bin: "session length (prompts)",
  coding_mode: "coding mode",
};

const UNKNOWN = "(unknown)";

/**
 * How to slice units along one dimension. Names (model, agent, repo) keep
 * the `topN` with the most headline units and fold the rest into one
 * "other (k …)" slice, so a corpus with 700 repositories still gives a
 * readable chart; ties break by name, so the order is stable.
 */
export function slicing(
  dimension: SliceDimension,
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
  topN = 10,
): Slicing {
  const label = SLICE_LABELS[dimension];
  if (dimension === "length_bin") {
    const bins = new Map(sessions.map((s) => [s.session_id, s.length_bin]));
    const sliceOf = (u: SlicedRow) => bins.get(u.session_id) ?? UNKNOWN;
    return { dimension, label, sliceOf, order: [...ALL_LENGTH_BINS, UNKNOWN], folded: [] };
  }
  if (dimension === "coding_mode") {
    return { dimension, label, sliceOf: (u) => u.coding_mode, order: [...MODE_ORDER], folded: [] };
  }
  const nameOf = (u: SlicedRow): string => u[dimension] ?? UNKNOWN;
  const counts = new Map<string, number>();
  for (const u of units) if (isHeadlineUnit(u)) counts.set(nameOf(u), (counts.get(nameOf(u)) ?? 0) + 1);
  const ranked = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([name]) => name);
  // Folding a single name into "other" would only hide it.
  const keep = ranked.length > topN + 1 ? ranked.slice(0, topN) : ranked;
  const folded = ranked.slice(keep.length);
  const kept = new Set(keep);
  const other = `other (${folded.length} ${dimension === "repo" ? "repositories" : `${dimension}s`})`;
  return {
    dimension,
    label,
    sliceOf: (u) => (kept.has(nameOf(u)) ? nameOf(u) : other),
    order: folded.length > 0 ? [...keep, other] : keep,
    folded,
  };
}
