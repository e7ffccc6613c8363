import { newFileEdit } from "../../model";
import { FENCE, HEADER_TIME, type TurnHeader } from "./schema";

const AGENTS: [RegExp, string][] = [
  [/^claude code$/i, "Claude Code"],
  [/^cursor( ide| cli)?$/i, "Cursor"],
  [/^codex( cli)?$/i, "Codex"],
  [/^gemini( cli)?$/i, "Gemini CLI"],
  [/^(github )?copilot/i, "Copilot"],
  [/^droid/i, "Droid"],
];

const ENTITIES: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'", nbsp: "\u00a0" };

/** HTML entities as Cursor chunks escape them (`&#96;`, `&quot;`, `&amp;`, …); one pass, so `&amp;lt;` stays `&lt;`. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A Cursor diff chunk → unified-diff lines: entities decoded, and the one
 * extra space SpecStory writes after each marker (`+ \tAgentName`) removed
 * when every line has it (`spaced`); otherwise the chunk is kept as written
 * and the caller reports it.
 */
export function cursorChunkLines(raw: readonly string[]): { lines: string[]; spaced: boolean } {
  const decoded = raw.map(decodeEntities);
  const body = decoded.filter((l) => /^[+\- ]/.test(l));
  const spaced = body.length > 0 && body.every((l) => l.length === 1 || l[1] === " ");
  return { lines: spaced ? decoded.map((l) => (/^[+\- ] /.test(l) ? l[0] + l.slice(2) : l)) : decoded, spaced };
}

export interface Fence {
  char: string;
  len: number;
  lines: string[];
}

export const isClosingFence = (line: string, fence: Fence): boolean => {
  const m = FENCE.exec(line);
  return m !== null && m[1][0] === fence.char && m[1].length >= fence.len && m[2].trim() === "";
};

/** Lines of a tool block that are markup, not content. */
export const STRUCTURE =
  /^\s*(<\/?details>|<summary>.*<\/summary>|<\/tool-use>|<\/details><\/tool-use>|Lines added: \d+, lines removed: \d+)?\s*$/;

export interface ToolBlock {
  line: number;
  endLine: number;
  name: string | null;
  type: string | null;
  summary: string;
  body: boolean;
  result: string[];
  chunks: string[][];
  patches: { op: string; path: string; lines: string[] }[];
  pending: { kind: "chunk" } | { kind: "patch"; op: string; path: string } | null;
}

/** What the block shows of the call's input: its type, the summary, the file, and a shell command shown as `` `cmd` ``. */
export function inputOf(block: ToolBlock, file: string | null): Record<string, unknown> {
  const summary = block.summary.replace(/^\s*[•·-]\s*/, "").trim();
  const input: Record<string, unknown> = { type: block.type, summary: summary || null };
  if (file !== null) input.path = file;
  if (block.type === "shell") {
    const quoted = [summary, ...block.result.map((l) => l.trim())]
      .map((l) => /^`([^`].*)`$/.exec(l)?.[1])
      .find((c) => c !== undefined);
    if (quoted !== undefined) input.command = quoted;
  }
  return input;
}

export function turnHeader(role: string, inside: string | null, line: number): TurnHeader {
  let model: string | null = null;
  let timestamp: string | null = null;
  if (inside !== null) {
    let rest = inside.trim();
    const t = HEADER_TIME.exec(rest);
    if (t) {
      timestamp = `${t[1]}T${t[2].length === 5 ? t[2] + ":00" : t[2]}Z`;
      rest = rest.slice(0, t.index).trim();
    }
    rest = rest
      .replace(/,?\s*mode\s+\S+$/i, "")
      .replace(/^model\s+/i, "")
      .replace(/,$/, "")
      .trim();
    if (role !== "User" && rest !== "") model = rest;
  }
  return { role: role === "User" ? "user" : "agent", model, timestamp, line };
}

export function attr(attrs: string, name: string): string | null {
  return new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? null;
}

const SUCCESS =
  /has been updated successfully|has been updated\. All occurrences|File created successfully|has been created successfully|successfully (written|created|edited)/i;
const FAILURE =
  /The user doesn't want to (proceed|take this action)|tool use was rejected|<tool_use_error>|String to replace not found|File has not been read yet|^Error:/im;

/** Success from what the block shows: a Cursor diff is the applied result; Claude Code result texts say so; else unknown. */
export function outcomeOf(block: ToolBlock): boolean | null {
  const result = block.result.join("\n");
  if (FAILURE.test(result)) return false;
  if (block.chunks.length > 0 || SUCCESS.test(result)) return true;
  return null;
}

export function modelsByTurns(headers: readonly TurnHeader[]): string[] {
  const counts = new Map<string, number>();
  for (const h of headers) if (h.model) counts.set(h.model, (counts.get(h.model) ?? 0) + 1);
  const firstSeen = [...counts.keys()];
  return firstSeen
    .slice()
    .sort((a, b) => counts.get(b)! - counts.get(a)! || firstSeen.indexOf(a) - firstSeen.indexOf(b));
}

export function agentOf(provider: string | null): string {
  if (provider === null) return "unknown";
  for (const [re, name] of AGENTS) if (re.test(provider.trim())) return name;
  return provider;
}

export const fileEdit = newFileEdit;
