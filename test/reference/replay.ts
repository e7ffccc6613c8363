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
export function makePathMapper(
  calls: FileChange[],
  cwds: string[],
  known: Set<string>,
  isKnown: (p: string) => boolean = (p) => known.has(p),
): (c: FileChange) => string | null {
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
  // A relative path whose log names no working directory (Gemini without a known project root) is repo-relative.
  const repoRelative = (c: FileChange): boolean => !c.path.startsWith("/") && c.cwd === null && cwds.length === 0;
  const votes = new Map<string, number>();
  for (const c of calls) {
    if (!c.path || repoRelative(c)) continue;
    const segs = clean(absolute(c));
    for (let k = 0; k < segs.length; k++) {
      if (isKnown(segs.slice(k).join("/"))) {
        const root = `/${segs.slice(0, k).join("/")}`;
        votes.set(root, (votes.get(root) ?? 0) + 1);
        break;
      }
    }
  }
  let root = cwds[0] ? `/${clean(cwds[0]).join("/")}` : "/";
  let best = 0;
  for (const [r, n] of [...votes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n > best) {
      best = n;
      root = r;
    }
  }
  const rootSegs = clean(root);
  return (c) => {
    if (repoRelative(c)) {
      const segs: string[] = [];
      for (const seg of c.path.split("/")) {
        if (seg === "" || seg === ".") continue;
        if (seg !== "..") segs.push(seg);
        else if (segs.pop() === undefined) return null; // above the repository's root
      }
      return segs.length > 0 ? segs.join("/") : null;
    }
    const segs = clean(absolute(c));
    if (segs.length <= rootSegs.length || rootSegs.some((s, i) => segs[i] !== s)) return null;
    return segs.slice(rootSegs.length).join("/");
  };
}

/** Symbolic links (mode 120000) of one tree, path → stored target text. */
function symlinkTargets(repo: string, rev: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (rev === null) return out;
  for (const e of lsTree(repo, rev)) {
    if (e.mode !== "120000") continue;
    const bytes = readBlob(repo, e.sha);
    const text = bytes?.toString("utf8") ?? null;
    // A "link" whose text holds a line break is a link checked out as a text file (Git for Windows without
    // symlinks) and then edited: no file system stores such a target, so the path is an ordinary file.
    if (text !== null && text.length > 0 && text.length <= 4096 && !/[\n\0]/.test(text)) out.set(e.path, text);
  }
  return out;
}

/**
 * Not in metrics.md: a write to a path through a symbolic link changes the file the link names, as
 * `open(2)` does: one component at a time, a target relative to the link's folder. `keepLast`: the last
 * component is not followed (unlink(2) and rename(2) act on a link itself). Null when the chain leaves the
 * repository, is empty or absolute, or loops (40 links, as Linux).
 */
function followLinks(path: string, linkAt: (p: string) => string | undefined, keepLast = false): string | null {
  const todo = path.split("/");
  const done: string[] = [];
  let hops = 0;
  while (todo.length > 0) {
    const seg = todo.shift()!;
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (done.length === 0) return null;
      done.pop();
      continue;
    }
    done.push(seg);
    if (keepLast && todo.every((t) => t === "" || t === ".")) break;
    const target = linkAt(done.join("/"));
    if (target === undefined) continue;
    hops += 1;
    if (hops > 40 || target === "" || posix.isAbsolute(target)) return null;
    done.pop();
    todo.unshift(...target.split("/"));
  }
  return done.length > 0 ? done.join("/") : null;
}

