/**
 * The per-session work of an Entire repository, as a job a worker thread can
 * run: parse each stored copy of the session's transcript (by content), form
 * its units against git's file states (method `git-replay`), and return plain
 * rows. Each worker opens the repository once (its own `git cat-file` process).
 */
import { addAmbiguity, type CandidateUnit, readTranscriptParts } from "../ingest/entire";
import { attributeUnitJob } from "../attribution/attribute-job";
import { type GitRepository, openRepository } from "../ingest/git/repo";
import { dominantModel, sumUsage } from "../effort";
import {
  type AmbiguityReason,
  listIds,
  type CheckpointSession,
  type CheckpointSessionRow,
  type Diagnostic,
  type LineRangeRow,
  type PromptRow,
  type UnitFileRow,
  DiagnosticSink,
  type Session,
  type SessionRow,
  type ToolCallRow,
  type UnitRow,
} from "../model";
import { makePathMapper } from "../replay";
import { filesOfTree, type TreeFiles } from "../attribution/tree-files";
import { readTranscriptByContent } from "../ingest/read-transcript";
import { toPromptRows, toSessionRow, toToolCallRows } from "./session-rows";

export interface EntireSessionJob {
  gitDir: string;
  repo: string;
  idleLimitS: number;
  sessionId: string;
  /**
   * Every folder holding this session, with the git specs of its transcript parts (null: none stored), and
   * Entire's compact transcript of the folder with its own slice start, read when the raw one cannot be.
   */
  folders: {
    checkpoint_id: string;
    session: CheckpointSession;
    parts: string[] | null;
    compact?: { parts: string[]; start: number } | null;
  }[];
  units: CandidateUnit[];
  /** Transcript bytes of parsed copies kept for reuse (default `PARSED_BUDGET_BYTES`). */
  parsedBudgetBytes?: number;
  /** Gather `line_ranges` (see `AnalyzeRequest.lines`). */
  lines?: boolean;
}

export interface EntireSessionResult {
  units: UnitRow[];
  sessions: SessionRow[];
  tool_calls: ToolCallRow[];
  diagnostics: Diagnostic[];
  checkpoint_sessions: CheckpointSessionRow[];
  prompts: PromptRow[];
  unit_files: UnitFileRow[];
  line_ranges: LineRangeRow[];
}

const emptyResult = (): EntireSessionResult => ({
  units: [],
  sessions: [],
  tool_calls: [],
  diagnostics: [],
  checkpoint_sessions: [],
  prompts: [],
  unit_files: [],
  line_ranges: [],
});

/** Transcript bytes of one session's parsed copies kept in memory for reuse (see `parse` below). */
const PARSED_BUDGET_BYTES = 192 * 1024 * 1024;

const repositories = new Map<string, Promise<GitRepository | null>>();

// A BOM is part of the file's text (the agent's pre-images keep it), so it is not stripped.

/** Worker entry (see ./parallel.ts). */
export const runJob = (job: EntireSessionJob) => runEntireSessionJob(job);

/** Reads a folder's copy of the session as `readCheckpointCopy` does (quietly), from the job's parsed copies when it kept them. */
export type CopyReader = (
  folder: EntireSessionJob["folders"][number],
  sessionId: string,
  sink: DiagnosticSink,
) => Promise<ReadCopy>;

/**
 * `afterwards`, when given, runs once the session's rows are made, with a reader of the copies the job parsed
 * (its group's work, when the session is alone in its group: the copies are not parsed a second time).
 */
export async function runEntireSessionJob(
  job: EntireSessionJob,
  given?: GitRepository,
  afterwards?: (read: CopyReader, repo: GitRepository) => Promise<void>,
): Promise<EntireSessionResult> {
  try {
    return await analyzeSession(job, given, afterwards);
  } catch (e) {
    // A bug met on input nobody foresaw must not stop the run or lose the session quietly: say which units are lost.
    const out = emptyResult();
    const sink = new DiagnosticSink("entire", null, job.sessionId);
    const lost = job.units.map((u) => `${u.checkpoint_id}@${String(u.commit_sha).slice(0, 8)}`);
    sink.error(
      "entire-session-failed",
      `session ${job.sessionId}: internal error (${e instanceof Error ? e.message : String(e)}); its ${lost.length} unit(s) and its session row are left out${lost.length > 0 ? `: ${lost.join(", ")}` : ""}`,
    );
    out.diagnostics.push(...sink.rows);
    return out;
  }
}

