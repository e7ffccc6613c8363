/**
 * A commit's files as the replay reads them: blob ids by path, symbolic links
 * marked, blobs read by id through the repository's cat-file process.
 */
import { type GitRepository, scanTreeObject } from "../ingest/git/repo";
import { decodeGitPathAt } from "../ingest/git/path-text";
import { isPlausibleLinkTarget, type UnitLinks } from "./unit-links";

// Link targets are decoded as file text is (BOM kept).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The files of a commit's tree as the replay asks for them: a path's blob id, whether a path is a folder, and
 * every symbolic link. Read lazily from git's own tree objects, which commits share: a tree object is read
 * and parsed once per worker (keyed by its id, so never stale) and every commit whose tree holds it reuses
 * it, so a commit costs only the folders it changed, not a walk of the whole repository (a 4 000-file tree per
 * unit was a third of the CLI's time). Trees are read through the cat-file process, not one `git ls-tree`
 * per call. Blobs are then read by id, not by `rev:path`: a path that is not UTF-8, or holds a newline,
 * cannot be named in a `rev:path` spec.
 */
export interface TreeFiles {
  /** The blob id at a repo-relative path (files and symbolic links; not submodules or folders). */
  blob(path: string): string | undefined;
  has(path: string): boolean;
  /** Whether the path is a folder holding at least one file (a folder of the old walk's file list). */
  isFolder(path: string): boolean;
  /** Every symbolic link of the tree (mode 120000). */
  readonly links: ReadonlySet<string>;
}

interface TreeNode {
  /** Files and links: name → blob id. Read from `raw` when first asked for (most folders of a tree never are). */
  blobs: Map<string, string> | null;
  /** The tree object, until `blobs` is read from it, and its ids' length (20 bytes, 32 in a SHA-256 repository). */
  raw: Uint8Array | null;
  hashBytes: number;
  /** How many files and links the folder holds. */
  blobCount: number;
  /** Sub-folders that hold a file somewhere below (an unreadable or file-less one is left out, as the walk did). */
  folders: Map<string, TreeNode>;
  /** The links below this folder, relative to it. */
  links: readonly string[];
  size: number;
}

const EMPTY_NODE: TreeNode = {
  blobs: new Map(),
  raw: null,
  hashBytes: 20,
  blobCount: 0,
  folders: new Map(),
  links: [],
  size: 0,
};

/** A git mode as written in a tree object (ASCII, no leading zero): its kind, from its bytes (no string is made). */
function modeKind(buf: Buffer, from: number, to: number): "folder" | "submodule" | "link" | "file" {
  const n = to - from;
  if (n === 5 && bytesAre(buf, from, FOLDER_MODE)) return "folder";
  if (n === 6) {
    if (bytesAre(buf, from, SUBMODULE_MODE)) return "submodule";
    if (bytesAre(buf, from, LINK_MODE)) return "link";
  }
  return "file";
}

const FOLDER_MODE = Buffer.from("40000", "latin1");
const SUBMODULE_MODE = Buffer.from("160000", "latin1");
const LINK_MODE = Buffer.from("120000", "latin1");

function bytesAre(buf: Buffer, from: number, expected: Buffer): boolean {
  for (let k = 0; k < expected.length; k++) if (buf[from + k] !== expected[k]) return false;
  return true;
}

/**
 * Each entry of a tree object (`scanTreeObject`: the same end on a damaged object as every reader), with the
 * name and id decoded only when `want` says so for that kind.
 */
function forEachEntry(
  data: Uint8Array,
  hashBytes: number,
  want: (kind: ReturnType<typeof modeKind>) => boolean,
  visit: (kind: ReturnType<typeof modeKind>, name: string, sha: string) => void,
): void {
  scanTreeObject(data, hashBytes, (buf, off, space, nul) => {
    const kind = modeKind(buf, off, space);
    if (want(kind))
      visit(kind, decodeGitPathAt(buf, space + 1, nul), buf.toString("hex", nul + 1, nul + 1 + hashBytes));
    else visit(kind, "", "");
  });
}

function blobsOf(node: TreeNode): Map<string, string> {
  if (node.blobs !== null) return node.blobs;
  const blobs = new Map<string, string>();
  forEachEntry(
    node.raw!,
    node.hashBytes,
    (kind) => kind === "file" || kind === "link",
    (kind, name, sha) => {
      if (kind === "file" || kind === "link") blobs.set(name, sha);
    },
  );
  node.blobs = blobs;
  node.raw = null;
  return blobs;
}

function nodeAt(root: TreeNode, path: string, end: number): TreeNode | undefined {
  let node: TreeNode | undefined = root;
  let from = 0;
  while (node !== undefined && from < end) {
    let slash = path.indexOf("/", from);
    if (slash < 0 || slash > end) slash = end;
    node = node.folders.get(path.slice(from, slash));
    from = slash + 1;
  }
  return node;
}

class LazyTree implements TreeFiles {
  private linkSet: Set<string> | null = null;
  constructor(private readonly root: TreeNode) {}
  blob(path: string): string | undefined {
    const slash = path.lastIndexOf("/");
    const folder = slash < 0 ? this.root : nodeAt(this.root, path, slash);
    return folder === undefined ? undefined : blobsOf(folder).get(path.slice(slash + 1));
  }
  has(path: string): boolean {
    return this.blob(path) !== undefined;
  }
  isFolder(path: string): boolean {
    return path !== "" && !path.endsWith("/") && nodeAt(this.root, path, path.length) !== undefined;
  }
  get links(): ReadonlySet<string> {
    this.linkSet ??= new Set(this.root.links);
    return this.linkSet;
  }
}

export const NO_FILES: TreeFiles = new LazyTree(EMPTY_NODE);

/**
 * Parsed tree objects kept per worker, by git dir and object id, the least recently used going first. A parent
 * holds its sub-folders, so the bound counts entries of the objects kept in the map (50 000: the whole tree of a
 * 50 000-file repository); an object dropped from the map while a kept parent holds it is read again when
 * another commit's tree needs it alone. The bound was 200 000: on the bench's 500 MB Claude Code corpus the
 * cache then grew with the corpus (a quarter of it never filled it), and the 4 × bound ran no faster.
 */
const nodes = new Map<string, TreeNode>();
const loading = new Map<string, Promise<TreeNode | null>>();
const ENTRIES_KEPT = 50_000;
let entriesKept = 0;

function keep(key: string, node: TreeNode): void {
  nodes.set(key, node);
  entriesKept += node.size;
  for (const [k, other] of nodes) {
    if (entriesKept <= ENTRIES_KEPT || other === node) break;
    nodes.delete(k);
    entriesKept -= other.size;
  }
}

/** A tree object and everything below it; null when it cannot be read (absent from a partial clone). */
function loadNode(repo: GitRepository, gitDir: string, sha: string): Promise<TreeNode | null> {
  const key = `${gitDir}\u0000${sha}`;
  const kept = nodes.get(key);
  if (kept !== undefined) {
    nodes.delete(key);
    nodes.set(key, kept);
    return Promise.resolve(kept);
  }
  let pending = loading.get(key);
  if (pending === undefined) {
    pending = readNode(repo, gitDir, sha).then((node) => {
      loading.delete(key);
      if (node !== null) keep(key, node);
      return node;
    });
    loading.set(key, pending);
  }
  return pending;
}

async function readNode(repo: GitRepository, gitDir: string, sha: string): Promise<TreeNode | null> {
  const object = await repo.objects.readObject(sha).catch(() => null);
  if (object === null || object.type !== "tree") return null;
  const hashBytes = object.sha.length / 2;
  const links: string[] = [];
  const subtrees: { name: string; node: Promise<TreeNode | null> }[] = [];
  let blobCount = 0;
  // Only sub-folders and links are decoded now: a file's name and id when its folder is first asked about.
  forEachEntry(
    object.data,
    hashBytes,
    (kind) => kind === "folder" || kind === "link",
    (kind, name, entrySha) => {
      if (kind === "folder") subtrees.push({ name, node: loadNode(repo, gitDir, entrySha) });
      else if (kind !== "submodule") {
        blobCount++;
        if (kind === "link") links.push(name);
      }
    },
  );
  const folders = new Map<string, TreeNode>();
  for (const { name, node } of subtrees) {
    const child = await node;
    if (child === null || (child.blobCount === 0 && child.folders.size === 0)) continue;
    folders.set(name, child);
    for (const link of child.links) links.push(`${name}/${link}`);
  }
  return { blobs: null, raw: object.data, hashBytes, blobCount, folders, links, size: blobCount + folders.size };
}

export async function filesOfTree(repo: GitRepository, gitDir: string, rev: string): Promise<TreeFiles> {
  const tree = await treeIdOf(repo, gitDir, rev);
  if (tree === null) return NO_FILES;
  const root = await loadNode(repo, gitDir, tree);
  return root === null ? NO_FILES : new LazyTree(root);
}

/** Commit id → its tree's id, per worker: a unit, its group and the linking ask for the same commits' trees. */
const treeIds = new Map<string, string>();
const TREE_IDS_KEPT = 100_000;
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

async function treeIdOf(repo: GitRepository, gitDir: string, rev: string): Promise<string | null> {
  // Only a full object id always names the same commit (a branch or `HEAD` moves).
  const key = FULL_ID.test(rev) ? `${gitDir}\u0000${rev}` : null;
  const kept = key === null ? undefined : treeIds.get(key);
  if (kept !== undefined) return kept;
  const tree = await repo.objects.info(`${rev}^{tree}`).catch(() => null);
  if (!tree) return null;
  if (key !== null) {
    if (treeIds.size >= TREE_IDS_KEPT) treeIds.delete(treeIds.keys().next().value!);
    treeIds.set(key, tree.sha);
  }
  return tree.sha;
}

/**
 * Blobs read lately, per worker, by git dir and id, the least recently used going first once they hold more
 * than `BLOB_BYTES_KEPT`: a unit's replay and its group's read the same files at the same commits, one after the
 * other, so a small cache serves them (32 MB ran no faster than 8 on the benches, and filled only on long runs).
 */
const blobs = new Map<string, Uint8Array>();
const BLOB_BYTES_KEPT = 8 * 1024 * 1024;
let blobBytesKept = 0;

/** The bytes of a blob by id (shared with other readers of the same blob: do not change them); null when the object store lacks it. */
export async function readBlob(repo: GitRepository, sha: string): Promise<Uint8Array | null> {
  const key = `${repo.gitDir}\u0000${sha}`;
  const kept = blobs.get(key);
  if (kept !== undefined) {
    blobs.delete(key);
    blobs.set(key, kept);
    return kept;
  }
  const object = await repo.objects.readObject(sha).catch(() => null);
  if (object === null || object.type !== "blob") return null;
  // Two jobs may have read the same blob at once: it is kept (and counted) once.
  if (object.data.length <= BLOB_BYTES_KEPT / 8 && !blobs.has(key)) {
    blobs.set(key, object.data);
    blobBytesKept += object.data.length;
    for (const [k, bytes] of blobs) {
      if (blobBytesKept <= BLOB_BYTES_KEPT) break;
      blobs.delete(k);
      blobBytesKept -= bytes.length;
    }
  }
  return object.data;
}

/** The stored target text of each symbolic link of a tree; `missing`: links whose blob this clone lacks. */
export async function linkTargets(
  repo: GitRepository,
  tree: TreeFiles,
): Promise<{ targets: Map<string, string>; missing: string[] }> {
  const targets = new Map<string, string>();
  const missing: string[] = [];
  for (const path of tree.links) {
    const bytes = await readBlob(repo, tree.blob(path) as string);
    if (bytes === null) missing.push(path);
    else {
      const text = decoder.decode(bytes);
      // Not a target a file system holds (a link checked out as text, then edited): the path is a file.
      if (isPlausibleLinkTarget(text)) targets.set(path, text);
    }
  }
  return { targets, missing };
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
      inCommit: (path) => commit.has(path) || commit.isFolder(path),
    },
    missing: [...new Set([...inBase.missing, ...inCommit.missing])],
  };
}
