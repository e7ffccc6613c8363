/**
 * Entire (entireio/cli) repositories: checkpoints, the commits that carry
 * them, and the candidate units (session, commit) of metrics.md §1.
 */
import {
  type AmbiguityReason,
  type Checkpoint,
  linkAmbiguity,
  type CheckpointSession,
  type Commit,
  type DiagnosticSink,
} from "../../model";

export { addAmbiguity, AMBIGUITY_REASONS, type AmbiguityReason } from "../../model";

export { readEntireRepository, joinTranscriptParts, readTranscriptParts, toAttribution, toTokenUsage } from "./parse";
export type { EntireRepository, CheckpointSource, SessionSource, TranscriptSource, ReadEntireOptions } from "./parse";
export {
  CHECKPOINTS_BRANCH,
  LEGACY_CHECKPOINTS_BRANCH,
  CHECKPOINT_REF_PREFIX,
  V2_MAIN_REF,
  V2_FULL_REF_PREFIX,
  checkpointFolder,
  checkpointRefName,
  checkpointTrailersWithoutData,
  findEntireRefs,
  hasEntireCheckpoints,
  isCheckpointId,
  isEntireRepository,
  normaliseSessionId,
} from "./paths";
export type { EntireRefs, CheckpointRef, CheckpointBranchRef, V2FullRef } from "./paths";
export {
  checkpointSummarySchema,
  sessionMetadataSchema,
  tokenUsageSchema,
  initialAttributionSchema,
  parseLenient,
} from "./schema";

/** One (session, commit) pair whose agent edits may have reached that commit. */
export interface CandidateUnit {
  /** Normalised session id. */
  session_id: string;
  checkpoint_id: string;
  /** The session folder (`<id[:2]>/<id[2:]>/<index>/`). */
  session_index: number;
  session: CheckpointSession;
  /** The unit's commit: the earliest (committer time) of the copies sharing a patch id. */
  commit_sha: string;
  commit: Commit;
  /** Every commit carrying this checkpoint with the unit commit's patch id, earliest first (includes `commit_sha`). */
  copies: string[];
  /** Every commit carrying this checkpoint's trailer. */
  checkpoint_commits: string[];
  /** Every checkpoint holding this session (sorted). */
  session_checkpoints: string[];
  /** Every checkpoint id the unit's commit carries (more than one: several checkpoints on one commit). */
  commit_checkpoints: string[];
  /** The first reason of `ambiguity_reasons` in §1 order; null when unambiguous. */
  ambiguity: AmbiguityReason | null;
  /** Every reason that applies, in §1 order. The pipeline appends reasons 5–6 with `addAmbiguity`. */
  ambiguity_reasons: AmbiguityReason[];
}

export interface LinkOptions {
  /**
   * Count, for `multi-checkpoint-session`, the checkpoints that are on no
   * commit too (default true: a session whose work is split over several
   * checkpoints is ambiguous even when one of them was never committed or its
   * commit is not in this clone).
   */
  countUncommittedCheckpoints?: boolean;
}

function byTime(a: Commit, b: Commit): number {
  if (a.committer_time !== b.committer_time) return a.committer_time - b.committer_time;
  if (a.author_time !== b.author_time) return a.author_time - b.author_time;
  return a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0;
}

/**
 * The candidate units of metrics.md §1: for each session folder of a
 * checkpoint and each distinct commit (copies with one patch id count once)
 * carrying that checkpoint's `Entire-Checkpoint` trailer, one unit whose
 * commit is the copy with the earliest committer timestamp.
 *
 * Diagnostics: `checkpoint-without-commit` (info, one per checkpoint on no
 * commit, with its number of session folders: they form no unit), and
 * `commit-checkpoint-unknown` (warning, one per trailer id no checkpoint has).
 */
