/**
 * Entire's compact transcript (`transcript.jsonl`) → normalised {@link Session}.
 *
 * One line per user prompt or (merged) assistant message, tool results
 * inlined into their tool_use blocks. Record numbers are the 1-based compact
 * line numbers, so Entire's `compact_transcript_start` slices it as it is. A
 * call and its result share one line. What the format cannot give (pre-images,
 * cache tokens, sub-agent work, models) is in README.md, and said once per
 * transcript in diagnostics.
 *
 * Never throws on bad data: everything skipped or odd becomes a diagnostic.
 */
import {
  type DiagnosticSink,
  SESSION_FORMAT_VERSION,
  type ApiCall,
  type Session,
  type Severity,
  type ToolCall,
  type Turn,
} from "../../model";
import { cwdOfEnvironmentContext } from "../codex/records";
import { emptyJsonlStats, iterateJsonl, type JsonlRecord } from "../jsonl";
import { compactAgentName, compactSource } from "./agents";
import { notAPromptNote, userTextOf } from "./prompts";
import { parseLine, parseToolUse } from "./schema";
import { toToolCalls, type CallDraft } from "./tool-calls";

export interface EntireCompactTranscriptInput {
  /** The compact transcript (`<checkpoint>/<n>/transcript.jsonl`). */
  text: string | Uint8Array;
  /** Path of the transcript, for diagnostics and the session-id fallback. */
  file: string | null;
}

/** The only version this adapter knows; other versions are read as if they were it, with a warning. */
export const COMPACT_FORMAT_VERSION = 1;

interface ApiDraft {
  id: string;
  record: number;
  timestamp: string | null;
  input: number;
  output: number;
}

interface Note {
  code: string;
  severity: Severity;
  count: number;
  first: number | null;
  what: string;
}

class Parser {
  readonly turns: Turn[] = [];
  readonly calls = new Map<string, CallDraft>();
  readonly api = new Map<string, ApiDraft>();
  readonly times: number[] = [];
  readonly agents: string[] = [];
  readonly versions: string[] = [];
  readonly cwds: string[] = [];
  readonly notes = new Map<string, Note>();
  assistantLines = 0;
  linesWithTokens = 0;
  known = 0;

  constructor(private readonly sink: DiagnosticSink) {}

  diag(severity: Severity, code: string, message: string, record: number | null): void {
    this.sink.add(severity, code, message, record);
  }

  /** Counted diagnostics: one row per key at the end, with the count and the first line. */
  note(key: string, code: string, severity: Severity, record: number | null, what: string): void {
    const n = this.notes.get(key);
    if (n) n.count++;
    else this.notes.set(key, { code, severity, count: 1, first: record, what });
  }

  flushNotes(): void {
    for (const n of this.notes.values()) {
      this.diag(
        n.severity,
        n.code,
        `${n.count} ${n.what}${n.first !== null ? `; first at line ${n.first}` : ""}`,
        n.first,
      );
    }
    this.notes.clear();
  }

  line(rec: JsonlRecord): void {
    const l = parseLine(rec.value).data ?? {};
    const line = rec.line;
    if (l.v !== COMPACT_FORMAT_VERSION) {
      const v = l.v === undefined ? "no" : `"v":${l.v}`;
      this.note(
        `v:${l.v}`,
        "entire-compact-unknown-version",
        "warning",
        line,
        `line(s) with ${v} version (this adapter knows v ${COMPACT_FORMAT_VERSION}): read as v ${COMPACT_FORMAT_VERSION}`,
      );
    }
    if (l.agent !== undefined && l.agent !== "" && !this.agents.includes(l.agent)) this.agents.push(l.agent);
    if (l.cli_version !== undefined && l.cli_version !== "" && !this.versions.includes(l.cli_version))
      this.versions.push(l.cli_version);
    const ts = l.ts ?? null;
    if (ts !== null) {
      const t = Date.parse(ts);
      if (Number.isFinite(t)) this.times.push(t);
      else this.note("bad-ts", "entire-compact-invalid-timestamp", "warning", line, "line(s) with an unreadable `ts`");
    }
    if (l.type === "user") {
      this.known++;
      this.user(l.content, line, ts);
    } else if (l.type === "assistant") {
      this.known++;
      this.assistant(l.content, l.id, l.input_tokens, l.output_tokens, line, ts);
    } else if (l.type === undefined) {
      this.note("no-type", "entire-compact-line-without-type", "warning", line, "line(s) without a `type` skipped");
    } else {
      this.note(
        `type:${l.type}`,
        "entire-compact-unknown-line-type",
        "info",
        line,
        `line(s) of unknown type "${l.type}" skipped`,
      );
    }
  }

