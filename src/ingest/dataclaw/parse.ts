/**
 * DataClaw `conversations.jsonl` → one `Session` per line. DataClaw exports
 * prompts, assistant text and tool INPUTS; early exports have no tool results
 * at all, newer ones a `status` only for some agents. So a call's success is
 * unknown unless the export says so, no pre- or post-image exists, and the
 * only attribution method is `patch-match` (README.md).
 */
import {
  type ApiCall,
  type DiagnosticSink,
  emptyUsage,
  SESSION_FORMAT_VERSION,
  type Session,
  type ToolCall,
  type Turn,
  isoTime,
} from "../../model";
import { readJsonl } from "../jsonl";
import { fileEditsOf } from "./file-edits";
import { notAPrompt } from "../prompt-text";
import { messageSchema, type RawSession, sessionSchema, toolUseSchema } from "./schema";

export interface DataClawSession {
  session: Session;
  /** DataClaw's project label (a folder name, `codex:<name>`, …): not a repository. */
  project: string | null;
  /** DataClaw's `source` (claude, codex, gemini, …); null in early exports. */
  exporter_source: string | null;
  model: string | null;
  /** `stats` as exported: token totals (Claude input includes cache reads), message and tool counts. */
  stats: { input_tokens: number | null; output_tokens: number | null; tool_uses: number | null };
  /** 1-based line of the file. */
  line: number;
  /** Calls whose outcome the export records (status present and trustworthy). */
  calls_with_outcome: number;
}

export interface DataClawInput {
  text: string | Uint8Array;
  file: string;
}

/** DataClaw `source` → the agent's display name. */
const AGENTS: Record<string, string> = {
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
  openclaw: "OpenClaw",
  cursor: "Cursor",
  kimi: "Kimi",
  hermes: "Hermes",
};

/**
 * Every session of one export file. Bad lines (truncated, not JSON, not a
 * session) become diagnostics; the other lines are still read.
 */
export function parseDataClawFile(input: DataClawInput, sink: DiagnosticSink): DataClawSession[] {
  const { records } = readJsonl(input.text, sink);
  const out: DataClawSession[] = [];
  let withoutOutcome = 0;
  let calls = 0;
  for (const { line, value } of records) {
    const parsed = sessionSchema.safeParse(value);
    if (!parsed.success) {
      const keys = Object.keys(value).slice(0, 6).join(", ");
      sink.error(
        "dataclaw-not-a-session",
        `line ${line} is not a DataClaw session (no session_id string or no messages array; keys: ${keys || "none"}): skipped`,
        line,
      );
      continue;
    }
    if (parsed.data.messages.length === 0) {
      sink.add(
        "warning",
        "dataclaw-empty-session",
        `session ${parsed.data.session_id} on line ${line} has no messages: skipped`,
        line,
        { session_id: parsed.data.session_id },
      );
      continue;
    }
    const s = toSession(parsed.data, line, input.file, sink);
    out.push(s);
    calls += s.session.tool_calls.length;
    withoutOutcome += s.session.tool_calls.length - s.calls_with_outcome;
  }
  if (calls > 0 && withoutOutcome > 0) {
    sink.info(
      "dataclaw-no-tool-results",
      `${withoutOutcome} of ${calls} tool calls have no trustworthy result in the export (DataClaw keeps tool inputs; only newer exports add a status): their success is unknown, so attribution can only use method patch-match`,
    );
  }
  return out;
}

function iso(t: string | number | null | undefined): string | null {
  if (t === null || t === undefined) return null;
  if (typeof t === "number") return isoTime(t > 1e12 ? t : t * 1000);
  return t;
}

