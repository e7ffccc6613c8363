import type { Diagnostic, UnitRow } from "../model";

/**
 * Every unit left out of headline numbers gets one `unit-excluded`
 * diagnostic row saying which unit and why (metrics.md §1: ambiguous units
 * are kept, counted and shown), so `diagnostics` alone accounts for every
 * exclusion. Each reason in words, with the specifics the caller knows.
 */
const REASON_TEXT: Record<string, string> = {
  "multi-session-checkpoint": "its checkpoint holds more than one session folder, so the commit's lines cannot be split between the sessions",
  "multi-checkpoint-session": "its session is in more than one checkpoint, so its edits are spread over several commits",
  "multi-commit-checkpoint": "its checkpoint id is on more than one commit that are not copies of one another",
  "merge-commit": "its commit is a merge: the first-parent diff carries the merged branch's work",
  "commit-unreadable": "the commit's diff or file states cannot be read from this clone",
  "transcript-missing": "no transcript is stored for the session",
  "transcript-unreadable": "the transcript could not be read",
  "multi-session-commit": "more than one session is linked to the commit",
  "multi-commit-session": "the session is linked to more than one commit",
};

export function describeReason(reason: string, detail?: string): string {
  const text = REASON_TEXT[reason] ?? "see the other diagnostics of this session";
  return `${reason} (${text}${detail ? `: ${detail}` : ""})`;
}

export interface ExclusionFacts {
  /** Every reason that applies, first the one in `ambiguity`. */
  reasons: readonly string[];
  /** Specifics per reason, e.g. `{ "multi-checkpoint-session": "3 checkpoints: a, b, c" }`. */
  details?: Partial<Record<string, string>>;
}

/** The `unit-excluded` row of one unit. */
export function exclusionDiagnostic(unit: Pick<UnitRow, "session_id" | "commit_sha" | "checkpoint_id">, source: string, facts: ExclusionFacts): Diagnostic {
  const where = [`commit ${unit.commit_sha.slice(0, 12)}`, unit.checkpoint_id ? `checkpoint ${unit.checkpoint_id}` : null].filter(Boolean).join(", ");
  const why = facts.reasons.map((r) => describeReason(r, facts.details?.[r])).join("; also ");
  return {
    source,
    session_id: unit.session_id,
    file: null,
    record: null,
    severity: "info",
    code: "unit-excluded",
    message: `unit (${where}) left out of headline numbers: ${why}`,
  };
}

/**
 * Rows for the units that carry an ambiguity but no `unit-excluded` row yet
 * (sources that do not write their own, with their specifics).
 */
export function explainRemainingExclusions(units: readonly UnitRow[], diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const explained = new Set<string>();
  for (const d of diagnostics) {
    if (d.code !== "unit-excluded") continue;
    const m = /commit ([0-9a-f]{7,40})/.exec(d.message);
    if (m) explained.add(`${d.session_id}\u0000${m[1]}`);
  }
  const out: Diagnostic[] = [];
  for (const u of units) {
    if (u.ambiguity === null) continue;
    if (explained.has(`${u.session_id}\u0000${u.commit_sha.slice(0, 12)}`)) continue;
    out.push(exclusionDiagnostic(u, "analyze", { reasons: [u.ambiguity] }));
  }
  return out;
}
