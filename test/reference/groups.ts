/**
 * Groups (metrics.md §1b), read from its text alone: connected sessions and commits of an Entire
 * repository, replayed on one timeline from the first parent of the earliest commit, every agent line
 * with its identity and owner; each commit's own first-parent additions attributed; one row per
 * (session, group). Independent of the product (imports only this folder).
 *
 * Where §1b is silent the reference takes the product's documented choices (README, "Groups"):
 * - calls are merged by the first commit they precede, then by the time of their result (Claude Code's
 *   tool-result record, else the tool_use record); a call without a time keeps its place after the call
 *   before it; ties go to the session whose earliest record is earlier, then to the lower session id;
 * - `checkpoint_id`: the members' checkpoints (members by normalised session id, each one's in
 *   `created_at` order), each once, joined by `;`;
 * - `numstat_additions`: git's additions summed over the group's commits; `entire_*`: a session's one folder
 *   with an `initial_attribution` as recorded (as its unit), several summed (the percentage recomputed);
 * - `concurrent_calls`, per row: the session's calls on a file inside another session's span (first to
 *   last call time, inclusive) of calls on that file;
 * - `branch_switches` null when the group is not attributable; symbolic links are not followed.
 */
import { createHash } from "node:crypto";
import {
  type Checkpoint,
  type LinkedCommit,
  type SessionFolder,
  linkCommits,
  normaliseSessionId,
  readCheckpoints,
} from "./checkpoints";
import { changedFiles, clearBlobCache, gitRaw, lsTree, missingObjects, numstatAdditions, readBlob } from "./git";
import { type Line, carry, isBinary, keptIndices, toLines } from "./lines";
import { makePathMapper, postImage } from "./replay";
import { type ParsedTranscript, type FileChange, parseTranscript } from "./transcripts";
import { sessionEffort } from "./effort";
import { AGENT_NAMES } from "./sessions";
import { entireColumns } from "./entire-attribution";
import { deriveRates, inferredStart } from "./reference";

export const GROUP_COLUMNS = [
  "checkpoint_id",
  "agent",
  "model",
  "method",
  "ambiguity",
  "agent_lines_produced",
  "agent_lines_final",
  "agent_lines_survived",
  "human_lines",
  "outside_lines",
  "total_committed_lines",
  "unreplayable_calls",
  "outside_changes",
  "numstat_additions",
  "code_survival_rate",
  "coding_efficiency",
  "agent_authored_pct",
  "coding_mode",
  "entire_agent_lines",
  "entire_total_committed",
  "entire_agent_percentage",
  "other_session_lines",
  "group_id",
  "group_commits",
  "group_sessions",
  "concurrent_calls",
  "branch_switches",
] as const;

export type GroupRow = { session_id: string; commit_sha: string } & {
  [K in (typeof GROUP_COLUMNS)[number]]: string | number | null;
};

/** metrics.md §1b's reasons, in the order a row names the first. */
export const GROUP_REASON_ORDER = [
  "group-merge-commit",
  "group-transcript-missing",
  "group-transcript-unreadable",
  "group-commit-unreadable",
];

const DATED = /^\d{4}-\d{2}-\d{2}-/;

/** `created_at` as an instant (the field mixes time zones); unknown last. */
function instant(v: unknown): number {
  const t = typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
}

interface Link {
  folder: SessionFolder;
  commit: LinkedCommit;
}

export interface GroupCommit {
  commit: LinkedCommit;
  committerTime: number;
  moment: number;
}

export interface Member {
  sessionId: string;
  recordedId: string;
  /** Its folders in the group, by `created_at`. */
  folders: SessionFolder[];
  /** Calls (with the index of the first commit they precede), null when a copy is missing or unreadable. */
  calls: { change: FileChange; firstCommit: number; mapped: string | null; moved: string | null }[] | null;
  problem: "group-transcript-missing" | "group-transcript-unreadable" | null;
  started: number;
  agent: string | null;
  model: string | null;
}

export interface GroupOptions {
  /** The product's reading of an absent (or 0) slice start (ReferenceOptions.inferSliceStart). */
  inferSliceStart?: boolean;
}

