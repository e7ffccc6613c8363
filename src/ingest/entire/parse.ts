/**
 * Reading an Entire repository: checkpoints (metadata, where each transcript
 * lives) from the per-checkpoint refs, the checkpoints branch and the
 * checkpoints-v2 refs, and the commits that carry `Entire-Checkpoint`
 * trailers. Bad or missing data becomes diagnostics; nothing here throws on
 * bad input.
 */
import {
  type Checkpoint,
  type CheckpointSession,
  checkRecordNumbers,
  type Commit,
  COUNT_MAX,
  type DiagnosticSink,
  type EntireAttribution,
  type EntireTokenUsage,
  type RecordNumberRule,
  TOKEN_COUNTS,
  withoutVariantLabel,
} from "../../model";
import { openRepository, type GitRepository, type TreeEntry } from "../git/repo";
import {
  checkpointFolder,
  findEntireRefs,
  hasEntireCheckpoints,
  isCheckpointId,
  normaliseSessionId,
  TRANSCRIPT_CHUNK as CHUNK,
  type EntireRefs,
} from "./paths";
import { differentMetadata, listRawStores, type RawStore, reportV2, type V2Summary } from "./v2";
import {
  checkpointSummarySchema,
  parseLenient,
  sessionMetadataSchema,
  type CheckpointSummaryRaw,
  type EntireTokenUsageRaw,
  type InitialAttributionRaw,
  type SessionMetadataRaw,
} from "./schema";

/** Where one session's transcript is stored. */
export interface TranscriptSource {
  /** `full.jsonl` (the agent's native log, copied whole) or `transcript.jsonl` (Entire's compact format). */
  kind: "full" | "compact";
  /** Path from the checkpoint folder, e.g. `0/full.jsonl`. */
  file: string;
  /** Git specs (`<commit>:<path>`) of the parts in order: `full.jsonl`, `full.jsonl.001`, … (Entire splits files over 50 MB). */
  parts: string[];
  /** True when a part is listed in the tree but its blob is absent (partial clones, mirrors that drop large files). */
  blob_missing: boolean;
  /** The ref whose commit holds the parts: the checkpoint's ref or branch, or for checkpoints v2 the full generation it was found in. */
  ref: string;
}

export interface SessionSource {
  index: number;
  /** Folder of the session from the checkpoint folder (`0/`), or `""` for the legacy root session. */
  folder: string;
  transcript: TranscriptSource | null;
  /**
   * Entire's compact `transcript.jsonl` of the same folder when `transcript`
   * is the raw `full.jsonl`: read instead when the raw one cannot be (its
   * blob is absent, or no adapter reads its agent), with the slice start in
   * its own coordinates (`compact_transcript_start`). Null otherwise. (Its
   * `blob_missing` may be true: the job then says so when it needs it.)
   */
  compact_fallback: { transcript: TranscriptSource; start: number } | null;
}

/** Where a checkpoint was read from. */
export interface CheckpointSource {
  checkpoint_id: string;
  /** `v2`: `refs/entire/checkpoints/v2/main` (transcripts from the v2 full refs). */
  backend: "refs" | "branch" | "v2";
  /** The full ref name (`refs/entire/checkpoints/…` or the branch). */
  ref: string;
  /** The commit the ref pointed at. */
  commit: string;
  /** The checkpoint folder inside that commit's tree: `""` for refs, `c6/39a44ea03d/` on a branch and on v2/main. */
  root: string;
  sessions: SessionSource[];
}

export interface EntireRepository {
  repo: GitRepository;
  refs: EntireRefs;
  /** Sorted by checkpoint id; sessions sorted by folder index. */
  checkpoints: Checkpoint[];
  /** Every commit (all refs but Entire's own) with an `Entire-Checkpoint` trailer, with patch ids (null for merges and empty commits). */
  commits: Commit[];
  sources: Map<string, CheckpointSource>;
  /** The session's transcript bytes (parts joined), or null when absent or unreadable. */
  readTranscript(checkpointId: string, sessionIndex: number): Promise<Uint8Array | null>;
  close(): Promise<void>;
}

export interface ReadEntireOptions {
  /** Read the trailer-carrying commits (default true). */
  commits?: boolean;
}

/** One candidate checkpoint folder: its files relative to the folder. */
export interface FolderListing {
  checkpoint_id: string;
  backend: "refs" | "branch" | "v2";
  ref: string;
  commit: string;
  root: string;
  /** Tree id of the folder, to tell identical copies from different ones. */
  tree: string | null;
  files: Map<string, TreeEntry>;
  /** Whether `missing` flags in `files` are known (ls-tree -l) or must be asked (walkTree). */
  missingKnown: boolean;
  /** v2 only: the full generations to look the raw transcripts up in, in order. */
  rawStores?: RawStore[];
}

