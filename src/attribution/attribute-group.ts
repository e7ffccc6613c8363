/**
 * Groups (metrics.md §1b): the sessions and commits a strict unit cannot
 * hold, replayed on one timeline. Every agent line has an identity (session,
 * call, index) and belongs to the session that wrote it; the replayed state is
 * the working tree (a commit does not change it); each commit gives
 * provenance to the lines its own first-parent diff adds. One row per
 * (session, group).
 *
 * The caller (an input kind) finds the group and says, for each call, the
 * first commit it precedes; this module orders, replays and counts.
 */
import { createHash } from "node:crypto";
import type { GitRepository } from "../ingest/git/repo";
import { gitText } from "../ingest/git/exec";
import {
  type CheckpointSession,
  type Commit,
  DiagnosticSink,
  type GroupReason,
  GROUP_REASONS,
  type GroupUnitRow,
  type LineRangeRow,
  type Session,
  type ToolCall,
} from "../model";
import {
  BASE,
  HUMAN,
  insertedMask,
  isBinaryText,
  type LineIdentity,
  type LineOwner,
  Replayer,
  type ReplayStep,
  splitLines,
  stateFromText,
  transition,
} from "../replay";
import { agentAuthoredPct, codeSurvivalRate, codingEfficiency, codingMode } from "./rates";
import { planSteps } from "./replay-unit";
import { callSeqs, LineRangeCollector } from "./line-ranges";
import { filesOfTree, NO_FILES, readBlob, type TreeFiles } from "./tree-files";

/** One part of a session's calls: a transcript copy and the calls of it the group holds. */
export interface MemberPart {
  session: Session;
  /** Successful file-changing calls, in replay order, each with the index (in `commits`) of the first commit it precedes. */
  calls: { call: ToolCall; firstCommit: number }[];
}

export interface GroupMember {
  /** The id the tables write. */
  session_id: string;
  agent: string | null;
  model: string | null;
  /** null when a transcript copy of the session is missing or unreadable (the group is then not attributable). */
  parts: MemberPart[] | null;
  problem: "missing" | "unreadable" | null;
  /** First record time (ms): breaks ties between sessions' calls. */
  started_ms: number;
  /** The session's checkpoints in the group. */
  checkpoints: string[];
  /** Entire's initial_attribution of the session's folders in the group. */
  entire: NonNullable<CheckpointSession["initial_attribution"]>[];
  /** Repo-relative paths the input says the session touched (evidence for the root). */
  touched: readonly string[];
}

export interface GroupCommit {
  commit: Commit;
  /** Epoch ms: the commit's moment (metrics.md §1b "The commit moments"). */
  moment: number;
}

/** What the group's agents did, for the caller's `group-work-outside` check: the repo paths they edited, and when their last call ended. */
export interface GroupWork {
  edited: string[];
  last_call_ms: number | null;
}

export interface GroupJob {
  /** Filled by the replay when given. */
  work?: GroupWork;
  /** Given (empty): filled with every committed line's owner, per member (`line_ranges`, issue 19). */
  lines?: LineRangeRow[];
  repo: string;
  git: GitRepository;
  members: GroupMember[];
  /** Sorted by moment. */
  commits: GroupCommit[];
}

/** `group_id`: the first 12 hex digits of the SHA-256 of the representative commit shas, sorted, joined by `\n`. */
export function groupIdOf(shas: readonly string[]): string {
  return createHash("sha256")
    .update([...shas].sort().join("\n"))
    .digest("hex")
    .slice(0, 12);
}

// A BOM is part of the file's text (the agent's pre-images keep it), so it is not stripped.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

interface Counts {
  produced: number;
  final: number;
  survived: number;
  other: number;
  human: number;
  outside: number;
  total: number;
  unreplayable: number;
  outside_changes: number;
  concurrent: number;
}