/** Every group of the repository; rows sorted by (group_id, session_id). */
export function runReferenceGroups(repo: string, options: GroupOptions = {}): GroupRow[] {
  clearBlobCache();
  const checkpoints = readCheckpoints(repo);
  const links = linkCommits(repo);
  const committerTime = new Map<string, number>();
  for (const line of gitRaw(repo, ["log", "--all", "--format=%H %ct"]).stdout.toString("utf8").split("\n")) {
    const [sha, t] = line.split(" ");
    if (sha) committerTime.set(sha, Number(t));
  }
  // The graph: a session and a commit are joined where the session's checkpoint is on the commit.
  const edges: Link[] = [];
  for (const cp of checkpoints.values()) {
    for (const commit of links.get(cp.id) ?? [])
      for (const folder of cp.sessions) if (folder.sessionId !== null) edges.push({ folder, commit });
  }
  const rows: GroupRow[] = [];
  for (const component of components(edges))
    rows.push(...groupRows(repo, component, checkpoints, committerTime, options));
  clearBlobCache();
  return rows.sort((a, b) => (`${a.group_id}${a.session_id}` < `${b.group_id}${b.session_id}` ? -1 : 1));
}

/** Connected components by breadth-first search over sessions and commits. */
function components(edges: Link[]): Link[][] {
  const bySession = new Map<string, Link[]>();
  const byCommit = new Map<string, Link[]>();
  for (const e of edges) {
    bySession.set(e.folder.sessionId!, [...(bySession.get(e.folder.sessionId!) ?? []), e]);
    byCommit.set(e.commit.sha, [...(byCommit.get(e.commit.sha) ?? []), e]);
  }
  const seen = new Set<Link>();
  const out: Link[][] = [];
  for (const start of edges) {
    if (seen.has(start)) continue;
    const group: Link[] = [];
    const todo = [start];
    seen.add(start);
    while (todo.length > 0) {
      const e = todo.pop()!;
      group.push(e);
      for (const n of [...bySession.get(e.folder.sessionId!)!, ...byCommit.get(e.commit.sha)!]) {
        if (!seen.has(n)) {
          seen.add(n);
          todo.push(n);
        }
      }
    }
    out.push(group);
  }
  return out;
}

/**
 * §1b "The commit moments": the `created_at` of its checkpoint's session folders nearest the committer date;
 * a checkpoint on several commits gives it to the first of them (by committer date) only; else the committer
 * date. Sorted by moment, then committer date, then sha.
 */
function commitMoments(group: Link[], committerTime: Map<string, number>): GroupCommit[] {
  const commits = new Map<string, LinkedCommit>(group.map((e) => [e.commit.sha, e.commit]));
  const ct = (sha: string) => (committerTime.get(sha) ?? 0) * 1000;
  const byCheckpoint = new Map<string, Link[]>();
  for (const e of group)
    byCheckpoint.set(e.folder.checkpointId, [...(byCheckpoint.get(e.folder.checkpointId) ?? []), e]);
  const dated = new Map<string, number[]>();
  for (const list of byCheckpoint.values()) {
    const first = [...new Set(list.map((e) => e.commit.sha))].sort((a, b) => ct(a) - ct(b) || (a < b ? -1 : 1))[0];
    const times = [...new Set(list.map((e) => e.folder))]
      .map((f) => instant(f.metadata?.created_at))
      .filter(Number.isFinite);
    dated.set(first, [...(dated.get(first) ?? []), ...times]);
  }
  const out = [...commits.values()].map((commit) => {
    const c = ct(commit.sha);
    let moment = c;
    let best = Number.POSITIVE_INFINITY;
    for (const t of dated.get(commit.sha) ?? [])
      if (Math.abs(t - c) < best) {
        best = Math.abs(t - c);
        moment = t;
      }
    return { commit, committerTime: c, moment };
  });
  return out.sort(
    (a, b) => a.moment - b.moment || a.committerTime - b.committerTime || (a.commit.sha < b.commit.sha ? -1 : 1),
  );
}

