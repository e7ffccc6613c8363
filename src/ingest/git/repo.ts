/**
 * A small read-only view of a git repository through the git CLI.
 *
 * Every command runs with `--git-dir=<the repository's git dir>`, so bare
 * clones, mirrors and work trees are read the same way, and nothing ever
 * touches a work tree or the index. Blobs and trees come from one long-lived
 * `git cat-file --batch` process ({@link GitObjectReader}), commit diffs from
 * one long-lived `git diff-tree --stdin` ({@link DiffTreeBatch}); listings come
 * from one git process per call (`log`, `for-each-ref`, `ls-tree`), and patch
 * ids from one `git log -p | git patch-id --stable` pipeline per call.
 */
import { readFile, realpath, stat } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { decodeGitPath, decodeGitPathLatin1 } from "./path-text";
import { join, resolve } from "node:path";
import type { Commit } from "../../model";
import { GitObjectReader } from "./cat-file";
import { DiffTreeBatch } from "./diff-tree-batch";
import { gitText, runGit, runGitPipeline } from "./exec";

export interface GitRef {
  /** Full name, e.g. `refs/heads/main`, `refs/remotes/origin/entire/checkpoints/v1`. */
  name: string;
  /** The object the ref points at (a tag object for annotated tags). */
  sha: string;
  /** `commit`, `tag`, `tree`, `blob`, or `missing` when the object is absent from the clone. */
  type: string;
  /** For annotated tags: the object the tag finally points at; else null. */
  peeled: string | null;
  peeledType: string | null;
}

export interface LogOptions {
  /**
   * Revisions to start from. Default: every ref except Entire's own
   * (`refs/heads/entire/*`, `refs/remotes/<remote>/entire/*`, `refs/entire/*`),
   * `refs/stash` and `refs/notes/*`, plus a detached HEAD.
   */
  revs?: string[];
  /** Keep only commits that carry at least one `Entire-Checkpoint` trailer. */
  onlyCheckpointed?: boolean;
  /** Also compute `patch_id` (one extra pipeline for all non-merge commits). Default false: `patch_id` is null. */
  patchIds?: boolean;
  /** Told of each commit whose diff git could not read for its patch id (a blob missing from a partial clone): it stays null. */
  onPatchIdUnreadable?: (sha: string) => void;
  /**
   * Told when git could not walk the whole history (a commit object absent
   * from a damaged clone): the commits it could reach are still returned,
   * each start read on its own; `message` is git's.
   */
  onHistoryIncomplete?: (message: string) => void;
}

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Below twice this many commits, patch ids are read by one pipeline. */
const PATCH_ID_PART_MIN = 256;
/** Commits whose changes are kept (a few hundred bytes each). */
const CHANGES_KEPT = 4096;

export interface ChangedFile {
  /** Path in the commit (for a deletion, the deleted path). */
  path: string;
  /** Only with `renames: true`: the path in the parent for renames and copies; else null. */
  old_path: string | null;
  /** Lines added, as `git diff --numstat` counts them; null for binary files. */
  additions: number | null;
  deletions: number | null;
  binary: boolean;
  /** git's status letter: A, M, D, T (type change), R, C (with renames), U. */
  status: string;
  old_mode: string;
  new_mode: string;
  /** Blob ids; the all-zero id when the side does not exist. */
  old_blob: string;
  new_blob: string;
}

export interface ChangedFilesOptions {
  /** Detect renames (git's default similarity). Default false: a rename is a deletion plus an addition. */
  renames?: boolean;
}

export interface TreeEntry {
  mode: string;
  /** `blob`, `tree` or `commit` (a submodule). */
  type: string;
  sha: string;
  /** Blob size in bytes; null for trees and submodules, and when unknown. */
  size: number | null;
  /** True when the listing shows the blob is absent from the object store (git prints `BAD`). */
  missing: boolean;
  /** Path from the root of the listed tree. */
  path: string;
}