const SESSION_FOLDER = /^(0|[1-9]\d{0,5})\/(.+)$/;

/**
 * Opens `path` as an Entire repository: null when it is not a git repository
 * or has neither the checkpoints branch nor checkpoint refs.
 */
export async function readEntireRepository(
  path: string,
  sink: DiagnosticSink,
  opts: ReadEntireOptions = {},
): Promise<EntireRepository | null> {
  const repo = await openRepository(path);
  if (repo === null) return null;
  try {
    const allRefs = await repo.listRefs();
    const refs = findEntireRefs(allRefs);
    if (!hasEntireCheckpoints(refs)) {
      await repo.close();
      return null;
    }
    for (const ref of allRefs) {
      if (ref.type !== "missing" && ref.peeledType !== "missing") continue;
      sink.add(
        "warning",
        "git-ref-object-missing",
        `${ref.name} points at ${ref.sha.slice(0, 12)}, which is absent from this clone (damaged or pruned): nothing is read from it`,
        null,
        { file: ref.name },
      );
    }
    for (const bad of refs.malformed) {
      sink.add(
        "warning",
        "entire-ref-malformed",
        `${bad.name} is not refs/entire/checkpoints/<shard>/<checkpoint id>; not read`,
        null,
        { file: bad.name },
      );
    }
    const { listings, v2 } = await listCheckpointFolders(repo, refs, sink);
    const checkpoints: Checkpoint[] = [];
    const sources = new Map<string, CheckpointSource>();
    const ids = Array.from(listings.keys()).sort();
    const built = await Promise.all(ids.map((id) => buildCheckpoint(repo, listings.get(id)!, sink)));
    for (const item of built) {
      checkpoints.push(item.checkpoint);
      sources.set(item.checkpoint.checkpoint_id, item.source);
    }
    if (v2 !== null) reportV2(v2, sources, sink);
    const commits =
      opts.commits === false
        ? []
        : await repo.logCommits({
            onlyCheckpointed: true,
            patchIds: true,
            onHistoryIncomplete: (message) =>
              sink.add(
                "error",
                "git-history-incomplete",
                `git cannot walk the whole history (${message}): a commit object is absent from this clone. Each branch was read on its own as far as it goes; a checkpoint whose commit lies beyond the gap is reported as on no commit`,
              ),
            onPatchIdUnreadable: (sha) =>
              sink.add(
                "warning",
                "commit-patch-id-unreadable",
                `commit ${sha.slice(0, 12)}: git cannot read its diff (a blob missing from this clone), so its patch id is unknown and a rebased or cherry-picked copy of it is not recognised as the same commit`,
              ),
          });
    return {
      repo,
      refs,
      checkpoints,
      commits,
      sources,
      readTranscript: (checkpointId, sessionIndex) => readTranscript(repo, sources, checkpointId, sessionIndex),
      close: () => repo.close(),
    };
  } catch (error) {
    sink.error("entire-repository-unreadable", `could not read ${path} as an Entire repository: ${String(error)}`);
    await repo.close().catch(() => {});
    return null;
  }
}

/**
 * The checkpoint folders, one per id: refs first, then each branch in order
 * (local, remotes, legacy), then v2/main; a later copy of an id already read
 * is skipped (reported when its content differs).
 */