/** §3's slice start (`checkpoint_transcript_start`, else `transcript_lines_at_start`), with the product's reading of an absent one as an option. */
function sliceStart(
  repo: string,
  folder: SessionFolder,
  checkpoints: Map<string, Checkpoint>,
  parsed: ParsedTranscript,
  options: GroupOptions,
): number {
  const v = folder.metadata?.checkpoint_transcript_start ?? folder.metadata?.transcript_lines_at_start;
  let start = typeof v === "number" && Number.isFinite(v) ? v : null;
  if ((start === null || start === 0) && options.inferSliceStart)
    start = inferredStart(repo, { session: folder }, checkpoints, parsed.format === "gemini") ?? start;
  return start ?? 0;
}

type Read =
  | { ok: true; text: string; parsed: ParsedTranscript }
  | { ok: false; problem: "group-transcript-missing" | "group-transcript-unreadable" };

function readCopy(repo: string, folder: SessionFolder): Read {
  if (!folder.transcriptBlob) return { ok: false, problem: "group-transcript-missing" };
  const buf = readBlob(repo, folder.transcriptBlob, false);
  if (buf === null) return { ok: false, problem: "group-transcript-missing" };
  const text = buf.toString("utf8");
  const parsed = parseTranscript(text);
  if (parsed.format === "unknown") return { ok: false, problem: "group-transcript-unreadable" };
  return { ok: true, text, parsed };
}

/** The earliest record time of a JSONL copy (ms), for ties between sessions' calls. */
function earliestTime(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (const line of text.split("\n")) {
    const m = /"timestamp":"([^"]+)"/.exec(line);
    const t = m ? Date.parse(m[1]) : Number.NaN;
    if (Number.isFinite(t) && t < best) best = t;
  }
  return best;
}

/** §1b "The calls" for one session: from its earliest checkpoint's slice start to the end of its latest copy. */
function memberOf(
  repo: string,
  sessionId: string,
  group: Link[],
  commitIndex: Map<string, number>,
  checkpoints: Map<string, Checkpoint>,
  known: Set<string>,
  options: GroupOptions,
): Member {
  const mine = group.filter((e) => e.folder.sessionId === sessionId);
  const firstCommitOf = (f: SessionFolder) =>
    Math.min(...mine.filter((e) => e.folder === f).map((e) => commitIndex.get(e.commit.sha)!));
  const folders = [...new Set(mine.map((e) => e.folder))].sort(
    (a, b) => instant(a.metadata?.created_at) - instant(b.metadata?.created_at) || firstCommitOf(a) - firstCommitOf(b),
  );
  const everyFolder = [...checkpoints.values()].flatMap((cp) => cp.sessions).filter((f) => f.sessionId === sessionId);
  const recordedId = everyFolder.map((f) => f.rawSessionId ?? sessionId).find((id) => id !== sessionId) ?? sessionId;
  const member: Member = {
    sessionId,
    recordedId,
    folders,
    calls: null,
    problem: null,
    started: Number.POSITIVE_INFINITY,
    agent: null,
    model: null,
  };
  const reads = folders.map((f) => readCopy(repo, f));
  const bad = reads.find((r) => !r.ok);
  if (bad && !bad.ok) {
    // Not in §1b (the row's counts are null): agent and model from Entire's metadata of the first unreadable copy.
    member.problem = bad.problem;
    const unread = folders[reads.indexOf(bad)].metadata;
    member.agent = typeof unread?.agent === "string" ? unread.agent : null;
    member.model = typeof unread?.model === "string" ? unread.model.replace(/\[[^\]]*\]$/, "") || null : null;
    return member;
  }
  const copies = reads as { ok: true; text: string; parsed: ParsedTranscript }[];
  const last = copies[copies.length - 1];
  member.agent = last.parsed.format === "unknown" ? null : AGENT_NAMES[last.parsed.format];
  const meta = folders[folders.length - 1].metadata?.model;
  member.model =
    (last.parsed.format === "unknown" ? null : sessionEffort(last.text, last.parsed.format).model) ??
    (typeof meta === "string" ? meta.replace(/\[[^\]]*\]$/, "") || null : null);
  member.started = earliestTime(last.text);
  const calls: { change: FileChange; firstCommit: number; parsed: ParsedTranscript }[] = [];
  if (DATED.test(recordedId)) {
    // Old sessions: each checkpoint stored its own part; the parts are joined in checkpoint order.
    copies.forEach((c, i) => {
      const start = sliceStart(repo, folders[i], checkpoints, c.parsed, options);
      for (const change of c.parsed.calls)
        if (change.resultLine >= start)
          calls.push({ change, firstCommit: firstCommitOf(folders[i]), parsed: c.parsed });
    });
  } else {
    const start = sliceStart(repo, folders[0], checkpoints, copies[0].parsed, options);
    for (const change of last.parsed.calls) {
      if (change.resultLine < start) continue;
      // It precedes the first commit whose checkpoint's copy holds its result.
      const holders = folders.filter((_, i) => change.resultLine < copies[i].parsed.lineCount).map(firstCommitOf);
      calls.push({
        change,
        firstCommit: holders.length > 0 ? Math.min(...holders) : firstCommitOf(folders[folders.length - 1]),
        parsed: last.parsed,
      });
    }
  }
  // Paths per copy (each copy names its working directories).
  const mappers = new Map<ParsedTranscript, (c: FileChange) => string | null>();
  for (const c of calls)
    if (!mappers.has(c.parsed)) mappers.set(c.parsed, makePathMapper(c.parsed.calls, c.parsed.cwds, known));
  member.calls = calls.map((c) => {
    const map = mappers.get(c.parsed)!;
    const moved = c.change.movePath ? map({ ...c.change, path: c.change.movePath, movePath: null }) : null;
    return { change: c.change, firstCommit: c.firstCommit, mapped: c.change.path ? map(c.change) : null, moved };
  });
  return member;
}

