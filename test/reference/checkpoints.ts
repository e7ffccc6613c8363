/**
 * Entire's storage, read from git (formats.md §1.2–1.4), and the units of metrics.md §1.
 *
 * Checkpoints live on the orphan branch `entire/checkpoints/v1` (local or a remote's copy) as
 * `<id[:2]>/<id[2:]>/` with one numbered folder per session, or (newer "git-refs" backend) one ref
 * per checkpoint under `refs/entire/checkpoints/`. A code commit links to a checkpoint through the
 * `Entire-Checkpoint` trailer.
 */
import { type CommitInfo, type TreeEntry, listRefs, logAllCommits, lsTree, patchId, readBlob } from "./git";

export interface SessionFolder {
  checkpointId: string;
  /** The numbered folder's name ("0", "1", …). */
  folder: string;
  /** Session id as Entire wrote it, and normalised (metrics.md §1: `YYYY-MM-DD-<uuid>` is `<uuid>`). */
  rawSessionId: string | null;
  sessionId: string | null;
  metadata: Record<string, unknown> | null;
  /** Blob of `full.jsonl` when the tree lists it (its object may still be absent). */
  transcriptBlob: string | null;
}

export interface Checkpoint {
  id: string;
  sessions: SessionFolder[];
}

/** metrics.md §1 "Links": old Entire session ids `YYYY-MM-DD-<uuid>` are the same session as `<uuid>`. */
export function normaliseSessionId(id: string): string {
  const m = /^\d{4}-\d{2}-\d{2}-(.+)$/.exec(id);
  return m ? m[1] : id;
}