async function listCheckpointFolders(
  repo: GitRepository,
  refs: EntireRefs,
  sink: DiagnosticSink,
): Promise<{ listings: Map<string, FolderListing>; v2: V2Summary | null }> {
  const out = new Map<string, FolderListing>();
  const differs = (id: string, later: FolderListing) => {
    const first = out.get(id)!;
    if (first.tree !== null && later.tree !== null && first.tree === later.tree) return;
    sink.add(
      "info",
      "entire-checkpoint-duplicate",
      `checkpoint ${id} is in ${first.ref} and, with other content, in ${later.ref}; the first was read`,
      null,
      { file: later.ref },
    );
  };

  // 1. One ref per checkpoint (git-refs backend): the commit's tree root is the folder.
  const refListings = await Promise.all(
    refs.checkpointRefs.map(async (cr) => {
      if (!cr.shard_ok) {
        sink.add(
          "info",
          "entire-ref-shard-unexpected",
          `${cr.ref.name}: shard ${cr.shard} is not the id's last two characters; read anyway`,
          null,
          { file: cr.ref.name },
        );
      }
      const commit = cr.ref.peeled ?? cr.ref.sha;
      const entries = await repo.walkTree(commit, (folder) =>
        sink.add(
          "warning",
          "entire-ref-subtree-unreadable",
          `${cr.ref.name}: the folder ${folder}/ of checkpoint ${cr.checkpoint_id} cannot be read (missing from a partial clone?); its files are left out`,
          null,
          {
            file: cr.ref.name,
          },
        ),
      );
      if (entries === null) {
        sink.add("warning", "entire-ref-unreadable", `${cr.ref.name}: the tree of ${commit} cannot be read`, null, {
          file: cr.ref.name,
        });
        return null;
      }
      const info = await repo.objects.info(`${commit}^{tree}`).catch(() => null);
      const listing: FolderListing = {
        checkpoint_id: cr.checkpoint_id,
        backend: "refs",
        ref: cr.ref.name,
        commit,
        root: "",
        tree: info?.sha ?? null,
        files: new Map(entries.map((e) => [e.path, e])),
        missingKnown: false,
      };
      return listing;
    }),
  );
  for (const listing of refListings) {
    if (listing === null) continue;
    if (out.has(listing.checkpoint_id)) differs(listing.checkpoint_id, listing);
    else out.set(listing.checkpoint_id, listing);
  }

  // 2. The checkpoints branches: one `git ls-tree -r -t -l` each.
  for (const branch of refs.branches) {
    const ref = branch.ref;
    const commit = ref.peeled ?? ref.sha;
    if (branch.legacy) {
      sink.add(
        "info",
        "entire-legacy-branch",
        `reading ${ref.name} (the checkpoints branch name of early Entire versions)`,
        null,
        { file: ref.name },
      );
    }
    const folders = await listShardedTree(repo, ref.name, commit, "branch", sink);
    if (folders === null) continue;
    // Folder tree ids, to compare copies of one checkpoint across branches (only needed for duplicates).
    const dupIds = Array.from(folders.keys()).filter((id) => out.has(id));
    await Promise.all(
      dupIds.map(async (id) => {
        const info = await repo.objects.info(`${commit}:${checkpointFolder(id)}`).catch(() => null);
        folders.get(id)!.tree = info?.sha ?? null;
        const first = out.get(id)!;
        if (first.tree === null && first.backend === "branch") {
          const firstInfo = await repo.objects.info(`${first.commit}:${checkpointFolder(id)}`).catch(() => null);
          first.tree = firstInfo?.sha ?? null;
        }
      }),
    );
    for (const [id, folder] of folders) {
      if (out.has(id)) differs(id, folder);
      else out.set(id, folder);
    }
  }

  // 3. Checkpoints v2 (`refs/entire/checkpoints/v2/main`), read like a branch, last. With dual
  // write the same checkpoint is also in v1, whose folder holds full.jsonl inline: that copy
  // is read, and since v2/main never holds full.jsonl the two trees always differ; only
  // different metadata blobs are worth a word.
  if (refs.v2Main === null) return { listings: out, v2: null };
  const v2Ref = refs.v2Main;
  const v2Commit = v2Ref.peeled ?? v2Ref.sha;
  const folders = await listShardedTree(repo, v2Ref.name, v2Commit, "v2", sink);
  if (folders === null) return { listings: out, v2: null };
  const v2: V2Summary = { ref: v2Ref.name, total: folders.size, onlyHere: 0, stores: [] };
  const fromV2: FolderListing[] = [];
  for (const [id, folder] of folders) {
    const first = out.get(id);
    if (first === undefined) {
      out.set(id, folder);
      fromV2.push(folder);
      continue;
    }
    const changed = differentMetadata(first, folder);
    if (changed.length > 0) {
      sink.add(
        "info",
        "entire-checkpoint-duplicate",
        `checkpoint ${id} is in ${first.ref} and in ${v2Ref.name} with other metadata (${changed.join(", ")}); the first was read`,
        null,
        { file: v2Ref.name },
      );
    }
  }
  v2.onlyHere = fromV2.length;
  // The raw transcripts: one `git ls-tree -r -l` per full generation, only when something is read from v2/main.
  if (fromV2.length > 0) v2.stores = await listRawStores(repo, refs.v2Full, sink);
  for (const folder of fromV2) folder.rawStores = v2.stores;
  return { listings: out, v2 };
}

/**
 * A sharded checkpoints tree (the v1 branch, v2/main): one `git ls-tree -r -l`,
 * grouped into `<id[:2]>/<id[2:]>/` folders; null (reported) when unlistable.
 */
