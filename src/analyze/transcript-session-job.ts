/**
 * The per-session work on agent transcripts without Entire (a Claude Code,
 * Codex, Gemini CLI, OpenCode or Pi folder, plus `--repo`), as a job a worker
 * thread runs: parse one transcript, link it to the repository's commits
 * (§1's rule without trailers, below), attribute each linked commit through
 * the one unit pipeline, and return plain rows. The session is released when
 * the job ends; nothing but rows and a few ids crosses back.
 *
 * Linking: a session is linked to each commit that changes a file it edited,
 * committed between its first edit and 12 hours after its last record (copies
 * with one patch id count once). A commit linked to several sessions
 * (`multi-session-commit`) is known only once every session is read: the job
 * returns each unit's reasons so far and the caller completes them.
 */
import { readFileSync } from "node:fs";
import { attributeGroup, type GroupCommit, type GroupMember } from "../attribution/attribute-group";
import { attributeUnitJob } from "../attribution/attribute-job";
import { memberFromSession } from "../attribution/member-from-session";
import { filesOfTree, NO_FILES, type TreeFiles, unitLinks } from "../attribution/tree-files";
import { landingCandidates, type UnitLinks } from "../attribution/unit-links";
import { dominantModel } from "../effort";
import { type FoundTranscript, readFoundTranscript } from "../ingest/find-transcripts";
import { type ChangedFile, type GitRepository, openRepository } from "../ingest/git/repo";
import {
  type Ambiguity,
  type AmbiguityReason,
  type Commit,
  type Diagnostic,
  DiagnosticSink,
  type GroupUnitRow,
  linkAmbiguity,
  listIds,
  type PromptRow,
  type Session,
  type SessionRow,
  type ToolCallRow,
  type LineRangeRow,
  type UnitFileRow,
  type UnitRow,
} from "../model";
import { makePathMapper, type PathMapper, resolveSymlinks } from "../replay";
import { toPromptRows, toSessionRow, toToolCallRows } from "./session-rows";

/** How long after a session's last record a commit may still carry its work. */
export const LINK_WINDOW_S = 12 * 3600;

export interface TranscriptSessionJob {
  found: FoundTranscript;
  /** The repository the transcripts edited (`--repo`), or null. */
  gitDir: string | null;
  repoName: string | null;
  /** A JSON file holding the repository's commits (`Commit[]`, patch ids included), read once per worker. */
  commitsFile: string | null;
  idleLimitS: number;
  /** Calls and API calls an earlier file holds too (a resumed session copies its history): left out here. */
  repeated?: { tool_ids: string[]; api_ids: string[]; first_file: string };
  /** Gather `line_ranges` (see `AnalyzeRequest.lines`). */
  lines?: boolean;
}

/** A unit as the job leaves it: its row, and its reasons so far (the caller adds `multi-session-commit`). */
export interface PendingUnit {
  row: UnitRow;
  ambiguity: Ambiguity;
  details: Partial<Record<AmbiguityReason, string>>;
}

export interface TranscriptSessionResult {
  file: string;
  session_id: string | null;
  /** First record time (ms), for ordering sessions that share calls. */
  started_ms: number | null;
  /** Claude Code tool-use and message ids (unique across sessions), when the job was not told of repeats. */
  tool_ids: string[];
  api_ids: string[];
  sessions: SessionRow[];
  tool_calls: ToolCallRow[];
  prompts: PromptRow[];
  units: PendingUnit[];
  unit_files: UnitFileRow[];
  line_ranges: LineRangeRow[];
  /** The session's diagnostics; its units' `unit-excluded` rows are the caller's. */
  diagnostics: Diagnostic[];
  /**
   * The rows of the group this session forms if no other session is linked to its commits (the common case),
   * worked out while the session is parsed: the caller uses them when the group is the session alone, and
   * runs a group job (which reads the transcript again) only for groups of several sessions. Null without units.
   */
  alone: TranscriptGroupResult | null;
}

/** Per worker (and for inline runs): the open repository, its commits and its HEAD tree. */
interface RepoContext {
  repo: GitRepository;
  commits: Commit[];
  head: TreeFiles;
}
const contexts = new Map<string, Promise<RepoContext | null>>();

/** Inline runs hand over the repository the caller has open, so it is not opened twice. */
export function shareRepository(gitDir: string, repo: GitRepository, commits: Commit[]): void {
  contexts.set(
    gitDir,
    filesOfTree(repo, repo.gitDir, "HEAD").then((head) => ({ repo, commits, head })),
  );
}

export function forgetRepository(gitDir: string): void {
  contexts.delete(gitDir);
}