  user(content: unknown, line: number, ts: string | null): void {
    const u = userTextOf(content);
    if (u === null) {
      this.note(
        "user-no-content",
        "entire-compact-invalid-line",
        "warning",
        line,
        "user line(s) without text content skipped",
      );
      return;
    }
    if (u.otherBlocks > 0)
      this.note(
        "user-block",
        "entire-compact-unknown-user-block",
        "info",
        line,
        "user line(s) with content blocks that are neither text nor image (ignored)",
      );
    const cwd = cwdOfEnvironmentContext(u.text);
    if (cwd !== null && !this.cwds.includes(cwd)) this.cwds.push(cwd);
    const not = notAPromptNote(u);
    if (not !== null) this.note(not.key, not.code, not.severity, line, not.what);
    else this.turns.push({ index: this.turns.length, text: u.text, timestamp: ts, record: line });
  }

  assistant(
    content: unknown,
    id: string | undefined,
    input: number | undefined,
    output: number | undefined,
    line: number,
    ts: string | null,
  ): void {
    this.assistantLines++;
    if (input !== undefined || output !== undefined) this.linesWithTokens++;
    if (Array.isArray(content)) {
      content.forEach((block, k) => {
        if (!isObject(block) || block.type !== "tool_use") return;
        const tu = parseToolUse(block);
        if (!tu.success) {
          this.note(
            "bad-tool-use",
            "entire-compact-invalid-tool-use",
            "warning",
            line,
            "tool_use block(s) without a tool name skipped",
          );
          return;
        }
        const callId = tu.data.id !== undefined && tu.data.id !== "" ? tu.data.id : `line-${line}-${k}`;
        if (this.calls.has(callId)) {
          this.note(
            "dup-call",
            "entire-compact-duplicate-tool-use",
            "info",
            line,
            "repeated tool_use block(s) (same id) counted once",
          );
          return;
        }
        this.calls.set(callId, {
          id: callId,
          name: tu.data.name,
          input: tu.data.input ?? null,
          timestamp: ts,
          record: line,
          result: tu.data.result,
        });
      });
    } else if (typeof content !== "string") {
      this.note(
        "assistant-no-content",
        "entire-compact-invalid-line",
        "warning",
        line,
        "assistant line(s) without content (tool calls unknown)",
      );
    }

    // One API call per assistant line; a message id seen again (a merge the compactor could not make) is one call.
    const tokensIn = nonNegative(input);
    const tokensOut = nonNegative(output);
    if (id === undefined || id === "")
      this.note(
        "no-id",
        "entire-compact-assistant-without-id",
        "warning",
        line,
        "assistant line(s) without `id` counted as one API call each",
      );
    const key = id !== undefined && id !== "" ? id : `line-${line}`;
    const existing = this.api.get(key);
    if (existing !== undefined) {
      this.note(
        "dup-id",
        "entire-compact-repeated-message-id",
        "info",
        line,
        "assistant line(s) repeating an earlier message id: one API call, the line with the most output tokens (ties: the later) gives its usage",
      );
      if (tokensOut >= existing.output)
        Object.assign(existing, { record: line, timestamp: ts, input: tokensIn, output: tokensOut });
      return;
    }
    this.api.set(key, { id: key, record: line, timestamp: ts, input: tokensIn, output: tokensOut });
  }

  toolCalls(): ToolCall[] {
    return toToolCalls(this.calls.values(), {
      note: (key, code, severity, record, what) => this.note(key, code, severity, record, what),
      diag: (severity, code, message, record) => this.diag(severity, code, message, record),
    });
  }

  apiCalls(): ApiCall[] {
    return [...this.api.values()]
      .sort((a, b) => a.record - b.record)
      .map((a) => ({
        id: a.id,
        // The compact format names no model.
        model: null,
        timestamp: a.timestamp,
        record: a.record,
        sidechain: false,
        usage: {
          input_tokens: a.input,
          output_tokens: a.output,
          cache_creation_tokens: 0,
          cache_creation_1h_tokens: 0,
          cache_read_tokens: 0,
          reasoning_tokens: 0,
        },
        speed: null,
      }));
  }
}

/**
 * Parses one compact transcript. Returns null (with an error diagnostic) when
 * it holds no compact lines at all.
 */