/** The rows of one group, attributable or not; diagnostics go to `sink`. */
export async function attributeGroup(job: GroupJob, sink: DiagnosticSink): Promise<GroupUnitRow[]> {
  const reasons = new Set<GroupReason>();
  if (job.commits.some((c) => c.commit.parents.length > 1)) reasons.add("group-merge-commit");
  for (const m of job.members) {
    if (m.problem === "missing") reasons.add("group-transcript-missing");
    if (m.problem === "unreadable") reasons.add("group-transcript-unreadable");
  }
  let counts: Map<string, Counts> | null = null;
  if (reasons.size === 0) {
    const replayed = await replayGroup(job, sink);
    if (replayed === null) reasons.add("group-commit-unreadable");
    else counts = replayed;
  }
  const reason = GROUP_REASONS.find((r) => reasons.has(r)) ?? null;
  const switches = reason === null ? await branchSwitches(job) : null;
  const numstat = await numstatOf(job);
  return job.members.map((m) => ({
    ...toGroupRow(job, m, reason, counts?.get(m.session_id) ?? null, switches),
    numstat_additions: numstat,
  }));
}

/** git's added lines over the group's commits (text files), as `units.numstat_additions` counts one commit's. */
async function numstatOf(job: GroupJob): Promise<number | null> {
  let n = 0;
  for (const c of job.commits) {
    const files = await job.git.changedFiles(c.commit.sha);
    if (files === null) return null;
    for (const f of files) if (!f.binary) n += f.additions ?? 0;
  }
  return n;
}