export interface ListTreeOptions {
  /** Descend into subtrees (default true). Trees themselves are not listed when recursive. */
  recursive?: boolean;
  /** Only entries under this path (a folder) or this exact path. */
  path?: string;
}

export interface GitRepository {
  /** Absolute path of the git dir (the repository itself when bare). */
  readonly gitDir: string;
  /** Absolute path of the work tree; null for bare repositories and git dirs opened directly. */
  readonly workTree: string | null;
  readonly bare: boolean;
  /** The shared object reader (one `git cat-file --batch` process). */
  readonly objects: GitObjectReader;
  /** All refs (`git for-each-ref`), sorted by name. */
  listRefs(): Promise<GitRef[]>;
  /** HEAD: the commit it points at (null in an empty repository) and the branch it names (null when detached). */
  head(): Promise<{ sha: string | null; symref: string | null }>;
  /** Commits reachable from all refs but Entire's own (or from `opts.revs`), newest first as git lists them. */
  logCommits(opts?: LogOptions): Promise<Commit[]>;
  /** `git patch-id --stable` of each commit that has a diff (merges and empty commits have none). */
  /** `git patch-id --stable` per commit; merges and empty commits have none; `onUnreadable` names the commits whose diff git could not read. */
  patchIds(shas: readonly string[], onUnreadable?: (sha: string) => void): Promise<Map<string, string>>;
  /** Files changed by the commit against its first parent (root commits: against the empty tree); null when unreadable. */
  changedFiles(sha: string, opts?: ChangedFilesOptions): Promise<ChangedFile[] | null>;
  /** Parents of a commit, or null when the commit cannot be read. */
  parents(sha: string): Promise<string[] | null>;
  /** A blob's bytes at `<rev>:<path>`; null when the path is absent, is not a file, or the blob is missing. */
  readFile(rev: string, path: string): Promise<Uint8Array | null>;
  /** `git ls-tree` of a revision (recursive by default); null when the revision has no tree. */
  listTree(rev: string, opts?: ListTreeOptions): Promise<TreeEntry[] | null>;
  /**
   * The same listing read through the cat-file process (no new process per
   * call; sizes and `missing` are not known: size null, missing false).
   * For many small trees, e.g. one per checkpoint ref. A subtree that
   * cannot be read (absent from a partial clone) is left out and its folder
   * path handed to `onUnreadable`, so that the caller can say so.
   */
  walkTree(rev: string, onUnreadable?: (folder: string) => void): Promise<TreeEntry[] | null>;
  /** Ends the cat-file processes. */
  close(): Promise<void>;
}

export interface OpenRepositoryOptions {
  /**
   * Accept a path inside a work tree (not its top level). Default false: the
   * path must be a work tree's top level or a git dir, so a folder that merely
   * sits inside some repository is not taken for one.
   */
  allowSubdirectory?: boolean;
}

/** Opens the repository at `path` (work tree root, `.git` dir, or bare repository); null when it is not one. */
export async function openRepository(path: string, opts: OpenRepositoryOptions = {}): Promise<GitRepository | null> {
  let real: string;
  try {
    real = await realpath(path);
    if (!(await stat(real)).isDirectory()) return null;
  } catch {
    return null;
  }
  const probe = await gitText(
    null,
    ["rev-parse", "--absolute-git-dir", "--is-bare-repository", "--is-inside-work-tree"],
    { cwd: real },
  );
  if (probe === null) return null;
  const [gitDirRaw, bareText, insideText] = probe.split("\n");
  if (!gitDirRaw) return null;
  let gitDir: string;
  try {
    gitDir = await realpath(gitDirRaw);
  } catch {
    return null;
  }
  const bare = bareText === "true";
  let workTree: string | null = null;
  if (insideText === "true") {
    const top = await gitText(null, ["rev-parse", "--show-toplevel"], { cwd: real });
    if (top?.trim()) {
      try {
        workTree = await realpath(top.trim());
      } catch {
        workTree = top.trim();
      }
    }
  }
  const isRoot = real === gitDir || (workTree !== null && real === workTree);
  if (!isRoot && !opts.allowSubdirectory) return null;
  return new CliRepository(gitDir, workTree, bare);
}