async function listShardedTree(
  repo: GitRepository,
  refName: string,
  commit: string,
  backend: "branch" | "v2",
  sink: DiagnosticSink,
): Promise<Map<string, FolderListing> | null> {
  let entries = await repo.listTree(commit, { recursive: true });
  let missingKnown = true;
  if (entries === null) {
    // `ls-tree -r` fails as a whole when one subtree is missing (a partial clone): list what can be read.
    const unreadable: string[] = [];
    entries = await repo.walkTree(commit, (folder) => unreadable.push(folder));
    missingKnown = false;
    if (entries === null) {
      sink.add("error", "entire-branch-unreadable", `${refName}: the tree of ${commit} cannot be listed`, null, {
        file: refName,
      });
      return null;
    }
    unreadable.sort();
    sink.add(
      "warning",
      "entire-branch-partly-unreadable",
      `${refName}: ${unreadable.length} folder(s) of the tree of ${commit} cannot be read (missing from a partial clone?); the checkpoints in them are left out: ${unreadable.slice(0, 10).join(", ")}${unreadable.length > 10 ? ", …" : ""}`,
      null,
      { file: refName },
    );
  }
  const folders = new Map<string, FolderListing>();
  let stray = 0;
  for (const entry of entries) {
    const parts = entry.path.split("/");
    const id = parts.length >= 3 ? parts[0] + parts[1] : "";
    if (parts.length < 3 || parts[0].length !== 2 || !isCheckpointId(id)) {
      stray++;
      continue;
    }
    let folder = folders.get(id);
    if (folder === undefined) {
      folder = {
        checkpoint_id: id,
        backend,
        ref: refName,
        commit,
        root: `${checkpointFolder(id)}/`,
        tree: null,
        files: new Map(),
        missingKnown,
      };
      folders.set(id, folder);
    }
    folder.files.set(parts.slice(2).join("/"), { ...entry, path: parts.slice(2).join("/") });
  }
  if (stray > 0) {
    sink.add(
      "info",
      "entire-branch-stray-files",
      `${refName}: ${stray} files outside <id[:2]>/<id[2:]>/ folders were ignored`,
      null,
      { file: refName },
    );
  }
  return folders;
}

/** Entire's own line counts (initial_attribution, prompt_attributions): counts, and a percentage at most 100. */
const ENTIRE_LINE_COUNTS: RecordNumberRule = {
  key: /_lines$|_added$|_removed$|_modified$|^total_committed$|_count$/,
  parent: /attribution/,
  max: COUNT_MAX,
  what: "Entire count",
  replaceWith: "null",
};
const ENTIRE_PERCENTAGES: RecordNumberRule = {
  key: /_percentage$/,
  max: 100,
  what: "Entire percentage",
  replaceWith: "null",
};
/** Entire's token_usage: an out-of-domain counter becomes null (unknown), not absent (which Entire's rule reads as 0). */
const ENTIRE_TOKENS: RecordNumberRule = { ...TOKEN_COUNTS, replaceWith: "null" };

/** Token usage, line counts and percentages of a metadata file checked against their domains (out-of-domain values dropped, with a row). */
function checkEntireMetadataNumbers(value: unknown, file: string, sink: DiagnosticSink): void {
  for (const rule of [ENTIRE_TOKENS, ENTIRE_LINE_COUNTS, ENTIRE_PERCENTAGES])
    checkRecordNumbers(value, { file }, sink, rule);
}

/** Reads and parses one JSON metadata blob; reports and returns null on failure. */
async function readJson(
  repo: GitRepository,
  listing: FolderListing,
  rel: string,
  sink: DiagnosticSink,
  sessionId: string | null,
): Promise<unknown | undefined> {
  const entry = listing.files.get(rel);
  const file = `${listing.ref}:${listing.root}${rel}`;
  if (entry === undefined) return undefined;
  let data: Uint8Array | null = null;
  if (!entry.missing) {
    try {
      data = await repo.objects.read(entry.sha);
    } catch {
      data = null;
    }
  }
  if (data === null) {
    sink.add(
      "warning",
      "entire-metadata-unreadable",
      `${rel} of checkpoint ${listing.checkpoint_id} is listed but its blob cannot be read`,
      null,
      { file, session_id: sessionId },
    );
    return null;
  }
  try {
    // An editor's byte-order mark is not part of the JSON.
    const value: unknown = JSON.parse(
      Buffer.from(data)
        .toString("utf8")
        .replace(/^\uFEFF/, ""),
    );
    checkEntireMetadataNumbers(value, file, sink);
    return value;
  } catch (error) {
    sink.add(
      "error",
      "entire-metadata-invalid",
      `${rel} of checkpoint ${listing.checkpoint_id} is not JSON: ${(error as Error).message}`,
      null,
      { file, session_id: sessionId },
    );
    return null;
  }
}

