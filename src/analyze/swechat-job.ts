/**
 * The per-session work on a SWE-chat dataset, and the job a worker thread
 * runs (see ./parallel.ts): read one row range of the conversations table,
 * build and analyse every session whose rows all lie in it, and hand back
 * the rows of sessions that continue in other ranges. Inputs and outputs are
 * plain data (paths, small contexts, table rows).
 *
 * Per session: the `Session` comes from the raw transcript when
 * `transcripts/` has one that an adapter reads (by content), else from the
 * conversation rows. Per unit, the method is `pre-image-replay` when that
 * transcript records pre-images and the commit's patch applies to them,
 * else `patch-match` (tool inputs against the patch's added lines).
 */
import { basename } from "node:path";
import { attributeUnitJob } from "../attribution/attribute-job";
import type { PatchMatchReplay } from "../attribution/patch-match";
import { dominantModel } from "../effort";
import {
  type ConversationRow,
  openParquet,
  type ParquetPart,
  PatchReader,
  type PatchRef,
  readJobRows,
  rowGroupReader,
  sessionFromRows,
  splitGitPatch,
  CONVERSATION_COLUMNS,
  indexRowGroup,
  type RowGroupIndex,
} from "../ingest/swechat";
import {
  type Ambiguity,
  closedLabel,
  type Diagnostic,
  DiagnosticSink,
  type EntireAttribution,
  type PromptRow,
  type Session,
  type SessionRow,
  successScore,
  type ToolCallRow,
  type UnitRow,
  USER_PERSONAS,
} from "../model";
import { makePathMapper } from "../replay";
import { readTranscriptByContent } from "../ingest/read-transcript";
import { toPromptRows, toSessionRow, toToolCallRows } from "./session-rows";
import { toolCategory } from "./tool-category";
import { readRegularFile } from "../ingest/read-regular";

export interface SwechatUnitJob {
  commit_sha: string;
  checkpoint_pk: string;
  checkpoint_id: string;
  ambiguity: Ambiguity;
  numstat_additions: number | null;
  patch: PatchRef | null;
  /** Other commits of the checkpoint with the same patch (rebased or cherry-picked copies), left out. */
  copies: number;
}

export interface SwechatSessionContext {
  session_id: string;
  repo: string;
  agent: string | null;
  branch: string | null;
  /** Absolute path of the raw transcript, when the dataset has one. */
  transcript: string | null;
  /** Where the canonical checkpoint's slice of the raw transcript begins. */
  transcript_start: number;
  canonical_checkpoint: string | null;
  entire: EntireAttribution | null;
  files_touched: string[];
  units: SwechatUnitJob[];
  /** Hand the built session back (`SwechatRows.kept`): it is in a group that a clone lets the main thread replay. */
  keep_session?: boolean;
  /** The sessions row's own labels (as stored: `session_success` a string) and Entire's agent_percentage; null without a sessions row. */
  labels?: { user_persona: string | null; session_success: string | null; agent_percentage: number | null } | null;
}

/** One row range of the conversations table (a plan job). */
export interface SwechatRange {
  /** The plan's job index. */
  index: number;
  rowStart: number;
  rowEnd: number;
  /** Sessions whose rows all lie in this range. */
  whole: SwechatSessionContext[];
  /** Sessions whose rows in this range are handed back (they continue elsewhere). */
  pieces: string[];
}

/** The ranges of one row group, read in order by one worker (its column chunks fetched once). */
export interface SwechatJob {
  file: string;
  /** The row group (within the file) all ranges lie in. */
  rowGroup: number;
  /** The part's first row in the whole table. */
  offset: number;
  ranges: SwechatRange[];
  spool: string;
  idleLimitS: number;
}

export interface SwechatRows {
  units: UnitRow[];
  sessions: SessionRow[];
  tool_calls: ToolCallRow[];
  diagnostics: Diagnostic[];
  /** Optional only because the main thread's AnalysisRows may not have the table yet. */
  prompts?: PromptRow[];
  /** Sessions of groups a clone lets the main thread replay (`SwechatSessionContext.keep_session`). */
  kept?: { session_id: string; session: Session }[];
}

/** Pass 1 over one row group (see src/ingest/swechat/plan.ts), run by the same workers. */
export interface SwechatIndexJob {
  kind: "index";
  file: string;
  part: number;
  rowGroup: number;
  targetRows?: number;
}

export interface SwechatIndexResult {
  kind: "index";
  index: RowGroupIndex;
}

export interface SwechatJobResult extends SwechatRows {
  kind: "rows";
  /** Rows of spanning sessions, with the plan job they came from, in job order. */
  pieces: { job: number; session_id: string; rows: ConversationRow[] }[];
  rows: number;
  invalidRows: number;
}

