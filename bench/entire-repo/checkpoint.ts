/**
 * Entire's side of the repository: one commit per checkpoint on the orphan
 * branch `entire/checkpoints/v1` (summary `metadata.json` plus one folder per
 * session with its metadata, prompts, transcript and content hash), and the
 * Entire-like `initial_attribution` count some of them carry.
 */
import { createHash } from "node:crypto";
import type { Change } from "./fast-import";
import type { Quirk } from "./manifest";
import { addedLines } from "./patch";
import { firstPres, type SessionLog, statesBefore } from "./session-log";
import { type BuildState, ENTIRE } from "./state";

/** One session folder of a checkpoint: lines [start ?? 0, end) of `s`'s transcript (start null: `checkpoint_transcript_start` left out). */
export interface CheckpointFolder {
  s: SessionLog;
  start: number | null;
  end: number;
  files: string[];
  agent?: string;
  legacyId?: boolean;
  transcript: "full" | "none" | "nul";
  attribution?: { agent: number; total: number } | null;
}

/** One checkpoint commit on entire/checkpoints/v1 with the given session folders. */
export async function writeCheckpoint(
  st: BuildState,
  id: string,
  folders: CheckpointFolder[],
  time: number,
  quirk: Quirk | null,
  commitMarks: number[],
): Promise<void> {
  const base = `${id.slice(0, 2)}/${id.slice(2)}`;
  const changes: Change[] = [];
  const summaryUsage = {
    input_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    output_tokens: 0,
    api_call_count: 0,
  };
  let bytes = 0;
  let promptWindows = 0;
  folders.forEach((f, n) => {
    const s = f.s;
    const from = f.start ?? 0;
    const calls = s.calls.filter((c) => c.line >= from && c.line < f.end);
    const usage = {
      input_tokens: calls.reduce((a, c) => a + c.input, 0),
      cache_creation_tokens: calls.reduce((a, c) => a + c.cacheCreate, 0),
      cache_read_tokens: calls.reduce((a, c) => a + c.cacheRead, 0),
      output_tokens: calls.reduce((a, c) => a + c.output, 0),
      api_call_count: calls.length,
    };
    for (const k of Object.keys(summaryUsage) as (keyof typeof usage)[]) summaryUsage[k] += usage[k];
    const prompts = s.promptStarts.map((p, i) => ({ p, text: s.prompts[i] })).filter((x) => x.p >= from && x.p < f.end);
    promptWindows += prompts.length;
    const created = new Date(s.firstTs).toISOString();
    if (f.legacyId) st.recordedIds.set(s.id, `${created.slice(0, 10)}-${s.id}`);
    const meta: Record<string, unknown> = {
      cli_version: "0.4.7",
      checkpoint_id: id,
      session_id: f.legacyId ? `${created.slice(0, 10)}-${s.id}` : s.id,
      strategy: "manual-commit",
      created_at: created,
      branch: s.branch,
      checkpoints_count: prompts.length,
      files_touched: f.files,
      agent: f.agent ?? "Claude Code",
      model: s.model,
      transcript_path: `.claude/projects/${s.cwd.replace(/[/.]/g, "-")}/${s.id}.jsonl`,
    };
    if (f.start !== null) meta.checkpoint_transcript_start = f.start;
    if (f.attribution) {
      meta.initial_attribution = {
        calculated_at: new Date(time * 1000).toISOString(),
        agent_lines: f.attribution.agent,
        human_added: f.attribution.total - f.attribution.agent,
        human_modified: 0,
        human_removed: 0,
        total_committed: f.attribution.total,
        agent_percentage:
          f.attribution.total > 0 ? Math.round((1000 * f.attribution.agent) / f.attribution.total) / 10 : 0,
      };
    }
    if (n % 2 === 0 || calls.length > 0) meta.token_usage = usage;
    changes.push({ path: `${base}/${n}/metadata.json`, content: JSON.stringify(meta, null, 2) });
    changes.push({ path: `${base}/${n}/prompt.txt`, content: prompts.map((x) => x.text).join("\n\n---\n\n") });
    if (f.transcript !== "none") {
      const text =
        f.transcript === "nul"
          ? Buffer.alloc(Math.min(65536, s.bytes))
          : Buffer.from(s.lines.slice(0, f.end).join("\n") + "\n");
      bytes += text.length;
      changes.push({ path: `${base}/${n}/full.jsonl`, content: text });
      changes.push({
        path: `${base}/${n}/content_hash.txt`,
        content: `sha256:${createHash("sha256").update(text).digest("hex")}`,
      });
    }
  });
  const summary = {
    cli_version: "0.4.7",
    checkpoint_id: id,
    strategy: "manual-commit",
    branch: folders[0].s.branch,
    // Entire: the sum of the sessions' prompt-window counts.
    checkpoints_count: promptWindows,
    files_touched: [...new Set(folders.flatMap((f) => f.files))].sort(),
    sessions: folders.map((_, n) => ({
      metadata: `/${base}/${n}/metadata.json`,
      transcript: `/${base}/${n}/full.jsonl`,
      content_hash: `/${base}/${n}/content_hash.txt`,
      prompt: `/${base}/${n}/prompt.txt`,
    })),
    token_usage: summaryUsage,
  };
  changes.unshift({ path: `${base}/metadata.json`, content: JSON.stringify(summary, null, 2) });
  const s0 = folders[0].s;
  st.checkpointsTip = await st.fi.commit({
    ref: "refs/heads/entire/checkpoints/v1",
    author: ENTIRE,
    time,
    message: `Checkpoint: ${id}\n\nEntire-Session: ${s0.id}\nEntire-Strategy: manual-commit\nEntire-Agent: ${folders[0].agent ?? "Claude Code"}\n`,
    from: st.checkpointsTip,
    changes,
  });
  st.transcriptBytes += bytes;
  st.checkpoints.push({
    checkpoint_id: id,
    sessions: folders.map((f) => f.s.id),
    commits: [],
    commitMarks,
    quirk,
    transcript_start: folders.map((f) => f.start),
    transcript_bytes: bytes,
    stored: true,
  });
}

/** Entire-style attribution of one commit: committed added lines that the agent's text also added. */
export function attribution(
  st: BuildState,
  s: SessionLog,
  before: Map<string, string>,
  after: Map<string, string>,
  upto: number,
): { agent: number; total: number } | null {
  const agent = statesBefore(s, upto);
  const pres = firstPres(s);
  let total = 0;
  let agentLines = 0;
  for (const [path, text] of after) {
    const added = addedLines(before.get(path) ?? "", text);
    const byAgent = agent.has(path) ? addedLines(pres.get(path) ?? "", agent.get(path)!) : new Map<string, number>();
    for (const [l, n] of added) {
      if (n <= 0) continue;
      total += n;
      agentLines += Math.min(n, Math.max(0, byAgent.get(l) ?? 0));
    }
  }
  return st.rng.chance(0.7) ? { agent: agentLines, total } : null;
}