async function contextOf(job: TranscriptSessionJob): Promise<RepoContext | null> {
  if (job.gitDir === null) return null;
  let context = contexts.get(job.gitDir);
  if (!context) {
    const gitDir = job.gitDir;
    const commitsFile = job.commitsFile;
    context = openRepository(gitDir).then(async (repo) => {
      if (repo === null) return null;
      const commits = commitsFile ? (JSON.parse(readFileSync(commitsFile, "utf8")) as Commit[]) : [];
      return { repo, commits, head: await filesOfTree(repo, repo.gitDir, "HEAD") };
    });
    contexts.set(gitDir, context);
  }
  return context;
}

/** Worker entry (see ./parallel.ts). */
export const runJob = (job: TranscriptSessionJob) => runTranscriptSessionJob(job);

export async function runTranscriptSessionJob(job: TranscriptSessionJob): Promise<TranscriptSessionResult> {
  const out: TranscriptSessionResult = {
    file: job.found.file,
    session_id: null,
    started_ms: null,
    tool_ids: [],
    api_ids: [],
    sessions: [],
    tool_calls: [],
    prompts: [],
    units: [],
    unit_files: [],
    line_ranges: [],
    diagnostics: [],
    alone: null,
  };
  const sink = new DiagnosticSink(job.found.format, job.found.file);
  try {
    await analyzeTranscript(job, sink, out);
  } catch (e) {
    // A bug met on input nobody foresaw must not stop the run or lose the session quietly.
    out.sessions = [];
    out.tool_calls = [];
    out.prompts = [];
    out.units = [];
    out.unit_files = [];
    out.line_ranges = [];
    out.alone = null;
    sink.error(
      "transcript-session-failed",
      `internal error (${e instanceof Error ? e.message : String(e)}); the session and its units are left out`,
    );
  }
  out.diagnostics = sink.rows;
  return out;
}

async function analyzeTranscript(
  job: TranscriptSessionJob,
  sink: DiagnosticSink,
  out: TranscriptSessionResult,
): Promise<void> {
  const read = readFoundTranscript(job.found, sink);
  if (read === null) return;
  const session = job.repeated ? withoutRepeated(read, job.repeated, sink) : read;
  sink.sessionId = session.session_id;
  for (const d of sink.rows) d.session_id = session.session_id;
  out.session_id = session.session_id;
  out.started_ms = session.record_times.length > 0 ? session.record_times[0] : null;
  if (session.source === "claude-code" && !job.repeated) {
    for (const c of session.tool_calls) if (c.id !== "") out.tool_ids.push(c.id);
    for (const c of session.api_calls) if (c.id !== "") out.api_ids.push(c.id);
  }
  out.sessions.push(toSessionRow(session, { repo: job.repoName, idleLimitS: job.idleLimitS }, sink));
  out.prompts.push(...toPromptRows(session));
  const context = await contextOf(job);
  if (job.gitDir !== null && context === null)
    sink.error("repo-unreadable", `${job.gitDir} could not be opened in a worker: the session's units are left out`);
  const links = context ? await linkSession(context, session) : null;
  const mapper =
    links?.mapper ??
    makePathMapper(
      session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)),
      session.cwds,
      () => false,
    );
  out.tool_calls.push(...toToolCallRows(session, (p) => mapper.toRepoPath(p)));
  if (context === null || links === null || job.repoName === null) return;
  if (links.unlinked !== null) sink.info("session-without-commit", links.unlinked);
  for (const commit of links.commits) {
    const ambiguity = linkAmbiguity({ commitsOfSession: links.commits.length, merge: commit.parents.length > 1 });
    const details: Partial<Record<AmbiguityReason, string>> = {
      "multi-commit-session": `commits ${listIds(links.commits.map((c) => c.sha))}`,
      "merge-commit": `parents ${listIds(commit.parents)}`,
    };
    const subject = {
      session_id: session.session_id,
      commit_sha: commit.sha,
      checkpoint_id: null,
      repo: job.repoName,
      agent: session.agent,
      model: dominantModel(session.api_calls),
      entire: null,
    };
    const outcome = await attributeUnitJob(
      {
        subject,
        session,
        sliceStart: 0,
        ambiguity,
        details,
        evidence: { kind: "git", repo: context.repo, commit },
        explain: false,
        lines: job.lines === true,
      },
      sink,
    );
    out.units.push({ row: outcome.unit, ambiguity, details });
    out.unit_files.push(...outcome.files);
    out.line_ranges.push(...outcome.lines);
  }
  if (links.commits.length > 0) {
    const commits = links.commits.map((commit) => ({ commit, moment: commit.committer_time * 1000 })).sort(byMoment);
    out.alone = await groupRows(
      job,
      session.session_id,
      async () => context,
      () => [memberFromSession(session, commits, lone(session.session_id))],
      commits,
    );
  }
}