const parts = new Map<string, Promise<ParquetPart>>();
const readers = new Map<string, PatchReader>();

function readerFor(spool: string): PatchReader {
  let r = readers.get(spool);
  if (!r) readers.set(spool, (r = new PatchReader(spool)));
  return r;
}

/** Worker entry (see ./parallel.ts): an index job or a row-group job. */
export const runJob = (job: SwechatIndexJob | SwechatJob): Promise<SwechatIndexResult | SwechatJobResult> =>
  "kind" in job && job.kind === "index" ? runIndexJob(job) : runSwechatJob(job as SwechatJob);

function partFor(file: string): Promise<ParquetPart> {
  let part = parts.get(file);
  if (!part) parts.set(file, (part = openParquet(file)));
  return part;
}

export async function runIndexJob(job: SwechatIndexJob): Promise<SwechatIndexResult> {
  return { kind: "index", index: await indexRowGroup(await partFor(job.file), job.part, job.rowGroup, job.targetRows) };
}

export async function runSwechatJob(job: SwechatJob): Promise<SwechatJobResult> {
  const part = await partFor(job.file);
  const read = rowGroupReader(part, job.rowGroup, CONVERSATION_COLUMNS);
  const out: SwechatJobResult = {
    kind: "rows",
    units: [],
    sessions: [],
    tool_calls: [],
    diagnostics: [],
    prompts: [],
    pieces: [],
    rows: 0,
    invalidRows: 0,
  };
  for (const range of job.ranges) {
    const whole = new Map(range.whole.map((c) => [c.session_id, c]));
    const pieces = new Set(range.pieces);
    const { bySession, invalid } = await readJobRows(
      part,
      range.rowStart,
      range.rowEnd,
      job.offset,
      (id) => whole.has(id) || pieces.has(id),
      read,
    );
    out.rows += range.rowEnd - range.rowStart;
    out.invalidRows += invalid;
    for (const context of range.whole) {
      await analyzeSwechatSession(
        context,
        bySession.get(context.session_id) ?? [],
        readerFor(job.spool),
        job.idleLimitS,
        out,
      );
      bySession.delete(context.session_id);
    }
    for (const id of range.pieces) out.pieces.push({ job: range.index, session_id: id, rows: bySession.get(id) ?? [] });
  }
  return out;
}

/** The sessions row's labels: persona and success read against their documented forms (unknown values were counted when the table was read). */
function withSessionLabels(row: SessionRow, labels: SwechatSessionContext["labels"]): SessionRow {
  if (!labels) return { ...row, user_persona: null, session_success: null, entire_agent_percentage: null };
  return {
    ...row,
    user_persona: closedLabel(USER_PERSONAS, labels.user_persona).label,
    session_success: successScore(labels.session_success).score,
    entire_agent_percentage: labels.agent_percentage,
  };
}

/** When a raw transcript gave the session, its rows are still read for their prompts and labels; of their diagnostics, only the labels' are kept (the rest repeat the session's). */
function labelsFromRows(context: SwechatSessionContext, rows: readonly ConversationRow[], sink: DiagnosticSink) {
  const probe = new DiagnosticSink("swechat");
  const built = sessionFromRows(context.session_id, rows, { agent: context.agent, branch: context.branch }, probe);
  for (const d of probe.rows) if (d.code === "swechat-label-unknown") sink.warn(d.code, d.message);
  return built;
}

/**
 * One session's rows into `out`: all of them, or (after an unexpected failure,
 * a bug met on input nobody foresaw) none but an error diagnostic naming the
 * session and its units, so that one session never stops the run.
 */
export async function analyzeSwechatSession(
  context: SwechatSessionContext,
  rows: readonly ConversationRow[],
  patches: PatchReader,
  idleLimitS: number,
  out: SwechatRows,
): Promise<void> {
  const own: SwechatRows = { units: [], sessions: [], tool_calls: [], diagnostics: [], prompts: [] };
  try {
    await analyzeOneSession(context, rows, patches, idleLimitS, own);
  } catch (e) {
    const sink = new DiagnosticSink("swechat", null, context.session_id);
    const lost = context.units.map((u) => String(u.commit_sha).slice(0, 8));
    sink.error(
      "swechat-session-failed",
      `session ${context.session_id}: internal error (${e instanceof Error ? e.message : String(e)}); its ${lost.length} unit(s) and its session row are left out${lost.length > 0 ? `: commits ${lost.join(", ")}` : ""}`,
    );
    out.diagnostics.push(...sink.rows);
    return;
  }
  out.units.push(...own.units);
  out.sessions.push(...own.sessions);
  out.tool_calls.push(...own.tool_calls);
  out.diagnostics.push(...own.diagnostics);
  const prompts = (out.prompts ??= []);
  for (const r of own.prompts!) prompts.push(r);
  if (own.kept) (out.kept ??= []).push(...own.kept);
}