async function analyzeSession(
  job: EntireSessionJob,
  given: GitRepository | undefined,
  afterwards: ((read: CopyReader, repo: GitRepository) => Promise<void>) | undefined,
): Promise<EntireSessionResult> {
  let repoPromise = given ? Promise.resolve(given) : repositories.get(job.gitDir);
  if (!repoPromise) repositories.set(job.gitDir, (repoPromise = openRepository(job.gitDir)));
  const repo = await repoPromise;
  const out = emptyResult();
  const sink = new DiagnosticSink("entire", null, job.sessionId);
  if (!repo) {
    sink.error("entire-repository-unreadable", `${job.gitDir} could not be opened in a worker`);
    out.diagnostics.push(...sink.rows);
    return out;
  }
  const treeOf = (rev: string): Promise<TreeFiles> => filesOfTree(repo, job.gitDir, rev);

  // Every checkpoint stores the whole session so far, so a long session's copies add up: parsed
  // copies are kept up to a byte budget and read again (quietly) when needed after that.
  const parsed = new Map<string, ReadCopy>();
  const readOnce = new Set<string>();
  const copies = new Map<string, { records: number; kind: TranscriptKind }>();
  let keptBytes = 0;
  const parse = async (
    checkpointId: string,
    cs: CheckpointSession,
  ): Promise<ReadCopy & { reason: "transcript-missing" | "transcript-unreadable" | null }> => {
    const key = `${checkpointId}/${cs.index}`;
    let copy = parsed.get(key);
    if (copy === undefined) {
      const first = !readOnce.has(key);
      readOnce.add(key);
      // The first read writes the diagnostics and the checkpoint_sessions row; a second one writes nothing.
      const read = first
        ? await readFolder(repo, job, checkpointId, cs, sink, out)
        : await readFolder(
            repo,
            job,
            checkpointId,
            cs,
            new DiagnosticSink("entire", null, job.sessionId),
            emptyResult(),
          );
      copy = { session: read.session, start: read.start, kind: read.kind };
      if (read.session !== null) copies.set(key, { records: read.session.record_count, kind: read.kind });
      if (read.session === null || keptBytes + read.bytes <= (job.parsedBudgetBytes ?? PARSED_BUDGET_BYTES)) {
        parsed.set(key, copy);
        keptBytes += read.bytes;
      }
    }
    const folder = job.folders.find((f) => f.checkpoint_id === checkpointId && f.session.index === cs.index);
    return {
      ...copy,
      reason: copy.session ? null : folder?.parts || folder?.compact ? "transcript-unreadable" : "transcript-missing",
    };
  };

  const starts = await inferTranscriptStarts(job, parse, sink);
  // Units whose own copy of the transcript cannot be read: their model is Entire's label until the session's is known.
  const modelFromMetadata: UnitRow[] = [];
  // Files the session's commits change: the likelier root when two roots explain the logged paths equally.
  const changedByUnits = new Set<string>();
  for (const unit of [...job.units].sort(byCommitThenCheckpoint)) {
    const copy = await parse(unit.checkpoint_id, unit.session);
    const { session, reason } = copy;
    const start = starts.get(`${unit.checkpoint_id}/${unit.session.index}`) ?? copy.start;
    if (reason) addAmbiguity(unit, reason);
    // A slice that starts past the end of the stored transcript: the metadata and the transcript disagree, and
    // replaying nothing would call every committed line human.
    const pastEnd = session !== null && start > session.record_count;
    if (pastEnd) {
      addAmbiguity(unit, "transcript-unreadable");
      sink.warn(
        "transcript-start-past-end",
        `checkpoint ${unit.checkpoint_id} session ${unit.session.index}: its part of the transcript starts after record ${start}, but the stored transcript has ${session.record_count}; it does not hold this checkpoint's work (unit ${unit.commit_sha.slice(0, 10)} not attributed)`,
      );
    }
    const subject = {
      session_id: job.sessionId,
      commit_sha: unit.commit_sha,
      checkpoint_id: unit.checkpoint_id,
      repo: job.repo,
      agent: session?.agent ?? unit.session.agent_label,
      // Compact transcripts name no model: Entire's metadata does.
      model:
        (session
          ? (dominantModel(session.api_calls.filter((c) => c.record > start)) ?? dominantModel(session.api_calls))
          : null) ?? unit.session.model,
      entire: unit.session.initial_attribution,
    };
    const outcome = await attributeUnitJob(
      {
        subject,
        session: pastEnd ? null : session,
        sliceStart: start,
        ambiguity: unit,
        details: exclusionDetails(unit),
        evidence: { kind: "git", repo, commit: unit.commit, touched: unit.session.files_touched },
        lines: job.lines === true,
      },
      sink,
    );
    for (const p of outcome.changed) changedByUnits.add(p);
    if (!session) modelFromMetadata.push(outcome.unit);
    out.units.push(outcome.unit);
    out.unit_files.push(...outcome.files);
    out.line_ranges.push(...outcome.lines);
  }

  // The session row comes from the longest stored copy of its transcript (each checkpoint stores the session so far);
  // a raw copy before a compact one, which has lost sub-agents and cache tokens (line counts of the two do not compare).
  let longestFolder: EntireSessionJob["folders"][number] | null = null;
  // Ranked by (raw before compact, then records); compared as a pair, not summed into one double (a sum near 2^52
  // rounds, and copies one record apart would tie).
  let longestKind = -1;
  let longestRecords = -1;
  for (const folder of job.folders) {
    const key = `${folder.checkpoint_id}/${folder.session.index}`;
    if (!readOnce.has(key)) await parse(folder.checkpoint_id, folder.session);
    const copy = copies.get(key);
    if (copy === undefined) continue;
    const kind = copy.kind === "full" ? 1 : 0;
    if (kind > longestKind || (kind === longestKind && copy.records > longestRecords)) {
      longestKind = kind;
      longestRecords = copy.records;
      longestFolder = folder;
    }
  }
  const longest = longestFolder ? (await parse(longestFolder.checkpoint_id, longestFolder.session)).session : null;
  if (longest) {
    // The session's model (the longest copy's) stands for the model of a unit whose own copy is missing.
    const sessionModel = dominantModel(longest.api_calls);
    if (sessionModel !== null) for (const row of modelFromMetadata) row.model = sessionModel;
    out.sessions.push(toSessionRow(longest, { repo: job.repo, idleLimitS: job.idleLimitS }, sink));
    out.prompts.push(...toPromptRows(longest));
    const head = await treeOf("HEAD");
    const mapper = makePathMapper(
      longest.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)),
      longest.cwds,
      (p) => head.has(p),
      (p) => changedByUnits.has(p),
    );
    out.tool_calls.push(...toToolCallRows(longest, (p) => mapper.toRepoPath(p)));
  }
  out.diagnostics.push(...sink.rows);
  await afterwards?.(
    (folder, sessionId, quiet) =>
      Promise.resolve(
        parsed.get(`${folder.checkpoint_id}/${folder.session.index}`) ??
          readCheckpointCopy(repo, folder, sessionId, quiet),
      ),
    repo,
  );
  return out;
}