interface Ordered {
  member: Member;
  change: FileChange;
  mapped: string | null;
  moved: string | null;
  firstCommit: number;
  at: number;
}

/** The merge of the sessions' call lists: each keeps record order; the next call is the one with the earliest (first commit, time), ties to the earlier-started session. */
function mergeCalls(members: Member[]): Ordered[] {
  const lanes = members.map((m) => {
    let at = Number.NEGATIVE_INFINITY;
    return (m.calls ?? []).map((c) => {
      const t = Date.parse(c.change.resultTime ?? c.change.callTime ?? "");
      if (Number.isFinite(t)) at = Math.max(at, t);
      return { member: m, change: c.change, mapped: c.mapped, moved: c.moved, firstCommit: c.firstCommit, at };
    });
  });
  const rank = members
    .map((m, i) => ({ m, i }))
    .sort((a, b) => a.m.started - b.m.started || a.i - b.i)
    .map((x) => x.i);
  const out: Ordered[] = [];
  const pos = lanes.map(() => 0);
  for (;;) {
    let best: number | null = null;
    for (const i of rank) {
      const c = lanes[i][pos[i]];
      if (!c) continue;
      const b = best === null ? null : lanes[best][pos[best]];
      if (b === null || c.firstCommit < b.firstCommit || (c.firstCommit === b.firstCommit && c.at < b.at)) best = i;
    }
    if (best === null) return out;
    out.push(lanes[best][pos[best]++]);
  }
}

interface State {
  text: string;
  lines: Line[];
  binary: boolean;
}