/** Refs that belong to Entire itself, `git stash` or `git notes`: never starting points for code history. */
export function isExcludedFromHistory(refName: string): boolean {
  return (
    refName.startsWith("refs/heads/entire/") ||
    refName.startsWith("refs/entire/") ||
    isRemoteEntireRef(refName) ||
    refName === "refs/stash" ||
    refName.startsWith("refs/notes/")
  );
}

/** `refs/remotes/<remote>/entire/...` (the remote name is the first segment). */
function isRemoteEntireRef(refName: string): boolean {
  if (!refName.startsWith("refs/remotes/")) return false;
  const rest = refName.slice("refs/remotes/".length);
  const slash = rest.indexOf("/");
  return slash > 0 && rest.slice(slash + 1).startsWith("entire/");
}

const FIELD = "\x1f";
const TRAILER_SEP = "\x1e";

class CliRepository implements GitRepository {
  readonly objects: GitObjectReader;
  private readonly diffTrees: DiffTreeBatch;
  private emptyTree: string | null = null;
  /** Changes of commits named by id (no renames), the oldest asked-for going first: a unit, its group and the linking ask for the same ones. */
  private readonly changesById = new Map<string, Promise<ChangedFile[] | null>>();

  constructor(
    readonly gitDir: string,
    readonly workTree: string | null,
    readonly bare: boolean,
  ) {
    this.objects = new GitObjectReader(gitDir);
    this.diffTrees = new DiffTreeBatch(gitDir);
  }

  async listRefs(): Promise<GitRef[]> {
    const text = await gitText(this.gitDir, [
      "for-each-ref",
      "--format=%(objectname)%00%(objecttype)%00%(*objectname)%00%(*objecttype)%00%(refname)",
    ]);
    const refs: GitRef[] = [];
    if (text !== null) {
      for (const line of text.split("\n")) {
        if (!line) continue;
        const [sha, type, peeled, peeledType, name] = line.split("\0");
        if (!sha || !name) continue;
        refs.push({ name, sha, type, peeled: peeled || null, peeledType: peeledType || null });
      }
    } else {
      refs.push(...(await this.listRefsObjectByObject()));
    }
    refs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return refs;
  }

  /**
   * for-each-ref fails as a whole when asked for object types and one ref
   * names an object absent from the clone (a stale branch of a damaged or
   * pruned copy); names and ids alone do not read the objects, so list those
   * and look each object up, an absent one typed `missing`.
   */
  private async listRefsObjectByObject(): Promise<GitRef[]> {
    const text = await gitText(this.gitDir, ["for-each-ref", "--format=%(objectname)%00%(refname)"]);
    if (text === null) return [];
    const refs: GitRef[] = [];
    for (const line of text.split("\n")) {
      const [sha, name] = line.split("\0");
      if (!sha || !name) continue;
      const info = await this.objects.info(sha).catch(() => null);
      const type = info?.type ?? "missing";
      const peeled = type === "tag" ? await this.objects.info(`${sha}^{}`).catch(() => null) : null;
      refs.push({
        name,
        sha,
        type,
        peeled: peeled?.sha ?? null,
        peeledType: type === "tag" ? (peeled?.type ?? "missing") : null,
      });
    }
    return refs;
  }

  async head(): Promise<{ sha: string | null; symref: string | null }> {
    const [sha, sym] = await Promise.all([
      gitText(this.gitDir, ["rev-parse", "--verify", "-q", "HEAD^{commit}"]),
      gitText(this.gitDir, ["symbolic-ref", "-q", "HEAD"]),
    ]);
    return { sha: sha?.trim() || null, symref: sym?.trim() || null };
  }

