/**
 * Agent transcripts (Claude Code, Codex, Gemini CLI, OpenCode, Pi: a folder or
 * one file) with, optionally, the repository they edited. Each transcript is
 * one job of the worker pool (./transcript-session-job.ts): parsed when its
 * job runs, linked and attributed there, released after. What needs every
 * session is decided here from the few ids the jobs hand back: the calls a
 * resumed session repeats from an earlier file (that session's job runs again
 * without them), and the commits linked to several sessions.
 */
import { connected } from "../attribution/connected";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { findTranscripts, type FoundTranscript } from "../ingest/find-transcripts";
import { type GitRepository, openRepository } from "../ingest/git/repo";
import { repositoryName } from "../ingest/git/repo-name";
import {
  addAmbiguity,
  type AnalysisRows,
  type Commit,
  DiagnosticSink,
  explainExclusion,
  spillRows,
  spillRowsAt,
} from "../model";
import type { AnalyzeOptions } from "./analyze-entire";
import { jobModulePath, packageRoot } from "./package-root";
import { mapInWorkers } from "./parallel";
import { repeatedAcrossFiles } from "./repeats-across-files";
import {
  byMoment,
  forgetRepository,
  runTranscriptGroupJob,
  runTranscriptSessionJob,
  shareRepository,
  type TranscriptGroupJob,
  type TranscriptGroupResult,
  type TranscriptSessionJob,
  type TranscriptSessionResult,
} from "./transcript-session-job";

export { LINK_WINDOW_S } from "./transcript-session-job";
export { findTranscripts, readFoundTranscript, type FoundTranscript } from "../ingest/find-transcripts";

/**
 * Below this much work, starting workers costs more than it saves (each loads the bundle, about 0.3 s, or compiles
 * src/ through tsx, about 1.5 s, where there is no build).
 */
const MIN_SESSIONS_FOR_WORKERS = 16;
const MIN_BYTES_FOR_WORKERS = 48 * 1024 * 1024;
/** Jobs each thread runs at once: a job waits on git (cat-file, diff-tree) about half its time, another computes then. */
const JOBS_PER_THREAD = 2;