function groupRows(
  repo: string,
  group: Link[],
  checkpoints: Map<string, Checkpoint>,
  committerTime: Map<string, number>,
  options: GroupOptions,
): GroupRow[] {
  const commits = commitMoments(group, committerTime);
  const commitIndex = new Map(commits.map((c, i) => [c.commit.sha, i]));
  const baseSha = commits[0].commit.parents[0] ?? null;
  const treeOf = (sha: string | null) => blobTree(repo, sha);
  const baseTree = treeOf(baseSha);
  const known = new Set<string>(baseTree.keys());
  for (const c of commits) for (const p of treeOf(c.commit.sha).keys()) known.add(p);
  const sessionIds = [...new Set(group.map((e) => e.folder.sessionId!))].sort();
  const members = sessionIds.map((id) => {
    const touched = group
      .filter((e) => e.folder.sessionId === id)
      .flatMap((e) =>
        Array.isArray(e.folder.metadata?.files_touched) ? (e.folder.metadata!.files_touched as unknown[]) : [],
      );
    return memberOf(
      repo,
      id,
      group,
      commitIndex,
      checkpoints,
      new Set([...known, ...touched.filter((p): p is string => typeof p === "string")]),
      options,
    );
  });

  const checkpointIds = [...new Set(members.flatMap((m) => m.folders.map((f) => f.checkpointId)))].join(";");
  return rowsOfGroup(repo, commits, members, baseTree, checkpointIds, entireOfMember);
}

/** Entire's numbers of a member: folders that record an initial_attribution; one: as recorded (its unit's columns); several: summed. */
function entireOfMember(m: Member): EntireNumbers {
  const records = m.folders
    .filter((f) => f.metadata?.initial_attribution && typeof f.metadata.initial_attribution === "object")
    .map((f) => entireColumns(f.metadata));
  const total = (k: "entire_agent_lines" | "entire_total_committed") => {
    const values = records.map((e) => e[k]).filter((v): v is number => v !== null);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : null;
  };
  const [ea, et] = [total("entire_agent_lines"), total("entire_total_committed")];
  return records.length === 1
    ? records[0]
    : {
        entire_agent_lines: ea,
        entire_total_committed: et,
        entire_agent_percentage: ea !== null && et !== null && et > 0 ? (100 * ea) / et : null,
      };
}

export interface EntireNumbers {
  entire_agent_lines: number | null;
  entire_total_committed: number | null;
  entire_agent_percentage: number | null;
}

/**
 * The rows of one group whose commits (by moment) and members (calls placed) are known, whatever linked them:
 * the attributable test, the joint replay, one row per member.
 */
export function rowsOfGroup(
  repo: string,
  commits: GroupCommit[],
  members: Member[],
  baseTree: Map<string, string>,
  checkpointIds: string | null,
  entireOf: (m: Member) => EntireNumbers,
): GroupRow[] {
  const reasons = new Set<string>();
  if (commits.some((c) => c.commit.parents.length > 1)) reasons.add("group-merge-commit");
  for (const m of members) if (m.problem) reasons.add(m.problem);
  let counts: Map<Member, Counts> | null = null;
  if (reasons.size === 0) {
    counts = replay(repo, commits, members, baseTree);
    if (counts === null) reasons.add("group-commit-unreadable");
  }
  const reason = GROUP_REASON_ORDER.find((r) => reasons.has(r)) ?? null;
  let switches: number | null = null;
  if (reason === null) {
    switches = 0;
    for (let k = 1; k < commits.length; k++) {
      const [a, b] = [commits[k - 1].commit.sha, commits[k].commit.sha];
      const related =
        gitRaw(repo, ["merge-base", "--is-ancestor", a, b]).ok ||
        gitRaw(repo, ["merge-base", "--is-ancestor", b, a]).ok;
      if (!related) switches += 1;
    }
  }
  let numstat: number | null = 0;
  for (const c of commits) {
    const n = numstatAdditions(repo, c.commit.sha, c.commit.parents[0] ?? null);
    numstat = numstat === null || n === null ? null : numstat + n;
  }
  const shas = commits.map((c) => c.commit.sha).sort();
  const groupId = createHash("sha256").update(shas.join("\n")).digest("hex").slice(0, 12);
  return members.map((m) => {
    const c = counts?.get(m) ?? null;
    const entire = entireOf(m);
    const numbers = {
      agent_lines_produced: c?.produced ?? null,
      agent_lines_final: c?.final ?? null,
      agent_lines_survived: c?.survived ?? null,
      human_lines: c?.human ?? null,
      outside_lines: c?.outside ?? null,
      total_committed_lines: c?.total ?? null,
      unreplayable_calls: c?.unreplayable ?? null,
      outside_changes: c?.outsideChanges ?? null,
    };
    const rates = c
      ? deriveRates(numbers)
      : { code_survival_rate: null, coding_efficiency: null, agent_authored_pct: null, coding_mode: null };
    return {
      session_id: m.recordedId,
      commit_sha: commits[commits.length - 1].commit.sha,
      checkpoint_id: checkpointIds,
      agent: m.agent,
      model: m.model,
      method: c ? "git-replay" : null,
      ambiguity: reason,
      ...numbers,
      numstat_additions: numstat,
      ...rates,
      ...entire,
      other_session_lines: c?.other ?? null,
      group_id: groupId,
      group_commits: commits.length,
      group_sessions: members.length,
      concurrent_calls: c?.concurrent ?? null,
      branch_switches: switches,
    };
  });
}

