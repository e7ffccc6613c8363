/**
 * Checkpoints v2 (newer Entire versions): `refs/entire/checkpoints/v2/main`
 * holds the metadata in the v1 branch's sharded layout, and the raw
 * transcripts live at the same paths on `refs/entire/checkpoints/v2/full/current`
 * and on archived generations `…/v2/full/<digits>` (pruned after a retention
 * period). `parse.ts` lists v2/main like a branch; this file indexes the full
 * generations and reports what came from v2.
 */
import type { DiagnosticSink } from "../../model";
import type { GitRepository, TreeEntry } from "../git/repo";
import type { CheckpointSource, FolderListing } from "./parse";
import { TRANSCRIPT_CHUNK as CHUNK, type V2FullRef } from "./paths";

const METADATA_FILE = /^(?:\d+\/)?metadata\.json$/;

/** One checkpoints-v2 full generation, indexed by folder: `<id[:2]>/<id[2:]>/<n>/` → its `full.jsonl` parts. */
export interface RawStore {
  ref: string;
  commit: string;
  /** Folder (with trailing `/`) → `full.jsonl` (n = 0) and `full.jsonl.<n>` entries, unsorted. */
  folders: Map<string, Array<{ n: number; entry: TreeEntry }>>;
}

/** What the v2 metadata ref held, for the `entire-v2-read` summary. */
export interface V2Summary {
  ref: string;
  /** Checkpoint folders on v2/main. */
  total: number;
  /** Of those, the ones in no per-checkpoint ref and on no v1 branch (read from v2/main). */
  onlyHere: number;
  /** Full generations listed (only when some checkpoint is read from v2/main). */
  stores: RawStore[];
}

/** The metadata files (`metadata.json`, `<n>/metadata.json`) whose blobs differ or that only one copy has; no git call. */
export function differentMetadata(a: FolderListing, b: FolderListing): string[] {
  const meta = (l: FolderListing) => {
    const m = new Map<string, string>();
    for (const [rel, entry] of l.files) if (METADATA_FILE.test(rel)) m.set(rel, entry.sha);
    return m;
  };
  const ma = meta(a);
  const mb = meta(b);
  const paths = new Set<string>();
  ma.forEach((_, rel) => paths.add(rel));
  mb.forEach((_, rel) => paths.add(rel));
  return Array.from(paths)
    .filter((rel) => ma.get(rel) !== mb.get(rel))
    .sort();
}

/** The v2 full generations in lookup order, each indexed by folder; an unlistable one is reported and skipped. */
export async function listRawStores(
  repo: GitRepository,
  fullRefs: readonly V2FullRef[],
  sink: DiagnosticSink,
): Promise<RawStore[]> {
  const listed = await Promise.all(
    fullRefs.map(async (fr): Promise<RawStore | null> => {
      const commit = fr.ref.peeled ?? fr.ref.sha;
      const entries = await repo.listTree(commit, { recursive: true });
      if (entries === null) {
        sink.add(
          "warning",
          "entire-v2-full-unreadable",
          `${fr.ref.name}: the tree of ${commit} cannot be listed; its raw transcripts are not read`,
          null,
          { file: fr.ref.name },
        );
        return null;
      }
      const folders = new Map<string, Array<{ n: number; entry: TreeEntry }>>();
      for (const entry of entries) {
        if (entry.type !== "blob") continue;
        const slash = entry.path.lastIndexOf("/");
        const name = entry.path.slice(slash + 1);
        const m = name === "full.jsonl" ? null : CHUNK.exec(name);
        if (name !== "full.jsonl" && m === null) continue; // generation.json, anything else
        const dir = entry.path.slice(0, slash + 1);
        let list = folders.get(dir);
        if (!list) folders.set(dir, (list = []));
        list.push({ n: m === null ? 0 : Number(m[1]), entry });
      }
      return { ref: fr.ref.name, commit, folders };
    }),
  );
  return listed.filter((s): s is RawStore => s !== null);
}

/** One info row: how much came from checkpoints v2, and from how many full generations. */
export function reportV2(v2: V2Summary, sources: Map<string, CheckpointSource>, sink: DiagnosticSink): void {
  const used = new Set<string>();
  sources.forEach((source) => {
    if (source.backend !== "v2") return;
    for (const s of source.sessions) if (s.transcript?.kind === "full") used.add(s.transcript.ref);
  });
  const read =
    v2.onlyHere === 0
      ? "none read from it: every one is also in v1 or its own ref"
      : `${v2.onlyHere} only there, read from it`;
  const raw = v2.onlyHere === 0 ? "" : `; raw transcripts from ${used.size} of ${v2.stores.length} full generation(s)`;
  sink.add("info", "entire-v2-read", `${v2.total} checkpoint(s) in ${v2.ref} (${read})${raw}`, null, { file: v2.ref });
}
