/**
 * Replay of one unit (metrics.md §3) and attribution at its commit (§4).
 */
import { posix } from "node:path";
import { type ChangedFile, changedFiles, lsTree, missingObjects, readBlob } from "./git";
import { type Line, applyStringEdits, applyUnifiedDiff, carry, isBinary, keptIndices, toLines } from "./lines";
import type { FileChange } from "./transcripts";

export interface UnitNumbers {
  agent_lines_produced: number;
  agent_lines_final: number;
  agent_lines_survived: number;
  human_lines: number;
  outside_lines: number;
  total_committed_lines: number;
  unreplayable_calls: number;
  outside_changes: number;
}

/** Per-file share of a unit's numbers (what the product writes to `unit_files`), for investigating disagreements. */
export interface FileNumbers {
  path: string;
  produced: number;
  final: number;
  survived: number;
  human: number;
  outside: number;
  total: number;
}

export interface UnitOutcome {
  numbers: UnitNumbers | null;
  files: FileNumbers[];
  /** The final replayed state per file (for investigating a disagreement line by line). */
  finalLines: Map<string, Line[]>;
  /** Set when the commit's diff or a file state cannot be read (metrics.md §1 rule 5). */
  unreadable: string | null;
  notes: string[];
}

interface FileState {
  text: string;
  lines: Line[];
  binary: boolean;
  produced: number;
}

/**
 * Maps logged paths to repo-relative ones (metrics.md §2 "Paths are repo-relative"). The repo root
 * as the session saw it is inferred by vote: for every absolute path, the root that makes its
 * longest suffix a path git knows (commit tree, base tree, Entire's files_touched). Worktrees and
 * sessions started in a subdirectory need no special case. Without any vote, the first cwd is the root.
 */
export function makePathMapper(calls: FileChange[], cwds: string[], known: Set<string>): (c: FileChange) => string | null {
  const absolute = (c: FileChange): string => {
    if (c.path.startsWith("/")) return c.path;
    const cwd = c.cwd ?? cwds[0] ?? "";
    return `${cwd}/${c.path}`;
  };
  const clean = (p: string): string[] => {
    const out: string[] = [];
    for (const seg of p.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "..") out.pop();
      else out.push(seg);
    }
    return out;
  };
  const votes = new Map<string, number>();
  for (const c of calls) {
    if (!c.path) continue;
    const segs = clean(absolute(c));
    for (let k = 0; k < segs.length; k++) {
      if (known.has(segs.slice(k).join("/"))) {
        const root = `/${segs.slice(0, k).join("/")}`;
        votes.set(root, (votes.get(root) ?? 0) + 1);
        break;
      }
    }
  }
  let root = cwds[0] ? `/${clean(cwds[0]).join("/")}` : "/";
  let best = 0;
  for (const [r, n] of [...votes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n > best) { best = n; root = r; }
  }
  const rootSegs = clean(root);
  return (c) => {
    const segs = clean(absolute(c));
    if (segs.length <= rootSegs.length || rootSegs.some((s, i) => segs[i] !== s)) return null;
    return segs.slice(rootSegs.length).join("/");
  };
}

/** Symbolic links (mode 120000) of the given trees, path → stored target; the first tree listing a path wins. */
function symlinkTargets(repo: string, revs: (string | null)[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const rev of revs) {
    if (rev === null) continue;
    for (const e of lsTree(repo, rev)) {
      if (e.mode !== "120000" || out.has(e.path)) continue;
      const bytes = readBlob(repo, e.sha);
      if (bytes !== null) out.set(e.path, bytes.toString("utf8"));
    }
  }
  return out;
}

/**
 * Not in metrics.md: a write to a path through a symbolic link changes the file the link names (the way
 * `open(2)` follows links). Null when the chain leaves the repository or loops (40 links, as Linux).
 */
function followLinks(path: string, links: Map<string, string>): string | null {
  let current = path;
  for (let hops = 0; hops <= 40; hops++) {
    const segs = current.split("/");
    let k = 1;
    while (k <= segs.length && !links.has(segs.slice(0, k).join("/"))) k++;
    if (k > segs.length) return current;
    const target = links.get(segs.slice(0, k).join("/"))!;
    if (posix.isAbsolute(target)) return null;
    const joined = posix.normalize(posix.join(segs.slice(0, k - 1).join("/") || ".", target, ...segs.slice(k)));
    if (joined === ".." || joined.startsWith("../") || joined === ".") return null;
    current = joined.replace(/\/$/, "");
  }
  return null;
}

