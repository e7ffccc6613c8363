/**
 * The reference implementation's only door to a repository: one `git` process per call.
 *
 * Deliberately simple (no `cat-file --batch`, no caching beyond a Map): this code exists to be
 * read and trusted, not to be fast. It must not import the project's src/ingest/git.
 */
import { spawnSync } from "node:child_process";

const MAX_BUFFER = 1 << 30;

export interface GitResult {
  ok: boolean;
  stdout: Buffer;
  stderr: string;
}

/** Runs `git -C repo args…`, never throws: a failing command gives `ok: false`. */
export function gitRaw(repo: string, args: string[], input?: string | Buffer): GitResult {
  const r = spawnSync("git", ["-C", repo, ...args], { input, maxBuffer: MAX_BUFFER });
  return { ok: r.status === 0, stdout: r.stdout ?? Buffer.alloc(0), stderr: String(r.stderr ?? "") };
}

/** Runs git and returns stdout as UTF-8; throws when git fails (used for calls that must work). */
export function git(repo: string, args: string[], input?: string | Buffer): string {
  const r = gitRaw(repo, args, input);
  if (!r.ok) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.trim()}`);
  return r.stdout.toString("utf8");
}

/** All refs of the repository (full names). */
export function listRefs(repo: string): string[] {
  return git(repo, ["for-each-ref", "--format=%(refname)"]).split("\n").filter(Boolean);
}

export interface TreeEntry {
  mode: string;
  type: string;
  sha: string;
  path: string;
}

/** `git ls-tree -r -z <treeish>`: every blob under the tree (paths relative to it). */
export function lsTree(repo: string, treeish: string): TreeEntry[] {
  const r = gitRaw(repo, ["ls-tree", "-r", "-z", treeish]);
  if (!r.ok) return [];
  const out: TreeEntry[] = [];
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    if (!rec) continue;
    const tab = rec.indexOf("\t");
    const [mode, type, sha] = rec.slice(0, tab).split(" ");
    out.push({ mode, type, sha, path: rec.slice(tab + 1) });
  }
  return out;
}

// Blobs never change, so one run reads each at most once (runReference clears the cache when it starts).
const blobs = new Map<string, Buffer | null>();

export function clearBlobCache(): void {
  blobs.clear();
}

/**
 * A blob's bytes, or null when the object is absent (partial clones and mirrors lack large blobs).
 * `cache: false` for transcripts: hundreds of megabytes of them must not stay in memory.
 */
export function readBlob(repo: string, sha: string, cache = true): Buffer | null {
  if (!cache) {
    const r = gitRaw(repo, ["cat-file", "blob", sha]);
    return r.ok ? r.stdout : null;
  }
  const key = `${repo}\0${sha}`;
  if (!blobs.has(key)) {
    const r = gitRaw(repo, ["cat-file", "blob", sha]);
    blobs.set(key, r.ok ? r.stdout : null);
  }
  return blobs.get(key)!;
}

/** The shas among `shas` that are absent from the object store (one `cat-file --batch-check`). */
export function missingObjects(repo: string, shas: string[]): Set<string> {
  if (shas.length === 0) return new Set();
  const r = gitRaw(repo, ["cat-file", "--batch-check"], `${shas.join("\n")}\n`);
  const missing = new Set<string>();
  for (const line of r.stdout.toString("utf8").split("\n")) {
    if (line.endsWith(" missing")) missing.add(line.slice(0, line.indexOf(" ")));
  }
  return missing;
}

export interface CommitInfo {
  sha: string;
  parents: string[];
  committerTime: number;
  /** Values of the `Entire-Checkpoint` trailer, as git's trailer parser yields them (metrics.md §1 "Links"). */
  checkpointIds: string[];
}

/**
 * Every commit reachable from any ref, with its parents, committer time and Entire-Checkpoint
 * trailer values. The trailer comes from git's own `%(trailers:…)` parsing, so the same text in a
 * message body (a squash-merge summary) is not a link (metrics.md §1).
 */
export function logAllCommits(repo: string): CommitInfo[] {
  const fmt = "%H%x00%P%x00%ct%x00%(trailers:key=Entire-Checkpoint,valueonly,separator=%x01)%x1e";
  const text = git(repo, ["log", "--all", `--format=${fmt}`]);
  const out: CommitInfo[] = [];
  for (const rec of text.split("\x1e")) {
    const trimmed = rec.replace(/^\n+/, "");
    if (!trimmed) continue;
    const [sha, parents, ct, trailers] = trimmed.split("\0");
    out.push({
      sha,
      parents: parents ? parents.split(" ") : [],
      committerTime: Number(ct),
      checkpointIds: (trailers ?? "")
        .split("\x01")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  }
  return out;
}

/** `git patch-id --stable` of a commit's own patch; null for merges and empty commits (no patch). */
export function patchId(repo: string, sha: string, parents: string[]): string | null {
  if (parents.length > 1) return null;
  const diff = gitRaw(repo, ["diff-tree", "-p", "--root", "--no-color", "--full-index", sha]);
  if (!diff.ok || diff.stdout.length === 0) return null;
  const r = gitRaw(repo, ["patch-id", "--stable"], diff.stdout);
  const id = r.stdout.toString("utf8").trim().split(/\s+/)[0];
  return id || null;
}

/** The empty tree's id (for the diff of a root commit). */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export interface ChangedFile {
  status: string;
  path: string;
  oldBlob: string | null;
  newBlob: string | null;
}

/** Files the commit changes against its first parent (metrics.md §4: "first-parent diff"), renames as delete + add. */
export function changedFiles(repo: string, commit: string, firstParent: string | null): ChangedFile[] | null {
  const r = gitRaw(repo, ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", firstParent ?? EMPTY_TREE, commit]);
  if (!r.ok) return null;
  const parts = r.stdout.toString("utf8").split("\0");
  const out: ChangedFile[] = [];
  const zero = /^0+$/;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i].replace(/^:/, "").split(" ");
    if (meta.length < 5) continue;
    const [oldMode, newMode, oldSha, newSha, status] = meta;
    if (oldMode === "160000" || newMode === "160000") continue; // submodule pointers are not files with lines
    out.push({
      status,
      path: parts[i + 1],
      oldBlob: zero.test(oldSha) ? null : oldSha,
      newBlob: zero.test(newSha) ? null : newSha,
    });
  }
  return out;
}

/**
 * metrics.md §4 `numstat_additions`: git's own count of added lines against the first parent
 * (`git diff-tree --numstat`, renames as delete + add like `changedFiles`), text files only: git
 * prints `-` for a binary file, which adds nothing. Null when git cannot read the commit, and when a
 * changed file's blob is absent (partial clones): git then prints `-` too, as if the file were
 * binary, and the count would silently leave out a file that may be text (§1 rule 5: the commit's
 * diff cannot be read).
 */
export function numstatAdditions(repo: string, commit: string, firstParent: string | null): number | null {
  const files = changedFiles(repo, commit, firstParent);
  if (files === null) return null;
  const blobs = files.flatMap((f) => [f.oldBlob, f.newBlob]).filter((b): b is string => b !== null);
  if (missingObjects(repo, blobs).size > 0) return null;
  const r = gitRaw(repo, [
    "diff-tree",
    "-r",
    "-z",
    "--numstat",
    "--no-renames",
    "--no-ext-diff",
    "--no-textconv",
    firstParent ?? EMPTY_TREE,
    commit,
  ]);
  if (!r.ok) return null;
  let sum = 0;
  // -z numstat records: "<added>\t<deleted>\t<path>\0"
  for (const rec of r.stdout.toString("utf8").split("\0")) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(rec);
    if (m && m[1] !== "-") sum += Number(m[1]);
  }
  return sum;
}
