import { parseClaudeCodeTranscript } from "./claude-code";
import { parseCodexRollout } from "./codex";
import { detectTranscriptFormat, type TranscriptFormat } from "./detect";
import { parseEntireCompactTranscript, peekCompactAgent } from "./entire-compact";
import { parseGeminiSession } from "./gemini";
import { parseOpenCodeSession } from "./opencode";
import { parsePiSession } from "./pi";
import { checkSessionTimes, type DiagnosticSink, type Session } from "../model";

const AGENT_OF_FORMAT: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  opencode: "OpenCode",
  pi: "Pi",
};

/** The agent a transcript's content names: fixed per format, except Entire's compact format, whose lines say which agent they came from. */
function agentOf(format: TranscriptFormat, bytes: Uint8Array): string | null {
  if (format === "entire-compact") return peekCompactAgent(bytes);
  return AGENT_OF_FORMAT[format] ?? null;
}

export type TranscriptOutcome =
  | { ok: true; session: Session }
  | { ok: false; reason: "transcript-unreadable"; message: string };

type Reader = (bytes: Uint8Array, file: string, sink: DiagnosticSink) => Session | null;

/** One parser per format detected by content; a format missing here is reported as unsupported. */
const READERS: Partial<Record<TranscriptFormat, Reader>> = {
  "claude-code": (text, file, sink) => parseClaudeCodeTranscript({ text, file }, sink),
  codex: (text, file, sink) => parseCodexRollout({ text, file }, sink),
  gemini: (text, file, sink) => parseGeminiSession({ text, file }, sink),
  opencode: (text, file, sink) => parseOpenCodeSession({ text, file }, sink),
  pi: (text, file, sink) => parsePiSession({ text, file }, sink),
  "entire-compact": (text, file, sink) => parseEntireCompactTranscript({ text, file }, sink),
};

/**
 * Reads a transcript by its content, whatever its file name or the agent
 * label beside it says (Entire stores Gemini sessions, OpenCode exports and
 * Pi session files as `full.jsonl`). Formats without an adapter are reported,
 * not guessed at.
 */
export function readTranscriptByContent(
  bytes: Uint8Array,
  file: string,
  agentLabel: string | null,
  sink: DiagnosticSink,
): TranscriptOutcome {
  const format = detectTranscriptFormat(bytes);
  const agent = agentOf(format, bytes);
  if (
    agentLabel &&
    agent &&
    normaliseLabel(agentLabel) !== normaliseLabel(agent) &&
    normaliseLabel(agentLabel) !== "agent" &&
    !sameAgent(agentLabel, agent)
  ) {
    sink.warn("agent-label-mismatch", `labelled "${agentLabel}" but the transcript is ${agent}: read as ${agent}`);
  }
  if (format === "unknown") {
    // Entire also records agents no adapter here reads (Cursor, Copilot CLI, Factory AI Droid, Kiro): say which.
    const labelled =
      agentLabel && normaliseLabel(agentLabel) !== "agent" && normaliseLabel(agentLabel) !== "unknown"
        ? ` (labelled "${agentLabel}")`
        : "";
    return {
      ok: false,
      reason: "transcript-unreadable",
      message: `${file}: format not recognised from its content${labelled}`,
    };
  }
  const reader = READERS[format];
  if (!reader) {
    sink.warn(
      "transcript-format-unsupported",
      `${file} is a ${agent ?? format} transcript; no adapter reads that format yet`,
    );
    return {
      ok: false,
      reason: "transcript-unreadable",
      message: `${file}: ${agent ?? format} transcripts are not read yet`,
    };
  }
  const session = reader(bytes, file, sink);
  if (session) checkSessionTimes(session, sink);
  if (session) return { ok: true, session };
  return { ok: false, reason: "transcript-unreadable", message: `${file}: no usable ${agent} records` };
}

const normaliseLabel = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

/** Entire labels Gemini CLI sessions "Gemini CLI" or "Gemini"; both name the same agent. */
function sameAgent(label: string, agent: string): boolean {
  const l = normaliseLabel(label);
  const a = normaliseLabel(agent);
  return a.startsWith(l) || l.startsWith(a);
}