/** The blob at `path` in `commit`: "absent" when the path is not there, null when its object is missing. */
function blobAt(repo: string, tree: Map<string, string> | null, path: string): Buffer | null | "absent" {
  const sha = tree?.get(path);
  if (!sha) return "absent";
  return readBlob(repo, sha);
}

const baseLines = (texts: string[]): Line[] => texts.map((text) => ({ text, prov: "base", call: null }));

/** One unit: replay `calls` (already cut to the checkpoint's slice) on the base, then attribute at `commit`. */
export function computeUnit(repo: string, commit: string, firstParent: string | null, calls: FileChange[], cwds: string[], known: Set<string>, followSymlinks = false): UnitOutcome {
  const notes: string[] = [];
  const changed = changedFiles(repo, commit, firstParent);
  if (!changed) return { numbers: null, files: [], finalLines: new Map(), unreadable: "commit diff cannot be read", notes };
  const missing = missingObjects(repo, changed.flatMap((f) => [f.oldBlob, f.newBlob]).filter((b): b is string => b !== null));
  const lost = changed.find((f) => (f.oldBlob && missing.has(f.oldBlob)) || (f.newBlob && missing.has(f.newBlob)));
  if (lost) return { numbers: null, files: [], finalLines: new Map(), unreadable: `a blob of ${lost.path} is missing`, notes };
  // Blobs only (no gitlinks): the base tree, for the replay's starting states.
  const baseTree = firstParent === null ? null : new Map(lsTree(repo, firstParent).filter((e) => e.type === "blob").map((e) => [e.path, e.sha]));
  const mapLogged = makePathMapper(calls, cwds, new Set([...known, ...changed.map((f) => f.path)]));
  const links = followSymlinks ? symlinkTargets(repo, [commit, firstParent]) : new Map<string, string>();
  const mapPath = (c: FileChange): string | null => {
    const p = mapLogged(c);
    return p === null || links.size === 0 ? p : followLinks(p, links);
  };

  // §3: "Start from the file's content at the unit's base (the first parent …; empty if the file did not exist)."
  const states = new Map<string, FileState>();
  let unreadable: string | null = null;
  const stateOf = (path: string): FileState => {
    let st = states.get(path);
    if (!st) {
      const buf = blobAt(repo, baseTree, path);
      if (buf === null) unreadable = `base blob of ${path} is missing`;
      const bytes = buf === null || buf === "absent" ? Buffer.alloc(0) : buf;
      const binary = isBinary(bytes);
      const text = binary ? "" : bytes.toString("utf8");
      st = { text, lines: binary ? [] : baseLines(toLines(text)), binary, produced: 0 };
      states.set(path, st);
    }
    return st;
  };

  let produced = 0;
  let outsideChanges = 0;
  const unreplayable = new Set<string>();
  let outsideRepo = 0;
  for (const c of calls) {
    if (c.unreplayable) {
      unreplayable.add(c.callId);
      notes.push(`unreplayable ${c.callId}: ${c.unreplayable}`);
      continue;
    }
    const path = mapPath(c);
    if (path === null) {
      outsideRepo += 1; // §2: files outside the repo are ignored (and counted)
      continue;
    }
    const st = stateOf(path);
    if (st.binary) {
      notes.push(`${c.callId}: ${path} is binary at the base; skipped`);
      continue;
    }
    // §3.1 pre-image: a difference means something else changed the file; its inserted lines are outside.
    if (c.preImage !== null) {
      const pre = toLines(c.preImage);
      const same = pre.length === st.lines.length && pre.every((t, i) => t === st.lines[i].text);
      if (!same) {
        outsideChanges += 1;
        st.lines = carry(st.lines, pre, "outside", null).lines;
      }
      st.text = c.preImage;
    }
    // §3.2 post-image: the tool's record, else the re-applied edit; neither → unreplayable.
    let post: string | null;
    if (c.postImage !== null) post = c.postImage;
    else if (c.deleted) post = "";
    else if (c.stringEdits) post = applyStringEdits(st.text, c.stringEdits);
    else if (c.unifiedDiff !== null) post = applyUnifiedDiff(st.text, c.unifiedDiff);
    else post = null;
    if (post === null) {
      unreplayable.add(c.callId);
      notes.push(`unreplayable ${c.callId} on ${path}: the edit does not apply to the replayed state`);
      continue;
    }
    // §3.3: inserted lines become agent (userModified: human, and not the agent's effort).
    const prov = c.userModified ? "human" : "agent";
    const next = carry(st.lines, toLines(post), prov, c.callId);
    if (prov === "agent") {
      produced += next.inserted;
      st.produced += next.inserted;
    }
    st.lines = next.lines;
    st.text = post;
    if (c.movePath) {
      const target = mapPath({ ...c, path: c.movePath });
      states.set(path, { text: "", lines: [], binary: false, produced: 0 });
      if (target !== null) states.set(target, st);
    }
  }
  if (outsideRepo > 0) notes.push(`${outsideRepo} call(s) on files outside the repository ignored`);
  if (unreadable) return { numbers: null, files: [], finalLines: new Map(), unreadable, notes };

  // §4 "agent_lines_final: lines with provenance agent in the final replayed state, all files".
  const files = new Map<string, FileNumbers>();
  const fileOf = (path: string): FileNumbers => {
    if (!files.has(path)) files.set(path, { path, produced: 0, final: 0, survived: 0, human: 0, outside: 0, total: 0 });
    return files.get(path)!;
  };
  let final = 0;
  for (const [path, st] of states) {
    const n = st.lines.filter((l) => l.prov === "agent").length;
    final += n;
    if (n > 0 || st.produced > 0) Object.assign(fileOf(path), { final: n, produced: st.produced });
  }

  const totals = { survived: 0, human: 0, outside: 0, total: 0 };
  for (const f of changed) {
    const before = { ...totals };
    attributeFile(repo, f, states, totals, notes);
    if (totals.total > before.total) {
      Object.assign(fileOf(f.path), {
        survived: totals.survived - before.survived, human: totals.human - before.human,
        outside: totals.outside - before.outside, total: totals.total - before.total,
      });
    }
  }
  return {
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    finalLines: new Map([...states].map(([path, st]) => [path, st.lines])),
    numbers: {
      agent_lines_produced: produced,
      agent_lines_final: final,
      agent_lines_survived: totals.survived,
      human_lines: totals.human,
      outside_lines: totals.outside,
      total_committed_lines: totals.total,
      unreplayable_calls: unreplayable.size,
      outside_changes: outsideChanges,
    },
    unreadable: null,
    notes,
  };
}

