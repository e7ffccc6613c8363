/**
 * Groups of metrics.md §1b from the SWE-chat tables: connected components of
 * the graph whose nodes are sessions and (representative) commits, with an
 * edge where one of the session's checkpoints (by every relation units.ts
 * reads) is on the commit. The tables hold each commit's patch, not its file
 * states, so no group can be replayed from them alone: every group gets its
 * rows with the first reason that applies (`group-merge-commit`, then
 * `group-transcript-missing` for a session a checkpoint names that has no
 * conversation rows, then `group-commit-unreadable`) and null counts, and a
 * note per group saying what to pass to attribute it. Given clones
 * (`--repos DIR` holding `<owner>/<name>`), the groups of those repositories
 * are replayed on the clone's file states by the joint replay every input
 * uses (`attributeGroup`), with the sessions as the dataset gives them. A group of one session and one commit
 * takes its strict unit's numbers instead, whatever the clones (analyze-swechat.ts; metrics.md §1b's rule).
 *
 * Where §1b is silent for this input: a commit's moment is its `commit_date`
 * (the tables keep no folder `created_at`), ties by sha; copies are the ones
 * units.ts merges (same patch fingerprint within a checkpoint); `entire_*`
 * repeat the sessions row's session-level attribution, as the session's units do.
 */
import { connected } from "../attribution/connected";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  attributeGroup,
  type GroupCommit,
  type GroupMember,
  type GroupWork,
  groupIdOf,
} from "../attribution/attribute-group";
import { memberFromSession } from "../attribution/member-from-session";
import { type GitRepository, openRepository } from "../ingest/git/repo";
import {
  type CommitMetaRow,
  type LinkInput,
  linkCheckpoints,
  makeUnitLinker,
  type SpooledPatch,
  type SwechatMeta,
} from "../ingest/swechat";
import {
  type Commit,
  type Diagnostic,
  DiagnosticSink,
  GROUP_REASONS,
  type GroupReason,
  type GroupUnitRow,
  type LineRangeRow,
  type Session,
  type SessionRow,
} from "../model";
import { workOutsideGroups } from "./entire-groups";

export interface SwechatGroup {
  group_id: string;
  repo: string;
  /** Session ids, sorted. */
  sessions: string[];
  /** Sessions a checkpoint of the group names that have no conversation rows (their transcript is missing). */
  without_rows: string[];
  /** Representative commits, by moment (`commit_date`, then sha). */
  commits: CommitMetaRow[];
  /** The group's checkpoint ids (12 hex), each once, in commit order. */
  checkpoints: string[];
}

/** `repo#checkpoint_id` → the repository. */
const repoOfCheckpoint = (pk: string): string => pk.slice(0, Math.max(0, pk.lastIndexOf("#")));
const checkpointIdOf = (pk: string): string => pk.slice(pk.lastIndexOf("#") + 1);

/**
 * The groups of the analysed sessions (`analysed`: those with conversation rows, excluded repositories left out),
 * with the sessions of the same checkpoints that have no rows joined to them as members without a transcript.
 */