function toSession(raw: RawSession, line: number, file: string, fileSink: DiagnosticSink): DataClawSession {
  const sid = raw.session_id;
  const note = (severity: "info" | "warning", code: string, message: string) =>
    fileSink.add(severity, code, message, line, { session_id: sid });
  const source = raw.source ?? null;
  // DataClaw's Codex parser marks every call that has an output as "success" (parsers/codex.py), so the status says nothing.
  const statusTrusted = source !== "codex";
  const turns: Turn[] = [];
  const calls: ToolCall[] = [];
  const times: number[] = [];
  const skipped = new Map<string, number>();
  let summarized = 0;
  let withOutcome = 0;

  raw.messages.forEach((m, mi) => {
    const msg = messageSchema.safeParse(m);
    if (!msg.success) {
      note("warning", "dataclaw-bad-message", `message ${mi + 1} of session ${sid} has no role: skipped`);
      return;
    }
    const ts = iso(msg.data.timestamp);
    const ms = ts === null ? NaN : Date.parse(ts);
    if (Number.isFinite(ms)) times.push(ms);
    if (msg.data.role === "user") {
      const text = typeof msg.data.content === "string" ? msg.data.content : "";
      const why = notAPrompt(text);
      if (why === null) turns.push({ index: turns.length, text, timestamp: ts, record: line });
      else skipped.set(why, (skipped.get(why) ?? 0) + 1);
      return;
    }
    (msg.data.tool_uses ?? []).forEach((u, ui) => {
      const use = toolUseSchema.safeParse(u);
      const tool = use.success && typeof use.data.tool === "string" && use.data.tool !== "" ? use.data.tool : "unknown";
      const input = use.success ? use.data.input : undefined;
      const status = use.success ? use.data.status : undefined;
      const success =
        !statusTrusted || status === undefined ? null : status === "success" ? true : status === "error" ? false : null;
      if (success !== null) withOutcome++;
      const edits = fileEditsOf(tool, input);
      if (edits.kind === "summarized") summarized++;
      if (edits.kind === "unusable")
        note("info", "dataclaw-edit-unusable", `${tool} call ${mi + 1}.${ui + 1}: ${edits.reason}; not attributed`);
      calls.push({
        id: `${sid}:${mi + 1}.${ui + 1}`,
        name: tool,
        input: input ?? null,
        timestamp: ts,
        record: line,
        result_record: success === null ? null : line,
        success,
        error: success === false ? errorText(use.success ? use.data.output : undefined) : null,
        sidechain: sid.endsWith(":subagents"),
        // Failed calls changed nothing (metrics.md §3).
        file_edits: edits.kind === "edits" && success !== false ? edits.edits : [],
      });
    });
  });

  for (const [why, n] of skipped)
    note("info", `dataclaw-not-a-prompt`, `${n} user message(s) of session ${sid} not counted as prompts (${why})`);
  if (summarized > 0)
    note(
      "info",
      "dataclaw-summarized-input",
      `${summarized} file-changing call(s) of session ${sid} have only a summary string as input (an early DataClaw export): no lines to attribute`,
    );
  if (source === "codex" && calls.length > 0)
    note(
      "info",
      "dataclaw-codex-status",
      `session ${sid}: DataClaw marks every Codex call with an output "success", so outcomes are treated as unknown`,
    );

  for (const t of [raw.start_time, raw.end_time]) {
    const ms = Date.parse(iso(t) ?? "");
    if (Number.isFinite(ms)) times.push(ms);
  }
  times.sort((a, b) => a - b);

  const model = raw.model ?? null;
  const input = raw.stats?.input_tokens ?? null;
  const output = raw.stats?.output_tokens ?? null;
  // The export has session totals only: one aggregate call carries them so the model and token sums are kept.
  const apiCalls: ApiCall[] =
    input !== null || output !== null || model !== null
      ? [
          {
            id: `${sid}:stats`,
            model,
            timestamp: null,
            record: line,
            sidechain: false,
            usage: { ...emptyUsage(), input_tokens: Math.max(0, input ?? 0), output_tokens: Math.max(0, output ?? 0) },
            speed: null,
          },
        ]
      : [];

  const session: Session = {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sid,
    source: "dataclaw",
    agent: source === null ? "Claude Code" : (AGENTS[source] ?? source),
    agent_version: null,
    transcript: file,
    cwds: [],
    branch: raw.git_branch ?? null,
    turns,
    tool_calls: calls,
    api_calls: apiCalls,
    record_times: times,
    record_count: raw.messages.length,
  };
  return {
    session,
    project: raw.project ?? null,
    exporter_source: source,
    model,
    stats: { input_tokens: input, output_tokens: output, tool_uses: raw.stats?.tool_uses ?? null },
    line,
    calls_with_outcome: withOutcome,
  };
}

function errorText(output: unknown): string {
  if (typeof output === "string") return output.slice(0, 200);
  if (output && typeof output === "object" && typeof (output as Record<string, unknown>).text === "string")
    return ((output as Record<string, unknown>).text as string).slice(0, 200);
  return "error";
}