/**
 * metrics.md §4 for one file the commit changes: diff the final replayed state → committed content
 * (inserted lines are human), then anchor to git's view: only lines a Myers diff base → commit
 * inserts are committed lines; a replayed `base` among them becomes human.
 */
function attributeFile(repo: string, f: ChangedFile, states: Map<string, FileState>, totals: { survived: number; human: number; outside: number; total: number }, notes: string[]): void {
  const read = (sha: string | null): Buffer => (sha ? readBlob(repo, sha) ?? Buffer.alloc(0) : Buffer.alloc(0));
  const newBuf = read(f.newBlob);
  const oldBuf = read(f.oldBlob);
  if (isBinary(newBuf)) {
    notes.push(`${f.path}: binary in the commit, no lines`);
    return;
  }
  const committed = toLines(newBuf.toString("utf8"));
  const base = isBinary(oldBuf) ? [] : toLines(oldBuf.toString("utf8"));
  // Files the agent never touched: the final state is the base (all lines `base`).
  const final = states.get(f.path)?.lines ?? baseLines(base);
  const withProv = carry(final, committed, "human", null).lines;
  const kept = keptIndices(base, committed);
  withProv.forEach((line, i) => {
    if (kept.has(i)) return;
    totals.total += 1;
    if (line.prov === "agent") totals.survived += 1;
    else if (line.prov === "outside") totals.outside += 1;
    else totals.human += 1; // human, or a replayed base line git counts as added
  });
}
