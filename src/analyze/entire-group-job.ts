/**
 * The per-group work of an Entire repository (metrics.md §1b), as a job a
 * worker thread can run: read the stored copies of each session of the group,
 * take the calls the group holds (from the start of its slice in its earliest
 * checkpoint of the group to the end of its copy in its latest; old
 * `YYYY-MM-DD-<uuid>` sessions, stored a part per checkpoint, joined in
 * checkpoint order), say which commit each call precedes first, and hand the
 * group to `attributeGroup`.
 */
import { callsInSlice } from "../attribution/replay-unit";
import {
  attributeGroup,
  type GroupCommit,
  type GroupMember,
  type GroupWork,
  type MemberPart,
} from "../attribution/attribute-group";
import { dominantModel } from "../effort";
import { type GitRepository, openRepository } from "../ingest/git/repo";
import { type Diagnostic, DiagnosticSink, type GroupUnitRow, type LineRangeRow, type Session } from "../model";
import { type CopyReader, type EntireSessionJob, readCheckpointCopy } from "./entire-session-job";

export interface EntireGroupMember {
  /** The id the tables write (as Entire recorded it). */
  session_id: string;
  /** Old sessions (`YYYY-MM-DD-<uuid>`): each checkpoint stored only its own part. */
  parts_per_checkpoint: boolean;
  /** The session's folders in the group, in the order of their `created_at`, each with the first commit (index) it precedes. */
  folders: { folder: EntireSessionJob["folders"][number]; firstCommit: number }[];
}

export interface EntireGroupJob {
  gitDir: string;
  repo: string;
  members: EntireGroupMember[];
  /** Sorted by moment. */
  commits: GroupCommit[];
  /** Gather `line_ranges` (see `AnalyzeRequest.lines`). */
  lines?: boolean;
}

export interface EntireGroupResult {
  group_units: GroupUnitRow[];
  line_ranges: LineRangeRow[];
  diagnostics: Diagnostic[];
  /** When the group was at work (ms) and the files its agents edited, for `group-work-outside`; null when not replayed. */
  work: { from: number; to: number; edited: string[] } | null;
}

const repositories = new Map<string, Promise<GitRepository | null>>();

/** Worker entry (see ./parallel.ts). */
export const runJob = (job: EntireGroupJob) => runEntireGroupJob(job);

/** `read`: how a member's copies are read (default: from git; a lone member's session job hands over its parsed ones). */
export async function runEntireGroupJob(
  job: EntireGroupJob,
  given?: GitRepository,
  read?: CopyReader,
): Promise<EntireGroupResult> {
  // A group's notes carry its first session's id: they are found (and sharded) with the group's rows.
  const sink = new DiagnosticSink("entire", null, job.members[0]?.session_id ?? null);
  try {
    let repoPromise = given ? Promise.resolve(given) : repositories.get(job.gitDir);
    if (!repoPromise) repositories.set(job.gitDir, (repoPromise = openRepository(job.gitDir)));
    const repo = await repoPromise;
    if (!repo) {
      sink.error("entire-repository-unreadable", `${job.gitDir} could not be opened in a worker`);
      return { group_units: [], line_ranges: [], diagnostics: sink.rows, work: null };
    }
    const members: GroupMember[] = [];
    const readCopy: CopyReader =
      read ?? ((folder, sessionId, quiet) => readCheckpointCopy(repo, folder, sessionId, quiet));
    for (const m of job.members) members.push(await memberOf(m, readCopy));
    const work: GroupWork = { edited: [], last_call_ms: null };
    const lines: LineRangeRow[] | undefined = job.lines ? [] : undefined;
    const rows = await attributeGroup({ repo: job.repo, git: repo, members, commits: job.commits, work, lines }, sink);
    const from = job.commits[0].moment;
    const to = Math.max(job.commits[job.commits.length - 1].moment, work.last_call_ms ?? Number.NEGATIVE_INFINITY);
    return {
      group_units: rows,
      line_ranges: lines ?? [],
      diagnostics: sink.rows,
      work: work.edited.length > 0 ? { from, to, edited: work.edited } : null,
    };
  } catch (e) {
    sink.error(
      "group-failed",
      `group of commits ${job.commits.map((c) => c.commit.sha.slice(0, 8)).join(", ")}: internal error (${e instanceof Error ? e.message : String(e)}); its rows are left out`,
    );
    return { group_units: [], line_ranges: [], diagnostics: sink.rows, work: null };
  }
}

/** A session of the group: its copies read (quietly: the strict units already reported on them) and its calls placed. */
async function memberOf(m: EntireGroupMember, readCopy: CopyReader): Promise<GroupMember> {
  const quiet = new DiagnosticSink("entire", null, m.session_id);
  const copies = [];
  for (const f of m.folders)
    copies.push({
      ...(await readCopy(f.folder, m.session_id, quiet)),
      firstCommit: f.firstCommit,
      folder: f.folder,
    });
  const base = {
    session_id: m.session_id,
    checkpoints: m.folders.map((f) => f.folder.checkpoint_id),
    entire: m.folders.flatMap((f) =>
      f.folder.session.initial_attribution ? [f.folder.session.initial_attribution] : [],
    ),
    touched: [...new Set(m.folders.flatMap((f) => f.folder.session.files_touched))],
  };
  const unread = copies.find((c) => c.session === null);
  if (unread !== undefined) {
    const stored = unread.folder.parts !== null || (unread.folder.compact ?? null) !== null;
    return {
      ...base,
      agent: unread.folder.session.agent_label,
      model: unread.folder.session.model,
      parts: null,
      problem: stored ? "unreadable" : "missing",
      started_ms: Number.POSITIVE_INFINITY,
    };
  }
  const latest = copies[copies.length - 1];
  const session = latest.session as Session;
  let parts: MemberPart[];
  if (m.parts_per_checkpoint) {
    parts = copies.map((c) => ({
      session: c.session as Session,
      calls: callsInSlice(c.session as Session, c.start).map((call) => ({ call, firstCommit: c.firstCommit })),
    }));
  } else {
    // Each later copy holds the earlier ones: a call is in the copy of every checkpoint whose copy reaches its result.
    const sameKind = copies.filter((c) => c.kind === latest.kind);
    const calls = callsInSlice(session, copies[0].kind === latest.kind ? copies[0].start : latest.start).map((call) => {
      const at = call.result_record ?? call.record;
      const holders = sameKind.filter((c) => at <= (c.session as Session).record_count).map((c) => c.firstCommit);
      return { call, firstCommit: holders.length > 0 ? Math.min(...holders) : latest.firstCommit };
    });
    parts = [{ session, calls }];
  }
  return {
    ...base,
    agent: session.agent,
    model: dominantModel(session.api_calls) ?? latest.folder.session.model,
    parts,
    problem: null,
    started_ms: session.record_times[0] ?? Number.POSITIVE_INFINITY,
  };
}
