import { readTranscriptByContent } from "../../ingest/read-transcript";
import { detectTranscriptFormat, type TranscriptFormat } from "../../ingest/detect";
import { DiagnosticSink } from "../../model";

/** One session's real user messages, in order: all Task Flow needs from a transcript. */
export interface PromptSession {
  session_id: string;
  /** The transcript format (claude-code, codex, gemini, opencode, pi) or the log kind (specstory, aider). */
  format: string;
  /** Where the session was read (file path or `<checkpoint>/<session index>`). */
  ref: string;
  messages: string[];
}

const decoder = new TextDecoder();

/**
 * The user messages of one transcript, by content. The project's adapters
 * come first (`readTranscriptByContent`: their `turns` are the real prompts,
 * without tool results, meta records, slash commands or injected context).
 * When no adapter reads the format, or it fails, Codex, Gemini CLI and
 * OpenCode prompts are simple enough to find here (prompts only). Pi needs no
 * such reader: a file detected as Pi always has an entry its adapter reads.
 */
export function promptsFromTranscript(bytes: Uint8Array, file: string, sink: DiagnosticSink): PromptSession | null {
  const format: TranscriptFormat = detectTranscriptFormat(bytes);
  // The adapter's own rows are kept when its reading is used; a fallback says in one row why it was needed.
  const scratch = new DiagnosticSink(sink.source, sink.file, sink.sessionId);
  const outcome = readTranscriptByContent(bytes, file, null, scratch);
  if (outcome.ok) {
    sink.rows.push(...scratch.rows);
    return {
      session_id: outcome.session.session_id,
      format,
      ref: file,
      messages: outcome.session.turns.map((t) => t.text),
    };
  }
  const text = decoder.decode(bytes);
  if (format === "codex" || format === "gemini" || format === "opencode") {
    sink.info(
      "taskflow-prompts-fallback",
      `${(outcome as { message: string }).message}; its user messages are read by the prompt-only reader`,
    );
  }
  if (format === "codex") return codexPrompts(text, file, sink);
  if (format === "gemini") return geminiPrompts(text, file, sink);
  if (format === "opencode") return opencodePrompts(text, file, sink);
  sink.rows.push(...scratch.rows);
  if (format === "unknown")
    sink.warn("taskflow-transcript-unknown", `${file}: not a transcript format whose prompts can be read`);
  else sink.error("transcript-unreadable", (outcome as { message: string }).message);
  return null;
}

/** Injected context Codex sends as user-role messages; never typed by the user. */
const CODEX_INJECTED =
  /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions|<permissions instructions>|<user_shell_command>|<turn_aborted>)/;

function codexPrompts(text: string, file: string, sink: DiagnosticSink): PromptSession | null {
  let id: string | null = null;
  const events: string[] = [];
  const items: string[] = [];
  let bad = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let o: { type?: string; payload?: Record<string, unknown> } & Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      bad++;
      continue;
    }
    const p = (o.payload ?? o) as Record<string, unknown>;
    if (o.type === "session_meta" && typeof p.id === "string") id ??= p.id;
    // `event_msg/user_message` is what the user typed; `response_item` user messages also carry injected context.
    if (o.type === "event_msg" && p.type === "user_message" && typeof p.message === "string") events.push(p.message);
    if (p.type === "message" && p.role === "user" && Array.isArray(p.content)) {
      const t = (p.content as { type?: string; text?: unknown }[])
        .filter((c) => c.type === "input_text" && typeof c.text === "string")
        .map((c) => c.text as string)
        .join("\n");
      if (t.trim() !== "" && !CODEX_INJECTED.test(t)) items.push(t);
    }
  }
  if (bad > 0) sink.warn("taskflow-codex-bad-lines", `${file}: ${bad} line(s) are not JSON and were skipped`);
  const messages = events.length > 0 ? events : items;
  if (events.length === 0 && items.length > 0)
    sink.info(
      "taskflow-codex-no-events",
      `${file}: no user_message events; prompts taken from user-role response items`,
    );
  return { session_id: id ?? file, format: "codex", ref: file, messages };
}

function parseDocument(text: string, file: string, sink: DiagnosticSink): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text.replace(/^\uFEFF/, ""));
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  sink.error("taskflow-document-unreadable", `${file}: not one JSON document`);
  return null;
}

function geminiPrompts(text: string, file: string, sink: DiagnosticSink): PromptSession | null {
  const doc = parseDocument(text, file, sink);
  if (!doc) return null;
  const messages: string[] = [];
  for (const m of Array.isArray(doc.messages) ? (doc.messages as Record<string, unknown>[]) : []) {
    if (m?.type !== "user") continue;
    const c = m.content;
    const t =
      typeof c === "string"
        ? c
        : Array.isArray(c)
          ? c.map((x) => (typeof x === "string" ? x : typeof x?.text === "string" ? x.text : "")).join("")
          : "";
    if (t.trim() !== "") messages.push(t);
  }
  return {
    session_id: typeof doc.sessionId === "string" ? doc.sessionId : file,
    format: "gemini",
    ref: file,
    messages,
  };
}

function opencodePrompts(text: string, file: string, sink: DiagnosticSink): PromptSession | null {
  const doc = parseDocument(text, file, sink);
  if (!doc) return null;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  const messages: string[] = [];
  for (const m of Array.isArray(doc.messages)
    ? (doc.messages as { info?: { role?: string }; parts?: Record<string, unknown>[] }[])
    : []) {
    if (m?.info?.role !== "user") continue;
    // Synthetic parts are tool output OpenCode attaches to an @-mention; only typed text counts.
    const t = (m.parts ?? [])
      .filter((p) => p?.type === "text" && p.synthetic !== true && typeof p.text === "string")
      .map((p) => p.text as string)
      .join("\n");
    if (t.trim() !== "") messages.push(t);
  }
  return { session_id: typeof info.id === "string" ? info.id : file, format: "opencode", ref: file, messages };
}
