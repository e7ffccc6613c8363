/**
 * The SWE-chat tables as this adapter reads them (research/swe-chat.md §3):
 * the columns each table is recognised by, the columns read (projection),
 * and zod schemas of the rows after coercion.
 *
 * Physical types vary with the writer (pandas turns an int column with nulls
 * into float64; pyarrow writes INT64, which hyparquet returns as bigint;
 * timestamps come as Date; JSON columns are strings), so every value goes
 * through a small coercer before the schema sees it.
 */
import { z } from "zod";

export const TABLES = ["conversations", "sessions", "session_logs", "checkpoints", "commits", "repositories"] as const;
export type SwechatTable = (typeof TABLES)[number];

/** A Parquet file belongs to a table when its schema has all of these columns (detection by content, never by file name). */
export const SIGNATURES: Record<SwechatTable, readonly string[]> = {
  conversations: ["session_id", "turn_number", "turn_type", "content"],
  sessions: ["session_id", "checkpoint_ids", "agent_percentage", "canonical_checkpoint_pk"],
  session_logs: ["session_id", "session_metadata_raw"],
  checkpoints: ["checkpoint_pk", "session_pks", "commit_shas"],
  commits: ["commit_sha", "checkpoint_pk", "patch"],
  repositories: ["repo_id", "num_checkpoints"],
};

/** Conversation columns read per session (the large `content` only because prompts and tool-result errors need it). */
export const CONVERSATION_COLUMNS = [
  "session_id",
  "turn_number",
  "turn_type",
  "content",
  "model",
  "timestamp",
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "is_continuation",
  "tool_name",
  "tool_call_id",
  "file_path",
  "command",
  "bash_category",
  "tool_input_json",
  "prompt_intent",
  "prompt_pushback",
] as const;
/** Columns of the first, cheap pass (dictionary-encoded): where each session's rows are, its repository, canonical checkpoint and agent label. */
export const INDEX_COLUMNS = ["session_id", "repo_id", "checkpoint_pk", "agent"] as const;

export const SESSION_COLUMNS = [
  "session_id",
  "repo_id",
  "checkpoint_ids",
  "canonical_checkpoint_pk",
  "agent",
  "branch",
  "created_at",
  "files_touched",
  "agent_lines",
  "human_added",
  "human_modified",
  "human_removed",
  "total_committed",
  "agent_percentage",
  "session_success",
  "user_persona",
] as const;
export const SESSION_LOG_COLUMNS = ["session_id", "transcript_path", "session_metadata_raw"] as const;
export const CHECKPOINT_COLUMNS = [
  "checkpoint_pk",
  "repo_id",
  "session_pks",
  "session_count",
  "commit_shas",
  "commit_count",
  "unique_author_count",
] as const;
export const COMMIT_META_COLUMNS = [
  "commit_sha",
  "checkpoint_pk",
  "repo_id",
  "commit_date",
  "total_additions",
  "is_agent_author",
  "status",
] as const;
export const COMMIT_PATCH_COLUMNS = ["commit_sha", "patch"] as const;
export const REPOSITORY_COLUMNS = ["repo_id"] as const;

// ---- coercers ---------------------------------------------------------------

export const str = (v: unknown): string | null =>
  typeof v === "string" ? v : v === null || v === undefined ? null : String(v);
export function num(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}
export const int = (v: unknown): number | null => {
  const n = num(v);
  return n === null ? null : Math.trunc(n);
};
export const bool = (v: unknown): boolean | null =>
  typeof v === "boolean" ? v : v === null || v === undefined ? null : v === "true" || v === 1 || v === 1n;
/** Epoch milliseconds from a Date, an ISO string or a number (ms, or µs/ns when implausibly large). */
export function time(v: unknown): number | null {
  if (v instanceof Date) return Number.isFinite(v.getTime()) ? v.getTime() : null;
  if (typeof v === "string") {
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : null;
  }
  const n = num(v);
  if (n === null) return null;
  if (n > 1e17) return Math.round(n / 1e6); // ns
  if (n > 1e14) return Math.round(n / 1e3); // µs
  return n;
}
/** A JSON list column (string, or already a list): its string items; null when absent or not a list. */
export function jsonList(v: unknown): string[] | null {
  let value = v;
  if (typeof v === "string") {
    if (v.trim() === "") return null;
    try {
      value = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value)) return null;
  return value.filter((x): x is string => typeof x === "string");
}

// ---- rows after coercion ------------------------------------------------------

const nstr = z.string().nullable();
const nnum = z.number().nullable();

/** One `conversations` row, as the session builder sees it. `timestamp` in epoch ms. */
export const conversationRowSchema = z.object({
  session_id: z.string(),
  turn_number: z.number().int(),
  turn_type: nstr,
  content: nstr,
  model: nstr,
  timestamp: nnum,
  input_tokens: nnum,
  output_tokens: nnum,
  cache_creation_input_tokens: nnum,
  cache_read_input_tokens: nnum,
  is_continuation: z.boolean().nullable(),
  tool_name: nstr,
  tool_call_id: nstr,
  file_path: nstr,
  command: nstr,
  bash_category: nstr,
  tool_input_json: nstr,
  /** The dataset's LLM labels of a `user_prompt` row, as written (checked against the closed sets when the prompt is read). */
  prompt_intent: nstr,
  prompt_pushback: nstr,
  /** Physical row position in the table, for a stable order among equal turn numbers. */
  position: z.number().int(),
});
export type ConversationRow = z.infer<typeof conversationRowSchema>;

/** `sessions` row: Entire's attribution kept as recorded; `session_success` is a string in the data (an LLM score "0"–"100"). */
export const sessionRowSchema = z.object({
  session_id: z.string(),
  repo_id: nstr,
  checkpoint_ids: z.array(z.string()),
  canonical_checkpoint_pk: nstr,
  agent: nstr,
  branch: nstr,
  created_at: nnum,
  files_touched: z.array(z.string()),
  agent_lines: nnum,
  human_added: nnum,
  human_modified: nnum,
  human_removed: nnum,
  total_committed: nnum,
  agent_percentage: nnum,
  session_success: nstr,
  user_persona: nstr.optional(),
});
export type SwechatSessionRow = z.infer<typeof sessionRowSchema>;

export const sessionLogRowSchema = z.object({
  session_id: z.string(),
  transcript_path: nstr,
  /** `checkpoint_transcript_start` (or `transcript_lines_at_start`) from `session_metadata_raw`. */
  transcript_start: z.number().int().nonnegative(),
});
export type SessionLogRow = z.infer<typeof sessionLogRowSchema>;

export const checkpointRowSchema = z.object({
  checkpoint_pk: z.string(),
  repo_id: nstr,
  session_pks: z.array(z.string()),
  session_count: nnum,
  commit_shas: z.array(z.string()),
  commit_count: nnum,
  unique_author_count: nnum,
});
export type CheckpointRow = z.infer<typeof checkpointRowSchema>;

export const commitMetaRowSchema = z.object({
  commit_sha: z.string(),
  checkpoint_pk: nstr,
  repo_id: nstr,
  commit_date: nnum,
  total_additions: nnum,
  is_agent_author: z.boolean().nullable(),
  status: nstr,
  /** Physical row position in the commits table (ties of `commit_date`). */
  position: z.number().int(),
});
export type CommitMetaRow = z.infer<typeof commitMetaRowSchema>;