async function buildCheckpoint(
  repo: GitRepository,
  listing: FolderListing,
  sink: DiagnosticSink,
): Promise<{ checkpoint: Checkpoint; source: CheckpointSource }> {
  const id = listing.checkpoint_id;
  const where = (rel: string) => `${listing.ref}:${listing.root}${rel}`;

  // Checkpoint summary.
  let summary: CheckpointSummaryRaw | null = null;
  const rawSummary = await readJson(repo, listing, "metadata.json", sink, null);
  if (rawSummary === undefined) {
    sink.add("warning", "entire-checkpoint-metadata-missing", `checkpoint ${id} has no metadata.json`, null, {
      file: where("metadata.json"),
    });
  } else if (rawSummary !== null) {
    const parsed = parseLenient(checkpointSummarySchema, rawSummary);
    if (parsed === null) {
      sink.add("error", "entire-metadata-invalid", `metadata.json of checkpoint ${id} is not a JSON object`, null, {
        file: where("metadata.json"),
      });
    } else {
      summary = parsed.value;
      for (const p of parsed.problems) {
        sink.add(
          "warning",
          "entire-metadata-field-invalid",
          `metadata.json of checkpoint ${id}: field ${p.field} dropped (${p.message})`,
          null,
          { file: where("metadata.json") },
        );
      }
      if (summary.checkpoint_id && summary.checkpoint_id !== id) {
        sink.add(
          "warning",
          "entire-checkpoint-id-mismatch",
          `metadata.json of folder ${id} names checkpoint ${summary.checkpoint_id}; the folder's id is used`,
          null,
          { file: where("metadata.json") },
        );
      }
    }
  }

  // Session folders.
  const indices = new Set<number>();
  for (const rel of listing.files.keys()) {
    const m = SESSION_FOLDER.exec(rel);
    if (m) indices.add(Number(m[1]));
  }
  const folders: Array<{ index: number; folder: string }> = Array.from(indices)
    .sort((a, b) => a - b)
    .map((index) => ({ index, folder: `${index}/` }));
  // Legacy layout (early `entire/sessions`): the folder root is the newest session, numbered folders the archived ones.
  const legacyRoot =
    !indices.has(0) &&
    summary?.session_id != null &&
    (listing.files.has("full.jsonl") || listing.files.has("transcript.jsonl"));
  if (legacyRoot) {
    folders.unshift({ index: 0, folder: "" });
    sink.add(
      "info",
      "entire-legacy-layout",
      `checkpoint ${id} keeps a session at the folder root (early Entire layout); read as session 0`,
      null,
      { file: where("") },
    );
  }

  const declared = summary?.sessions?.length;
  if (declared != null && declared !== folders.length) {
    sink.add(
      "info",
      "entire-session-count-mismatch",
      `checkpoint ${id}: metadata.json lists ${declared} sessions, the tree has ${folders.length} session folders`,
      null,
      { file: where("metadata.json") },
    );
  }
  if (folders.length === 0) {
    sink.add("warning", "entire-checkpoint-empty", `checkpoint ${id} has no session folder`, null, { file: where("") });
  }

  const sessions: CheckpointSession[] = [];
  const sessionSources: SessionSource[] = [];
  for (const { index, folder } of folders) {
    const built = await buildSession(
      repo,
      listing,
      index,
      folder,
      legacyRoot && folder === "" ? summary : null,
      summary,
      sink,
    );
    sessions.push(built.session);
    sessionSources.push(built.source);
  }

  const checkpoint: Checkpoint = {
    checkpoint_id: id,
    sessions,
    token_usage: toTokenUsage(summary?.token_usage),
  };
  const source: CheckpointSource = {
    checkpoint_id: id,
    backend: listing.backend,
    ref: listing.ref,
    commit: listing.commit,
    root: listing.root,
    sessions: sessionSources,
  };
  return { checkpoint, source };
}

