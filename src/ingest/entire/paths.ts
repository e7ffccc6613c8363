/**
 * Where Entire keeps committed checkpoints, and how a path is recognised as
 * a repository that has them.
 *
 * Two storage backends (formats.md §1.2; entireio/cli
 * `docs/architecture/ref-checkpoint-backend.md`):
 * - git-branch: the orphan branch `entire/checkpoints/v1`, one folder per
 *   checkpoint at `<id[:2]>/<id[2:]>/`. Read from the local branch and from
 *   every remote-tracking copy (`refs/remotes/<remote>/entire/checkpoints/v1`),
 *   local first. The pre-v1 name `entire/sessions` is read last, if present.
 * - git-refs: one ref per checkpoint, `refs/entire/checkpoints/<shard>/<id>`,
 *   whose commit's tree root IS the checkpoint folder. `<shard>` is the LAST
 *   two characters of the id. Ids are 26-character ULIDs (or 12-hex ids
 *   migrated from the branch).
 * Readers check the refs first and fall back to the branch.
 *
 * Newer CLIs add "checkpoints v2", written beside the v1 branch (dual write)
 * or instead of it ("v2 only"):
 * - `refs/entire/checkpoints/v2/main`: a commit whose tree is sharded like the
 *   v1 branch (`<id[:2]>/<id[2:]>/…`), metadata and compact transcripts only.
 * - `refs/entire/checkpoints/v2/full/current` and archived generations
 *   `refs/entire/checkpoints/v2/full/<13 digits>`: the raw transcripts
 *   (`<id[:2]>/<id[2:]>/<n>/full.jsonl` + parts) and a root `generation.json`.
 *   Archived generations may be deleted after a retention period.
 */
import { openRepository, type GitRef } from "../git/repo";

export const CHECKPOINTS_BRANCH = "entire/checkpoints/v1";
/** The branch name of Entire's first releases; same sharded layout. */
export const LEGACY_CHECKPOINTS_BRANCH = "entire/sessions";
export const CHECKPOINT_REF_PREFIX = "refs/entire/checkpoints/";
/** The parts after the first of a transcript Entire split over 50 MB: `full.jsonl.001`, `full.jsonl.002`, … */
export const TRANSCRIPT_CHUNK = /^full\.jsonl\.(\d+)$/;
/** Checkpoints v2: the sharded metadata tree. */
export const V2_MAIN_REF = "refs/entire/checkpoints/v2/main";
/** Checkpoints v2: raw transcript stores, `current` and archived `<digits>` generations. */
export const V2_FULL_REF_PREFIX = "refs/entire/checkpoints/v2/full/";

/** 12 lowercase hex digits (git-branch ids) or a 26-character Crockford-base32 ULID (git-refs ids). */
export function isCheckpointId(id: string): boolean {
  return /^[0-9a-f]{12}$/.test(id) || /^[0-9A-HJKMNP-TV-Z]{26}$/i.test(id);
}

/** `<id[:2]>/<id[2:]>` : the checkpoint's folder on the checkpoints branch. */
export function checkpointFolder(id: string): string {
  return `${id.slice(0, 2)}/${id.slice(2)}`;
}

/** `refs/entire/checkpoints/<last two characters>/<id>`. */
export function checkpointRefName(id: string): string {
  return `${CHECKPOINT_REF_PREFIX}${id.slice(-2)}/${id}`;
}

const DATED_UUID = /^\d{4}-\d{2}-\d{2}-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Old Entire session ids `YYYY-MM-DD-<uuid>` are the session `<uuid>` (metrics.md §1). Other ids are kept as they are. */
export function normaliseSessionId(id: string): string {
  const trimmed = id.trim();
  const m = DATED_UUID.exec(trimmed);
  return m ? m[1] : trimmed;
}

export interface CheckpointBranchRef {
  ref: GitRef;
  /** null for the local branch, else the remote's name. */
  remote: string | null;
  legacy: boolean;
}

export interface CheckpointRef {
  ref: GitRef;
  checkpoint_id: string;
  shard: string;
  /** False when the shard is not the id's last two characters (Entire itself would reject the ref). */
  shard_ok: boolean;
}

/** A checkpoints-v2 raw-transcript store. */
export interface V2FullRef {
  ref: GitRef;
  /** `"current"`, or the archived generation's digits (e.g. `"0000000000001"`). */
  generation: string;
}

export interface EntireRefs {
  /** Checkpoint branches in reading order: local, then remotes (origin first), then the legacy name. */
  branches: CheckpointBranchRef[];
  /** Per-checkpoint refs, sorted by id. */
  checkpointRefs: CheckpointRef[];
  /** `refs/entire/checkpoints/v2/main`, when present. */
  v2Main: GitRef | null;
  /** v2 raw-transcript stores in lookup order: `current`, then archived generations newest (highest number) first. */
  v2Full: V2FullRef[];
  /** Refs under `refs/entire/checkpoints/` that are none of the above. */
  malformed: GitRef[];
}

