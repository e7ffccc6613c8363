/**
 * One SWE-agent trajectory as a worker job (the exports path, ./analyze-exports.ts): read, its session, prompt and
 * tool-call rows, and its unit against its own `info.submission` (method patch-match). Everything but the
 * session's id, which must be unique across the whole input: the caller claims it in file order and renames
 * the rows when another file had it first (`duplicate-session-id`).
 */
import { attributeUnitJob } from "../attribution/attribute-job";
import {
  isFileCommand,
  readSweAgentTrajectory,
  splitUnifiedDiff,
  sweAgentCategory,
  type SweAgentTrajectory,
} from "../ingest/swe-agent";
import {
  type AnalysisRows,
  checkSessionTimes,
  type Diagnostic,
  DiagnosticSink,
  noAmbiguity,
  type SessionRow,
} from "../model";
import { makePathMapper } from "../replay";
import { toPromptRows, toSessionRow, toToolCallRows, withCategories } from "./session-rows";

export interface SweAgentJob {
  file: string;
  idleLimitS: number;
  /** Not a trajectory (a DataClaw or SpecStory file, read by the caller in its turn): nothing to do. */
  skip?: boolean;
}

export interface SweAgentResult {
  /** The session's id as the trajectory gives it; null when the file could not be read. */
  sessionId: string | null;
  rows: Pick<AnalysisRows, "sessions" | "tool_calls" | "units"> &
    Required<Pick<AnalysisRows, "prompts" | "unit_files">>;
  diagnostics: Diagnostic[];
  /** How many of `diagnostics` came before the id was known (a rename's warning goes after them). */
  claimedAt: number;
}

/** Worker entry (`runJob`). */
export const runJob = (job: SweAgentJob) => runSweAgentJob(job);

export async function runSweAgentJob(job: SweAgentJob): Promise<SweAgentResult> {
  const sink = new DiagnosticSink("swe-agent", job.file);
  const rows: SweAgentResult["rows"] = { sessions: [], prompts: [], tool_calls: [], units: [], unit_files: [] };
  const t = job.skip ? null : readSweAgentTrajectory(job.file, sink);
  if (!t) return { sessionId: null, rows, diagnostics: sink.rows, claimedAt: sink.rows.length };
  const claimedAt = sink.rows.length;
  // What the reader said before it knew the id is about this session too (the caller renames it with the rows).
  for (const d of sink.rows) if (d.session_id === null) d.session_id = t.session.session_id;
  sink.sessionId = t.session.session_id;
  checkSessionTimes(t.session, sink);
  const session = t.session;
  const files = t.submission === null ? [] : splitUnifiedDiff(t.submission);
  const submitted = new Set(files.map((x) => x.path));
  rows.sessions.push(sweAgentRow(t, job.idleLimitS, sink));
  rows.prompts.push(...toPromptRows(t.session));
  const mapper = makePathMapper(
    session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)),
    session.cwds,
    (p) => submitted.has(p),
  );
  rows.tool_calls.push(
    ...withCategories(
      toToolCallRows(session, (p) => mapper.toRepoPath(p)),
      session,
      (call) => {
        const cmd = t.commands.get(call);
        return cmd ? sweAgentCategory(cmd) : null;
      },
    ),
  );
  if (files.length > 0) {
    sink.info(
      "attribution-patch-match",
      "unit attributed with method patch-match against info.submission (no repository file states in a trajectory)",
    );
    const subject = {
      session_id: session.session_id,
      commit_sha: "submission",
      checkpoint_id: null,
      repo: t.repo ?? "unknown",
      agent: session.agent,
      model: t.model,
      entire: null,
    };
    const evidence = {
      kind: "patch" as const,
      files: files.map((x) => ({ path: x.path, patch: x.patch })),
      numstat_additions: files.reduce((s, x) => s + x.additions, 0),
      recordedPreImages: false,
    };
    const outcome = await attributeUnitJob(
      { subject, session, sliceStart: 0, ambiguity: noAmbiguity(), evidence },
      sink,
    );
    rows.units.push(outcome.unit);
    rows.unit_files.push(...outcome.files);
  }
  return { sessionId: session.session_id, rows, diagnostics: sink.rows, claimedAt };
}

/** The session row, with the run's own totals: model_stats tokens, API calls and recorded cost (not our price table). */
function sweAgentRow(t: SweAgentTrajectory, idleLimitS: number, sink: DiagnosticSink): SessionRow {
  // A sink of its own, dropped: its only findings are about pricing our way, and the run's own cost replaces that.
  const row = toSessionRow(t.session, { repo: t.repo, idleLimitS }, new DiagnosticSink("swe-agent"));
  const editCalls = t.session.tool_calls.filter((c) => {
    const cmd = t.commands.get(c.id);
    return cmd !== undefined && isFileCommand(cmd);
  });
  const cost = t.model_stats?.instance_cost ?? null;
  if (t.model_stats && cost !== null && cost < 0)
    sink.warn("swe-agent-negative-cost", `instance_cost ${cost} is negative: cost left null`);
  return {
    ...row,
    model: t.model,
    models: t.model ?? "",
    edit_calls: editCalls.length,
    failed_edit_calls: editCalls.filter((c) => c.success === false).length,
    input_tokens: t.model_stats?.tokens_sent ?? 0,
    output_tokens: t.model_stats?.tokens_received ?? 0,
    api_calls: t.model_stats?.api_calls ?? 0,
    cost_usd: cost !== null && cost >= 0 ? cost : null,
  };
}