/** The joint replay; null when a commit's diff or a file state cannot be read. */
async function replayGroup(job: GroupJob, sink: DiagnosticSink): Promise<Map<string, Counts> | null> {
  const { git } = job;
  const first = job.commits[0].commit;
  const baseTree = first.parents[0] ? await filesOfTree(git, git.gitDir, first.parents[0]) : NO_FILES;
  const trees: TreeFiles[] = [];
  for (const c of job.commits) trees.push(await filesOfTree(git, git.gitDir, c.commit.sha));
  const changed: { path: string; binary: boolean }[][] = [];
  for (const c of job.commits) {
    const files = await git.changedFiles(c.commit.sha);
    if (files === null) return null;
    changed.push(files.map((f) => ({ path: f.path, binary: f.binary })));
  }
  let missing = false;
  const readText = async (tree: TreeFiles, path: string): Promise<string | null> => {
    const sha = tree.blob(path);
    if (sha === undefined) return null;
    const bytes = await readBlob(git, sha);
    if (bytes === null) missing = true;
    return bytes === null ? null : decoder.decode(bytes);
  };

  // Steps of every member, in the group's order: by the first commit they precede, then by the time of their result.
  const ordered = orderedCalls(job.members);
  const author = new Map<ToolCall, { member: GroupMember; firstCommit: number }>();
  for (const o of ordered) author.set(o.call, { member: o.member, firstCommit: o.firstCommit });
  const allChanged = changed.flat();
  const exists = (touched: ReadonlySet<string>) => (p: string) =>
    baseTree.has(p) || trees.some((t) => t.has(p)) || touched.has(p);
  const stepsOf = new Map<ToolCall, ReplayStep[]>();
  // Path notes (outside the repository, through a link) are the ones each member's own unit job already wrote.
  const repeated = new DiagnosticSink(sink.source, sink.file, sink.sessionId);
  for (const m of job.members) {
    const touched = new Set(m.touched);
    for (const part of m.parts ?? []) {
      const steps = planSteps(
        part.session,
        part.calls.map((c) => c.call),
        { exists: exists(touched), changed: allChanged },
        "",
        repeated,
      );
      for (const step of steps) {
        const list = stepsOf.get(step.call) ?? [];
        list.push(step);
        stepsOf.set(step.call, list);
      }
    }
  }
  const paths = new Set<string>();
  for (const list of stepsOf.values())
    for (const s of list) {
      paths.add(s.path);
      if (s.from !== undefined) paths.add(s.from);
    }
  for (const files of changed) for (const f of files) paths.add(f.path);
  const bases = new Map<string, string | null>();
  for (const p of paths) bases.set(p, await readText(baseTree, p));

  const identities = new Map<LineOwner, LineIdentity>();
  const replayer = new Replayer((p) => bases.get(p) ?? null, identities);
  const present = new Set<LineOwner>();
  const committed = new Set<LineOwner>();
  let human = 0;
  let outside = 0;
  const lines: CommittedLine[] | null = job.lines ? [] : null;
  const notePresent = () => {
    for (const file of replayer.files.values())
      for (const o of file.state.owners) if (o.origin === "agent") present.add(o);
  };
  let next = 0;
  for (let k = 0; k < job.commits.length; k++) {
    for (; next < ordered.length && ordered[next].firstCommit <= k; next++) {
      for (const step of stepsOf.get(ordered[next].call) ?? []) replayer.apply(step, ordered[next].member.session_id);
    }
    notePresent();
    const commit = job.commits[k].commit;
    const parentTree = commit.parents[0] ? await filesOfTree(git, git.gitDir, commit.parents[0]) : NO_FILES;
    for (const file of changed[k]) {
      const text = await readText(trees[k], file.path);
      if (file.binary && (text === null || isBinaryText(text))) continue;
      const commitText = text ?? "";
      if (isBinaryText(commitText)) continue;
      const parentText = (await readText(parentTree, file.path)) ?? "";
      const replayedState = replayer.files.get(file.path)?.state ?? stateFromText(bases.get(file.path) ?? "", BASE);
      const atCommit = transition(replayedState, commitText, HUMAN).state;
      const added = insertedMask(splitLines(parentText), atCommit.lines);
      for (let j = 0; j < added.length; j++) {
        if (!added[j]) continue;
        const owner = atCommit.owners[j];
        if (lines !== null) lines.push({ commit: commit.sha, file: file.path, line: j + 1, owner });
        if (owner.origin === "agent") committed.add(owner);
        else if (owner.origin === "outside") outside++;
        else human++;
      }
    }
  }
  for (; next < ordered.length; next++)
    for (const step of stepsOf.get(ordered[next].call) ?? []) replayer.apply(step, ordered[next].member.session_id);
  notePresent();
  if (missing) return null;
  for (const issue of replayer.issues) {
    if (issue.code === "edit-unreplayable") sink.warn(issue.code, `group: ${issue.message}`, issue.record);
  }

  if (job.lines && lines !== null) job.lines.push(...groupLineRanges(job, lines, identities));
  if (job.work) {
    job.work.edited = [...new Set([...stepsOf.values()].flat().map((step) => step.path))].sort();
    const times = ordered.map((o) => o.at).filter(Number.isFinite);
    job.work.last_call_ms = times.length > 0 ? Math.max(...times) : null;
  }
  const concurrent = concurrentCalls(ordered, stepsOf);
  const out = new Map<string, Counts>();
  const bySession = (set: Iterable<LineOwner>, session: string) => {
    let n = 0;
    for (const o of set) if (identities.get(o)?.session === session) n++;
    return n;
  };
  const outsideChangesOf = outsideChangesBySession(replayer, ordered);
  for (const m of job.members) {
    const survived = bySession(committed, m.session_id);
    let produced = 0;
    for (const id of identities.values()) if (id.session === m.session_id) produced++;
    out.set(m.session_id, {
      produced,
      final: bySession(present, m.session_id),
      survived,
      other: committed.size - survived,
      human,
      outside,
      total: committed.size + human + outside,
      unreplayable: replayer.unreplayableOf(m.session_id),
      outside_changes: outsideChangesOf.get(m.session_id) ?? 0,
      concurrent: concurrent.get(m) ?? 0,
    });
  }
  return out;
}

interface CommittedLine {
  commit: string;
  file: string;
  line: number;
  owner: LineOwner;
}

/**
 * The group's committed lines once per member: `agent` where the member wrote them, the writer's session id where
 * another member did, `human` and `outside` as in a unit; so each member's runs add up to its `group_units` row.
 */
