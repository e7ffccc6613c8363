import { availableParallelism } from "node:os";
import { type CandidateUnit, linkUnits, readEntireRepository } from "../ingest/entire";
import { repositoryName } from "../ingest/git/repo-name";
import type { FormatProbe } from "../ingest/probe-format";
import type { HistoryAhead } from "./analyze-transcripts";
import { type CheckpointSession, DiagnosticSink, type RowSpool, spillRows } from "../model";
import type { AnalysisRows } from "../model";
import type { EntireSessionJob, EntireSessionResult } from "./entire-session-job";
import { type EntireJob, type EntireJobResult, runEntireJob } from "./entire-job";
import { jobModulePath, packageRoot } from "./package-root";
import type { EntireGroupJob, EntireGroupResult } from "./entire-group-job";
import { findEntireGroups, workOutsideGroups } from "./entire-groups";
import { mapInWorkers } from "./parallel";
import { groupIdOf } from "../attribution/attribute-group";
import { normalisedSessionId, type Shard, sessionFilter } from "./shard";

export interface AnalyzeOptions {
  idleLimitS: number;
  /** Worker threads for per-session work; default: the machine's cores when there is enough work, else inline. */
  threads?: number;
  /** See `AnalyzeRequest.parsedCopiesBudgetBytes`. */
  parsedCopiesBudgetBytes?: number;
  onProgress?: (done: number, total: number, label: string) => void;
  /** Only this share of the sessions and groups (`--shard K/N`); see ./shard.ts. */
  shard?: Shard;
  /** Filled with every session's group (normalised session id → group id) found before the work is cut. */
  shardGroups?: Map<string, string>;
  /** See `AnalyzeRequest.lines`. */
  lines?: boolean;
  /** File heads read once for the export and the transcript searches of this analysis. */
  probe?: FormatProbe;
  /** `--repo`'s history being read while the files are probed (see `readHistoryAhead`). */
  historyAhead?: HistoryAhead;
  /** See `AnalyzeRequest.spool`: rows are spilled to it wherever they are in their final order. */
  spool?: RowSpool;
}

/**
 * Below this many sessions, starting workers costs more than it saves (each loads the bundle, about 0.3 s, or
 * compiles src/ through tsx, about 1.5 s, where there is no build; measured on the development mirror, 35 sessions:
 * 2.3 s inline, 2.5 s on 2 threads).
 */
const MIN_SESSIONS_FOR_WORKERS = 100;

/**
 * The whole job on one git repository with Entire checkpoints: units from
 * trailers and checkpoints (metrics.md §1), then per session (on worker
 * threads when there are many) its transcripts read by content, replay and
 * attribution per unit against git's file states, and its session and
 * tool-call rows. Returns false when the path is not such a repository.
 */
