/**
 * Finding the groups of an Entire repository (metrics.md §1b): connected
 * components of the graph whose nodes are sessions and (representative)
 * commits, with an edge where a session's checkpoint is on the commit; each
 * commit's moment; which of a session's folders each commit's calls reach.
 */
import { connected } from "../attribution/connected";
import type { GroupCommit } from "../attribution/attribute-group";
import type { CandidateUnit } from "../ingest/entire";
import type { GitRepository } from "../ingest/git/repo";
import { type Commit, type Diagnostic, DiagnosticSink } from "../model";
import type { EntireGroupJob, EntireGroupMember } from "./entire-group-job";
import type { EntireSessionJob } from "./entire-session-job";

/** Old Entire ids: each checkpoint stored only its own part of the session. */
const DATED = /^\d{4}-\d{2}-\d{2}-/;

export function findEntireGroups(
  units: readonly CandidateUnit[],
  sessionJobs: readonly EntireSessionJob[],
  gitDir: string,
  repo: string,
): EntireGroupJob[] {
  const jobBySession = new Map<string, EntireSessionJob>();
  for (const j of sessionJobs) for (const f of j.folders) jobBySession.set(f.session.session_id, j);
  const { link, rootOf: find } = connected();
  for (const u of units) link(`s:${u.session_id}`, `c:${u.commit_sha}`);
  const components = new Map<string, CandidateUnit[]>();
  for (const u of units) {
    const root = find(`s:${u.session_id}`);
    const list = components.get(root) ?? [];
    list.push(u);
    components.set(root, list);
  }
  const jobs: EntireGroupJob[] = [];
  for (const groupUnits of components.values()) {
    const commits = momentsOf(groupUnits);
    const firstCommitOf = new Map<string, number>();
    commits.forEach((c, k) => {
      for (const u of groupUnits)
        if (u.commit_sha === c.commit.sha && !firstCommitOf.has(u.checkpoint_id)) firstCommitOf.set(u.checkpoint_id, k);
    });
    const members: EntireGroupMember[] = [];
    for (const sessionId of [...new Set(groupUnits.map((u) => u.session_id))].sort()) {
      const job = jobBySession.get(sessionId);
      if (job === undefined) continue;
      const folders = job.folders
        .filter((f) => firstCommitOf.has(f.checkpoint_id))
        .map((folder) => ({ folder, firstCommit: firstCommitOf.get(folder.checkpoint_id)! }))
        .sort(
          (a, b) =>
            instant(a.folder.session.created_at) - instant(b.folder.session.created_at) ||
            a.firstCommit - b.firstCommit,
        );
      members.push({ session_id: job.sessionId, parts_per_checkpoint: DATED.test(job.sessionId), folders });
    }
    jobs.push({ gitDir, repo, members, commits });
  }
  return jobs.sort(
    (a, b) => a.commits[0].moment - b.commits[0].moment || (a.commits[0].commit.sha < b.commits[0].commit.sha ? -1 : 1),
  );
}

/** `created_at` read as an instant (the field mixes time zones); unknown last. */
function instant(text: string | null): number {
  const t = Date.parse(text ?? "");
  return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
}

/**
 * The group's commits in the order of their moments: a commit's moment is the `created_at` of its checkpoint's
 * session folders nearest its committer date (Entire writes them as the commit is made); a checkpoint on several
 * commits gives it only to the first of them (by committer date); the others, and commits without a dated folder,
 * take their committer date. Ties: committer date, then sha.
 */
function momentsOf(units: readonly CandidateUnit[]): GroupCommit[] {
  const commits = new Map<string, Commit>();
  for (const u of units) commits.set(u.commit_sha, u.commit);
  const byCommitter = (a: Commit, b: Commit) =>
    a.committer_time - b.committer_time || (a.sha < b.sha ? -1 : a.sha > b.sha ? 1 : 0);
  const candidates = new Map<string, number[]>();
  const checkpoints = new Map<string, CandidateUnit[]>();
  for (const u of units) checkpoints.set(u.checkpoint_id, [...(checkpoints.get(u.checkpoint_id) ?? []), u]);
  for (const list of checkpoints.values()) {
    const first = [...new Map(list.map((u) => [u.commit_sha, u.commit])).values()].sort(byCommitter)[0];
    const times = list.map((u) => instant(u.session.created_at)).filter(Number.isFinite);
    candidates.set(first.sha, [...(candidates.get(first.sha) ?? []), ...times]);
  }
  const out = [...commits.values()].map((commit) => {
    const committed = commit.committer_time * 1000;
    const times = candidates.get(commit.sha) ?? [];
    const moment =
      times.length === 0
        ? committed
        : times.reduce((best, t) => (Math.abs(t - committed) < Math.abs(best - committed) ? t : best));
    return { commit, moment };
  });
  return out.sort((a, b) => a.moment - b.moment || byCommitter(a.commit, b.commit));
}

/**
 * metrics.md §1b: a session's work that went into a commit outside its group (a commit without a trailer, or
 * whose checkpoint holds no session folder) counts as not surviving. Each such commit made while a group was at
 * work (from its earliest commit's moment to its last call, or its last commit's moment if later) that changes a
 * file the group's agents edited is named, once per group.
 */
export async function workOutsideGroups(
  repo: GitRepository,
  groups: readonly { members: readonly { session_id: string }[]; commits: readonly GroupCommit[] }[],
  work: readonly ({ from: number; to: number; edited: string[] } | null)[],
  inAGroup: (c: Commit) => boolean,
  source = "entire",
): Promise<Diagnostic[]> {
  if (!work.some((w) => w !== null)) return [];
  const outside = (await repo.logCommits()).filter((c) => !inAGroup(c));
  const sink = new DiagnosticSink(source, null, null);
  const changed = new Map<string, Set<string>>();
  for (const [i, w] of work.entries()) {
    if (w === null) continue;
    const edited = new Set(w.edited);
    const own = new Set(groups[i].commits.map((c) => c.commit.sha));
    for (const c of outside) {
      const t = c.committer_time * 1000;
      if (t < w.from || t > w.to || own.has(c.sha)) continue;
      if (!changed.has(c.sha)) changed.set(c.sha, new Set(((await repo.changedFiles(c.sha)) ?? []).map((f) => f.path)));
      const hit = [...changed.get(c.sha)!].filter((p) => edited.has(p));
      if (hit.length === 0) continue;
      sink.sessionId = groups[i].members[0]?.session_id ?? null;
      sink.info(
        "group-work-outside",
        `commit ${c.sha.slice(0, 12)} ("${c.subject.slice(0, 60)}") changes ${hit.slice(0, 3).join(", ")}${hit.length > 3 ? ", …" : ""}, which the agents of group ${groups[i].members.map((m) => m.session_id.slice(0, 8)).join("+")} (commits ${groups[i].commits.map((x) => x.commit.sha.slice(0, 8)).join(", ")}) edited while at work, but carries no checkpoint with a session: work that went into it counts as not surviving`,
      );
    }
  }
  return sink.rows;
}