async function analyzeOneSession(
  context: SwechatSessionContext,
  rows: readonly ConversationRow[],
  patches: PatchReader,
  idleLimitS: number,
  out: SwechatRows,
): Promise<void> {
  const sink = new DiagnosticSink("swechat", null, context.session_id);
  let raw: Session | null = null;
  if (context.transcript !== null) {
    sink.file = `transcripts/${basename(context.transcript)}`;
    try {
      const outcome = readTranscriptByContent(readRegularFile(context.transcript), sink.file, context.agent, sink);
      if (outcome.ok)
        raw = {
          ...outcome.session,
          session_id: context.session_id,
          source: "swechat",
          branch: outcome.session.branch ?? context.branch,
        };
      else
        sink.warn("swechat-transcript-fallback", `${outcome.message}: the session is built from its conversation rows`);
    } catch (e) {
      sink.warn(
        "swechat-transcript-fallback",
        `${sink.file} cannot be read (${e instanceof Error ? e.message : String(e)}): the session is built from its conversation rows`,
      );
    }
    sink.file = null;
  }
  const built =
    raw === null
      ? sessionFromRows(context.session_id, rows, { agent: context.agent, branch: context.branch }, sink)
      : null;
  const session: Session = raw ?? built!.session;
  if (context.keep_session) (out.kept ??= []).push({ session_id: context.session_id, session });
  out.sessions.push(withSessionLabels(toSessionRow(session, { repo: context.repo, idleLimitS }, sink), context.labels));
  // The prompts table holds the dataset's own prompts and labels: from the rows, even when a raw transcript gave the session.
  const fromRows = built ?? labelsFromRows(context, rows, sink);
  const prompts = toPromptRows(
    fromRows.session,
    fromRows.prompts.map((p) => p.reply),
  );
  prompts.forEach((p, i) =>
    Object.assign(p, {
      prompt_intent: fromRows.prompts[i].prompt_intent,
      prompt_pushback: fromRows.prompts[i].prompt_pushback,
    }),
  );
  const promptsOut = (out.prompts ??= []);
  for (const p of prompts) promptsOut.push(p);

  const known = new Set(context.files_touched);
  const model = dominantModel(session.api_calls);
  const replays = new Map<string, PatchMatchReplay>();
  for (const unit of context.units) {
    const subject = {
      session_id: context.session_id,
      commit_sha: unit.commit_sha,
      checkpoint_id: unit.checkpoint_id,
      repo: context.repo,
      agent: session.agent,
      model,
      entire: context.entire,
    };
    if (unit.copies > 0)
      sink.info(
        "swechat-commit-copies",
        `commit ${unit.commit_sha.slice(0, 10)}: ${unit.copies} other commit(s) of checkpoint ${unit.checkpoint_id} carry the same patch (rebase or cherry-pick copies): counted once`,
      );
    const files = unit.patch === null ? null : splitGitPatch(patches.read(unit.patch));
    for (const f of files ?? []) known.add(f.path);
    // The raw transcript's slice starts where the dataset says, in the canonical checkpoint; rows carry no slice.
    const start = raw !== null && unit.checkpoint_pk === context.canonical_checkpoint ? context.transcript_start : 0;
    const evidence =
      files === null
        ? null
        : {
            kind: "patch" as const,
            files,
            numstat_additions: unit.numstat_additions,
            replays,
            recordedPreImages: raw !== null,
          };
    const outcome = await attributeUnitJob(
      { subject, session, sliceStart: start, ambiguity: unit.ambiguity, evidence },
      sink,
    );
    if (files === null) outcome.unit.numstat_additions = unit.numstat_additions;
    out.units.push(outcome.unit);
  }

  const edited = session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path));
  const mapper = makePathMapper(edited, session.cwds, (p) => known.has(p));
  const callRows = toToolCallRows(session, (p) => mapper.toRepoPath(p));
  if (built !== null) {
    // SWE-chat's categories also look at the `bash_category` column when a shell call has no command.
    session.tool_calls.forEach((call, i) => {
      const bash = built.bashCategory.get(call.id);
      if (bash !== undefined) callRows[i].category = toolCategory(call.name, call.input, bash);
    });
  }
  for (const r of callRows) out.tool_calls.push(r);
  for (const d of sink.rows) out.diagnostics.push(d);
}