function groupLineRanges(
  job: GroupJob,
  lines: readonly CommittedLine[],
  identities: ReadonlyMap<LineOwner, LineIdentity>,
): LineRangeRow[] {
  const id = groupIdOf(job.commits.map((x) => x.commit.sha));
  const seqs = new Map<string, Map<string, number>>();
  const models = new Map<string, string | null>();
  for (const m of job.members) {
    const merged = new Map<string, number>();
    for (const part of m.parts ?? [])
      for (const [call, seq] of callSeqs(part.session)) if (!merged.has(call)) merged.set(call, seq);
    seqs.set(m.session_id, merged);
    models.set(m.session_id, m.model);
  }
  const out: LineRangeRow[] = [];
  for (const m of job.members) {
    const collector = new LineRangeCollector(m.session_id, id);
    for (const l of lines) {
      const who = identities.get(l.owner);
      if (l.owner.origin === "agent" && who !== undefined) {
        const owner = who.session === m.session_id ? "agent" : who.session;
        collector.add(l.commit, l.file, l.line, {
          owner,
          seq: seqs.get(who.session)?.get(who.call) ?? null,
          model: models.get(who.session) ?? null,
        });
      } else
        collector.add(l.commit, l.file, l.line, {
          owner: l.owner.origin === "outside" ? "outside" : "human",
          seq: null,
          model: null,
        });
    }
    out.push(...collector.rows);
  }
  return out;
}

interface OrderedCall {
  call: ToolCall;
  member: GroupMember;
  firstCommit: number;
  at: number;
}

/**
 * The group's calls in replay order: by the first commit they precede; within that, each session's calls in
 * record order, merged between sessions by the time of their result (ties: the session that started first).
 */
function orderedCalls(members: readonly GroupMember[]): OrderedCall[] {
  const lanes: OrderedCall[][] = members.map((m) => {
    const lane: OrderedCall[] = [];
    let last = Number.NEGATIVE_INFINITY;
    for (const part of m.parts ?? []) {
      for (const { call, firstCommit } of part.calls) {
        const t = Date.parse(call.result_timestamp ?? call.timestamp ?? "");
        // A call without a time keeps its place after the one before it.
        last = Number.isFinite(t) ? Math.max(t, last) : last;
        lane.push({ call, member: m, firstCommit, at: last });
      }
    }
    return lane;
  });
  const order = members.map((_, i) => i).sort((a, b) => members[a].started_ms - members[b].started_ms || a - b);
  const heads = lanes.map(() => 0);
  const out: OrderedCall[] = [];
  for (;;) {
    let pick = -1;
    for (const i of order) {
      const c = lanes[i][heads[i]];
      if (c === undefined) continue;
      const best = pick === -1 ? undefined : lanes[pick][heads[pick]];
      if (
        best === undefined ||
        c.firstCommit < best.firstCommit ||
        (c.firstCommit === best.firstCommit && c.at < best.at)
      )
        pick = i;
    }
    if (pick === -1) break;
    out.push(lanes[pick][heads[pick]++]);
  }
  return out;
}

/** `concurrent_calls`: a member's calls that fall inside another session's span of calls on the same file. */
function concurrentCalls(
  ordered: readonly OrderedCall[],
  stepsOf: ReadonlyMap<ToolCall, ReplayStep[]>,
): Map<GroupMember, number> {
  const spans = new Map<string, Map<GroupMember, [number, number]>>();
  for (const o of ordered) {
    for (const step of stepsOf.get(o.call) ?? []) {
      const byMember = spans.get(step.path) ?? new Map<GroupMember, [number, number]>();
      const span = byMember.get(o.member);
      byMember.set(o.member, span ? [Math.min(span[0], o.at), Math.max(span[1], o.at)] : [o.at, o.at]);
      spans.set(step.path, byMember);
    }
  }
  const out = new Map<GroupMember, number>();
  for (const o of ordered) {
    const inside = (stepsOf.get(o.call) ?? []).some((step) =>
      [...(spans.get(step.path) ?? new Map<GroupMember, [number, number]>())].some(
        ([m, [lo, hi]]) => m !== o.member && o.at >= lo && o.at <= hi,
      ),
    );
    if (inside) out.set(o.member, (out.get(o.member) ?? 0) + 1);
  }
  return out;
}

