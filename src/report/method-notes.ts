import type { Diagnostic } from "../model";

export interface DiagnosticGroup {
  code: string;
  severity: string;
  count: number;
  sessions: number;
  sources: string;
  /** The first message of the group (masked, shortened). */
  example: string;
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** Shortens a message for a table cell, counting characters (not UTF-16 halves); reads no further than `max` characters. */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let kept = 0; kept < max - 1 && end < text.length; kept++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  // Exactly `max` characters: the last one fits in the ellipsis's place.
  const last = end < text.length && text.charCodeAt(end) >= 0xd800 && text.charCodeAt(end) <= 0xdbff ? 2 : 1;
  return end + last >= text.length ? text : `${text.slice(0, end)}…`;
}

/** Diagnostics grouped by code: errors first, then warnings, then notes; within each, most frequent first. */
export function diagnosticsByCode(diagnostics: readonly Diagnostic[]): DiagnosticGroup[] {
  const groups = new Map<
    string,
    { severity: string; count: number; sessions: Set<string>; sources: Set<string>; example: string }
  >();
  for (const d of diagnostics) {
    let g = groups.get(d.code);
    if (!g)
      groups.set(
        d.code,
        (g = { severity: d.severity, count: 0, sessions: new Set(), sources: new Set(), example: d.message }),
      );
    g.count++;
    if ((SEVERITY_RANK[d.severity] ?? 3) < (SEVERITY_RANK[g.severity] ?? 3)) g.severity = d.severity;
    if (d.session_id) g.sessions.add(d.session_id);
    g.sources.add(d.source);
  }
  return [...groups.entries()]
    .map(([code, g]) => ({
      code,
      severity: g.severity,
      count: g.count,
      sessions: g.sessions.size,
      sources: [...g.sources].sort().join(", "),
      example: shorten(g.example, 240),
    }))
    .sort(
      (a, b) =>
        (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) ||
        b.count - a.count ||
        (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
    );
}

/** Why each kind of unit is left out of the headline numbers (metrics.md §1). */
export const EXCLUSION_REASONS: Record<string, string> = {
  "multi-session-checkpoint":
    "the checkpoint holds several sessions, so the commit's lines cannot be given to one of them",
  "multi-checkpoint-session": "the session is linked to several checkpoints",
  "multi-commit-checkpoint": "the checkpoint id is on several distinct commits",
  "multi-commit-session": "without Entire, the session's edited files reach several commits",
  "multi-session-commit":
    "several sessions are linked to the commit (with Entire: it carries the checkpoints of several sessions; without: several sessions edited its files)",
  "merge-commit": "a merge commit's first-parent diff carries the merged branch's work",
  "commit-unreadable": "the commit's diff or file states are missing from this clone",
  "transcript-missing": "no transcript is stored for the session",
  "transcript-unreadable": "the transcript could not be parsed",
  "not-computed": "the attribution could not be computed",
};
