/**
 * The per-session job of a parallel run (see ./parallel.ts): read one Claude
 * Code transcript as bytes, parse it, and, when a commit is given, replay the
 * edits and attribute the commit's lines (`attributeFromPreImages`). Returns
 * one small plain row, never the Session: rows cross threads by structured
 * clone, and a Session holds every file image of the log.
 *
 * Usable directly (`runTranscriptJob(job)`) or as a worker module:
 * `mapInWorkers(jobs, "src/analyze/transcript-job.ts", { threads: 2 })`
 * (the pool calls the `runJob` export).
 */
import { readFileSync } from "node:fs";
import { DiagnosticSink } from "../model";
import { parseClaudeCodeTranscript } from "../ingest/claude-code";
import { attributeFromPreImages, type FilePatch } from "../attribution/pre-image-unit";
import { readRegularFile } from "../ingest/read-regular";

export interface TranscriptJob {
  /** The session's JSONL file. */
  transcriptPath: string;
  /** A JSON file holding `[{path, patch}]` (the commit as per-file unified diffs); without it the job only parses. */
  commitPath?: string | null;
  /** `subagents/agent-*.jsonl` files of the session (Claude Code 2.x). */
  subagentPaths?: string[];
}

export interface TranscriptJobRow {
  transcript: string;
  session_id: string | null;
  /** Bytes read (transcript plus sub-agent files). */
  bytes: number;
  /** Records (non-blank lines) of the transcript. */
  records: number;
  turns: number;
  tool_calls: number;
  /** Successful calls that changed a file. */
  edit_calls: number;
  failed_calls: number;
  api_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  /** Whether attribution ran (a commit was given and the session parsed). */
  attributed: boolean;
  agent_lines_produced: number;
  agent_lines_final: number;
  agent_lines_survived: number;
  human_lines: number;
  outside_lines: number;
  total_committed_lines: number;
  unreplayable_calls: number;
  outside_changes: number;
  files_outside_repo: number;
  unknown_base_files: number;
  /** Diagnostic rows the parse and the attribution produced. */
  diagnostics: number;
  /** Error-severity diagnostics among them. */
  errors: number;
  /** The job failed outright (unreadable file, internal error): the message; null otherwise. */
  failure: string | null;
}

const emptyRow = (transcript: string): TranscriptJobRow => ({
  transcript,
  session_id: null,
  bytes: 0,
  records: 0,
  turns: 0,
  tool_calls: 0,
  edit_calls: 0,
  failed_calls: 0,
  api_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_tokens: 0,
  cache_read_tokens: 0,
  attributed: false,
  agent_lines_produced: 0,
  agent_lines_final: 0,
  agent_lines_survived: 0,
  human_lines: 0,
  outside_lines: 0,
  total_committed_lines: 0,
  unreplayable_calls: 0,
  outside_changes: 0,
  files_outside_repo: 0,
  unknown_base_files: 0,
  diagnostics: 0,
  errors: 0,
  failure: null,
});

/** Runs one job; never throws (a failure is reported in the row). */
export async function runTranscriptJob(job: TranscriptJob): Promise<TranscriptJobRow> {
  const row = emptyRow(job.transcriptPath);
  const sink = new DiagnosticSink("claude-code", job.transcriptPath);
  try {
    const bytes = readRegularFile(job.transcriptPath);
    row.bytes = bytes.length;
    const subagents = (job.subagentPaths ?? []).map((file) => {
      const text = readRegularFile(file);
      row.bytes += text.length;
      return { file, text };
    });
    const session = parseClaudeCodeTranscript({ text: bytes, file: job.transcriptPath, subagents }, sink);
    if (session !== null) {
      row.session_id = session.session_id;
      sink.sessionId = session.session_id;
      row.records = session.record_count;
      row.turns = session.turns.length;
      row.tool_calls = session.tool_calls.length;
      for (const c of session.tool_calls) {
        if (c.success === false) row.failed_calls++;
        else if (c.success === true && c.file_edits.length > 0) row.edit_calls++;
      }
      row.api_calls = session.api_calls.length;
      for (const a of session.api_calls) {
        row.input_tokens += a.usage.input_tokens;
        row.output_tokens += a.usage.output_tokens;
        row.cache_creation_tokens += a.usage.cache_creation_tokens;
        row.cache_read_tokens += a.usage.cache_read_tokens;
      }
      if (job.commitPath) {
        const patches = JSON.parse(readFileSync(job.commitPath, "utf8")) as FilePatch[];
        const a = await attributeFromPreImages(session, 0, patches, sink);
        row.attributed = true;
        row.agent_lines_produced = a.agent_lines_produced;
        row.agent_lines_final = a.agent_lines_final;
        row.agent_lines_survived = a.agent_lines_survived;
        row.human_lines = a.human_lines;
        row.outside_lines = a.outside_lines;
        row.total_committed_lines = a.total_committed_lines;
        row.unreplayable_calls = a.unreplayable_calls;
        row.outside_changes = a.outside_changes;
        row.files_outside_repo = a.files_outside_repo;
        row.unknown_base_files = a.unknown_base_files;
      }
    }
  } catch (e) {
    row.failure = e instanceof Error ? e.message : String(e);
  }
  row.diagnostics = sink.rows.length;
  for (const d of sink.rows) if (d.severity === "error") row.errors++;
  return row;
}

/** The worker-module entry point `mapInWorkers` calls. */
export const runJob = runTranscriptJob;