export function findSwechatGroups(
  meta: SwechatMeta,
  analysed: ReadonlyMap<string, LinkInput>,
  excludedRepos: ReadonlySet<string>,
  patches: ReadonlyMap<string, SpooledPatch>,
): SwechatGroup[] {
  const everyone = new Map(analysed);
  for (const id of sessionsWithoutRows(meta, analysed, excludedRepos))
    everyone.set(id, { session: meta.sessions.get(id), rowCheckpoint: null });
  const linker = makeUnitLinker(
    meta.checkpoints,
    meta.commitsByCheckpoint,
    linkCheckpoints(meta.checkpoints, everyone),
  );
  const { link, rootOf: find } = connected();
  const edges: { session: string; key: string; commit: CommitMetaRow; checkpoint: string }[] = [];
  for (const id of [...everyone.keys()].sort()) {
    for (const u of linker.unitsOf(id, patches)) {
      const key = `c:${repoOfCheckpoint(u.checkpoint_pk)}\0${u.commit.commit_sha}`;
      edges.push({ session: id, key, commit: u.commit, checkpoint: u.checkpoint_pk });
      link(`s:${id}`, key);
    }
  }
  const components = new Map<string, typeof edges>();
  for (const e of edges) {
    const root = find(e.key);
    let list = components.get(root);
    if (!list) components.set(root, (list = []));
    list.push(e);
  }
  const groups: SwechatGroup[] = [];
  for (const list of components.values()) {
    const sessions = [...new Set(list.map((e) => e.session))].sort();
    // A component of no-rows sessions only is no analysed session's group.
    if (!sessions.some((s) => analysed.has(s))) continue;
    const commits = [...new Map(list.map((e) => [e.commit.commit_sha, e.commit])).values()].sort(byMoment);
    // The checkpoints in the order of their first commit (edges of one commit in session order).
    const rank = new Map(commits.map((c, i) => [c.commit_sha, i]));
    const byCommit = [...list].sort((x, y) => rank.get(x.commit.commit_sha)! - rank.get(y.commit.commit_sha)!);
    const checkpoints = [...new Set(byCommit.map((e) => checkpointIdOf(e.checkpoint)))];
    groups.push({
      group_id: groupIdOf(commits.map((c) => c.commit_sha)),
      repo: repoOfCheckpoint(list[0].checkpoint),
      sessions,
      without_rows: sessions.filter((s) => !analysed.has(s)),
      commits,
      checkpoints,
    });
  }
  return groups.sort((a, b) => byMoment(a.commits[0], b.commits[0]) || (a.group_id < b.group_id ? -1 : 1));
}

/** Moments: `commit_date` (unknown last), ties by sha. */
function byMoment(a: CommitMetaRow, b: CommitMetaRow): number {
  const t = (c: CommitMetaRow) => c.commit_date ?? Number.POSITIVE_INFINITY;
  return t(a) - t(b) || (a.commit_sha < b.commit_sha ? -1 : a.commit_sha > b.commit_sha ? 1 : 0);
}

/** Sessions the sessions table or a checkpoint names that have no conversation rows, outside the excluded repositories. */
function sessionsWithoutRows(
  meta: SwechatMeta,
  analysed: ReadonlyMap<string, LinkInput>,
  excludedRepos: ReadonlySet<string>,
): string[] {
  const out = new Set<string>();
  for (const [id, s] of meta.sessions)
    if (!analysed.has(id) && !(s.repo_id !== null && excludedRepos.has(s.repo_id))) out.add(id);
  for (const cp of meta.checkpoints.values()) {
    if (excludedRepos.has(cp.repo_id ?? repoOfCheckpoint(cp.checkpoint_pk))) continue;
    for (const id of cp.session_pks) if (!analysed.has(id) && !meta.sessions.has(id)) out.add(id);
  }
  return [...out];
}

/** The group's first reason: a merge (a combined diff), a session without rows, else the file states the tables lack. */
function reasonOf(group: SwechatGroup, patches: ReadonlyMap<string, SpooledPatch>): GroupReason {
  const reasons = new Set<GroupReason>(["group-commit-unreadable"]);
  if (group.commits.some((c) => patches.get(c.commit_sha)?.merge === true)) reasons.add("group-merge-commit");
  if (group.without_rows.length > 0) reasons.add("group-transcript-missing");
  return GROUP_REASONS.find((r) => reasons.has(r))!;
}

/**
 * One row per (session, group), null counts; agent and model from the session's row of the `sessions` table
 * (for a session without rows, its sessions row's agent label), Entire's session-level attribution as its units
 * show it. The `group-commit-unreadable` note says what to pass to attribute the group.
 */
