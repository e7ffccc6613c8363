/**
 * The sample as SWE-chat publishes its data (swe-chat.md §3): the six
 * Parquet tables with every column of the release (REAL_SCHEMA) and
 * `transcripts/<session_id>.jsonl`, made from the sample's own transcripts,
 * checkpoints and commits, with the hand-given labels of ./labels.ts. So the
 * SWE-chat path, its labels and the paper's figures run on the bundled
 * sample with no download.
 *
 * - conversations: one row per prompt (with its labels), per API response
 *   (model, tokens and the response's text), per tool call and per tool
 *   result of the main thread, in transcript order; sub-agents left out (the
 *   dataset keeps the main transcript).
 * - sessions: Entire's `initial_attribution` of the session's last
 *   checkpoint (SWE-chat keeps one record per session), created_at = the
 *   session's start, persona and success from ./labels.ts.
 * - checkpoints, commits (the real patch and numstat from git), one repository.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readTranscriptByContent } from "../../ingest/read-transcript";
import { REAL_SCHEMA, type SwechatTable, toColumnValue } from "../../ingest/swechat";
import { DiagnosticSink, type Session } from "../../model";
import type { Git } from "../git";
import type { SampleCheckpoint, SampleCommit, SampleSession, ExpectedUnit } from "../types";
import { SAMPLE_LABELS } from "./labels";

type Row = Record<string, unknown>;

export const SAMPLE_REPO_ID = "maya-chen/sample-app";
const pk = (checkpointId: string) => `${SAMPLE_REPO_ID}#${checkpointId}`;

export interface SweChatInputs {
  sessions: readonly SampleSession[];
  commits: readonly SampleCommit[];
  checkpoints: readonly SampleCheckpoint[];
  expected: readonly ExpectedUnit[];
  git: Git;
}

async function writeTable(file: string, table: SwechatTable, rows: readonly Row[]): Promise<void> {
  const { parquetWriteFile } = await import("hyparquet-writer");
  parquetWriteFile({
    filename: file,
    rowGroupSize: 1000,
    columnData: REAL_SCHEMA[table].map(([name, type]) => ({
      name,
      type,
      data: rows.map((r) => toColumnValue(type, r[name])) as never[],
    })),
  });
}

export async function writeSweChatTables(dir: string, input: SweChatInputs): Promise<void> {
  mkdirSync(join(dir, "transcripts"), { recursive: true });
  const conversations: Row[] = [];
  const sessions: Row[] = [];
  for (const s of input.sessions) {
    const labels = SAMPLE_LABELS[s.key];
    if (s.transcript !== null) {
      copyFileSync(s.transcript, join(dir, "transcripts", `${s.entire_session_id}.jsonl`));
      conversations.push(...conversationRows(s, readFileSync(s.transcript, "utf8")));
    }
    sessions.push(sessionRow(s, input, labels));
  }
  await writeTable(join(dir, "conversations.parquet"), "conversations", conversations);
  await writeTable(join(dir, "sessions.parquet"), "sessions", sessions);
  await writeTable(
    join(dir, "session_logs.parquet"),
    "session_logs",
    input.sessions.map((s) => ({
      session_id: s.entire_session_id,
      transcript_path: s.transcript === null ? "" : `transcripts/${s.entire_session_id}.jsonl`,
      context_md: "",
      session_metadata_raw: "{}",
    })),
  );
  await writeTable(
    join(dir, "checkpoints.parquet"),
    "checkpoints",
    input.checkpoints.map((c) => checkpointRow(c, input.commits)),
  );
  await writeTable(
    join(dir, "commits.parquet"),
    "commits",
    input.checkpoints.map((c) => commitRow(c, input)),
  );
  await writeTable(join(dir, "repositories.parquet"), "repositories", [
    {
      repo_id: SAMPLE_REPO_ID,
      owner_id: "maya-chen",
      name: "sample-app",
      url: "https://example.invalid/sample-app",
      is_fork: false,
      num_checkpoints: input.checkpoints.length,
      num_sessions: sessions.length,
      num_commits: input.checkpoints.length,
    },
  ]);
}

/** The session's main-thread records as conversation rows (what SWE-chat's parser keeps of a Claude Code transcript). */
function conversationRows(s: SampleSession, text: string): Row[] {
  const outcome = readTranscriptByContent(
    Buffer.from(text),
    s.transcript ?? "",
    "Claude Code",
    new DiagnosticSink("sample"),
  );
  if (!outcome.ok) return [];
  const session: Session = outcome.session;
  const lines = text.split("\n");
  const labels = SAMPLE_LABELS[s.key]?.prompts ?? [];
  const rows: { record: number; order: number; fields: Row }[] = [];
  session.turns.forEach((t, i) => {
    const [intent, pushback] = labels[i] ?? [null, null];
    rows.push({
      record: t.record,
      order: 0,
      fields: {
        turn_type: "user_prompt",
        role: "user",
        content: t.text,
        timestamp: t.timestamp,
        is_first_turn: i === 0,
        prompt_intent: intent,
        prompt_pushback: pushback,
      },
    });
  });
  for (const call of session.api_calls) {
    if (call.sidechain) continue;
    const u = call.usage;
    rows.push({
      record: call.record,
      order: 1,
      fields: {
        turn_type: "assistant_response",
        role: "assistant",
        content: textOf(lines[call.record - 1]),
        model: call.model,
        timestamp: call.timestamp,
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        cache_creation_input_tokens: u.cache_creation_tokens,
        cache_read_input_tokens: u.cache_read_tokens,
      },
    });
  }
  for (const call of session.tool_calls) {
    if (call.sidechain) continue;
    const input = (call.input ?? {}) as Record<string, unknown>;
    rows.push({
      record: call.record,
      order: 2,
      fields: {
        turn_type: "tool_use",
        role: "tool_use",
        tool_name: call.name,
        tool_call_id: call.id,
        tool_input_json: JSON.stringify(call.input),
        timestamp: call.timestamp,
        command: typeof input.command === "string" ? input.command : null,
        file_path: typeof input.file_path === "string" ? input.file_path : null,
      },
    });
    if (call.result_record !== null) {
      rows.push({
        record: call.result_record,
        order: 3,
        fields: {
          turn_type: "tool_result",
          role: "tool_result",
          tool_call_id: call.id,
          content: call.success === false ? `Error: ${call.error ?? "failed"}` : "ok",
          timestamp: call.result_timestamp ?? null,
        },
      });
    }
  }
  rows.sort((a, b) => a.record - b.record || a.order - b.order);
  return rows.map((r, turn) => ({
    turn_id: `${s.entire_session_id}#${turn}`,
    session_id: s.entire_session_id,
    checkpoint_pk: pk(s.checkpoints[s.checkpoints.length - 1]),
    repo_id: SAMPLE_REPO_ID,
    turn_number: turn,
    is_conversational: r.fields.turn_type === "user_prompt" || r.fields.turn_type === "assistant_response",
    agent: "Claude Code",
    strategy: "manual-commit",
    is_continuation: false,
    language: "english",
    ...r.fields,
  }));
}