/**
 * Each checkpoint stores the session so far, and `checkpoint_transcript_start`
 * says where its own part begins. Older Entire versions left it out on some
 * checkpoints (read as 0): then every unit would replay the whole session on a
 * base that already holds the earlier commits' work. Where a later copy says 0
 * but a shorter copy of the same session exists, its part starts where the
 * longest shorter copy ends.
 */
async function inferTranscriptStarts(
  job: EntireSessionJob,
  parse: (checkpointId: string, cs: CheckpointSession) => Promise<ReadCopy>,
  sink: DiagnosticSink,
): Promise<Map<string, number>> {
  const starts = new Map<string, number>();
  if (job.folders.length < 2) return starts;
  const copies: { key: string; checkpoint_id: string; start: number; records: number; kind: TranscriptKind }[] = [];
  for (const f of job.folders) {
    const { session, start, kind } = await parse(f.checkpoint_id, f.session);
    if (session)
      copies.push({
        key: `${f.checkpoint_id}/${f.session.index}`,
        checkpoint_id: f.checkpoint_id,
        start,
        records: session.record_count,
        kind,
      });
  }
  for (const copy of copies) {
    if (copy.start !== 0) continue;
    // Line numbers of a raw transcript and of Entire's compact one are not comparable.
    const before = copies
      .filter((c) => c.kind === copy.kind && c.records < copy.records)
      .reduce((m, c) => Math.max(m, c.records), 0);
    if (before > 0) {
      starts.set(copy.key, before);
      sink.info(
        "transcript-start-inferred",
        `checkpoint ${copy.checkpoint_id} has no checkpoint_transcript_start (or 0); its part taken to start at line ${before + 1}, after the longest earlier copy of the session`,
      );
    }
  }
  reportOverlappingSlices(job, copies, starts, sink);
  return starts;
}