export function swechatGroupRows(
  group: SwechatGroup,
  meta: SwechatMeta,
  patches: ReadonlyMap<string, SpooledPatch>,
  sessionRows: ReadonlyMap<string, SessionRow>,
): { rows: GroupUnitRow[]; diagnostics: Diagnostic[] } {
  const reason = reasonOf(group, patches);
  const additions = group.commits.map((c) => c.total_additions);
  const numstat = additions.some((n) => n === null) ? null : (additions as number[]).reduce((a, b) => a + b, 0);
  const last = group.commits[group.commits.length - 1];
  const rows = group.sessions.map((id): GroupUnitRow => {
    const s = meta.sessions.get(id);
    const own = sessionRows.get(id);
    const entire = s && s.agent_lines !== null && s.total_committed !== null;
    return {
      session_id: id,
      commit_sha: last.commit_sha,
      checkpoint_id: group.checkpoints.join(";"),
      repo: group.repo,
      agent: own?.agent ?? s?.agent ?? null,
      model: own?.model ?? null,
      method: null,
      ambiguity: reason,
      agent_lines_produced: null,
      agent_lines_final: null,
      agent_lines_survived: null,
      human_lines: null,
      outside_lines: null,
      total_committed_lines: null,
      numstat_additions: numstat,
      code_survival_rate: null,
      coding_efficiency: null,
      agent_authored_pct: null,
      coding_mode: null,
      unreplayable_calls: null,
      outside_changes: null,
      entire_agent_lines: entire ? s.agent_lines : null,
      entire_total_committed: entire ? s.total_committed : null,
      entire_agent_percentage: entire ? s.agent_percentage : null,
      other_session_lines: null,
      group_id: group.group_id,
      group_commits: group.commits.length,
      group_sessions: group.sessions.length,
      concurrent_calls: null,
      branch_switches: null,
    };
  });
  const sink = new DiagnosticSink("swechat", null, group.sessions.find((s) => !group.without_rows.includes(s)) ?? null);
  if (reason === "group-commit-unreadable")
    sink.info(
      "group-commit-unreadable",
      `group ${group.group_id} of ${group.repo} (${group.sessions.length} session(s), commits ${group.commits
        .slice(0, 5)
        .map((c) => c.commit_sha.slice(0, 12))
        .join(
          ", ",
        )}${group.commits.length > 5 ? ", …" : ""}) is not attributed: the SWE-chat tables hold the commits' patches, not their file states, which the joint replay of metrics.md §1b needs. To attribute it, clone https://github.com/${group.repo} into DIR/${group.repo} and pass \`--repos DIR\` (the group is then replayed on the clone's file states); or run \`swe-chat-eval analyze <clone>\` on the clone itself, whose Entire checkpoints hold the sessions' own transcripts (its group_units rows carry this group_id when it holds these commits)`,
    );
  return { rows, diagnostics: sink.rows };
}

/**
 * Clones of the dataset's repositories (`--repos DIR`, as `DIR/<owner>/<name>`), each opened once with its
 * commits read, for the groups whose file states the tables lack.
 */
export class SwechatClones {
  private readonly opened = new Map<string, Promise<{ git: GitRepository; commits: Map<string, Commit> } | null>>();
  constructor(readonly folder: string) {}

  /** The clone of `owner/name`, when the folder holds one (a name with `..` or an absolute path is none). */
  pathOf(repo: string): string | null {
    if (!/^[^/\\]+\/[^/\\]+$/.test(repo) || repo.split("/").some((p) => p === "." || p === "..")) return null;
    const path = join(this.folder, repo);
    return existsSync(path) ? path : null;
  }

  open(repo: string): Promise<{ git: GitRepository; commits: Map<string, Commit> } | null> {
    let got = this.opened.get(repo);
    if (!got) {
      const path = this.pathOf(repo);
      got =
        path === null
          ? Promise.resolve(null)
          : openRepository(path).then(async (git) =>
              git === null ? null : { git, commits: new Map((await git.logCommits()).map((c) => [c.sha, c])) },
            );
      this.opened.set(repo, got);
    }
    return got;
  }

  async close(): Promise<void> {
    for (const p of this.opened.values()) await (await p)?.git.close();
  }
}

/**
 * A group replayed on its clone (metrics.md §1b, as for transcripts without Entire: a commit's moment is its
 * `commit_date`, a call precedes the first commit whose moment is later than its result; the tables keep one
 * copy of each session, not one per checkpoint). Null rows with a note when the clone lacks a commit or the
 * session could not be built; the reasons a clone does not lift (a merge, a session without rows) stay.
 */
