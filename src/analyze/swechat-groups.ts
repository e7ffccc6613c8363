/**
 * Groups of metrics.md §1b from the SWE-chat tables: connected components of
 * the graph whose nodes are sessions and (representative) commits, with an
 * edge where one of the session's checkpoints (by every relation units.ts
 * reads) is on the commit. The tables hold each commit's patch, not its file
 * states, so no group can be replayed from them: every group gets its rows
 * with the first reason that applies (`group-merge-commit`, then
 * `group-transcript-missing` for a session a checkpoint names that has no
 * conversation rows, then `group-commit-unreadable`) and null counts, and a
 * note per group saying what to pass to attribute it (a clone of the
 * repository, which holds Entire's checkpoints: the Entire path replays it).
 *
 * Where §1b is silent for this input: a commit's moment is its `commit_date`
 * (the tables keep no folder `created_at`), ties by sha; copies are the ones
 * units.ts merges (same patch fingerprint within a checkpoint); `entire_*`
 * repeat the sessions row's session-level attribution, as the session's units do.
 */
import { groupIdOf } from "../attribution/attribute-group";
import {
  type CommitMetaRow,
  type LinkInput,
  linkCheckpoints,
  makeUnitLinker,
  type SpooledPatch,
  type SwechatMeta,
} from "../ingest/swechat";
import {
  type Diagnostic,
  DiagnosticSink,
  GROUP_REASONS,
  type GroupReason,
  type GroupUnitRow,
  type SessionRow,
} from "../model";

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
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    if (!parent.has(x)) parent.set(x, x);
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const edges: { session: string; key: string; commit: CommitMetaRow; checkpoint: string }[] = [];
  for (const id of [...everyone.keys()].sort()) {
    for (const u of linker.unitsOf(id, patches)) {
      const key = `c:${repoOfCheckpoint(u.checkpoint_pk)}\0${u.commit.commit_sha}`;
      edges.push({ session: id, key, commit: u.commit, checkpoint: u.checkpoint_pk });
      parent.set(find(`s:${id}`), find(key));
    }
  }
  const components = new Map<string, typeof edges>();
  for (const e of edges) {
    const root = find(e.key);
    components.set(root, [...(components.get(root) ?? []), e]);
  }
  const groups: SwechatGroup[] = [];
  for (const list of components.values()) {
    const sessions = [...new Set(list.map((e) => e.session))].sort();
    // A component of no-rows sessions only is no analysed session's group.
    if (!sessions.some((s) => analysed.has(s))) continue;
    const commits = [...new Map(list.map((e) => [e.commit.commit_sha, e.commit])).values()].sort(byMoment);
    const checkpoints: string[] = [];
    for (const c of commits)
      for (const e of list)
        if (e.commit.commit_sha === c.commit_sha && !checkpoints.includes(checkpointIdOf(e.checkpoint)))
          checkpoints.push(checkpointIdOf(e.checkpoint));
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
        )}${group.commits.length > 5 ? ", …" : ""}) is not attributed: the SWE-chat tables hold the commits' patches, not their file states, which the joint replay of metrics.md §1b needs. To attribute it, clone the repository with its checkpoints (git clone https://github.com/${group.repo}) and run \`swe-chat-eval analyze <clone>\`: the clone's entire/checkpoints/v1 branch gives the same sessions and commits, and its group_units rows carry this group_id when the clone holds these commits`,
    );
  return { rows, diagnostics: sink.rows };
}