function outsideChangesBySession(replayer: Replayer, ordered: readonly OrderedCall[]): Map<string, number> {
  const byCall = new Map<string, string>();
  for (const o of ordered) if (!byCall.has(o.call.id)) byCall.set(o.call.id, o.member.session_id);
  const out = new Map<string, number>();
  for (const issue of replayer.issues) {
    if (issue.code !== "outside-change") continue;
    const s = byCall.get(issue.call);
    if (s !== undefined) out.set(s, (out.get(s) ?? 0) + 1);
  }
  return out;
}

/** Consecutive commits (by moment) that are not ancestor and descendant. */
async function branchSwitches(job: GroupJob): Promise<number> {
  let n = 0;
  for (let k = 1; k < job.commits.length; k++) {
    const a = job.commits[k - 1].commit.sha;
    const b = job.commits[k].commit.sha;
    const base = await gitText(job.git.gitDir, ["merge-base", a, b]);
    const mergeBase = base?.trim() ?? "";
    if (mergeBase !== a && mergeBase !== b) n++;
  }
  return n;
}

/**
 * Entire's `initial_attribution` of a session's folders in the group. One folder: as recorded, as its unit shows it
 * (Entire rounds the percentage and writes 0 for nothing committed; §1b: a group of one session and one commit gives
 * its unit's numbers). Several: the counts summed (null when no folder records one), the percentage
 * `100 · Σ agent / Σ total` (null without a total).
 */
function entireOf(
  records: readonly NonNullable<CheckpointSession["initial_attribution"]>[],
): Pick<GroupUnitRow, "entire_agent_lines" | "entire_total_committed" | "entire_agent_percentage"> {
  if (records.length === 1) {
    const [e] = records;
    return {
      entire_agent_lines: e.agent_lines,
      entire_total_committed: e.total_committed,
      entire_agent_percentage: e.agent_percentage,
    };
  }
  const sum = (pick: (e: (typeof records)[number]) => number | null) => {
    const values = records.map(pick).filter((v): v is number => v !== null);
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : null;
  };
  const agent = sum((e) => e.agent_lines);
  const total = sum((e) => e.total_committed);
  return {
    entire_agent_lines: agent,
    entire_total_committed: total,
    entire_agent_percentage: agent !== null && total !== null && total > 0 ? (100 * agent) / total : null,
  };
}

function toGroupRow(
  job: GroupJob,
  m: GroupMember,
  reason: GroupReason | null,
  c: Counts | null,
  switches: number | null,
): GroupUnitRow {
  const last = job.commits[job.commits.length - 1].commit;
  const sessions = new Set(job.members.flatMap((x) => x.checkpoints));
  const authored = c ? agentAuthoredPct(c.survived, c.total) : null;
  const entire = entireOf(m.entire);
  return {
    session_id: m.session_id,
    commit_sha: last.sha,
    checkpoint_id: sessions.size > 0 ? [...sessions].join(";") : null,
    repo: job.repo,
    agent: m.agent,
    model: m.model,
    method: c ? "git-replay" : null,
    ambiguity: reason,
    agent_lines_produced: c?.produced ?? null,
    agent_lines_final: c?.final ?? null,
    agent_lines_survived: c?.survived ?? null,
    human_lines: c?.human ?? null,
    outside_lines: c?.outside ?? null,
    total_committed_lines: c?.total ?? null,
    numstat_additions: null,
    code_survival_rate: c ? codeSurvivalRate(c.survived, c.final) : null,
    coding_efficiency: c ? codingEfficiency(c.survived, c.produced) : null,
    agent_authored_pct: authored,
    coding_mode: c ? codingMode(authored) : null,
    unreplayable_calls: c?.unreplayable ?? null,
    outside_changes: c?.outside_changes ?? null,
    ...entire,
    other_session_lines: c?.other ?? null,
    group_id: groupIdOf(job.commits.map((x) => x.commit.sha)),
    group_commits: job.commits.length,
    group_sessions: job.members.length,
    concurrent_calls: c?.concurrent ?? null,
    branch_switches: switches,
  };
}