  private async defaultRevs(): Promise<string[]> {
    const [refs, head] = await Promise.all([this.listRefs(), this.head()]);
    const revs = new Set<string>();
    for (const ref of refs) {
      if (isExcludedFromHistory(ref.name)) continue;
      const finalType = ref.peeledType ?? ref.type;
      if (finalType !== "commit") continue; // tags of trees or blobs have no history
      revs.add(ref.peeled ?? ref.sha);
    }
    if (head.sha !== null && (head.symref === null || !isExcludedFromHistory(head.symref))) {
      if (head.symref === null || !refs.some((r) => r.name === head.symref)) revs.add(head.sha);
    }
    return Array.from(revs).sort();
  }

  async logCommits(opts: LogOptions = {}): Promise<Commit[]> {
    const revs = opts.revs ?? (await this.defaultRevs());
    if (revs.length === 0) return [];
    const format = [
      "%H",
      "%P",
      "%at",
      "%ct",
      `%(trailers:key=Entire-Checkpoint,valueonly,unfold,separator=%x1e)`,
      "%s",
    ].join("%x1f");
    const args = ["log", "--stdin", "-z", `--format=${format}`, "--no-show-signature"];
    // A cheap pre-filter: a commit without the text cannot carry the trailer.
    if (opts.onlyCheckpointed) args.push("--regexp-ignore-case", "--fixed-strings", "--grep=Entire-Checkpoint");
    const result = await runGit(this.gitDir, args, { input: revs.join("\n") + "\n" });
    let output = result.stdout.toString("utf8");
    if (result.code !== 0) {
      // One walk over every start dies at the first absent commit: read each start on its own, keeping what each reaches.
      opts.onHistoryIncomplete?.(result.stderr.trim().split("\n")[0] || `git log exited with ${result.code}`);
      const outputs: string[] = [];
      for (const rev of revs)
        outputs.push((await runGit(this.gitDir, args, { input: rev + "\n" })).stdout.toString("utf8"));
      output = outputs.join("\0");
    }
    const shallow = await this.shallowCommits();
    const commits: Commit[] = [];
    const seen = new Set<string>();
    for (const record of output.split("\0")) {
      if (!record) continue;
      const parts = record.split(FIELD);
      if (parts.length < 6) continue;
      const [sha, parents, at, ct, trailers] = parts;
      const subject = parts.slice(5).join(FIELD);
      const ids: string[] = [];
      for (const value of trailers.split(TRAILER_SEP)) {
        const id = value.trim();
        if (id && !ids.includes(id)) ids.push(id);
      }
      if (opts.onlyCheckpointed && ids.length === 0) continue;
      if (seen.has(sha.trim())) continue;
      seen.add(sha.trim());
      // git shows a shallow clone's boundary commits without parents; the commit object still names them.
      const listed = parents ? parents.split(" ").filter(Boolean) : [];
      commits.push({
        sha: sha.trim(),
        parents: listed.length === 0 && shallow.has(sha.trim()) ? ((await this.parents(sha.trim())) ?? []) : listed,
        author_time: Number(at),
        committer_time: Number(ct),
        subject,
        checkpoint_ids: ids,
        patch_id: null,
      });
    }
    if (opts.patchIds) {
      const ids = await this.patchIds(
        commits.filter((c) => c.parents.length <= 1).map((c) => c.sha),
        opts.onPatchIdUnreadable,
      );
      for (const c of commits) c.patch_id = ids.get(c.sha) ?? null;
    }
    return commits;
  }

  /**
   * The boundary commits of a shallow clone (`<git dir>/shallow`); empty for a full clone. A linked
   * worktree's git dir holds a `commondir` file naming the main one, where `shallow` lives.
   */
  private async shallowCommits(): Promise<Set<string>> {
    const read = async (dir: string) =>
      new Set(
        (await readFile(join(dir, "shallow"), "utf8"))
          .split("\n")
          .map((l) => l.trim())
          .filter(Boolean),
      );
    try {
      return await read(this.gitDir);
    } catch {
      try {
        return await read(resolve(this.gitDir, (await readFile(join(this.gitDir, "commondir"), "utf8")).trim()));
      } catch {
        return new Set();
      }
    }
  }