/**
 * A checkpoint's part of the transcript runs from its start to the end of its own copy (metrics.md §3,
 * and Entire's own token counts). Normally the next checkpoint starts where that copy ends. When Entire
 * later rewrote the earlier copies with the whole session ("Finalize transcript"), or a start repeats or
 * goes backwards, two units' parts share records, and the edits there count in both units. The rule is
 * kept (an independent reading of §3 does the same), and the overlap is reported.
 */
function reportOverlappingSlices(
  job: EntireSessionJob,
  copies: readonly { key: string; checkpoint_id: string; start: number; records: number; kind: TranscriptKind }[],
  starts: ReadonlyMap<string, number>,
  sink: DiagnosticSink,
): void {
  const inUnits = new Set(job.units.map((u) => `${u.checkpoint_id}/${u.session.index}`));
  const slices = copies
    .filter((c) => inUnits.has(c.key))
    .map((c) => ({ ...c, from: starts.get(c.key) ?? c.start }))
    .filter((c) => c.from < c.records)
    .sort((a, b) => a.from - b.from || a.records - b.records || (a.key < b.key ? -1 : 1));
  const shared: string[] = [];
  for (let i = 0; i < slices.length; i++) {
    for (let j = i + 1; j < slices.length; j++) {
      const a = slices[i];
      const b = slices[j];
      if (a.kind !== b.kind || b.from >= a.records) continue;
      shared.push(
        `${a.checkpoint_id} and ${b.checkpoint_id} share lines ${b.from + 1}–${Math.min(a.records, b.records)}`,
      );
    }
  }
  if (shared.length === 0) return;
  sink.warn(
    "entire-slices-overlap",
    `the checkpoints' parts of this session's transcript overlap (${shared.slice(0, 5).join("; ")}${shared.length > 5 ? `; ${shared.length - 5} more pairs` : ""}): ` +
      `edits there count in each of those units. A session stored in several places makes its units ambiguous, so they are already kept out of headline numbers; ` +
      `their per-unit counts include the shared part (the copies were probably rewritten with the whole session when it ended)`,
  );
}

type TranscriptKind = "full" | "compact";

/** One stored copy of the session as read: the transcript that could be read, and where the checkpoint's part of it starts. */
export interface ReadCopy {
  session: Session | null;
  /** The slice start in the read transcript's own line numbers. */
  start: number;
  kind: TranscriptKind;
}

/**
 * Reads one folder's copy of the session: the raw transcript, or, when that
 * cannot be read (its blob is absent, or no adapter reads its agent or format),
 * Entire's compact transcript of the same folder, sliced at its own start.
 */
async function readFolder(
  repo: GitRepository,
  job: EntireSessionJob,
  checkpointId: string,
  cs: CheckpointSession,
  sink: DiagnosticSink,
  out: EntireSessionResult,
): Promise<ReadCopy & { bytes: number }> {
  const folder = job.folders.find((f) => f.checkpoint_id === checkpointId && f.session.index === cs.index);
  const dir = `${checkpointId.slice(0, 2)}/${checkpointId.slice(2)}/${cs.index}/`;
  const compact = folder?.compact ?? null;
  const raw = folder?.parts ? await readTranscriptParts(repo, folder.parts) : null;
  let problem: string;
  if (raw !== null) {
    const file = dir + (cs.transcript_path?.split("/").pop() ?? "full.jsonl");
    sink.file = file;
    const outcome = readTranscriptByContent(raw, file, cs.agent_label, sink);
    sink.file = null;
    if (outcome.ok)
      return copyRead(
        out,
        job.sessionId,
        checkpointId,
        cs,
        { ...outcome.session, session_id: job.sessionId },
        cs.transcript_start,
        "full",
        raw.length,
      );
    if (compact === null) {
      sink.error("transcript-unreadable", outcome.message);
      return copyRead(out, job.sessionId, checkpointId, cs, null, cs.transcript_start, "full", 0);
    }
    problem = outcome.message;
  } else if (compact === null) {
    out.checkpoint_sessions.push(checkpointSessionRow(job.sessionId, checkpointId, cs, null, cs.transcript_start));
    sink.warn(
      "transcript-missing",
      `checkpoint ${checkpointId} session ${cs.index}: no transcript stored (absent or its blob is missing from this clone)`,
    );
    return { session: null, start: cs.transcript_start, kind: "full", bytes: 0 };
  } else {
    problem = `the raw transcript is absent from this clone`;
  }

  const file = `${dir}transcript.jsonl`;
  const bytes = await readTranscriptParts(repo, compact.parts);
  sink.file = file;
  const outcome = bytes === null ? null : readTranscriptByContent(bytes, file, cs.agent_label, sink);
  sink.file = null;
  if (outcome?.ok) {
    sink.info(
      "entire-compact-fallback",
      `checkpoint ${checkpointId} session ${cs.index}: ${problem}; Entire's compact transcript.jsonl is read instead (its slice from line ${compact.start + 1}; no sub-agent work, no cache tokens)`,
    );
    return copyRead(
      out,
      job.sessionId,
      checkpointId,
      cs,
      { ...outcome.session, session_id: job.sessionId },
      compact.start,
      "compact",
      bytes!.length,
    );
  }
  const why = outcome ? outcome.message : "its blob is absent from this clone";
  sink.error("transcript-unreadable", `${problem}; the compact transcript.jsonl could not be read either (${why})`);
  return copyRead(out, job.sessionId, checkpointId, cs, null, cs.transcript_start, "full", 0);
}