async function buildSession(
  repo: GitRepository,
  listing: FolderListing,
  index: number,
  folder: string,
  legacyMetadata: CheckpointSummaryRaw | null,
  summary: CheckpointSummaryRaw | null,
  sink: DiagnosticSink,
): Promise<{ session: CheckpointSession; source: SessionSource }> {
  const id = listing.checkpoint_id;
  const where = (rel: string) => `${listing.ref}:${listing.root}${rel}`;
  const metaRel = `${folder}metadata.json`;

  let meta: SessionMetadataRaw | null = null;
  const raw =
    legacyMetadata !== null ? (legacyMetadata as unknown) : await readJson(repo, listing, metaRel, sink, null);
  if (raw === undefined) {
    sink.add(
      "warning",
      "entire-session-metadata-missing",
      `checkpoint ${id} session ${index} has no metadata.json`,
      null,
      { file: where(metaRel) },
    );
  } else if (raw !== null) {
    const parsed = parseLenient(sessionMetadataSchema, raw);
    if (parsed === null) {
      sink.add("error", "entire-metadata-invalid", `${metaRel} of checkpoint ${id} is not a JSON object`, null, {
        file: where(metaRel),
      });
    } else {
      meta = parsed.value;
      if (legacyMetadata === null) {
        for (const p of parsed.problems) {
          sink.add(
            "warning",
            "entire-metadata-field-invalid",
            `${metaRel} of checkpoint ${id}: field ${p.field} dropped (${p.message})`,
            null,
            { file: where(metaRel) },
          );
        }
      }
      if (meta.checkpoint_id && meta.checkpoint_id !== id && legacyMetadata === null) {
        sink.add(
          "warning",
          "entire-checkpoint-id-mismatch",
          `${metaRel} names checkpoint ${meta.checkpoint_id}, its folder is ${id}`,
          null,
          { file: where(metaRel) },
        );
      }
    }
  }

  let sessionId: string;
  if (meta?.session_id?.trim()) {
    sessionId = normaliseSessionId(meta.session_id);
  } else {
    // Keep the folder (it counts for multi-session-checkpoint) under an id no real session has.
    sessionId = `unknown:${id}/${index}`;
    sink.add(
      "warning",
      "entire-session-id-missing",
      `checkpoint ${id} session ${index} has no session_id; named ${sessionId}`,
      null,
      { file: where(metaRel) },
    );
  }
  const recordedId = meta?.session_id?.trim() || sessionId;

  // Transcript: full.jsonl (+ .001, .002 … parts), else the compact transcript.jsonl.
  // Checkpoints v2 keep full.jsonl in the first full generation that still has it.
  const transcript = await locateTranscript(repo, listing, folder);
  const fileLabel = where(`${folder}full.jsonl`);
  const v2 = listing.backend === "v2";
  if (transcript === null) {
    const message = v2
      ? `checkpoint ${id} session ${index}: no full.jsonl in any v2 full generation and no transcript.jsonl in ${listing.ref}`
      : `checkpoint ${id} session ${index} has no full.jsonl or transcript.jsonl`;
    sink.add("warning", "entire-transcript-missing", message, null, { file: fileLabel, session_id: recordedId });
  } else {
    const label = `${transcript.ref}:${listing.root}${transcript.file}`;
    const gaps = missingParts(transcript.parts);
    if (gaps.length > 0) {
      sink.add(
        "warning",
        "entire-transcript-part-missing",
        `checkpoint ${id} session ${index}: ${gaps.map((n) => `full.jsonl.${String(n).padStart(3, "0")}`).join(", ")} missing between the stored parts; they are joined with the gap, so the records after it are numbered as if it were not there`,
        null,
        { file: label, session_id: recordedId },
      );
    }
    if (transcript.blob_missing) {
      sink.add(
        "warning",
        "entire-transcript-blob-missing",
        `checkpoint ${id} session ${index}: ${transcript.file} is listed but its blob is absent from this clone (a partial clone: Entire itself fetches checkpoints with the filter blob:limit=128k, and some mirrors drop large files; a fetch without a filter brings it)`,
        null,
        { file: label, session_id: recordedId },
      );
    }
    if (transcript.kind === "compact" && v2) {
      sink.add(
        "info",
        "entire-v2-transcript-pruned",
        `checkpoint ${id} session ${index}: the raw transcript was not found in any v2 full generation (pruned by retention or not fetched); the compact transcript.jsonl is read instead`,
        null,
        { file: label, session_id: recordedId },
      );
    } else if (transcript.kind === "compact") {
      sink.add(
        "info",
        "entire-transcript-compact-only",
        `checkpoint ${id} session ${index}: only the compact transcript.jsonl (Entire's own format) is stored`,
        null,
        { file: label, session_id: recordedId },
      );
    }
  }

  // Where this checkpoint's part of the transcript begins.
  let start = 0;
  if (transcript?.kind === "compact") {
    start = meta?.compact_transcript_start ?? 0;
  } else {
    start = meta?.checkpoint_transcript_start ?? meta?.transcript_lines_at_start ?? 0;
  }

  const branch = nonEmpty(meta?.branch) ?? nonEmpty(summary?.branch);
  const attribution = toAttribution(meta?.initial_attribution, (message) =>
    sink.add("info", "entire-attribution-incomplete", `checkpoint ${id} session ${index}: ${message}`, null, {
      file: where(metaRel),
      session_id: recordedId,
    }),
  );

  const session: CheckpointSession = {
    index,
    session_id: sessionId,
    recorded_session_id: recordedId,
    agent_label: nonEmpty(meta?.agent),
    model: modelLabel(meta?.model),
    branch,
    created_at: nonEmpty(meta?.created_at),
    transcript_path:
      transcript === null || transcript.blob_missing
        ? null
        : `${listing.backend === "refs" ? checkpointFolder(id) + "/" : listing.root}${transcript.file}`,
    transcript_start: start,
    files_touched: meta?.files_touched ?? [],
    initial_attribution: attribution,
    token_usage: toTokenUsage(meta?.token_usage),
  };
  const fallback = transcript?.kind === "full" ? await locateCompact(repo, listing, folder) : null;
  const compact_fallback =
    fallback === null ? null : { transcript: fallback, start: meta?.compact_transcript_start ?? 0 };
  return { session, source: { index, folder, transcript, compact_fallback } };
}