/** The order of a group's commits (metrics.md §1b): by moment, ties by sha. */
export const byMoment = (a: GroupCommit, b: GroupCommit): number =>
  a.moment - b.moment || (a.commit.sha < b.commit.sha ? -1 : 1);

/** The session without the calls an earlier file holds (see ./repeats-across-files.ts). */
function withoutRepeated(
  session: Session,
  repeated: NonNullable<TranscriptSessionJob["repeated"]>,
  sink: DiagnosticSink,
): Session {
  const tools = new Set(repeated.tool_ids);
  const apis = new Set(repeated.api_ids);
  const tool_calls = session.tool_calls.filter((c) => c.id === "" || !tools.has(c.id));
  const api_calls = session.api_calls.filter((c) => c.id === "" || !apis.has(c.id));
  sink.info(
    "repeated-across-files",
    `${session.tool_calls.length - tool_calls.length} tool call(s) and ${session.api_calls.length - api_calls.length} API call(s) are also in ${repeated.first_file}, which starts earlier (a resumed session copies its history): counted there only`,
  );
  return { ...session, tool_calls, api_calls };
}

interface SessionLinks {
  commits: Commit[];
  /** Logged paths → repository paths, the root inferred from HEAD and the commits of the session's window. */
  mapper: PathMapper;
  /** Why no commit is linked, when none is and the session edited files. */
  unlinked: string | null;
}

async function linkSession(context: RepoContext, session: Session): Promise<SessionLinks> {
  const { repo, commits, head: headFiles } = context;
  const edits = session.tool_calls.filter((c) => c.success === true && c.file_edits.length > 0);
  const firstEdit = edits
    .map((c) => Date.parse(c.timestamp ?? ""))
    .filter(Number.isFinite)
    .sort((a, b) => a - b)[0];
  const last = session.record_times[session.record_times.length - 1];
  const inWindow =
    firstEdit === undefined || last === undefined
      ? []
      : commits
          .filter((c) => c.committer_time * 1000 >= firstEdit && c.committer_time * 1000 <= last + LINK_WINDOW_S * 1000)
          .sort((a, b) => a.committer_time - b.committer_time || (a.sha < b.sha ? -1 : 1));
  // The repository root is inferred from paths that exist: at HEAD, or changed by a commit of the window
  // (a file the session made and a later commit moved or deleted is not at HEAD).
  const changedInWindow = new Set<string>();
  for (const c of inWindow) for (const f of (await changedOf(repo, c.sha)) ?? []) changedInWindow.add(f.path);
  // The symbolic links of each commit of the window (with its parent's): an edit through a link changes the
  // file it names, so a commit that changes only that file is still this session's.
  // Trees are walked only when the repository shows a link at HEAD or in a commit of the window (a big
  // repository without links pays nothing).
  const linksOf = new Map<string, UnitLinks>();
  const anyLink = new Map<string, string>();
  let linksSeen = headFiles.links.size > 0;
  for (const c of inWindow)
    if (((await changedOf(repo, c.sha)) ?? []).some((f) => f.old_mode === "120000" || f.new_mode === "120000"))
      linksSeen = true;
  for (const c of linksSeen ? inWindow : []) {
    const links = await unitLinks(
      repo,
      c.parents[0] ? await filesOfTree(repo, repo.gitDir, c.parents[0]) : NO_FILES,
      await filesOfTree(repo, repo.gitDir, c.sha),
    );
    if (links === null) continue;
    linksOf.set(c.sha, links.links);
    for (const [path, target] of [...links.links.base, ...links.links.commit])
      if (!anyLink.has(path)) anyLink.set(path, target);
  }
  const known = (p: string) => headFiles.has(p) || changedInWindow.has(p);
  const exists = (p: string) => {
    if (known(p)) return true;
    const resolved = anyLink.size > 0 ? resolveSymlinks(p, (q) => anyLink.get(q)) : null;
    return resolved !== null && resolved !== p && known(resolved);
  };
  const mapper = makePathMapper(
    session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)),
    session.cwds,
    exists,
    (p) => changedInWindow.has(p),
  );
  const editedPaths = new Set<string>();
  for (const c of edits) {
    for (const e of c.file_edits) {
      const p = mapper.toRepoPath(e.path);
      if (p !== null) editedPaths.add(p);
    }
  }
  const linked: Commit[] = [];
  if (editedPaths.size > 0) {
    const seen = new Set<string>();
    for (const c of inWindow) {
      const key = c.patch_id ?? c.sha;
      if (seen.has(key)) continue;
      const changed = await changedOf(repo, c.sha);
      const links = linksOf.get(c.sha);
      let names: ReadonlySet<string> = editedPaths;
      if (links !== undefined) {
        const landed = new Set<string>();
        for (const p of editedPaths)
          for (const candidate of landingCandidates(p, links, false)) if (candidate !== null) landed.add(candidate);
        names = landed;
      }
      if (changed?.some((f) => names.has(f.path))) {
        seen.add(key);
        linked.push(c);
      }
    }
  }
  let unlinked: string | null = null;
  if (linked.length === 0 && edits.length > 0) {
    if (commits.length === 0) unlinked = "the repository has no commits: no unit";
    else if (firstEdit === undefined || last === undefined)
      unlinked = "its edits carry no timestamps, so no commit can be placed after them: no unit";
    else if (editedPaths.size === 0) unlinked = "none of the files it edited is in the repository: no unit";
    else unlinked = "no commit in the time window changes a file this session edited: no unit";
  }
  return { commits: linked, mapper, unlinked };
}