/** The text blocks of one assistant record (empty when it has none). */
function textOf(line: string | undefined): string {
  try {
    const o = JSON.parse(line ?? "") as { message?: { content?: unknown } };
    const content = o.message?.content;
    const blocks = Array.isArray(content) ? (content as { type?: string; text?: string }[]) : [];
    return blocks
      .filter((b) => b.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("\n\n");
  } catch {
    return "";
  }
}

function sessionRow(s: SampleSession, input: SweChatInputs, labels: (typeof SAMPLE_LABELS)[string] | undefined): Row {
  const units = input.expected.filter((e) => e.session_key === s.key);
  const last = units[units.length - 1];
  const pct =
    last && last.entire_total_committed > 0
      ? (100 * last.entire_agent_lines) / last.entire_total_committed
      : last
        ? 0
        : null;
  return {
    session_id: s.entire_session_id,
    repo_id: SAMPLE_REPO_ID,
    owner_id: "maya-chen",
    checkpoint_ids: JSON.stringify(s.checkpoints.map(pk)),
    canonical_checkpoint_pk: pk(s.checkpoints[s.checkpoints.length - 1]),
    agent: "Claude Code",
    strategy: "manual-commit",
    branch: s.branch,
    created_at: s.started_at,
    files_touched: "[]",
    checkpoints_count: s.checkpoints.length,
    agent_lines: last?.entire_agent_lines ?? null,
    total_committed: last?.entire_total_committed ?? null,
    agent_percentage: pct,
    input_tokens: s.usage.input_tokens,
    output_tokens: s.usage.output_tokens,
    cache_creation_tokens: s.usage.cache_creation_tokens,
    cache_read_tokens: s.usage.cache_read_tokens,
    api_call_count: s.usage.api_calls,
    prompt_count: s.prompts,
    user_persona: labels?.persona ?? null,
    session_success: labels?.success ?? null,
  };
}

function checkpointRow(c: SampleCheckpoint, commits: readonly SampleCommit[]): Row {
  const commit = commits.find((x) => x.name === c.commit);
  return {
    checkpoint_pk: pk(c.checkpoint_id),
    checkpoint_id: c.checkpoint_id,
    repo_id: SAMPLE_REPO_ID,
    session_pks: JSON.stringify(c.sessions.map((s) => s.entire_session_id)),
    session_count: c.sessions.length,
    commit_shas: JSON.stringify(commit ? [commit.sha] : []),
    commit_count: commit ? 1 : 0,
    unique_author_count: 1,
  };
}

function commitRow(c: SampleCheckpoint, input: SweChatInputs): Row {
  const commit = input.commits.find((x) => x.name === c.commit)!;
  const patch = input.git.run(["show", "--format=", "--patch", "--no-color", "--no-renames", commit.sha]);
  const additions = input.git
    .run(["show", "--format=", "--numstat", "--no-renames", commit.sha])
    .split("\n")
    .reduce((n, line) => n + (Number(line.split("\t")[0]) || 0), 0);
  return {
    commit_sha: commit.sha,
    checkpoint_pk: pk(c.checkpoint_id),
    repo_id: SAMPLE_REPO_ID,
    commit_index: 0,
    num_commits: 1,
    author_name: commit.author,
    author_date: new Date(commit.author_time * 1000),
    commit_date: new Date(commit.committer_time * 1000),
    commit_message: commit.subject,
    branch: commit.branch,
    is_agent_author: false,
    total_additions: additions,
    total_deletions: 0,
    patch,
    status: "ok",
  };
}
