import type { UnitRow } from "../model";
import { isHeadlineUnit } from "../tables/summarize";
import { formatCount, plural } from "./format";

/** Which units a chart shows and what was left out, for its caption. */
export interface Subset {
  units: number;
  sessions: number;
  /** Units left out, by the reason: an ambiguity code, or `not-computed` for unambiguous units without attribution. */
  excluded: { reason: string; units: number }[];
}

/** The headline subset (metrics.md §1: unambiguous, attribution computed) of a list of units. */
export function headlineSubset(units: readonly UnitRow[]): Subset {
  const sessions = new Set<string>();
  const excluded = new Map<string, number>();
  let n = 0;
  for (const u of units) {
    if (isHeadlineUnit(u)) {
      n++;
      sessions.add(u.session_id);
    } else {
      const reason = u.ambiguity ?? "not-computed";
      excluded.set(reason, (excluded.get(reason) ?? 0) + 1);
    }
  }
  return {
    units: n,
    sessions: sessions.size,
    excluded: [...excluded.entries()]
      .map(([reason, k]) => ({ reason, units: k }))
      .sort((a, b) => b.units - a.units || (a.reason < b.reason ? -1 : 1)),
  };
}

/** "Excluded: 12 ambiguous units (multi-session-checkpoint 8, merge-commit 4)." or "Nothing excluded." */
export function excludedText(subset: Subset): string {
  const total = subset.excluded.reduce((s, e) => s + e.units, 0);
  if (total === 0) return "Nothing excluded.";
  const parts = subset.excluded.map((e) => `${e.reason} ${formatCount(e.units)}`);
  return `Excluded: ${plural(total, "unit")} (${parts.join(", ")}).`;
}

/**
 * The caption of a chart over units: what is shown, the subset with its
 * counts, what was excluded, plus an optional note.
 */
export function unitCaption(what: string, subset: Subset, note = ""): string {
  const counts = `${plural(subset.units, "unambiguous unit")} from ${plural(subset.sessions, "session")}`;
  return [`${what}.`, `${counts[0].toUpperCase()}${counts.slice(1)}.`, excludedText(subset), note]
    .filter(Boolean)
    .join(" ");
}