interface Counts {
  produced: number;
  final: number;
  survived: number;
  other: number;
  human: number;
  outside: number;
  total: number;
  unreplayable: number;
  outsideChanges: number;
  concurrent: number;
}

/** §1b "Joint replay"; null when a commit's diff or a needed blob cannot be read. */
export function replay(
  repo: string,
  commits: GroupCommit[],
  members: Member[],
  baseTree: Map<string, string>,
): Map<Member, Counts> | null {
  const order = mergeCalls(members);
  const owner = new Map<Line, Member>();
  const produced = new Map<Member, number>();
  const unreplayable = new Map<Member, Set<string>>();
  const outsideChanges = new Map<Member, number>();
  const states = new Map<string, State>();
  let unreadable = false;
  const baseText = (path: string): Buffer => {
    const sha = baseTree.get(path);
    if (!sha) return Buffer.alloc(0);
    const buf = readBlob(repo, sha);
    if (buf === null) unreadable = true;
    return buf ?? Buffer.alloc(0);
  };
  const stateOf = (path: string): State => {
    let st = states.get(path);
    if (!st) {
      const bytes = baseText(path);
      const binary = isBinary(bytes);
      const text = binary ? "" : bytes.toString("utf8");
      st = { text, lines: binary ? [] : toLines(text).map((t) => ({ text: t, prov: "base", call: null })), binary };
      states.set(path, st);
    }
    return st;
  };
  const apply = (o: Ordered) => {
    const c = o.change;
    const failed = () => unreplayable.set(o.member, new Set([...(unreplayable.get(o.member) ?? []), c.callId]));
    if (c.unreplayable) return failed();
    if (o.mapped === null) return; // §2: outside the repository
    const st = stateOf(o.mapped);
    if (st.binary) return;
    if (c.preImage !== null) {
      const pre = toLines(c.preImage);
      if (pre.length !== st.lines.length || pre.some((t, i) => t !== st.lines[i].text)) {
        outsideChanges.set(o.member, (outsideChanges.get(o.member) ?? 0) + 1);
        st.lines = carry(st.lines, pre, "outside", null).lines;
      }
      st.text = c.preImage;
    }
    const post = postImage(c, st.text);
    if (post === null) return failed();
    const prov = c.userModified ? "human" : "agent";
    const next = carry(st.lines, toLines(post), prov, c.callId);
    for (const line of next.lines) {
      if (line.prov === "agent" && !owner.has(line)) {
        owner.set(line, o.member);
        produced.set(o.member, (produced.get(o.member) ?? 0) + 1);
      }
    }
    st.lines = next.lines;
    st.text = post;
    if (c.movePath) {
      states.set(o.mapped, { text: "", lines: [], binary: false });
      if (o.moved !== null) states.set(o.moved, st);
    }
  };

  const present = new Set<Line>();
  const notePresent = () => {
    for (const st of states.values()) for (const l of st.lines) if (l.prov === "agent") present.add(l);
  };
  const committed = new Set<Line>();
  let human = 0;
  let outside = 0;
  let next = 0;
  for (let k = 0; k < commits.length; k++) {
    for (; next < order.length && order[next].firstCommit <= k; next++) apply(order[next]);
    notePresent();
    const commit = commits[k].commit;
    const files = changedFiles(repo, commit.sha, commit.parents[0] ?? null);
    if (files === null) return null;
    const blobs = files.flatMap((f) => [f.oldBlob, f.newBlob]).filter((b): b is string => b !== null);
    if (missingObjects(repo, blobs).size > 0) return null;
    for (const f of files) {
      const now = f.newBlob ? readBlob(repo, f.newBlob)! : Buffer.alloc(0);
      if (isBinary(now)) continue;
      const then = f.oldBlob ? readBlob(repo, f.oldBlob)! : Buffer.alloc(0);
      const committedLines = toLines(now.toString("utf8"));
      const parentLines = isBinary(then) ? [] : toLines(then.toString("utf8"));
      // The replayed state (the working tree); a file the agents never touched is still at the group's base.
      const replayed = states.get(f.path)?.lines ?? stateOf(f.path).lines;
      const atCommit = carry(replayed, committedLines, "human", null).lines;
      const kept = keptIndices(parentLines, committedLines);
      atCommit.forEach((line, i) => {
        if (kept.has(i)) return;
        if (line.prov === "agent") committed.add(line);
        else if (line.prov === "outside") outside += 1;
        else human += 1;
      });
    }
  }
  for (; next < order.length; next++) apply(order[next]);
  notePresent();
  if (unreadable) return null;

  const concurrent = concurrentCalls(order);
  const out = new Map<Member, Counts>();
  const owned = (set: Set<Line>, m: Member) => [...set].filter((l) => owner.get(l) === m).length;
  for (const m of members) {
    const survived = owned(committed, m);
    out.set(m, {
      produced: produced.get(m) ?? 0,
      final: owned(present, m),
      survived,
      other: committed.size - survived,
      human,
      outside,
      total: committed.size + human + outside,
      unreplayable: unreplayable.get(m)?.size ?? 0,
      outsideChanges: outsideChanges.get(m) ?? 0,
      concurrent: concurrent.get(m) ?? 0,
    });
  }
  return out;
}