function copyRead(
  out: EntireSessionResult,
  sessionId: string,
  checkpointId: string,
  cs: CheckpointSession,
  session: Session | null,
  start: number,
  kind: TranscriptKind,
  bytes: number,
): ReadCopy & { bytes: number } {
  out.checkpoint_sessions.push(checkpointSessionRow(sessionId, checkpointId, cs, session, start));
  return { session, start, kind, bytes };
}

/** Entire's recorded numbers beside our token counts over the same slice (main transcript only, as Entire counts). */
function checkpointSessionRow(
  sessionId: string,
  checkpointId: string,
  cs: CheckpointSession,
  session: Session | null,
  start: number,
): CheckpointSessionRow {
  const slice = session ? sumUsage(session.api_calls.filter((c) => !c.sidechain && c.record > start)) : null;
  return {
    checkpoint_id: checkpointId,
    session_index: cs.index,
    session_id: sessionId,
    agent_label: cs.agent_label,
    agent: session?.agent ?? null,
    transcript_start: start,
    slice_input_tokens: slice?.input_tokens ?? null,
    slice_output_tokens: slice?.output_tokens ?? null,
    slice_cache_creation_tokens: slice?.cache_creation_tokens ?? null,
    slice_cache_read_tokens: slice?.cache_read_tokens ?? null,
    slice_api_calls: slice?.api_calls ?? null,
    entire_input_tokens: cs.token_usage?.input_tokens ?? null,
    entire_output_tokens: cs.token_usage?.output_tokens ?? null,
    entire_cache_creation_tokens: cs.token_usage?.cache_creation_tokens ?? null,
    entire_cache_read_tokens: cs.token_usage?.cache_read_tokens ?? null,
    entire_api_calls: cs.token_usage?.api_call_count ?? null,
    entire_agent_lines: cs.initial_attribution?.agent_lines ?? null,
    entire_total_committed: cs.initial_attribution?.total_committed ?? null,
    entire_agent_percentage: cs.initial_attribution?.agent_percentage ?? null,
  };
}

/** What the links say about each reason, for the `unit-excluded` row. */
function exclusionDetails(unit: CandidateUnit): Partial<Record<AmbiguityReason, string>> {
  return {
    "multi-checkpoint-session": `checkpoints ${listIds(unit.session_checkpoints)}`,
    "multi-commit-checkpoint": `commits ${listIds(unit.checkpoint_commits)}`,
    "multi-session-commit": `the commit carries checkpoints ${listIds(unit.commit_checkpoints)}`,
    "merge-commit": `${unit.commit.parents.length} parents`,
  };
}

function byCommitThenCheckpoint(a: CandidateUnit, b: CandidateUnit): number {
  return (
    a.commit.committer_time - b.commit.committer_time ||
    (a.checkpoint_id < b.checkpoint_id ? -1 : a.checkpoint_id > b.checkpoint_id ? 1 : 0)
  );
}

/** One folder's stored copy of a session, read as the session's units read it (no rows written; diagnostics to `sink`). */
export async function readCheckpointCopy(
  repo: GitRepository,
  folder: EntireSessionJob["folders"][number],
  sessionId: string,
  sink: DiagnosticSink,
): Promise<ReadCopy> {
  const job = { folders: [folder], sessionId } as EntireSessionJob;
  const { session, start, kind } = await readFolder(
    repo,
    job,
    folder.checkpoint_id,
    folder.session,
    sink,
    emptyResult(),
  );
  return { session, start, kind };
}
