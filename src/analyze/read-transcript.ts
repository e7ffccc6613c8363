import { parseClaudeCodeTranscript } from "../ingest/claude-code";
import { detectTranscriptFormat } from "../ingest/detect";
import type { DiagnosticSink, Session } from "../model";

const AGENT_OF_FORMAT: Record<string, string> = { "claude-code": "Claude Code", codex: "Codex", gemini: "Gemini CLI", opencode: "OpenCode" };

export type TranscriptOutcome =
  | { ok: true; session: Session }
  | { ok: false; reason: "transcript-unreadable"; message: string };

/**
 * Reads a transcript by its content, whatever its file name or the agent
 * label beside it says. Formats without an adapter yet are reported, not
 * guessed at.
 */
export function readTranscriptByContent(bytes: Uint8Array, file: string, agentLabel: string | null, sink: DiagnosticSink): TranscriptOutcome {
  const format = detectTranscriptFormat(bytes);
  const agent = AGENT_OF_FORMAT[format] ?? null;
  if (agentLabel && agent && normaliseLabel(agentLabel) !== normaliseLabel(agent) && normaliseLabel(agentLabel) !== "agent") {
    sink.warn("agent-label-mismatch", `labelled "${agentLabel}" but the transcript is ${agent}: read as ${agent}`);
  }
  if (format === "claude-code") {
    const session = parseClaudeCodeTranscript({ text: bytes, file }, sink);
    if (session) return { ok: true, session };
    return { ok: false, reason: "transcript-unreadable", message: `${file}: no usable Claude Code records` };
  }
  if (format === "unknown") return { ok: false, reason: "transcript-unreadable", message: `${file}: format not recognised from its content` };
  sink.warn("transcript-format-unsupported", `${file} is a ${agent} transcript; this version reads Claude Code transcripts only (the ${format} adapter is a separate issue)`);
  return { ok: false, reason: "transcript-unreadable", message: `${file}: ${agent} transcripts are not read yet` };
}

const normaliseLabel = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");
