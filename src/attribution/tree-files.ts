/**
 * A commit's files as the replay reads them: blob ids by path, symbolic links
 * marked, blobs read by id through the repository's cat-file process.
 */
import type { GitRepository } from "../ingest/git/repo";
import { isPlausibleLinkTarget, type UnitLinks } from "./unit-links";

// Link targets are decoded as file text is (BOM kept).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The files of a commit's tree (path → blob id, and which are symbolic links),
 * shared by every session a worker runs (HEAD is asked once per session, a
 * parent often by several units). Keyed by tree id, so never stale; read
 * through the cat-file process, not one `git ls-tree` process per call
 * (hundreds of sessions made hundreds of processes). Bounded by the number of
 * files kept (a tree of 50 000 files takes about 20 MB of heap, and 64 such
 * trees would not fit) as well as of trees (64). The oldest tree goes
 * first. Blobs are then read by id, not by `rev:path`: a path that is not
 * UTF-8, or holds a newline, cannot be named in a `rev:path` spec.
 */
export interface TreeFiles {
  blobs: Map<string, string>;
  links: Set<string>;
}
const treeFiles = new Map<string, { files: Promise<TreeFiles>; size: number }>();
const FILES_KEPT = 200_000;
/** And at most this many trees, as before the file bound (small trees of many commits add up too). */
const TREES_KEPT = 64;
let filesKept = 0;
export const NO_FILES: TreeFiles = { blobs: new Map(), links: new Set() };

export async function filesOfTree(repo: GitRepository, gitDir: string, rev: string): Promise<TreeFiles> {
  const tree = await repo.objects.info(`${rev}^{tree}`).catch(() => null);
  if (!tree) return NO_FILES;
  const key = `${gitDir}\u0000${tree.sha}`;
  const kept = treeFiles.get(key);
  if (kept) return kept.files;
  const slot = { files: repo.walkTree(tree.sha).then(toTreeFiles), size: 0 };
  treeFiles.set(key, slot);
  const files = await slot.files;
  if (treeFiles.get(key) === slot) {
    slot.size = files.blobs.size;
    filesKept += slot.size;
    // The oldest trees go first; the one just read stays even when it alone is over the bound.
    for (const [k, other] of treeFiles) {
      if ((filesKept <= FILES_KEPT && treeFiles.size <= TREES_KEPT) || other === slot) break;
      treeFiles.delete(k);
      filesKept -= other.size;
    }
  }
  return files;
}

function toTreeFiles(entries: readonly { type: string; mode: string; sha: string; path: string }[] | null): TreeFiles {
  const out: TreeFiles = { blobs: new Map(), links: new Set() };
  for (const e of entries ?? []) {
    if (e.type !== "blob") continue;
    out.blobs.set(e.path, e.sha);
    if (e.mode === "120000") out.links.add(e.path);
  }
  return out;
}

/** The bytes of a blob by id; null when the object store lacks it. */
export async function readBlob(repo: GitRepository, sha: string): Promise<Uint8Array | null> {
  const object = await repo.objects.readObject(sha).catch(() => null);
  return object !== null && object.type === "blob" ? object.data : null;
}

/** The stored target text of each symbolic link of a tree; `missing`: links whose blob this clone lacks. */
export async function linkTargets(
  repo: GitRepository,
  tree: TreeFiles,
): Promise<{ targets: Map<string, string>; missing: string[] }> {
  const targets = new Map<string, string>();
  const missing: string[] = [];
  for (const path of tree.links) {
    const bytes = await readBlob(repo, tree.blobs.get(path) as string);
    if (bytes === null) missing.push(path);
    else {
      const text = decoder.decode(bytes);
      // Not a target a file system holds (a link checked out as text, then edited): the path is a file.
      if (isPlausibleLinkTarget(text)) targets.set(path, text);
    }
  }
  return { targets, missing };
}

const foldersOfTree = new WeakMap<TreeFiles, Set<string>>();

/** Every folder of a tree (the parents of its files), computed once per tree and only when links need it. */
function folders(tree: TreeFiles): Set<string> {
  let set = foldersOfTree.get(tree);
  if (set === undefined) {
    set = new Set();
    for (const path of tree.blobs.keys()) {
      for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
        const folder = path.slice(0, slash);
        if (set.has(folder)) break;
        set.add(folder);
      }
    }
    foldersOfTree.set(tree, set);
  }
  return set;
}

/**
 * The symbolic links of a unit's base and commit trees, or null when neither has one (the common case:
 * nothing is read). `missing`: links whose blob this clone lacks (the unit cannot be read whole).
 */
export async function unitLinks(
  repo: GitRepository,
  base: TreeFiles,
  commit: TreeFiles,
): Promise<{ links: UnitLinks; missing: string[] } | null> {
  if (base.links.size === 0 && commit.links.size === 0) return null;
  const inBase = await linkTargets(repo, base);
  const inCommit = await linkTargets(repo, commit);
  return {
    links: {
      base: inBase.targets,
      commit: inCommit.targets,
      inCommit: (path) => commit.blobs.has(path) || folders(commit).has(path),
    },
    missing: [...new Set([...inBase.missing, ...inCommit.missing])],
  };
}