  async patchIds(shas: readonly string[], onUnreadable?: (sha: string) => void): Promise<Map<string, string>> {
    const map = new Map<string, string>();
    const unique = Array.from(new Set(shas));
    // Diffing every commit is git's work, one CPU per pipeline: a long history is cut into a few parts read at
    // once. Each part reports the commits it cannot read; the reports go out part by part, in the commits'
    // order, as one pipeline over all of them gives them.
    const parts = unique.length >= PATCH_ID_PART_MIN * 2 ? Math.min(4, availableParallelism()) : 1;
    const size = Math.ceil(unique.length / parts);
    const unreadable: string[][] = [];
    await Promise.all(
      Array.from({ length: parts }, (_, k) => {
        const seen: string[] = [];
        unreadable.push(seen);
        return this.patchIdBatch(unique.slice(k * size, (k + 1) * size), map, (sha) => seen.push(sha));
      }),
    );
    for (const sha of unreadable.flat()) onUnreadable?.(sha);
    return map;
  }

  /**
   * `git log -p | git patch-id --stable` over a batch. `git log` stops at the
   * first commit whose diff it cannot read (a blob missing from a partial
   * clone or mirror), leaving every later commit without an id; so a failed
   * batch is split in halves over the commits still without one, down to
   * the unreadable commit alone. (Merges and empty commits have no id.)
   */
  private async patchIdBatch(
    batch: readonly string[],
    map: Map<string, string>,
    onUnreadable?: (sha: string) => void,
  ): Promise<void> {
    if (batch.length === 0) return;
    const result = await runGitPipeline(
      this.gitDir,
      [
        "log",
        "--no-walk=unsorted",
        "--stdin",
        "-p",
        "--binary",
        "--no-renames",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-show-signature",
        "--format=commit %H",
      ],
      ["patch-id", "--stable"],
      batch.join("\n") + "\n",
    );
    for (const line of result.stdout.toString("utf8").split("\n")) {
      const [patchId, sha] = line.trim().split(/\s+/);
      if (patchId && sha) map.set(sha, patchId);
    }
    if (result.code === 0) return;
    if (batch.length === 1) {
      onUnreadable?.(batch[0]);
      return;
    }
    const rest = batch.filter((sha) => !map.has(sha));
    const half = Math.ceil(rest.length / 2);
    await this.patchIdBatch(rest.slice(0, half), map, onUnreadable);
    await this.patchIdBatch(rest.slice(half), map, onUnreadable);
  }

  async parents(sha: string): Promise<string[] | null> {
    let object;
    try {
      object = await this.objects.readObject(`${sha}^{commit}`);
    } catch {
      return null;
    }
    if (object === null || object.type !== "commit") return null;
    const text = Buffer.from(object.data).toString("utf8");
    const end = text.indexOf("\n\n");
    const header = end < 0 ? text : text.slice(0, end);
    const parents: string[] = [];
    for (const line of header.split("\n")) if (line.startsWith("parent ")) parents.push(line.slice(7).trim());
    return parents;
  }

  private async emptyTreeId(): Promise<string | null> {
    if (this.emptyTree === null) {
      const text = await gitText(this.gitDir, ["hash-object", "-t", "tree", "--stdin"], { input: "" });
      this.emptyTree = text?.trim() || null;
    }
    return this.emptyTree;
  }

  /** The files a commit changes against its first parent; the same array for every call with one commit id (do not change it). */
  async changedFiles(sha: string, opts: ChangedFilesOptions = {}): Promise<ChangedFile[] | null> {
    // Only a full object id always names the same commit (a branch or `HEAD` moves).
    if (opts.renames || !FULL_ID.test(sha)) return this.readChangedFiles(sha, opts);
    let kept = this.changesById.get(sha);
    if (kept === undefined) {
      kept = this.readChangedFiles(sha, opts);
      this.changesById.set(sha, kept);
      if (this.changesById.size > CHANGES_KEPT) this.changesById.delete(this.changesById.keys().next().value!);
      // A failure (git ended, a partial clone) is asked again next time, as before there was a cache.
      kept.then(
        (files) => {
          if (files === null) this.changesById.delete(sha);
        },
        () => this.changesById.delete(sha),
      );
    }
    return kept;
  }