/** §3.2 post-image: the tool's record, else the edit re-applied to `text`; null: unreplayable. */
export function postImage(c: FileChange, text: string): string | null {
  if (c.postImage !== null) return c.postImage;
  if (c.deleted) return "";
  if (c.apply) return c.apply(text);
  if (c.stringEdits) return applyStringEdits(text, c.stringEdits);
  if (c.unifiedDiff !== null) return applyUnifiedDiff(text, c.unifiedDiff);
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
export function computeUnit(
  repo: string,
  commit: string,
  firstParent: string | null,
  calls: FileChange[],
  cwds: string[],
  known: Set<string>,
  followSymlinks = false,
): UnitOutcome {
  const notes: string[] = [];
  const changed = changedFiles(repo, commit, firstParent);
  if (!changed)
    return { numbers: null, files: [], finalLines: new Map(), unreadable: "commit diff cannot be read", notes };
  const missing = missingObjects(
    repo,
    changed.flatMap((f) => [f.oldBlob, f.newBlob]).filter((b): b is string => b !== null),
  );
  const lost = changed.find((f) => (f.oldBlob && missing.has(f.oldBlob)) || (f.newBlob && missing.has(f.newBlob)));
  if (lost)
    return { numbers: null, files: [], finalLines: new Map(), unreadable: `a blob of ${lost.path} is missing`, notes };
  // Blobs only (no gitlinks): the base tree, for the replay's starting states.
  const baseTree =
    firstParent === null
      ? null
      : new Map(
          lsTree(repo, firstParent)
            .filter((e) => e.type === "blob")
            .map((e) => [e.path, e.sha]),
        );
  const knownPaths = new Set([...known, ...changed.map((f) => f.path)]);
  // Symbolic links: the commit's, else the base's where the commit holds nothing at that path.
  const commitLinks = followSymlinks ? symlinkTargets(repo, commit) : new Map<string, string>();
  const baseLinks = followSymlinks ? symlinkTargets(repo, firstParent) : new Map<string, string>();
  const hasLinks = commitLinks.size + baseLinks.size > 0;
  const commitPaths = hasLinks ? lsTree(repo, commit).map((e) => e.path) : [];
  const inCommit = (p: string) => commitPaths.some((q) => q === p || q.startsWith(`${p}/`));
  const linkAt = (p: string) => commitLinks.get(p) ?? (inCommit(p) ? undefined : baseLinks.get(p));
  const mapLogged = makePathMapper(calls, cwds, knownPaths, (p) => {
    if (knownPaths.has(p)) return true;
    const via = hasLinks ? followLinks(p, linkAt) : null;
    return via !== null && via !== p && knownPaths.has(via);
  });
  // Where the edits of a path land: the commit's own file when it holds the path as one (a link replaced);
  // else the place among (commit's links, base's links, the path itself) whose base text is the first
  // pre-image the log gives for the path (the file the tool read); else the commit's links.
  const firstPre = new Map<string, string>();
  for (const c of calls) {
    const p = mapLogged(c);
    const key = `${c.deleted}|${p}`;
    if (p !== null && c.movePath === null && c.preImage !== null && !firstPre.has(key)) firstPre.set(key, c.preImage);
  }
  const land = (p: string, keepLast: boolean): string | null => {
    if (!hasLinks) return p;
    const viaCommit = followLinks(p, linkAt, keepLast);
    if (viaCommit === p) return p;
    const pre = keepLast ? undefined : firstPre.get(`false|${p}`);
    if (pre !== undefined) {
      // Line endings aside: a tool on a CRLF checkout reads CRLF text where git stores LF.
      const lf = (t: string) => t.split("\r\n").join("\n");
      for (const candidate of [viaCommit, followLinks(p, (q) => baseLinks.get(q), keepLast), p]) {
        if (candidate === null) continue;
        const buf = blobAt(repo, baseTree, candidate);
        if (buf !== null && buf !== "absent" && lf(buf.toString("utf8")) === lf(pre)) return candidate;
      }
    }
    return viaCommit;
  };
  const mapPath = (c: FileChange): string | null => {
    const p = mapLogged(c);
    // A deletion, or the old path of a rename, acts on a link itself.
    return p === null ? p : land(p, c.deleted || c.movePath !== null);
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
    // Removing a link removes the link: the content a tool logged was read through it, not the link's text.
    const isLink = hasLinks && (linkAt(path) !== undefined || baseLinks.has(path));
    const preImage = c.deleted && isLink ? null : c.preImage;
    // §3.1 pre-image: a difference means something else changed the file; its inserted lines are outside.
    if (preImage !== null) {
      const pre = toLines(preImage);
      const same = pre.length === st.lines.length && pre.every((t, i) => t === st.lines[i].text);
      if (!same) {
        outsideChanges += 1;
        st.lines = carry(st.lines, pre, "outside", null).lines;
      }
      st.text = preImage;
    }
    const post = postImage(c, st.text);
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
      const target = mapPath({ ...c, path: c.movePath, movePath: null });
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
        survived: totals.survived - before.survived,
        human: totals.human - before.human,
        outside: totals.outside - before.outside,
        total: totals.total - before.total,
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
function attributeFile(
  repo: string,
  f: ChangedFile,
  states: Map<string, FileState>,
  totals: { survived: number; human: number; outside: number; total: number },
  notes: string[],
): void {
  const read = (sha: string | null): Buffer => (sha ? (readBlob(repo, sha) ?? Buffer.alloc(0)) : Buffer.alloc(0));
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
