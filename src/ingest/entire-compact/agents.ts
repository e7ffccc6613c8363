/**
 * The compact transcript's `agent` field (Entire's registry key of the agent
 * the lines were compacted from) → the display name and the session `source`.
 */
import type { SourceId } from "../../model";

const NAMES: Record<string, string> = {
  "claude-code": "Claude Code",
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  "gemini-cli": "Gemini CLI",
  opencode: "OpenCode",
  cursor: "Cursor",
  copilot: "Copilot CLI",
  "copilot-cli": "Copilot CLI",
  droid: "Factory AI Droid",
  "factoryai-droid": "Factory AI Droid",
  kiro: "Kiro",
  pi: "Pi",
};

const key = (agent: string) =>
  agent
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-");

/** "claude-code" → "Claude Code"; an agent this table does not know keeps the name the line gives. */
export function compactAgentName(agent: string | null): string {
  if (agent === null || agent.trim() === "") return "unknown";
  return NAMES[key(agent)] ?? agent.trim();
}

/** The session `source`: the compact format itself, whatever agent it was compacted from (the `agent` column says which). */
export function compactSource(_agent: string | null): SourceId {
  return "entire-compact";
}

const PEEK_BYTES = 4096;

/**
 * The display name of the agent a compact transcript names, from its first
 * line's `agent` field (compact.go writes it second, after `v`), without
 * parsing the file; null when the head names none.
 */
export function peekCompactAgent(text: string | Uint8Array): string | null {
  const head =
    typeof text === "string"
      ? text.slice(0, PEEK_BYTES)
      : new TextDecoder("utf-8").decode(text.subarray(0, PEEK_BYTES));
  const m = /"agent"\s*:\s*"([^"\\]*)"/.exec(head);
  return m !== null && m[1].trim() !== "" ? compactAgentName(m[1]) : null;
}