export async function analyzeEntireRepository(
  path: string,
  options: AnalyzeOptions,
  out: AnalysisRows,
): Promise<boolean> {
  const sink = new DiagnosticSink("entire", path);
  const entire = await readEntireRepository(path, sink);
  if (entire === null) return false;
  try {
    const repo = await repositoryName(entire.repo, path);
    const units = linkUnits(entire.checkpoints, entire.commits, sink);
    out.diagnostics.push(...sink.rows);

    const folders = new Map<string, EntireSessionJob["folders"]>();
    for (const cp of entire.checkpoints) {
      const source = entire.sources.get(cp.checkpoint_id);
      for (const s of cp.sessions) {
        const stored = source?.sessions.find((x) => x.index === s.index);
        const transcript = stored?.transcript ?? null;
        const parts = s.transcript_path !== null && transcript && !transcript.blob_missing ? transcript.parts : null;
        const fallback = stored?.compact_fallback ?? null;
        const compact = fallback === null ? null : { parts: fallback.transcript.parts, start: fallback.start };
        let list = folders.get(s.session_id);
        if (!list) folders.set(s.session_id, (list = []));
        list.push({ checkpoint_id: cp.checkpoint_id, session: s as CheckpointSession, parts, compact });
      }
    }
    const unitsBySession = new Map<string, CandidateUnit[]>();
    for (const u of units) {
      let list = unitsBySession.get(u.session_id);
      if (!list) unitsBySession.set(u.session_id, (list = []));
      list.push(u);
    }
    const sessionIds = [...folders.keys()].sort();
    const allJobs = sessionIds.map(
      (sessionId): EntireSessionJob => ({
        gitDir: entire.repo.gitDir,
        repo,
        idleLimitS: options.idleLimitS,
        sessionId: recordedIdOf(folders.get(sessionId) ?? [], sessionId),
        folders: folders.get(sessionId) ?? [],
        units: unitsBySession.get(sessionId) ?? [],
        parsedBudgetBytes: options.parsedCopiesBudgetBytes,
        lines: options.lines === true,
      }),
    );

    const { jobs, groups } = shardOf(allJobs, findEntireGroups(units, allJobs, entire.repo.gitDir, repo), options);
    const root = packageRoot();
    const threads =
      options.threads ??
      (sessionIds.length >= MIN_SESSIONS_FOR_WORKERS && root ? Math.min(availableParallelism(), 8) : 1);
    options.onProgress?.(0, jobs.length, "sessions");
    const checkpointSessions: NonNullable<AnalysisRows["checkpoint_sessions"]> = [];
    for (const g of groups) g.lines = options.lines === true;
    // A group of one session is worked out in that session's job, from the copies it parsed; the others run as
    // group jobs after the session jobs, in the same pool.
    const sessionIndex = new Map(jobs.map((j, i) => [j.sessionId, i]));
    const loneGroupOf = new Map<number, number>();
    groups.forEach((g, k) => {
      const i = g.members.length === 1 ? sessionIndex.get(g.members[0].session_id) : undefined;
      if (i !== undefined && !loneGroupOf.has(i)) loneGroupOf.set(i, k);
    });
    const loneGroups = new Set(loneGroupOf.values());
    const groupJobs = groups.map((job, k) => ({ job, k })).filter(({ k }) => !loneGroups.has(k));
    const all: EntireJob[] = [
      ...jobs.map((job, i): EntireJob => {
        const k = loneGroupOf.get(i);
        return k === undefined ? { kind: "session", job } : { kind: "session", job, group: groups[k] };
      }),
      ...groupJobs.map(({ job }): EntireJob => ({ kind: "group", job })),
    ];
    // Group rows go to the tables in group order, whichever job made them.
    const groupResults: (EntireGroupResult | undefined)[] = new Array(groups.length);
    const work: EntireGroupResult["work"][] = [];
    let nextGroup = 0;
    const addGroupsInOrder = () => {
      for (; nextGroup < groups.length && groupResults[nextGroup] !== undefined; nextGroup++) {
        if (nextGroup === 0) options.onProgress?.(0, groups.length, "groups");
        const result = groupResults[nextGroup]!;
        addGroupResult(result, out);
        work[nextGroup] = result.work;
        groupResults[nextGroup] = undefined;
        options.onProgress?.(nextGroup + 1, groups.length, "groups");
      }
    };
    let sessionsDone = 0;
    await mapInWorkers<EntireJob, EntireJobResult>(all, root ? jobModulePath(root, "entire-job") : "entire-job", {
      threads: root ? threads : 1,
      run: (job) => runEntireJob(job, entire.repo),
      onResult: (done, index) => {
        // Results arrive in job order: what `out` holds so far is in its final order.
        spillRows(out, options.spool);
        if (done.kind === "session") {
          addSessionResult(done.result, out, checkpointSessions);
          const k = loneGroupOf.get(index);
          if (k !== undefined)
            groupResults[k] = done.group ?? { group_units: [], line_ranges: [], diagnostics: [], work: null };
          options.onProgress?.(++sessionsDone, jobs.length, jobs[index].sessionId);
        } else groupResults[groupJobs[index - jobs.length].k] = done.result;
        // Session rows all come first (every session job precedes every group job): groups wait for them.
        if (sessionsDone === jobs.length) addGroupsInOrder();
      },
    });
    addGroupsInOrder();
    const withFolders = new Set(entire.checkpoints.filter((c) => c.sessions.length > 0).map((c) => c.checkpoint_id));
    out.diagnostics.push(
      ...(await workOutsideGroups(entire.repo, groups, work, (c) =>
        c.checkpoint_ids.some((id) => withFolders.has(id)),
      )),
    );
    checkpointSessions.sort((a, b) =>
      a.checkpoint_id < b.checkpoint_id
        ? -1
        : a.checkpoint_id > b.checkpoint_id
          ? 1
          : a.session_index - b.session_index,
    );
    (out.checkpoint_sessions ??= []).push(...checkpointSessions);
  } finally {
    await entire.close();
  }
  return true;
}

/** The session jobs and group jobs of the shard: a group's sessions go with the group. */
function shardOf(
  jobs: EntireSessionJob[],
  groups: EntireGroupJob[],
  { shard, shardGroups }: AnalyzeOptions,
): { jobs: EntireSessionJob[]; groups: EntireGroupJob[] } {
  if (shard === undefined || shard.count === 1) return { jobs, groups };
  const groupOf = shardGroups ?? new Map<string, string>();
  for (const g of groups) {
    const id = groupIdOf(g.commits.map((c) => c.commit.sha));
    for (const m of g.members) groupOf.set(normalisedSessionId(m.session_id), id);
  }
  const keep = sessionFilter(shard, groupOf);
  return {
    jobs: jobs.filter((j) => keep(j.sessionId)),
    groups: groups.filter((g) => g.members.length > 0 && keep(g.members[0].session_id)),
  };
}

/**
 * The id the tables write for a session (metrics.md §1 "Identity"): as Entire's metadata records it, so the
 * tables join with SWE-chat's and Entire's; old sessions are `YYYY-MM-DD-<uuid>` (the dated form, when any of
 * the session's folders records it).
 */
function recordedIdOf(folders: EntireSessionJob["folders"], normalised: string): string {
  const recorded = folders.map((f) => f.session.recorded_session_id ?? normalised);
  return recorded.find((id) => id !== normalised) ?? normalised;
}

/** A session job's rows into `out` (results arrive in job order, so the tables are the same on any thread count). */
function addSessionResult(
  result: EntireSessionResult,
  out: AnalysisRows,
  checkpointSessions: NonNullable<AnalysisRows["checkpoint_sessions"]>,
): void {
  out.units.push(...result.units);
  out.sessions.push(...result.sessions);
  out.tool_calls.push(...result.tool_calls);
  out.diagnostics.push(...result.diagnostics);
  checkpointSessions.push(...result.checkpoint_sessions);
  (out.prompts ??= []).push(...result.prompts);
  (out.unit_files ??= []).push(...result.unit_files);
  if (result.line_ranges.length > 0) (out.line_ranges ??= []).push(...result.line_ranges);
}

/** A group job's rows (metrics.md §1b) into `out`, in group order. */
function addGroupResult(result: EntireGroupResult, out: AnalysisRows): void {
  (out.group_units ??= []).push(...result.group_units);
  if (result.line_ranges.length > 0) (out.line_ranges ??= []).push(...result.line_ranges);
  out.diagnostics.push(...result.diagnostics);
}
