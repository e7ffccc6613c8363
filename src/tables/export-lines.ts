/**
 * The committed lines' owners for other tools (issue 19): Agent Trace 0.1.0 records and git-ai authorship
 * notes, one per commit, from `line_ranges`. A commit is exported where its lines are attributable: from its
 * group (metrics.md §1b) when the group was replayed, else from its strict unit without ambiguity; other
 * commits are counted, not guessed. Only agent-written ranges are listed (neither format has a place for
 * "not the agent" lines that no known person attested).
 */
import { createHash } from "node:crypto";
import type { AgentTraceRecord, AnalysisRows, LineRangeRow } from "../model";

export interface AgentLines {
  session_id: string;
  model: string | null;
  agent: string | null;
  file: string;
  start_line: number;
  end_line: number;
  tool_call_seq: number | null;
}

export interface ExportableCommits {
  /** By commit sha, in sha order; ranges sorted by file, then line. */
  commits: Map<string, AgentLines[]>;
  /** Commits of the analysis without attributable lines (ambiguous strict units outside any replayed group). */
  skipped: number;
}

export function exportableCommits(
  rows: Pick<AnalysisRows, "units" | "group_units" | "line_ranges">,
): ExportableCommits {
  const agentOf = new Map<string, string | null>();
  for (const u of rows.units) agentOf.set(u.session_id, u.agent);
  for (const g of rows.group_units ?? []) if (!agentOf.has(g.session_id)) agentOf.set(g.session_id, g.agent);
  const grouped = new Map<string, LineRangeRow[]>();
  const strict = new Map<string, LineRangeRow[]>();
  const clean = new Set(
    rows.units
      .filter((u) => u.ambiguity === null && u.method === "git-replay")
      .map((u) => `${u.session_id}\u0000${u.commit_sha}`),
  );
  for (const r of rows.line_ranges ?? []) {
    if (r.group_id !== null) push(grouped, r.commit_sha, r);
    else if (clean.has(`${r.session_id}\u0000${r.commit_sha}`)) push(strict, r.commit_sha, r);
  }
  const all = new Set([...rows.units.map((u) => u.commit_sha), ...(rows.group_units ?? []).map((g) => g.commit_sha)]);
  const commits = new Map<string, AgentLines[]>();
  for (const sha of [...new Set([...grouped.keys(), ...strict.keys()])].sort()) {
    const source = grouped.get(sha) ?? strict.get(sha) ?? [];
    // Each member of a group sees every line; its own are the ones it calls `agent`.
    const mine = source.filter((r) => r.owner === "agent");
    const lines = mine.map((r) => ({
      session_id: r.session_id,
      model: r.model,
      agent: agentOf.get(r.session_id) ?? null,
      file: r.file,
      start_line: r.start_line,
      end_line: r.end_line,
      tool_call_seq: r.tool_call_seq,
    }));
    lines.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start_line - b.start_line));
    commits.set(sha, lines);
  }
  let skipped = 0;
  for (const sha of all) if (!commits.has(sha)) skipped++;
  return { commits, skipped };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const hex = (text: string, n: number) => createHash("sha256").update(text).digest("hex").slice(0, n);

/** A UUID (version 8, RFC 9562: vendor-defined) derived from the commit, so a second export gives the same id. */
function uuidOf(sha: string): string {
  const h = hex(`swe-chat-eval agent-trace ${sha}`, 32).split("");
  h[12] = "8";
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** One Agent Trace record for one commit: files → one conversation per session (its model the contributor) → ranges. */
export function agentTraceRecord(
  sha: string,
  lines: readonly AgentLines[],
  timestamp: string,
  version: string,
): AgentTraceRecord {
  const files = new Map<string, Map<string, AgentLines[]>>();
  for (const l of lines) {
    const bySession = files.get(l.file) ?? new Map<string, AgentLines[]>();
    push(bySession, l.session_id, l);
    files.set(l.file, bySession);
  }
  return {
    version: "0.1.0",
    id: uuidOf(sha),
    timestamp,
    vcs: { type: "git", revision: sha },
    tool: { name: "swe-chat-eval", version },
    files: [...files].map(([path, bySession]) => ({
      path,
      conversations: [...bySession].map(([, ls]) => ({
        contributor: ls[0].model
          ? { type: "ai" as const, model_id: ls[0].model.slice(0, 250) }
          : { type: "ai" as const },
        ranges: ls.map((l) => ({ start_line: l.start_line, end_line: l.end_line })),
      })),
    })),
    // Which session each conversation is (the format has no field for it) and how the record was made.
    metadata: {
      "swe-chat-eval": { replayed_from_logs: true, sessions: [...new Set(lines.map((l) => l.session_id))].sort() },
    },
  };
}

/** git-ai's tool name for an agent label (`claude`, `codex`, …: lower-case, as its notes write it). */
function gitAiTool(agent: string | null): string {
  const a = (agent ?? "unknown").toLowerCase();
  if (a.startsWith("claude")) return "claude";
  if (a.startsWith("codex")) return "codex";
  if (a.startsWith("gemini")) return "gemini";
  return a.replace(/\s+/g, "-");
}

/** Session key as git-ai makes it: `s_` + SHA-256("<tool>:<conversation id>")[:14]. */
export function gitAiSessionKey(agent: string | null, sessionId: string): string {
  return `s_${hex(`${gitAiTool(agent)}:${sessionId}`, 14)}`;
}

/** A git-ai `authorship/3.0.0` note for one commit; the trace id of a key names the tool call that wrote the lines. */
export function gitAiNote(sha: string, lines: readonly AgentLines[], version: string): string {
  const byFile = new Map<string, Map<string, [number, number][]>>();
  const sessions: Record<string, { agent_id: { tool: string; id: string; model: string } }> = {};
  for (const l of lines) {
    const s = gitAiSessionKey(l.agent, l.session_id);
    sessions[s] = { agent_id: { tool: gitAiTool(l.agent), id: l.session_id, model: l.model ?? "unknown" } };
    const key = `${s}::t_${hex(`${l.session_id}:${l.tool_call_seq ?? "none"}`, 14)}`;
    const byKey = byFile.get(l.file) ?? new Map<string, [number, number][]>();
    push(byKey, key, [l.start_line, l.end_line]);
    byFile.set(l.file, byKey);
  }
  const out: string[] = [];
  for (const [file, byKey] of byFile) {
    out.push(/\s/.test(file) ? JSON.stringify(file) : file);
    for (const [key, ranges] of byKey)
      out.push(`  ${key} ${ranges.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(",")}`);
  }
  out.push("---");
  const metadata = {
    schema_version: "authorship/3.0.0",
    git_ai_version: `swe-chat-eval-replayed:${version}`,
    base_commit_sha: sha,
    prompts: {},
    humans: {},
    sessions,
  };
  return `${out.join("\n")}\n${JSON.stringify(metadata, null, 2)}\n`;
}