  private async readChangedFiles(sha: string, opts: ChangedFilesOptions): Promise<ChangedFile[] | null> {
    const parents = await this.parents(sha);
    if (parents === null) return null;
    if (!opts.renames) {
      const records = await this.diffTrees.changes(sha, parents[0] ?? null).catch(() => Buffer.alloc(0));
      if (records.length > 0) return parseRawNumstat(records);
      // Nothing printed: no changes, or a commit or parent git could not read; one process of its own tells them apart.
    }
    const base = parents.length > 0 ? parents[0] : await this.emptyTreeId();
    if (base === null) return null;
    const args = [
      "diff-tree",
      "-r",
      "-z",
      "--raw",
      "--numstat",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--no-abbrev",
    ];
    args.push(opts.renames ? "-M" : "--no-renames");
    args.push(base, sha);
    const result = await runGit(this.gitDir, args);
    if (result.code !== 0) return null;
    return parseRawNumstat(result.stdout);
  }

  async readFile(rev: string, path: string): Promise<Uint8Array | null> {
    try {
      const object = await this.objects.readObject(`${rev}:${path}`);
      return object !== null && object.type === "blob" ? object.data : null;
    } catch {
      return null;
    }
  }

  async listTree(rev: string, opts: ListTreeOptions = {}): Promise<TreeEntry[] | null> {
    const args = ["ls-tree", "-z", "-l", "--full-tree"];
    if (opts.recursive !== false) args.push("-r");
    args.push(rev);
    if (opts.path !== undefined) args.push("--", opts.path);
    const result = await runGit(this.gitDir, args);
    if (result.code !== 0) return null;
    const entries: TreeEntry[] = [];
    for (const record of result.stdout.toString("latin1").split("\0")) {
      if (!record) continue;
      const tab = record.indexOf("\t");
      if (tab < 0) continue;
      const [mode, type, sha, sizeText] = record.slice(0, tab).split(/\s+/);
      const missing = sizeText === "BAD";
      const size = /^\d+$/.test(sizeText ?? "") ? Number(sizeText) : null;
      entries.push({ mode, type, sha, size, missing, path: decodeGitPathLatin1(record.slice(tab + 1)) });
    }
    return entries;
  }

  async walkTree(rev: string, onUnreadable?: (folder: string) => void): Promise<TreeEntry[] | null> {
    const entries: TreeEntry[] = [];
    // A subtree that cannot be read (absent from a partial clone) is left out and reported.
    const walk = async (spec: string, prefix: string): Promise<boolean> => {
      let object;
      try {
        object = await this.objects.readObject(spec);
      } catch {
        return false;
      }
      if (object === null || object.type !== "tree") return false;
      const hashBytes = object.sha.length / 2;
      const children: Promise<boolean>[] = [];
      for (const entry of parseTreeObject(object.data, hashBytes)) {
        const path = prefix + entry.name;
        if (entry.mode === "40000") {
          children.push(
            walk(entry.sha, path + "/").then((ok) => {
              if (!ok) onUnreadable?.(path);
              return ok;
            }),
          );
        } else {
          const type = entry.mode === "160000" ? "commit" : "blob";
          entries.push({ mode: entry.mode.padStart(6, "0"), type, sha: entry.sha, size: null, missing: false, path });
        }
      }
      await Promise.all(children);
      return true;
    };
    const ok = await walk(`${rev}^{tree}`, "");
    if (!ok) return null;
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return entries;
  }

  async close(): Promise<void> {
    await Promise.all([this.objects.close(), this.diffTrees.close()]);
  }
}