export function parseEntireCompactTranscript(
  input: EntireCompactTranscriptInput,
  sink: DiagnosticSink,
): Session | null {
  const firstRow = sink.rows.length;
  let session: Session | null = null;
  try {
    session = parse(input, sink);
  } catch (e) {
    sink.add(
      "error",
      "entire-compact-internal-error",
      `the compact transcript parser failed: ${e instanceof Error ? e.message : String(e)}`,
      null,
      input.file !== null ? { file: input.file } : {},
    );
    session = null;
  }
  // Rows written before the session id was known get it now.
  for (let i = firstRow; i < sink.rows.length; i++) {
    const row = sink.rows[i];
    if (row.session_id === null && session !== null) row.session_id = session.session_id;
    if (row.file === null && input.file !== null) row.file = input.file;
  }
  return session;
}

function parse(input: EntireCompactTranscriptInput, sink: DiagnosticSink): Session | null {
  const p = new Parser(sink);
  const stats = emptyJsonlStats();
  for (const rec of iterateJsonl(input.text, sink, {}, stats)) p.line(rec);
  if (stats.records === 0) {
    p.diag(
      "error",
      "entire-compact-no-records",
      stats.prettyPrinted
        ? "the transcript is one JSON document, not a compact transcript"
        : "the transcript holds no readable lines",
      null,
    );
    return null;
  }
  if (p.known === 0) {
    p.notes.clear();
    p.diag(
      "error",
      "entire-compact-not-compact",
      `none of the ${stats.records} lines is a compact user or assistant line`,
      null,
    );
    return null;
  }
  const toolCalls = p.toolCalls();
  const apiCalls = p.apiCalls();
  p.flushNotes();

  const agentId = p.agents[0] ?? null;
  if (agentId === null) p.diag("warning", "entire-compact-no-agent", "no line names its `agent`; agent unknown", null);
  if (p.agents.length > 1)
    p.diag(
      "info",
      "entire-compact-multiple-agents",
      `lines name ${p.agents.length} agents (${p.agents.join(", ")}); the session's agent is the first`,
      null,
    );
  if (p.assistantLines > 0 && p.linesWithTokens === 0) {
    p.diag(
      "warning",
      "entire-compact-no-token-counts",
      `none of the ${p.assistantLines} assistant line(s) carries token counts (the compactor of this agent writes none): tokens and cost are unknown, not 0`,
      null,
    );
  }
  const writer = p.versions.length > 0 ? ` (written by ${p.versions.join(", ")})` : "";
  // The two limits of the format, said once per transcript so every reader of the tables sees them.
  p.diag(
    "info",
    "entire-compact-no-cache-tokens",
    `Entire's compact transcript${writer} keeps only input and output tokens per assistant message: cache writes and reads, the model name and all sub-agent work (dropped progress records) are not in it, so token counts and costs are lower bounds`,
    null,
  );
  p.diag(
    "info",
    "entire-compact-no-preimages",
    "Entire's compact transcript keeps no file contents before an edit (no toolUseResult): changes made outside the agent's edits between them cannot be detected, and Edit calls are re-applied to the replayed file",
    null,
  );

  const sessionId = sessionIdOf(input.file, p);
  const times = p.times.slice().sort((a, b) => a - b);
  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: compactSource(agentId),
    agent: compactAgentName(agentId),
    // `cli_version` is the version of the program that wrote the compact file, not the agent's.
    agent_version: null,
    transcript: input.file,
    cwds: p.cwds,
    branch: null,
    turns: p.turns,
    tool_calls: toolCalls,
    api_calls: apiCalls,
    record_times: times,
    record_count: stats.lines,
  };
}

/**
 * The compact format names no session: the file name when it is not Entire's
 * generic `transcript.jsonl`, else the path. Entire's reader replaces it with
 * the checkpoint metadata's session id.
 */
function sessionIdOf(file: string | null, p: Parser): string {
  const path = file ?? "";
  const name = path.split(/[\\/]/).pop() ?? "";
  const stem = name.replace(/\.jsonl$/, "");
  const id = stem !== "" && stem !== "transcript" && stem !== "full" ? stem : path.replace(/\.jsonl$/, "") || "unknown";
  p.diag(
    "info",
    "entire-compact-no-session-id",
    `the compact transcript names no session; session id "${id}" taken from the file path (Entire's reader replaces it with the checkpoint metadata's session_id)`,
    null,
  );
  return id;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function nonNegative(v: number | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
}