async function locateTranscript(
  repo: GitRepository,
  listing: FolderListing,
  folder: string,
): Promise<TranscriptSource | null> {
  // v2: the raw transcript lives at the same path in a full generation, current first.
  for (const store of listing.rawStores ?? []) {
    const found = store.folders.get(`${listing.root}${folder}`);
    if (found === undefined || !found.some((p) => p.n === 0)) continue;
    const parts = [...found].sort((a, b) => a.n - b.n);
    return {
      kind: "full",
      file: `${folder}full.jsonl`,
      parts: parts.map((p) => `${store.commit}:${p.entry.path}`),
      blob_missing: parts.some((p) => p.entry.missing),
      ref: store.ref,
    };
  }
  if (listing.files.has(`${folder}full.jsonl`)) {
    const chunks: Array<{ n: number; rel: string }> = [];
    for (const rel of listing.files.keys()) {
      if (!rel.startsWith(folder)) continue;
      const m = CHUNK.exec(rel.slice(folder.length));
      if (m && !rel.slice(folder.length).includes("/")) chunks.push({ n: Number(m[1]), rel });
    }
    chunks.sort((a, b) => a.n - b.n);
    return storedTranscript(repo, listing, "full", [`${folder}full.jsonl`, ...chunks.map((c) => c.rel)]);
  }
  return locateCompact(repo, listing, folder);
}

/** The folder's compact `transcript.jsonl` (Entire's own format), or null when there is none. */
function locateCompact(repo: GitRepository, listing: FolderListing, folder: string): Promise<TranscriptSource | null> {
  if (!listing.files.has(`${folder}transcript.jsonl`)) return Promise.resolve(null);
  return storedTranscript(repo, listing, "compact", [`${folder}transcript.jsonl`]);
}

async function storedTranscript(
  repo: GitRepository,
  listing: FolderListing,
  kind: "full" | "compact",
  files: string[],
): Promise<TranscriptSource> {
  let missing = false;
  for (const rel of files) {
    const entry = listing.files.get(rel)!;
    if (listing.missingKnown) {
      if (entry.missing) missing = true;
    } else {
      const info = await repo.objects.info(entry.sha).catch(() => null);
      if (info === null) missing = true;
    }
  }
  return {
    kind,
    file: files[0],
    parts: files.map((rel) => `${listing.commit}:${listing.root}${rel}`),
    blob_missing: missing,
    ref: listing.ref,
  };
}

/** Numbers of the `full.jsonl.NNN` parts absent below the highest one stored (Entire numbers them from 1 without gaps). */
function missingParts(parts: readonly string[]): number[] {
  const present = new Set<number>();
  for (const spec of parts) {
    const m = CHUNK.exec(spec.slice(Math.max(spec.lastIndexOf("/"), spec.lastIndexOf(":")) + 1));
    if (m) present.add(Number(m[1]));
  }
  const missing: number[] = [];
  const highest = Math.max(0, ...present);
  for (let n = 1; n < highest; n++) if (!present.has(n)) missing.push(n);
  return missing;
}