/** Newest generation first: longer digit strings are larger numbers; equal lengths compare as text. */
function byGenerationDesc(a: V2FullRef, b: V2FullRef): number {
  if (a.generation === "current") return b.generation === "current" ? 0 : -1;
  if (b.generation === "current") return 1;
  const x = a.generation.replace(/^0+/, "");
  const y = b.generation.replace(/^0+/, "");
  if (x.length !== y.length) return y.length - x.length;
  return x < y ? 1 : x > y ? -1 : a.generation < b.generation ? -1 : a.generation > b.generation ? 1 : 0;
}

/** Classifies the refs of a repository: which hold Entire checkpoints. */
export function findEntireRefs(refs: readonly GitRef[]): EntireRefs {
  const local: CheckpointBranchRef[] = [];
  const remote: CheckpointBranchRef[] = [];
  const legacy: CheckpointBranchRef[] = [];
  const checkpointRefs: CheckpointRef[] = [];
  const malformed: GitRef[] = [];
  let v2Main: GitRef | null = null;
  const v2Full: V2FullRef[] = [];
  for (const ref of refs) {
    const name = ref.name;
    if (name === `refs/heads/${CHECKPOINTS_BRANCH}`) local.push({ ref, remote: null, legacy: false });
    else if (name === `refs/heads/${LEGACY_CHECKPOINTS_BRANCH}`) legacy.push({ ref, remote: null, legacy: true });
    else if (name.startsWith("refs/remotes/")) {
      const rest = name.slice("refs/remotes/".length);
      if (rest.endsWith(`/${CHECKPOINTS_BRANCH}`)) {
        remote.push({ ref, remote: rest.slice(0, -CHECKPOINTS_BRANCH.length - 1), legacy: false });
      } else if (rest.endsWith(`/${LEGACY_CHECKPOINTS_BRANCH}`)) {
        legacy.push({ ref, remote: rest.slice(0, -LEGACY_CHECKPOINTS_BRANCH.length - 1), legacy: true });
      }
    } else if (name.startsWith(CHECKPOINT_REF_PREFIX)) {
      const parts = name.slice(CHECKPOINT_REF_PREFIX.length).split("/");
      // `v2/<ULID ending in v2>` is still a per-checkpoint ref: the id test comes first.
      if (parts.length === 2 && parts[0].length === 2 && isCheckpointId(parts[1])) {
        const [shard, id] = parts;
        checkpointRefs.push({ ref, checkpoint_id: id, shard, shard_ok: shard === id.slice(-2) });
      } else if (name === V2_MAIN_REF) {
        v2Main = ref;
      } else if (name.startsWith(V2_FULL_REF_PREFIX) && /^(current|\d+)$/.test(name.slice(V2_FULL_REF_PREFIX.length))) {
        v2Full.push({ ref, generation: name.slice(V2_FULL_REF_PREFIX.length) });
      } else {
        malformed.push(ref);
      }
    }
  }
  const remoteOrder = (a: CheckpointBranchRef, b: CheckpointBranchRef) => {
    const ra = a.remote ?? "";
    const rb = b.remote ?? "";
    if (ra === rb) return 0;
    if (a.remote === null) return -1;
    if (b.remote === null) return 1;
    if (ra === "origin") return -1;
    if (rb === "origin") return 1;
    return ra < rb ? -1 : 1;
  };
  remote.sort(remoteOrder);
  legacy.sort(remoteOrder);
  checkpointRefs.sort((a, b) => (a.checkpoint_id < b.checkpoint_id ? -1 : a.checkpoint_id > b.checkpoint_id ? 1 : 0));
  v2Full.sort(byGenerationDesc);
  return { branches: [...local, ...remote, ...legacy], checkpointRefs, v2Main, v2Full, malformed };
}

/**
 * True when the refs include a checkpoints branch, a checkpoint ref or the v2
 * metadata ref. v2 full refs alone hold transcripts without metadata: nothing
 * to read.
 */
export function hasEntireCheckpoints(refs: EntireRefs): boolean {
  return refs.branches.length > 0 || refs.checkpointRefs.length > 0 || refs.v2Main !== null;
}

/**
 * Is `path` an Entire repository: a git repository (work tree root, `.git`
 * dir, or bare) with `entire/checkpoints/v1` (local or remote-tracking), a
 * `refs/entire/checkpoints/<shard>/<id>` ref or `refs/entire/checkpoints/v2/main`?
 * Never throws.
 */
export async function isEntireRepository(path: string): Promise<boolean> {
  const repo = await openRepository(path);
  if (repo === null) return false;
  try {
    return hasEntireCheckpoints(findEntireRefs(await repo.listRefs()));
  } finally {
    await repo.close();
  }
}

/**
 * Commits carrying `Entire-Checkpoint` trailers in a git repository that holds
 * no checkpoint data: what a plain clone of a v2-only repository looks like,
 * since `git clone` does not fetch `refs/entire/*`. 0 when `path` is not a git
 * repository, has checkpoint data, or has no such commit. Never throws.
 */
export async function checkpointTrailersWithoutData(path: string): Promise<number> {
  const repo = await openRepository(path);
  if (repo === null) return 0;
  try {
    if (hasEntireCheckpoints(findEntireRefs(await repo.listRefs()))) return 0;
    const commits = await repo.logCommits({ onlyCheckpointed: true });
    return commits.filter((c) => c.checkpoint_ids.length > 0).length;
  } catch {
    return 0;
  } finally {
    await repo.close();
  }
}
