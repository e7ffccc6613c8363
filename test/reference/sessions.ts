/**
 * metrics.md §5 per session for the Claude Code and Codex sessions of an Entire repository: one
 * record per session id, from the session's longest stored transcript.
 *
 * Which copy: each checkpoint stores the session "so far" (formats.md §1.2), so the longest copy
 * (most JSONL lines; a Gemini session's most messages) is the whole session. metrics.md §5 says "over the whole transcript" but not
 * which copy that is; the longest is also what the product takes. Ties (identical copies, in
 * practice) go to the first in (checkpoint id, folder) order.
 */
import { type Checkpoint, readCheckpoints } from "./checkpoints";
import { readBlob } from "./git";
import { type EffortOptions, type SessionEffort, parseRecords, sessionEffort } from "./effort";
import { type CallCounts, callCounts } from "./tool-calls";
import { detectFormat } from "./transcripts";
import { readGemini } from "./gemini";
import { isPiSession } from "./pi";

/** Entire's display names of the formats (formats.md §1.1); the format is read from the content (§1.7). */
export const AGENT_NAMES = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI", pi: "Pi" } as const;

export interface SessionReadings {
  /**
   * §6 "A session's model is the model with the most output tokens; the others are kept in
   * `models`". Default: `models` holds the others (most output first, joined by ";"). `true`: the
   * product's reading, every model with the session's `model` first.
   */
  modelsWithMain?: boolean;
}

export interface ReferenceSession extends SessionEffort, CallCounts {
  session_id: string;
  agent: string | null;
  /** The models of §6 as the sessions table writes them: names joined by ";" (architecture.md gives a string column). */
  models: string;
  format: "claude-code" | "codex" | "gemini" | "pi" | "unknown" | "missing";
  /** Where the transcript came from: `<checkpoint>/<folder>`. */
  copy: string | null;
  copies: number;
}

/**
 * A copy's length in the unit Entire's offsets use: JSONL lines; for a Gemini session its messages
 * (Entire's position for Gemini is the message count; a document's lines mean nothing). After a
 * rewind or a compression a later Gemini copy can hold fewer messages than an earlier one.
 */
function copyLength(buf: Buffer): number {
  const text = buf.toString("utf8");
  const first = firstRecords(text);
  if (!isPiSession(first) && detectFormat(first) === "unknown") {
    const gemini = readGemini(text);
    if (gemini) return gemini.messages.length;
  }
  return lineCount(buf);
}

function lineCount(buf: Buffer): number {
  let lines = 0;
  for (const byte of buf) if (byte === 10) lines += 1;
  if (buf.length > 0 && buf[buf.length - 1] !== 10) lines += 1;
  return lines;
}

function firstRecords(text: string): (Record<string, unknown> | null)[] {
  const out: (Record<string, unknown> | null)[] = [];
  let from = 0;
  while (out.length < 200 && from < text.length) {
    let to = text.indexOf("\n", from);
    if (to < 0) to = text.length;
    const line = text.slice(from, to);
    from = to + 1;
    try {
      const v = JSON.parse(line);
      out.push(v && typeof v === "object" && !Array.isArray(v) ? v : null);
    } catch {
      out.push(null);
    }
  }
  return out;
}

const EMPTY: SessionEffort = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_tokens: 0,
  cache_read_tokens: 0,
  api_calls: 0,
  duration_s: null,
  active_s: null,
  prompts: 0,
  length_bin: null,
  model: null,
  models_ranked: [],
  started_at: null,
  ended_at: null,
  cost_usd: null,
  unknown_models: [],
};
const NO_CALLS: CallCounts = { tool_calls: 0, edit_calls: 0, failed_edit_calls: 0, unresolved_edit_calls: 0 };

/** One session's record from its transcript text (`copy`/`copies` describe where it came from). */
export function sessionRecord(
  sessionId: string,
  text: string,
  format: ReferenceSession["format"],
  options: EffortOptions & SessionReadings = {},
): ReferenceSession {
  const readable =
    format === "claude-code" || format === "codex" || format === "gemini" || format === "pi" ? format : null;
  const effort = readable ? sessionEffort(text, readable, options) : EMPTY;
  const counts = readable ? callCounts(readable === "gemini" ? [] : parseRecords(text), readable, text) : NO_CALLS;
  const models = options.modelsWithMain ? effort.models_ranked : effort.models_ranked.slice(1);
  return {
    session_id: sessionId,
    format,
    copy: null,
    copies: 1,
    agent: readable ? AGENT_NAMES[readable] : null,
    models: models.join(";"),
    ...effort,
    ...counts,
  };
}

/** Sessions sorted by id; those whose transcripts are all absent or unreadable keep empty numbers and say so in `format`. */
export function runReferenceSessions(
  repo: string,
  options: EffortOptions & SessionReadings = {},
  checkpoints: Map<string, Checkpoint> = readCheckpoints(repo),
): ReferenceSession[] {
  const folders = new Map<string, { key: string; blob: string | null }[]>();
  for (const cp of [...checkpoints.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    for (const s of cp.sessions) {
      const id = s.sessionId ?? `${cp.id}/${s.folder}`;
      if (!folders.has(id)) folders.set(id, []);
      folders.get(id)!.push({ key: `${cp.id}/${s.folder}`, blob: s.transcriptBlob });
    }
  }
  const out: ReferenceSession[] = [];
  for (const [sessionId, copies] of folders) {
    let best: { key: string; buf: Buffer; lines: number } | null = null;
    for (const c of copies) {
      const buf = c.blob ? readBlob(repo, c.blob, false) : null;
      if (!buf) continue;
      const lines = copyLength(buf);
      if (best === null || lines > best.lines) best = { key: c.key, buf, lines };
    }
    if (!best) {
      out.push({
        session_id: sessionId,
        format: "missing",
        copy: null,
        copies: copies.length,
        agent: null,
        models: "",
        ...EMPTY,
        ...NO_CALLS,
      });
      continue;
    }
    const text = best.buf.toString("utf8");
    const first = firstRecords(text);
    // Pi: its header first (pi.ts); its message entries would otherwise read as Claude Code's.
    const lineFormat = isPiSession(first) ? "pi" : detectFormat(first);
    // Gemini CLI: one JSON document, or a log whose records neither of the JSONL formats has (gemini.ts).
    const format = lineFormat === "unknown" && readGemini(text) ? "gemini" : lineFormat;
    out.push({ ...sessionRecord(sessionId, text, format, options), copy: best.key, copies: copies.length });
  }
  return out.sort((a, b) => (a.session_id < b.session_id ? -1 : 1));
}