/** Per session: its calls that fall inside another session's span of calls on the same file. */
function concurrentCalls(order: Ordered[]): Map<Member, number> {
  const spans = new Map<string, Map<Member, { lo: number; hi: number }>>();
  for (const o of order) {
    if (o.mapped === null || o.change.unreplayable) continue;
    const perFile = spans.get(o.mapped) ?? new Map<Member, { lo: number; hi: number }>();
    const s = perFile.get(o.member);
    perFile.set(o.member, s ? { lo: Math.min(s.lo, o.at), hi: Math.max(s.hi, o.at) } : { lo: o.at, hi: o.at });
    spans.set(o.mapped, perFile);
  }
  const out = new Map<Member, number>();
  const counted = new Set<string>();
  for (const o of order) {
    if (o.mapped === null || o.change.unreplayable) continue;
    const key = `${o.member.sessionId}\0${o.change.callId}`;
    if (counted.has(key)) continue;
    const inside = [...(spans.get(o.mapped) ?? new Map()).entries()].some(
      ([m, s]) => m !== o.member && o.at >= s.lo && o.at <= s.hi,
    );
    if (inside) {
      counted.add(key);
      out.set(o.member, (out.get(o.member) ?? 0) + 1);
    }
  }
  return out;
}

export interface GroupDiff {
  key: string;
  column: string;
  reference: unknown;
  product: unknown;
}

/** Doubles agree within 1e-9 absolute or 1e-12 relative (README, "How numbers are compared"); everything else exactly. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number")
    return Math.abs(a - b) <= 1e-9 || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  return (a ?? null) === (b ?? null);
}

/** Joins on (group_id, normalised session id) and compares every column of GROUP_COLUMNS (and `commit_sha`). */
export function compareGroups(
  reference: readonly GroupRow[],
  product: readonly Record<string, unknown>[],
): { onlyReference: string[]; onlyProduct: string[]; diffs: GroupDiff[] } {
  const key = (r: Record<string, unknown>) => `${String(r.group_id)}/${normaliseSessionId(String(r.session_id))}`;
  const byKey = new Map(product.map((p) => [key(p), p]));
  const refKeys = new Set(reference.map(key));
  const diffs: GroupDiff[] = [];
  for (const r of reference) {
    const p = byKey.get(key(r));
    if (!p) continue;
    for (const column of ["commit_sha", ...GROUP_COLUMNS]) {
      const a = (r as Record<string, unknown>)[column];
      if (!same(a, p[column])) diffs.push({ key: key(r), column, reference: a, product: p[column] });
    }
  }
  return {
    onlyReference: reference.map(key).filter((k) => !byKey.has(k)),
    onlyProduct: [...byKey.keys()].filter((k) => !refKeys.has(k)),
    diffs,
  };
}