async function readTranscript(
  repo: GitRepository,
  sources: Map<string, CheckpointSource>,
  checkpointId: string,
  sessionIndex: number,
): Promise<Uint8Array | null> {
  const source = sources.get(checkpointId);
  const session = source?.sessions.find((s) => s.index === sessionIndex);
  const transcript = session?.transcript;
  return transcript ? readTranscriptParts(repo, transcript.parts) : null;
}

/** A stored transcript's parts (git specs, in order) read and joined; null when one cannot be read. */
export async function readTranscriptParts(repo: GitRepository, parts: readonly string[]): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  for (const spec of parts) {
    const data = await repo.objects.read(spec).catch(() => null);
    if (data === null) return null;
    chunks.push(data);
  }
  return joinTranscriptParts(chunks);
}

/**
 * Joins the parts of a transcript Entire split over 50 MB (entireio/cli
 * `agent/chunking.go`): JSONL parts were cut at line boundaries with the last
 * newline trimmed, so they are joined with `\n`; Gemini JSON parts are each
 * `{"messages": […]}` and are merged into one messages array.
 */
export function joinTranscriptParts(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  if (parts.length === 0) return new Uint8Array(0);
  const first = Buffer.from(parts[0]).toString("utf8").trimStart();
  if (first.startsWith("{")) {
    try {
      const objects = parts.map((p) => JSON.parse(Buffer.from(p).toString("utf8")) as { messages?: unknown[] });
      if (objects.every((o) => o !== null && typeof o === "object" && Array.isArray(o.messages))) {
        const merged = { ...objects[0], messages: objects.flatMap((o) => o.messages as unknown[]) };
        return new Uint8Array(Buffer.from(JSON.stringify(merged), "utf8"));
      }
    } catch {
      /* not JSON parts: JSONL below */
    }
  }
  const pieces: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) pieces.push(Buffer.from("\n"));
    pieces.push(Buffer.from(p));
  });
  return new Uint8Array(Buffer.concat(pieces));
}

function nonEmpty(value: string | null | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/**
 * Entire's model label as the API names the model: Claude Code's settings
 * label a context-window variant with a suffix (`claude-opus-4-6[1m]`) that
 * no API record carries, so a unit whose model comes from here would
 * otherwise stand apart from the same model read from a transcript.
 */
function modelLabel(raw: string | null | undefined): string | null {
  const label = nonEmpty(raw);
  return label === null ? null : withoutVariantLabel(label);
}

/**
 * Entire's `token_usage` → the model's; absent counters are 0, a null one
 * (written null, or out of its domain: checkEntireMetadataNumbers) stays
 * null, an absent object is null.
 */
export function toTokenUsage(raw: EntireTokenUsageRaw | null | undefined): EntireTokenUsage | null {
  if (raw == null) return null;
  const fields = [
    raw.input_tokens,
    raw.output_tokens,
    raw.cache_creation_tokens,
    raw.cache_read_tokens,
    raw.api_call_count,
  ];
  if (fields.every((v) => v == null)) return null;
  const counter = (v: number | null | undefined) => (v === null ? null : (v ?? 0));
  return {
    input_tokens: counter(raw.input_tokens),
    output_tokens: counter(raw.output_tokens),
    cache_creation_tokens: counter(raw.cache_creation_tokens),
    cache_read_tokens: counter(raw.cache_read_tokens),
    api_call_count: counter(raw.api_call_count),
  };
}

/**
 * Entire's `initial_attribution` → the model's; null when absent or when it holds none of the
 * counts. A partial record keeps what it has (a lone `agent_percentage` is still Entire's figure),
 * and the missing counts are named.
 */
export function toAttribution(
  raw: InitialAttributionRaw | null | undefined,
  report: (message: string) => void,
): EntireAttribution | null {
  if (raw == null) return null;
  const kept: EntireAttribution = {
    agent_lines: raw.agent_lines ?? null,
    human_added: raw.human_added ?? null,
    human_modified: raw.human_modified ?? null,
    human_removed: raw.human_removed ?? null,
    total_committed: raw.total_committed ?? null,
    agent_percentage: raw.agent_percentage ?? null,
  };
  const missing = (["agent_lines", "total_committed", "agent_percentage"] as const).filter((k) => kept[k] === null);
  if (Object.values(kept).every((v) => v === null)) {
    report("initial_attribution holds no counts; not kept");
    return null;
  }
  if (missing.length > 0) report(`initial_attribution lacks ${missing.join(", ")}; the other counts are kept`);
  return kept;
}