const changedCache = new WeakMap<GitRepository, Map<string, ChangedFile[] | null>>();
async function changedOf(repo: GitRepository, sha: string): Promise<ChangedFile[] | null> {
  let cache = changedCache.get(repo);
  if (!cache) changedCache.set(repo, (cache = new Map()));
  if (!cache.has(sha)) cache.set(sha, await repo.changedFiles(sha));
  return cache.get(sha) ?? null;
}

/** A group of metrics.md §1b on transcripts without Entire: the sessions linked (transitively) to the same commits. */
export interface TranscriptGroupJob {
  members: { job: TranscriptSessionJob; session_id: string }[];
  /** The group's commits, sorted by moment (their committer date, without Entire). */
  commits: GroupCommit[];
}

export interface TranscriptGroupResult {
  group_units: GroupUnitRow[];
  line_ranges: LineRangeRow[];
  diagnostics: Diagnostic[];
}

/** Worker entry for groups (`exportName: "runGroupJob"`). */
export const runGroupJob = (job: TranscriptGroupJob) => runTranscriptGroupJob(job);

export async function runTranscriptGroupJob(job: TranscriptGroupJob): Promise<TranscriptGroupResult> {
  const first = job.members[0].job;
  return groupRows(
    first,
    job.members[0]?.session_id ?? null,
    () => contextOf(first),
    () => job.members.map((m) => memberOf(m.job, m.session_id, job.commits)),
    job.commits,
  );
}

/**
 * A group's rows: its members attributed over its commits. The repository and the members are got inside, so
 * that a failure there is the group's `group-failed` note, as for the attribution itself.
 */
async function groupRows(
  first: TranscriptSessionJob,
  firstSessionId: string | null,
  contextFor: () => Promise<RepoContext | null>,
  membersFor: () => GroupMember[],
  commits: GroupCommit[],
): Promise<TranscriptGroupResult> {
  // A group's notes carry its first session's id: they are found (and sharded) with the group's rows.
  const sink = new DiagnosticSink("transcripts", null, firstSessionId);
  try {
    const context = await contextFor();
    if (context === null || first.repoName === null) return { group_units: [], line_ranges: [], diagnostics: [] };
    const members = membersFor();
    const lines: LineRangeRow[] | undefined = first.lines ? [] : undefined;
    const rows = await attributeGroup({ repo: first.repoName, git: context.repo, members, commits, lines }, sink);
    return { group_units: rows, line_ranges: lines ?? [], diagnostics: sink.rows };
  } catch (e) {
    sink.error(
      "group-failed",
      `group of commits ${commits.map((c) => c.commit.sha.slice(0, 8)).join(", ")}: internal error (${e instanceof Error ? e.message : String(e)}); its rows are left out`,
    );
    return { group_units: [], line_ranges: [], diagnostics: sink.rows };
  }
}

/** A session of the group, read again (quietly: its own job reported on it). */
function memberOf(job: TranscriptSessionJob, sessionId: string, commits: readonly GroupCommit[]): GroupMember {
  const quiet = new DiagnosticSink(job.found.format, job.found.file);
  const read = readFoundTranscript(job.found, quiet);
  if (read === null)
    return {
      session_id: sessionId,
      checkpoints: [],
      entire: [],
      touched: [],
      agent: null,
      model: null,
      parts: null,
      problem: "unreadable",
      started_ms: Number.POSITIVE_INFINITY,
    };
  return memberFromSession(job.repeated ? withoutRepeated(read, job.repeated, quiet) : read, commits, lone(sessionId));
}

/** A transcript session's own part of a member: no checkpoints, no Entire figures, no touched list. */
const lone = (sessionId: string) => ({ session_id: sessionId, checkpoints: [], entire: [], touched: [] });