/** A report of `compareGroups`: rows on each side, agreement per column, each disagreement. */
export function formatGroupComparison(
  reference: readonly GroupRow[],
  product: readonly Record<string, unknown>[],
  c: ReturnType<typeof compareGroups>,
): string {
  const joined = reference.length - c.onlyReference.length;
  const lines = [
    `group rows: reference ${reference.length}, product ${product.length}, joined ${joined} (groups: ${new Set(reference.map((r) => r.group_id)).size} / ${new Set(product.map((p) => p.group_id)).size})`,
    `attributable rows: reference ${reference.filter((r) => r.ambiguity === null).length}, product ${product.filter((p) => p.ambiguity === null).length}`,
  ];
  if (c.onlyReference.length > 0) lines.push(`only in the reference: ${c.onlyReference.join(", ")}`);
  if (c.onlyProduct.length > 0) lines.push(`only in the product: ${c.onlyProduct.join(", ")}`);
  for (const column of ["commit_sha", ...GROUP_COLUMNS]) {
    const n = c.diffs.filter((d) => d.column === column).length;
    lines.push(`  ${column}: ${joined - n}/${joined}`);
  }
  for (const d of c.diffs)
    lines.push(
      `  ${d.key} ${d.column}: reference ${JSON.stringify(d.reference)}, product ${JSON.stringify(d.product)}`,
    );
  return lines.join("\n");
}

/** The `units` columns a one-session one-commit group must repeat (its ambiguity names group reasons, not §1's). */
export const STRICT_COLUMNS = [
  "session_id",
  "commit_sha",
  "checkpoint_id",
  "agent",
  "method",
  "agent_lines_produced",
  "agent_lines_final",
  "agent_lines_survived",
  "human_lines",
  "outside_lines",
  "total_committed_lines",
  "numstat_additions",
  "code_survival_rate",
  "coding_efficiency",
  "agent_authored_pct",
  "coding_mode",
  "unreplayable_calls",
  "outside_changes",
  "entire_agent_lines",
  "entire_total_committed",
  "entire_agent_percentage",
] as const;

/** metrics.md §1b: "a group of one session and one commit must give exactly its strict unit's numbers". Groups of one session and one commit whose row differs from the unit's: "group_id column: group / unit". */
export function singleGroupDiffs(
  groups: readonly Record<string, unknown>[],
  units: readonly Record<string, unknown>[],
): string[] {
  const out: string[] = [];
  for (const g of groups) {
    if (g.group_commits !== 1 || g.group_sessions !== 1 || g.ambiguity !== null) continue;
    const u = units.find((x) => x.session_id === g.session_id && x.commit_sha === g.commit_sha);
    if (!u) {
      out.push(`${g.group_id}: no unit`);
      continue;
    }
    for (const c of STRICT_COLUMNS)
      if ((g[c] ?? null) !== (u[c] ?? null)) out.push(`${g.group_id} ${c}: ${String(g[c])} / ${String(u[c])}`);
    if (g.other_session_lines !== 0) out.push(`${g.group_id} other_session_lines: ${g.other_session_lines}`);
  }
  return out;
}

/** The blobs of a commit's tree, path → id (none for a missing parent). */
export function blobTree(repo: string, sha: string | null): Map<string, string> {
  return new Map(
    sha === null
      ? []
      : lsTree(repo, sha)
          .filter((e) => e.type === "blob")
          .map((e) => [e.path, e.sha]),
  );
}
