import { z } from "zod";
import type { Diagnostic, DiagnosticSink } from "./diagnostic";

/**
 * Why a unit is left out of headline numbers (metrics.md §1), in the order
 * that decides which one a unit reports. One list for every input kind:
 *
 * - `multi-session-commit`: a commit that carries the checkpoints of several
 *   sessions (two `Entire-Checkpoint` trailers), or, without Entire, a commit
 *   linked to several sessions. It is the mirror image of rule 1: each unit
 *   would count the other session's agent lines as human.
 * - `multi-commit-session`: without Entire, a session linked to several
 *   commits (the mirror of `multi-checkpoint-session`).
 * - `multi-author-checkpoint`: SWE-chat's tables say the checkpoint's commits
 *   have several authors (swe-chat.md §4.3).
 *
 * Every input decides its units' reasons with {@link linkAmbiguity} from the
 * facts its links give, and every excluded unit is explained by
 * {@link explainExclusion}: this file is the one place for both.
 */
export const ambiguityReasonSchema = z.enum([
  "multi-session-checkpoint",
  "multi-checkpoint-session",
  "multi-commit-checkpoint",
  "multi-commit-session",
  "multi-session-commit",
  "merge-commit",
  "commit-unreadable",
  "transcript-missing",
  "transcript-unreadable",
  "multi-author-checkpoint",
]);
export type AmbiguityReason = z.infer<typeof ambiguityReasonSchema>;
export const AMBIGUITY_REASONS: readonly AmbiguityReason[] = ambiguityReasonSchema.options;

/** A unit's reasons: every one that applies, in §1 order, and the first of them. */
export interface Ambiguity {
  ambiguity: AmbiguityReason | null;
  ambiguity_reasons: AmbiguityReason[];
}

/** Adds a reason (once), keeping `ambiguity_reasons` in §1 order and `ambiguity` its first element. */
export function addAmbiguity(unit: Ambiguity, reason: AmbiguityReason): void {
  if (!unit.ambiguity_reasons.includes(reason)) unit.ambiguity_reasons.push(reason);
  unit.ambiguity_reasons.sort((a, b) => AMBIGUITY_REASONS.indexOf(a) - AMBIGUITY_REASONS.indexOf(b));
  unit.ambiguity = unit.ambiguity_reasons[0] ?? null;
}

export const noAmbiguity = (): Ambiguity => ({ ambiguity: null, ambiguity_reasons: [] });

/** What an input's links say about one unit; a fact the input cannot know is left out. */
export interface LinkFacts {
  /** Session folders of the unit's checkpoint (Entire, SWE-chat). */
  sessionsInCheckpoint?: number;
  /** Checkpoints holding the unit's session. */
  checkpointsOfSession?: number;
  /** Distinct commits carrying the unit's checkpoint, copies counted once. */
  commitsOfCheckpoint?: number;
  /** Commits linked to the session (transcripts without Entire). */
  commitsOfSession?: number;
  /** Sessions whose work the commit carries, the unit's own included. */
  sessionsOnCommit?: number;
  merge: boolean;
  commitUnreadable?: boolean;
  transcript?: "ok" | "missing" | "unreadable";
  /** Authors of the checkpoint's commits (SWE-chat). */
  authorsOfCheckpoint?: number;
}

/** The reasons of metrics.md §1 that the facts give, in order. */
export function linkAmbiguity(f: LinkFacts): Ambiguity {
  const out = noAmbiguity();
  const more = (n: number | undefined) => (n ?? 1) > 1;
  if (more(f.sessionsInCheckpoint)) addAmbiguity(out, "multi-session-checkpoint");
  if (more(f.checkpointsOfSession)) addAmbiguity(out, "multi-checkpoint-session");
  if (more(f.commitsOfCheckpoint)) addAmbiguity(out, "multi-commit-checkpoint");
  if (more(f.commitsOfSession)) addAmbiguity(out, "multi-commit-session");
  if (more(f.sessionsOnCommit)) addAmbiguity(out, "multi-session-commit");
  if (f.merge) addAmbiguity(out, "merge-commit");
  if (f.commitUnreadable) addAmbiguity(out, "commit-unreadable");
  if (f.transcript === "missing") addAmbiguity(out, "transcript-missing");
  if (f.transcript === "unreadable") addAmbiguity(out, "transcript-unreadable");
  if (more(f.authorsOfCheckpoint)) addAmbiguity(out, "multi-author-checkpoint");
  return out;
}

const REASON_TEXT: Record<AmbiguityReason, string> = {
  "multi-session-checkpoint":
    "its checkpoint holds more than one session folder, so the commit's lines cannot be split between the sessions",
  "multi-checkpoint-session":
    "its session is in more than one checkpoint, so its edits are spread over several commits",
  "multi-commit-checkpoint": "its checkpoint id is on more than one commit that are not copies of one another",
  "multi-commit-session": "the session is linked to more than one commit",
  "multi-session-commit": "more than one session is linked to the commit",
  "merge-commit": "its commit is a merge: the first-parent diff carries the merged branch's work",
  "commit-unreadable": "the commit's diff or file states cannot be read from this clone",
  "transcript-missing": "no transcript is stored for the session",
  "transcript-unreadable": "the transcript could not be read",
  "multi-author-checkpoint": "the checkpoint's commits have more than one author",
};

export function describeReason(reason: AmbiguityReason, detail?: string): string {
  return `${reason} (${REASON_TEXT[reason]}${detail ? `: ${detail}` : ""})`;
}

/** Names a unit in its `unit-excluded` row. */
export interface UnitName {
  session_id: string;
  commit_sha: string;
  checkpoint_id: string | null;
}

/** The `unit-excluded` row of one unit: which unit, and every reason in words with the specifics the input knows. */
export function exclusionDiagnostic(
  unit: UnitName,
  source: string,
  reasons: readonly AmbiguityReason[],
  details: Partial<Record<AmbiguityReason, string>> = {},
): Diagnostic {
  const where = [
    `commit ${unit.commit_sha.slice(0, 12)}`,
    unit.checkpoint_id ? `checkpoint ${unit.checkpoint_id}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const why = reasons.map((r) => describeReason(r, details[r])).join("; also ");
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
 * Every unit left out of headline numbers gets one `unit-excluded` row
 * (metrics.md §1: ambiguous units are kept, counted and shown), so
 * `diagnostics` alone accounts for every exclusion.
 */
export function explainExclusion(
  unit: UnitName,
  ambiguity: Ambiguity,
  details: Partial<Record<AmbiguityReason, string>>,
  sink: DiagnosticSink,
): void {
  if (ambiguity.ambiguity === null) return;
  sink.rows.push(exclusionDiagnostic(unit, sink.source, ambiguity.ambiguity_reasons, details));
}

/** A short list of ids for a reason's details: `3: a1b2c3d4e5f6, …`. */
export function listIds(ids: readonly string[]): string {
  return `${ids.length}: ${ids
    .slice(0, 5)
    .map((x) => x.slice(0, 12))
    .join(", ")}${ids.length > 5 ? ", …" : ""}`;
}

/**
 * Why a group (metrics.md §1b) cannot be attributed; its rows then carry the
 * first reason and null counts. In this order.
 */
export const groupReasonSchema = z.enum([
  "group-merge-commit",
  "group-transcript-missing",
  "group-transcript-unreadable",
  "group-commit-unreadable",
]);
export type GroupReason = z.infer<typeof groupReasonSchema>;
export const GROUP_REASONS: readonly GroupReason[] = groupReasonSchema.options;
