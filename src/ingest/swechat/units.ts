/**
 * Units of the SWE-chat tables (metrics.md §1, research/swe-chat.md §4.3):
 * a session is linked to its checkpoints (`sessions.checkpoint_ids`, its
 * `canonical_checkpoint_pk`, the checkpoints whose `session_pks` name it, and
 * the `checkpoint_pk` of its conversation rows), a checkpoint to its commits
 * (`commits.checkpoint_pk`). Each (session, commit) is a unit. Commits of one
 * checkpoint with the same patch fingerprint are copies (rebase,
 * cherry-pick): the earliest `commit_date` is the unit's commit.
 *
 * Ambiguity reasons, in this order (the first is the unit's `ambiguity`):
 * 1. `multi-session-checkpoint`: the checkpoint holds more than one session;
 * 2. `multi-checkpoint-session`: the session is in more than one checkpoint;
 * 3. `multi-commit-checkpoint`: the checkpoint is on more than one commit,
 *    copies counted once;
 * 4. `merge-commit`: the patch is a combined diff (`diff --cc`);
 * 5. `commit-unreadable`: `status` is not "ok", or there is no patch;
 * 6. `multi-author-checkpoint`: the checkpoint's commits have several
 *    authors (`unique_author_count > 1`, swe-chat.md §4.3).
 * (metrics.md's `transcript-missing`/`-unreadable` cannot happen here: a
 * session without conversation rows forms no unit.)
 */
import { type Ambiguity, type AmbiguityReason, linkAmbiguity } from "../../model";
import type { CheckpointRow, CommitMetaRow, SwechatSessionRow } from "./schema";
import type { SpooledPatch } from "./patches";

export interface SwechatUnit {
  session_id: string;
  commit: CommitMetaRow;
  checkpoint_pk: string;
  ambiguity: Ambiguity;
  /** The same reasons as `ambiguity.ambiguity_reasons`. */
  reasons: AmbiguityReason[];
  /** Other commits of the checkpoint dropped as copies of this one. */
  copies: number;
}

export interface LinkInput {
  session: SwechatSessionRow | undefined;
  /** The checkpoint the conversation rows name. */
  rowCheckpoint: string | null;
}

/** Each session's checkpoints (sorted), by every relation the tables give. */
export function linkCheckpoints(
  checkpoints: ReadonlyMap<string, CheckpointRow>,
  sessions: ReadonlyMap<string, LinkInput>,
): Map<string, string[]> {
  const bySessionPk = new Map<string, string[]>();
  for (const cp of checkpoints.values()) {
    for (const s of cp.session_pks) {
      let list = bySessionPk.get(s);
      if (!list) bySessionPk.set(s, (list = []));
      list.push(cp.checkpoint_pk);
    }
  }
  const out = new Map<string, string[]>();
  for (const [sessionId, input] of sessions) {
    const set = new Set<string>();
    for (const cp of input.session?.checkpoint_ids ?? []) set.add(cp);
    if (input.session?.canonical_checkpoint_pk) set.add(input.session.canonical_checkpoint_pk);
    for (const cp of bySessionPk.get(sessionId) ?? []) set.add(cp);
    if (input.rowCheckpoint) set.add(input.rowCheckpoint);
    out.set(sessionId, [...set].sort());
  }
  return out;
}

export interface UnitLinker {
  unitsOf(sessionId: string, patches: ReadonlyMap<string, SpooledPatch>): SwechatUnit[];
}

export function makeUnitLinker(
  checkpoints: ReadonlyMap<string, CheckpointRow>,
  commitsByCheckpoint: ReadonlyMap<string, CommitMetaRow[]>,
  sessionCheckpoints: ReadonlyMap<string, string[]>,
): UnitLinker {
  // How many sessions each checkpoint holds, by every relation the tables give.
  const sessionsOf = new Map<string, Set<string>>();
  const note = (cp: string, s: string) => {
    let set = sessionsOf.get(cp);
    if (!set) sessionsOf.set(cp, (set = new Set()));
    set.add(s);
  };
  for (const cp of checkpoints.values()) for (const s of cp.session_pks) note(cp.checkpoint_pk, s);
  for (const [s, cps] of sessionCheckpoints) for (const cp of cps) note(cp, s);

  return {
    unitsOf(sessionId, patches) {
      const cps = sessionCheckpoints.get(sessionId) ?? [];
      const units: SwechatUnit[] = [];
      for (const cp of cps) {
        const row = checkpoints.get(cp);
        const commits = (commitsByCheckpoint.get(cp) ?? [])
          .slice()
          .sort((a, b) => (a.commit_date ?? Infinity) - (b.commit_date ?? Infinity) || a.position - b.position);
        const groups = new Map<string, CommitMetaRow[]>();
        for (const c of commits) {
          const key = patches.get(c.commit_sha)?.fingerprint ?? `sha:${c.commit_sha}`;
          let g = groups.get(key);
          if (!g) groups.set(key, (g = []));
          if (!g.some((x) => x.commit_sha === c.commit_sha)) g.push(c);
        }
        const sessionCount = Math.max(
          row?.session_count ?? 0,
          row?.session_pks.length ?? 0,
          sessionsOf.get(cp)?.size ?? 0,
        );
        for (const g of groups.values()) {
          const commit = g[0];
          const patch = patches.get(commit.commit_sha);
          const links = linkAmbiguity({
            sessionsInCheckpoint: sessionCount,
            checkpointsOfSession: cps.length,
            commitsOfCheckpoint: groups.size,
            merge: patch?.merge === true,
            commitUnreadable: (commit.status !== null && commit.status !== "ok") || !patch || patch.ref === null,
            authorsOfCheckpoint: row?.unique_author_count ?? 0,
          });
          units.push({
            session_id: sessionId,
            commit,
            checkpoint_pk: cp,
            ambiguity: links,
            reasons: links.ambiguity_reasons,
            copies: g.length - 1,
          });
        }
      }
      return units.sort(
        (a, b) =>
          (a.commit.commit_date ?? Infinity) - (b.commit.commit_date ?? Infinity) ||
          (a.commit.commit_sha < b.commit.commit_sha ? -1 : a.commit.commit_sha > b.commit.commit_sha ? 1 : 0),
      );
    },
  };
}

/** `repo#checkpoint_id` → the 12-hex checkpoint id. */
export const checkpointIdOf = (pk: string): string => pk.slice(pk.lastIndexOf("#") + 1);