/** Reads the transcripts at `path` into `out`; returns the number found. */
export async function analyzeTranscripts(
  path: string,
  repoPath: string | null,
  options: AnalyzeOptions,
  out: AnalysisRows,
): Promise<number> {
  const sink = new DiagnosticSink("transcripts", path);
  const found = findTranscripts(path, sink, options.probe);
  out.diagnostics.push(...sink.rows);
  if (found.length === 0) return 0;
  // Each session's rows go to the spool as its job delivers them, at the session's place (an export read from
  // the same folder came first).
  spillRows(out, options.spool);
  // A lone session's group rows are made in its job too; their line runs wait at a second place per session until
  // the group order is known.
  const places = options.spool
    ? { spool: options.spool, first: options.spool.reserve(found.length), stash: options.spool.reserve(found.length) }
    : null;
  const deliver = (result: TranscriptSessionResult, i: number) => {
    if (places === null) return;
    spillRowsAt(result, places.spool, places.first + i);
    if (result.alone) spillRowsAt(result.alone, places.spool, places.stash + i);
  };
  const ahead = options.historyAhead?.repoPath === repoPath ? options.historyAhead : undefined;
  // Taken: closed below with the repository, not by the caller.
  if (ahead) options.historyAhead = undefined;
  const repo = ahead ? await ahead.repo : repoPath ? await openRepository(repoPath, { allowSubdirectory: true }) : null;
  const scratch = repo ? mkdtempSync(join(tmpdir(), "swe-chat-eval-")) : null;
  try {
    // The repository's history is read while the workers start (each loads the code, about half a second).
    const prepared = (async () => {
      const context = repo && repoPath ? await repositoryContext(repo, repoPath, scratch!, out, ahead?.commits) : null;
      const notes = new DiagnosticSink(repoPath ? "git" : "transcripts", repoPath ?? path);
      if (repoPath && !repo)
        notes.error(
          "repo-unreadable",
          `--repo ${repoPath} is not a git repository: sessions are read, no unit is formed`,
        );
      else if (!repoPath)
        notes.info("no-repository", "no --repo given: sessions and tool calls are read, no commit is attributed");
      out.diagnostics.push(...notes.rows);
      const job = (f: FoundTranscript): TranscriptSessionJob => ({
        found: f,
        gitDir: repo?.gitDir ?? null,
        repoName: context?.name ?? null,
        commitsFile: context?.commitsFile ?? null,
        idleLimitS: options.idleLimitS,
        lines: options.lines === true,
      });
      return { context, job };
    })();
    const results = await runJobs(
      found,
      prepared.then((p) => found.map(p.job)),
      options,
      "transcripts",
      deliver,
    );
    const { context, job } = await prepared;
    // A resumed session's job runs again without the calls an earlier file holds.
    const repeats = repeatedAcrossFiles(
      results.map((r) => ({
        name: r.file,
        claude_code: r.tool_ids.length + r.api_ids.length > 0,
        started_ms: r.started_ms,
        tool_ids: r.tool_ids,
        api_ids: r.api_ids,
      })),
    );
    const again = [...repeats.keys()].sort((a, b) => a - b);
    const rerun = await runJobs(
      again.map((i) => found[i]),
      again.map((i) => ({ ...job(found[i]), repeated: repeats.get(i) })),
      options,
      "resumed sessions",
      (result, k) => deliver(result, again[k]),
    );
    again.forEach((i, k) => (results[i] = rerun[k]));
    collect(results, out);
    const finalJobs = found.map((f, i) => (repeats.has(i) ? { ...job(f), repeated: repeats.get(i) } : job(f)));
    // A lone group's line runs, waiting at their session's second place, go where the group comes; those of a
    // session that forms no group are dropped, as they are without a spool.
    const placed = new Set<number>();
    const placeAlone =
      places &&
      ((i: number) => {
        placed.add(i);
        places.spool.move(places.stash + i, places.spool.reserve(1));
      });
    if (context) await analyzeGroups(transcriptGroups(results, finalJobs, context.commits), options, out, placeAlone);
    if (places) found.forEach((_, i) => placed.has(i) || places.spool.put(places.stash + i, {}));
  } finally {
    if (repo) forgetRepository(repo.gitDir);
    await repo?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  return found.length;
}

/**
 * `--repo` opened and its history read ahead, while the files are still being probed (the history is git's work,
 * about a second for 3 500 commits with patch ids). `analyzeTranscripts` takes it (and closes it);
 * {@link discardHistoryAhead} closes one nobody took.
 */
export interface HistoryAhead {
  repoPath: string;
  repo: Promise<GitRepository | null>;
  commits: Promise<History>;
}

interface History {
  commits: Commit[];
  /** What `onHistoryIncomplete` said, in order. */
  incomplete: string[];
}

export function readHistoryAhead(repoPath: string): HistoryAhead {
  const repo = openRepository(repoPath, { allowSubdirectory: true });
  const commits = repo.then((r) => (r === null ? { commits: [], incomplete: [] } : readHistory(r)));
  // Awaited when taken; a failure meanwhile (or of one never taken) is not an unhandled one.
  commits.catch(() => undefined);
  repo.catch(() => undefined);
  return { repoPath, repo, commits };
}

export async function discardHistoryAhead(ahead: HistoryAhead): Promise<void> {
  await ahead.commits.catch(() => undefined);
  await (await ahead.repo.catch(() => null))?.close();
}

async function readHistory(repo: GitRepository): Promise<History> {
  const incomplete: string[] = [];
  const commits = await repo.logCommits({ patchIds: true, onHistoryIncomplete: (m) => incomplete.push(m) });
  return { commits, incomplete };
}

/** The repository's name and its commits (patch ids included), written once for the workers to read. */
async function repositoryContext(
  repo: GitRepository,
  repoPath: string,
  scratch: string,
  out: AnalysisRows,
  ahead?: Promise<History>,
): Promise<{ name: string; commitsFile: string; commits: Commit[] }> {
  const historySink = new DiagnosticSink("git", repoPath);
  const { commits, incomplete } = await (ahead ?? readHistory(repo));
  for (const message of incomplete)
    historySink.error(
      "git-history-incomplete",
      `git cannot walk the whole history of --repo (${message}): a commit object is absent from this clone; each branch was read on its own as far as it goes`,
    );
  out.diagnostics.push(...historySink.rows);
  const commitsFile = join(scratch, "commits.json");
  writeFileSync(commitsFile, JSON.stringify(commits));
  shareRepository(repo.gitDir, repo, commits);
  return { name: await repositoryName(repo, repoPath), commitsFile, commits };
}

/**
 * The session jobs of `found` (given once they are made: the pool starts before), in file order; `deliver`
 * sees each result as it arrives, in that order, before it is kept.
 */
async function runJobs(
  found: readonly FoundTranscript[],
  jobs: TranscriptSessionJob[] | Promise<TranscriptSessionJob[]>,
  options: AnalyzeOptions,
  label: string,
  deliver: ((result: TranscriptSessionResult, index: number) => void) | null,
): Promise<TranscriptSessionResult[]> {
  if (found.length === 0) return [];
  // Awaited by the pool when it asks for the first job; a failure meanwhile is not an unhandled one.
  if (jobs instanceof Promise) jobs.catch(() => undefined);
  const root = packageRoot();
  const bytes = found.reduce((n, f) => n + sizeOf(f.file), 0);
  const enough = found.length >= MIN_SESSIONS_FOR_WORKERS && bytes >= MIN_BYTES_FOR_WORKERS;
  const threads = root ? (options.threads ?? (enough ? Math.min(availableParallelism(), 8) : 1)) : 1;
  options.onProgress?.(0, found.length, label);
  // A loop, not `yield*`: the TypeScript that tslab bundles rejects delegating to an array's iterator here.
  async function* lazily(): AsyncGenerator<TranscriptSessionJob> {
    for (const job of await jobs) yield job;
  }
  return mapInWorkers<TranscriptSessionJob, TranscriptSessionResult>(
    lazily(),
    root ? jobModulePath(root, "transcript-session-job") : "transcript-session-job",
    {
      threads,
      concurrency: JOBS_PER_THREAD,
      run: runTranscriptSessionJob,
      collect: true,
      onResult: (result, index) => {
        deliver?.(result, index);
        options.onProgress?.(index + 1, found.length, found[index].file);
      },
    },
  );
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Every job's rows into `out`, in file order, each unit's reasons completed: a commit linked to several sessions is ambiguous. */
function collect(results: readonly TranscriptSessionResult[], out: AnalysisRows): void {
  const sessionsOnCommit = new Map<string, number>();
  for (const r of results)
    for (const u of r.units) sessionsOnCommit.set(u.row.commit_sha, (sessionsOnCommit.get(u.row.commit_sha) ?? 0) + 1);
  for (const r of results) {
    out.sessions.push(...r.sessions);
    (out.prompts ??= []).push(...r.prompts);
    out.tool_calls.push(...r.tool_calls);
    out.diagnostics.push(...r.diagnostics);
    const sink = new DiagnosticSink(r.sessions[0]?.source ?? "transcripts", r.file, r.session_id);
    for (const u of r.units) {
      const sessions = sessionsOnCommit.get(u.row.commit_sha) ?? 0;
      if (sessions > 1) {
        addAmbiguity(u.ambiguity, "multi-session-commit");
        u.details["multi-session-commit"] = `${sessions} sessions`;
      }
      u.row.ambiguity = u.ambiguity.ambiguity;
      out.units.push(u.row);
      explainExclusion(u.row, u.ambiguity, u.details, sink);
    }
    out.diagnostics.push(...sink.rows);
    (out.unit_files ??= []).push(...r.unit_files);
    if (r.line_ranges.length > 0) (out.line_ranges ??= []).push(...r.line_ranges);
  }
}

/** A group to attribute; `alone`: its rows, already worked out by its only session's job (`session`, by index). */
interface PlannedGroup {
  job: TranscriptGroupJob;
  alone: TranscriptGroupResult | null;
  session: number;
}

/**
 * The groups of metrics.md §1b without Entire: connected components of sessions and the commits §1's rule links
 * them to, each commit's moment its committer date (ties: sha).
 */
function transcriptGroups(
  results: readonly TranscriptSessionResult[],
  jobs: readonly TranscriptSessionJob[],
  commits: readonly Commit[],
): PlannedGroup[] {
  const bySha = new Map(commits.map((c) => [c.sha, c]));
  const { link, rootOf: find } = connected();
  results.forEach((r, i) => {
    for (const u of r.units) link(`s:${i}`, `c:${u.row.commit_sha}`);
  });
  const components = new Map<string, { sessions: number[]; shas: Set<string> }>();
  results.forEach((r, i) => {
    if (r.units.length === 0 || r.session_id === null) return;
    const root = find(`s:${i}`);
    const c = components.get(root) ?? { sessions: [], shas: new Set<string>() };
    c.sessions.push(i);
    for (const u of r.units) c.shas.add(u.row.commit_sha);
    components.set(root, c);
  });
  const groups: PlannedGroup[] = [];
  for (const c of components.values()) {
    const groupCommits = [...c.shas]
      .map((sha) => bySha.get(sha))
      .filter((x): x is Commit => x !== undefined)
      .map((commit) => ({ commit, moment: commit.committer_time * 1000 }))
      .sort(byMoment);
    if (groupCommits.length === 0) continue;
    groups.push({
      job: {
        members: c.sessions.map((i) => ({ job: jobs[i], session_id: results[i].session_id! })),
        commits: groupCommits,
      },
      // A session alone in its component: its commits are the ones its job linked, so its job's rows stand.
      alone: c.sessions.length === 1 ? results[c.sessions[0]].alone : null,
      session: c.sessions[0],
    });
  }
  return groups.sort((a, b) => byMoment(a.job.commits[0], b.job.commits[0]));
}

/** Every group's rows into `out`, in group order; groups of several sessions run as group jobs. */
async function analyzeGroups(
  groups: PlannedGroup[],
  options: AnalyzeOptions,
  out: AnalysisRows,
  placeAlone: ((session: number) => void) | null,
): Promise<void> {
  if (groups.length === 0) return;
  const root = packageRoot();
  const toRun = groups.filter((g) => g.alone === null).map((g) => g.job);
  const sessions = toRun.reduce((n, g) => n + g.members.length, 0);
  const threads = root
    ? (options.threads ?? (sessions >= MIN_SESSIONS_FOR_WORKERS ? Math.min(availableParallelism(), 8) : 1))
    : 1;
  options.onProgress?.(0, toRun.length, "groups");
  const ran =
    toRun.length === 0
      ? []
      : await mapInWorkers<TranscriptGroupJob, TranscriptGroupResult>(
          toRun,
          root ? jobModulePath(root, "transcript-session-job") : "transcript-session-job",
          {
            threads,
            concurrency: JOBS_PER_THREAD,
            exportName: "runGroupJob",
            run: runTranscriptGroupJob,
            collect: true,
            onResult: (_, index) => options.onProgress?.(index + 1, toRun.length, "groups"),
          },
        );
  let k = 0;
  groups.forEach((g) => {
    const result = g.alone ?? ran[k++];
    if (g.alone) placeAlone?.(g.session);
    (out.group_units ??= []).push(...result.group_units);
    if (result.line_ranges.length > 0) (out.line_ranges ??= []).push(...result.line_ranges);
    out.diagnostics.push(...result.diagnostics);
    spillRows(out, options.spool);
  });
}