export function linkUnits(
  checkpoints: readonly Checkpoint[],
  commits: readonly Commit[],
  sink: DiagnosticSink,
  opts: LinkOptions = {},
): CandidateUnit[] {
  const countUncommitted = opts.countUncommittedCheckpoints !== false;

  // Commits by checkpoint id (a commit listed twice, e.g. from two refs, counts once).
  const commitsById = new Map<string, Commit[]>();
  const seen = new Set<string>();
  for (const commit of commits) {
    if (seen.has(commit.sha)) continue;
    seen.add(commit.sha);
    for (const id of commit.checkpoint_ids) {
      const list = commitsById.get(id);
      if (list) list.push(commit);
      else commitsById.set(id, [commit]);
    }
  }

  const known = new Set(checkpoints.map((c) => c.checkpoint_id));
  const byId = new Map(checkpoints.map((c) => [c.checkpoint_id, c]));
  /** The commit's other checkpoints that hold another session, or whose sessions are unknown (not in this clone). */
  const otherSessionsOn = (commit: Commit, checkpointId: string, sessionId: string): string[] =>
    Array.from(new Set(commit.checkpoint_ids)).filter(
      (id) => id !== checkpointId && (byId.get(id)?.sessions.some((s) => s.session_id !== sessionId) ?? true),
    );
  for (const [id, list] of Array.from(commitsById.entries()).sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (known.has(id)) continue;
    sink.add(
      "warning",
      "commit-checkpoint-unknown",
      `${list.length} commit(s) carry Entire-Checkpoint: ${id}, but no checkpoint ${id} was found (e.g. ${list[0].sha.slice(0, 12)})`,
    );
  }

  // Checkpoints per session (normalised ids).
  const checkpointsBySession = new Map<string, Set<string>>();
  for (const cp of checkpoints) {
    if (!countUncommitted && !commitsById.has(cp.checkpoint_id)) continue;
    for (const s of cp.sessions) {
      const set = checkpointsBySession.get(s.session_id) ?? new Set<string>();
      set.add(cp.checkpoint_id);
      checkpointsBySession.set(s.session_id, set);
    }
  }

  const units: CandidateUnit[] = [];
  for (const cp of [...checkpoints].sort((a, b) =>
    a.checkpoint_id < b.checkpoint_id ? -1 : a.checkpoint_id > b.checkpoint_id ? 1 : 0,
  )) {
    const carrying = commitsById.get(cp.checkpoint_id);
    if (carrying === undefined || carrying.length === 0) {
      sink.add(
        "info",
        "checkpoint-without-commit",
        `checkpoint ${cp.checkpoint_id} is on no commit; its ${cp.sessions.length} session folder(s) form no unit`,
      );
      continue;
    }
    // Group copies: one group per patch id; a commit without one (merge, empty diff) is its own group.
    const groups = new Map<string, Commit[]>();
    for (const commit of carrying) {
      const key = commit.patch_id !== null ? `p:${commit.patch_id}` : `c:${commit.sha}`;
      const group = groups.get(key);
      if (group) group.push(commit);
      else groups.set(key, [commit]);
    }
    const representatives = Array.from(groups.values()).map((group) => {
      const sorted = [...group].sort(byTime);
      return { commit: sorted[0], copies: sorted.map((c) => c.sha) };
    });
    representatives.sort((a, b) => byTime(a.commit, b.commit));
    const checkpointCommits = [...carrying].sort(byTime).map((c) => c.sha);

    for (const session of [...cp.sessions].sort((a, b) => a.index - b.index)) {
      const sessionCheckpoints = Array.from(
        checkpointsBySession.get(session.session_id) ?? new Set([cp.checkpoint_id]),
      ).sort();
      for (const rep of representatives) {
        const links = linkAmbiguity({
          sessionsInCheckpoint: cp.sessions.length,
          checkpointsOfSession: sessionCheckpoints.length,
          commitsOfCheckpoint: representatives.length,
          sessionsOnCommit: 1 + otherSessionsOn(rep.commit, cp.checkpoint_id, session.session_id).length,
          merge: rep.commit.parents.length > 1,
        });
        const unit: CandidateUnit = {
          session_id: session.session_id,
          checkpoint_id: cp.checkpoint_id,
          session_index: session.index,
          session,
          commit_sha: rep.commit.sha,
          commit: rep.commit,
          copies: rep.copies,
          checkpoint_commits: checkpointCommits,
          session_checkpoints: sessionCheckpoints,
          commit_checkpoints: [...rep.commit.checkpoint_ids],
          ...links,
        };
        units.push(unit);
      }
    }
  }
  return units;
}