export async function swechatGroupFromClone(
  group: SwechatGroup,
  clones: SwechatClones,
  sessions: ReadonlyMap<string, Session>,
  meta: SwechatMeta,
  patches: ReadonlyMap<string, SpooledPatch>,
  sessionRows: ReadonlyMap<string, SessionRow>,
  lines: LineRangeRow[] | undefined,
): Promise<{ rows: GroupUnitRow[]; diagnostics: Diagnostic[]; replayed?: ReplayedOnClone }> {
  const fallback = swechatGroupRows(group, meta, patches, sessionRows);
  if (reasonOf(group, patches) !== "group-commit-unreadable") return fallback;
  const sink = new DiagnosticSink("swechat", null, group.sessions[0]);
  const clone = await clones.open(group.repo);
  const missing = group.commits.filter((c) => !clone?.commits.has(c.commit_sha));
  if (clone === null || missing.length > 0) {
    sink.info(
      "group-commit-unreadable",
      `group ${group.group_id} of ${group.repo}: ${clone === null ? `the clone at ${clones.pathOf(group.repo)} cannot be opened` : `commit(s) ${missing.map((c) => c.commit_sha.slice(0, 12)).join(", ")} are not in the clone at ${clones.pathOf(group.repo)} (fetch them)`}: not attributed`,
    );
    return { rows: fallback.rows, diagnostics: sink.rows };
  }
  const commits: GroupCommit[] = group.commits
    .map((c) => {
      const commit = clone.commits.get(c.commit_sha)!;
      return { commit, moment: c.commit_date ?? commit.committer_time * 1000 };
    })
    .sort((a, b) => a.moment - b.moment || (a.commit.sha < b.commit.sha ? -1 : 1));
  const members = group.sessions.map((id) => cloneMember(id, sessions.get(id), group, commits, meta));
  const work: GroupWork = { edited: [], last_call_ms: null };
  const rows = await attributeGroup({ repo: group.repo, git: clone.git, members, commits, lines, work }, sink);
  const entire = new Map(fallback.rows.map((r) => [r.session_id, r]));
  for (const r of rows) {
    const e = entire.get(r.session_id)!;
    r.entire_agent_lines = e.entire_agent_lines;
    r.entire_total_committed = e.entire_total_committed;
    r.entire_agent_percentage = e.entire_agent_percentage;
  }
  const to = Math.max(commits[commits.length - 1].moment, work.last_call_ms ?? Number.NEGATIVE_INFINITY);
  const at = work.edited.length > 0 ? { from: commits[0].moment, to, edited: work.edited } : null;
  return { rows, diagnostics: sink.rows, replayed: { members, commits, work: at } };
}

/** A group replayed on a clone, for `group-work-outside` (./entire-groups.ts): its members, commits, and when and where it worked. */
export interface ReplayedOnClone {
  members: readonly { session_id: string }[];
  commits: readonly GroupCommit[];
  work: { from: number; to: number; edited: string[] } | null;
}

/**
 * metrics.md §1b `group-work-outside` on one clone: its commits that no row of the commits table names (no
 * checkpoint), made while a replayed group was at work, that change a file the group's agents edited.
 */
export async function workOutsideOnClone(
  repo: string,
  replayed: readonly ReplayedOnClone[],
  clones: SwechatClones,
  meta: SwechatMeta,
): Promise<Diagnostic[]> {
  const clone = await clones.open(repo);
  if (clone === null || replayed.length === 0) return [];
  const named = new Set<string>();
  for (const [pk, commits] of meta.commitsByCheckpoint)
    if (repoOfCheckpoint(pk) === repo) for (const c of commits) named.add(c.commit_sha);
  return workOutsideGroups(
    clone.git,
    replayed,
    replayed.map((r) => r.work),
    (c) => named.has(c.sha),
    "swechat",
  );
}

/** A session of a cloned group (memberFromSession), or a member without a readable session. */
function cloneMember(
  id: string,
  session: Session | undefined,
  group: SwechatGroup,
  commits: readonly GroupCommit[],
  meta: SwechatMeta,
): GroupMember {
  const base = {
    session_id: id,
    checkpoints: group.checkpoints,
    entire: [],
    touched: meta.sessions.get(id)?.files_touched ?? [],
  };
  if (session === undefined)
    return {
      ...base,
      agent: meta.sessions.get(id)?.agent ?? null,
      model: null,
      parts: null,
      problem: "unreadable",
      started_ms: Number.POSITIVE_INFINITY,
    };
  return memberFromSession(session, commits, base);
}