/**
 * Walks a raw tree object, `<mode> <name>\0<hash bytes>` repeated, handing each entry's byte positions to `entry`
 * (the mode is `buf[off, space)`, the name `buf(space, nul)`, the id the `hashBytes` after `nul`); it stops at the
 * first entry that does not fit (a damaged object), so every reader of trees ends at the same place.
 */
export function scanTreeObject(
  data: Uint8Array,
  hashBytes: number,
  entry: (buf: Buffer, off: number, space: number, nul: number) => void,
): void {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let off = 0;
  while (off < buf.length) {
    const space = buf.indexOf(0x20, off);
    const nul = buf.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > buf.length) break;
    entry(buf, off, space, nul);
    off = nul + 1 + hashBytes;
  }
}

/** Entries of a raw tree object, each with its mode, decoded name and hex id. */
export function parseTreeObject(
  data: Uint8Array,
  hashBytes: number,
): Array<{ mode: string; name: string; sha: string }> {
  const out: Array<{ mode: string; name: string; sha: string }> = [];
  scanTreeObject(data, hashBytes, (buf, off, space, nul) =>
    out.push({
      mode: buf.toString("latin1", off, space),
      name: decodeGitPath(buf.subarray(space + 1, nul)),
      sha: buf.toString("hex", nul + 1, nul + 1 + hashBytes),
    }),
  );
  return out;
}

/**
 * Parses `git diff-tree -r -z --raw --numstat` output: raw records
 * (`:<old mode> <new mode> <old sha> <new sha> <status>\0<path>\0`, with a
 * second path for renames and copies) followed by numstat records
 * (`<added>\t<deleted>\t<path>\0`, or `…\t\0<old>\0<new>\0` for renames).
 */
export function parseRawNumstat(output: string | Uint8Array): ChangedFile[] {
  // Bytes (git's own output): paths decoded by decodeGitPath; a string: paths as they are in it.
  const bytes = typeof output !== "string";
  const text = bytes ? Buffer.from(output.buffer, output.byteOffset, output.length).toString("latin1") : output;
  const pathOf = bytes ? decodeGitPathLatin1 : (p: string) => p;
  const tokens = text.split("\0");
  const files: ChangedFile[] = [];
  const byPath = new Map<string, ChangedFile>();
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i];
    if (token === "") {
      i++;
      continue;
    }
    if (token.startsWith(":")) {
      const [oldMode, newMode, oldBlob, newBlob, statusField] = token.slice(1).split(" ");
      const status = (statusField ?? "").charAt(0);
      let path: string;
      let oldPath: string | null = null;
      if (status === "R" || status === "C") {
        oldPath = pathOf(tokens[i + 1] ?? "");
        path = pathOf(tokens[i + 2] ?? "");
        i += 3;
      } else {
        path = pathOf(tokens[i + 1] ?? "");
        i += 2;
      }
      const file: ChangedFile = {
        path,
        old_path: oldPath,
        additions: null,
        deletions: null,
        binary: false,
        status,
        old_mode: oldMode,
        new_mode: newMode,
        old_blob: oldBlob,
        new_blob: newBlob,
      };
      files.push(file);
      byPath.set(path, file);
      continue;
    }
    // numstat record
    const first = token.indexOf("\t");
    const second = first < 0 ? -1 : token.indexOf("\t", first + 1);
    if (first < 0 || second < 0) {
      i++;
      continue;
    }
    const added = token.slice(0, first);
    const deleted = token.slice(first + 1, second);
    let path = pathOf(token.slice(second + 1));
    if (path === "") {
      // rename: the old and new paths follow as their own tokens
      path = pathOf(tokens[i + 2] ?? "");
      i += 3;
    } else {
      i += 1;
    }
    const file = byPath.get(path);
    if (file === undefined) continue;
    if (added === "-" && deleted === "-") {
      file.binary = true;
    } else {
      file.additions = Number(added);
      file.deletions = Number(deleted);
    }
  }
  return files;
}