function parseJson(buf: Buffer | null): Record<string, unknown> | null {
  if (!buf) return null;
  try {
    const v = JSON.parse(buf.toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Groups a checkpoint tree's blobs (paths `<shard>/<rest>/<n>/<file>` or `<n>/<file>` for a per-checkpoint ref). */
function collect(repo: string, entries: TreeEntry[], into: Map<string, Checkpoint>, fixedId: string | null): void {
  const byFolder = new Map<string, Map<string, string>>(); // "<id>\0<n>" -> file name -> blob
  for (const e of entries) {
    const parts = e.path.split("/");
    let id: string;
    let rest: string[];
    if (fixedId !== null && /^\d+$/.test(parts[0])) {
      id = fixedId;
      rest = parts;
    } else if (parts.length >= 4) {
      id = parts[0] + parts[1];
      rest = parts.slice(2);
    } else continue;
    if (rest.length !== 2 || !/^\d+$/.test(rest[0])) continue; // checkpoint-level metadata.json or deeper files
    const key = `${id}\0${rest[0]}`;
    if (!byFolder.has(key)) byFolder.set(key, new Map());
    byFolder.get(key)!.set(rest[1], e.sha);
  }
  for (const [key, files] of byFolder) {
    const [id, folder] = key.split("\0");
    if (!into.has(id)) into.set(id, { id, sessions: [] });
    const cp = into.get(id)!;
    if (cp.sessions.some((s) => s.folder === folder)) continue; // first source wins (local branch before remote copies)
    const metaBlob = files.get("metadata.json");
    const metadata = metaBlob ? parseJson(readBlob(repo, metaBlob)) : null;
    const raw = metadata && typeof metadata.session_id === "string" ? metadata.session_id : null;
    cp.sessions.push({
      checkpointId: id,
      folder,
      rawSessionId: raw,
      sessionId: raw === null ? null : normaliseSessionId(raw),
      metadata,
      transcriptBlob: files.get("full.jsonl") ?? null,
    });
  }
}

/** Every checkpoint of the repository, sessions in folder order. */
export function readCheckpoints(repo: string): Map<string, Checkpoint> {
  const refs = listRefs(repo);
  const branchRefs = [
    ...refs.filter((r) => r === "refs/heads/entire/checkpoints/v1"),
    ...refs.filter((r) => /^refs\/remotes\/[^/]+\/entire\/checkpoints\/v1$/.test(r)),
  ];
  const out = new Map<string, Checkpoint>();
  for (const ref of refs.filter((r) => r.startsWith("refs/entire/checkpoints/"))) {
    collect(repo, lsTree(repo, ref), out, ref.split("/").pop()!);
  }
  for (const ref of branchRefs) collect(repo, lsTree(repo, ref), out, null);
  for (const cp of out.values()) cp.sessions.sort((a, b) => Number(a.folder) - Number(b.folder));
  return out;
}

export interface LinkedCommit {
  /** The unit's commit: the copy with the earliest committer time (metrics.md §1). */
  sha: string;
  parents: string[];
  copies: string[];
}

/**
 * Commits per checkpoint id, copies grouped by `git patch-id --stable` (metrics.md §1: rebases and
 * cherry-picks are one commit; the earliest committer timestamp wins, ties broken by sha).
 * Merges and empty commits have no patch id: each is its own group.
 */
export function linkCommits(repo: string): Map<string, LinkedCommit[]> {
  const byCheckpoint = new Map<string, CommitInfo[]>();
  for (const c of logAllCommits(repo)) {
    for (const id of new Set(c.checkpointIds)) {
      if (!byCheckpoint.has(id)) byCheckpoint.set(id, []);
      byCheckpoint.get(id)!.push(c);
    }
  }
  const out = new Map<string, LinkedCommit[]>();
  for (const [id, commits] of byCheckpoint) {
    const groups = new Map<string, CommitInfo[]>();
    for (const c of commits) {
      const key = patchId(repo, c.sha, c.parents) ?? `sha:${c.sha}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key)!.push(c);
    }
    const linked: LinkedCommit[] = [];
    for (const members of groups.values()) {
      members.sort((a, b) => a.committerTime - b.committerTime || (a.sha < b.sha ? -1 : 1));
      linked.push({ sha: members[0].sha, parents: members[0].parents, copies: members.map((m) => m.sha) });
    }
    linked.sort((a, b) => (a.sha < b.sha ? -1 : 1));
    out.set(id, linked);
  }
  return out;
}

export interface UnitPlan {
  checkpointId: string;
  session: SessionFolder;
  commit: LinkedCommit;
  /** metrics.md §1 reasons 1–4, in order (5 and 6 are added when the unit is computed). */
  reasons: string[];
}

export interface UnitPlanning {
  units: UnitPlan[];
  /** Session folders whose checkpoint is on no commit: they form no unit, and are counted (metrics.md §1). */
  unlinkedFolders: SessionFolder[];
}

/** Units and the first four ambiguity reasons of metrics.md §1. */
export function planUnits(
  checkpoints: Map<string, Checkpoint>,
  links: Map<string, LinkedCommit[]>,
  options: { multiSessionCommit?: boolean } = {},
): UnitPlanning {
  // The checkpoint ids each (unit) commit carries, for the product's extra reason `multi-session-commit`.
  const idsOnCommit = new Map<string, Set<string>>();
  for (const [id, commits] of links) {
    for (const c of commits) {
      if (!idsOnCommit.has(c.sha)) idsOnCommit.set(c.sha, new Set());
      idsOnCommit.get(c.sha)!.add(id);
    }
  }
  const otherSession = (commit: LinkedCommit, cpId: string, sessionId: string | null): boolean =>
    [...(idsOnCommit.get(commit.sha) ?? [])].some(
      (id) => id !== cpId && (checkpoints.get(id)?.sessions.some((o) => o.sessionId !== sessionId) ?? true),
    );
  // Rule 2 counts every checkpoint that holds a folder of the session, whether or not a commit carries it:
  // the session's edits are split between checkpoints either way.
  const checkpointsPerSession = new Map<string, Set<string>>();
  for (const cp of checkpoints.values()) {
    for (const s of cp.sessions) {
      const key = s.sessionId ?? `${cp.id}/${s.folder}`;
      if (!checkpointsPerSession.has(key)) checkpointsPerSession.set(key, new Set());
      checkpointsPerSession.get(key)!.add(cp.id);
    }
  }
  const units: UnitPlan[] = [];
  const unlinkedFolders: SessionFolder[] = [];
  for (const cp of [...checkpoints.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const commits = links.get(cp.id) ?? [];
    if (commits.length === 0) {
      unlinkedFolders.push(...cp.sessions);
      continue;
    }
    for (const s of cp.sessions) {
      for (const commit of commits) {
        const reasons: string[] = [];
        if (cp.sessions.length !== 1) reasons.push("multi-session-checkpoint"); // §1 rule 1
        if ((checkpointsPerSession.get(s.sessionId ?? `${cp.id}/${s.folder}`)?.size ?? 0) !== 1)
          reasons.push("multi-checkpoint-session"); // rule 2
        if (commits.length !== 1) reasons.push("multi-commit-checkpoint"); // rule 3
        if (options.multiSessionCommit && otherSession(commit, cp.id, s.sessionId))
          reasons.push("multi-session-commit");
        if (commit.parents.length > 1) reasons.push("merge-commit"); // rule 4
        units.push({ checkpointId: cp.id, session: s, commit, reasons });
      }
    }
  }
  return { units, unlinkedFolders };
}
