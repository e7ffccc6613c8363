/**
 * Every column of the six released tables (research/swe-chat.md §3, from the
 * dataset card), with the physical type a pandas → pyarrow export gives it:
 * nullable integer columns become DOUBLE (pandas has no nullable int64 in a
 * plain frame), JSON columns are STRING. The adapter reads only a projection
 * (./schema.ts) and coerces whatever types it finds; this list is what the
 * test fixtures and the scale benchmark write, so that they have the real
 * width and not only the columns we read.
 */
import type { SwechatTable } from "./schema";

export type ColumnType = "STRING" | "INT64" | "DOUBLE" | "BOOLEAN" | "TIMESTAMP";

const cols = (spec: string): [string, ColumnType][] =>
  spec
    .trim()
    .split(/\s+/)
    .map((item) => {
      const [name, t] = item.split(":");
      const type: ColumnType =
        t === "i" ? "INT64" : t === "d" ? "DOUBLE" : t === "b" ? "BOOLEAN" : t === "t" ? "TIMESTAMP" : "STRING";
      return [name, type];
    });

export const REAL_SCHEMA: Record<SwechatTable, [string, ColumnType][]> = {
  conversations: cols(`
    turn_id session_id checkpoint_pk repo_id user_id turn_number:i conversation_turn_number:d role turn_type is_conversational:b
    content model timestamp:t input_tokens:d output_tokens:d cache_creation_input_tokens:d cache_read_input_tokens:d
    is_continuation:b is_first_turn:b word_count:d char_count:d tool_name tool_call_id file_path command pattern tool_input_json
    category bash_category queue_op_subtype agent strategy language prompt_intent prompt_pushback`),
  sessions: cols(`
    session_id repo_id owner_id user_id checkpoint_ids canonical_checkpoint_pk agent strategy branch created_at:t cli_version
    files_touched files_touched_count:i checkpoints_count:i input_tokens:i output_tokens:i cache_creation_tokens:i cache_read_tokens:i
    api_call_count:i agent_lines:d human_added:d human_modified:d human_removed:d total_committed:d agent_percentage:d
    attribution_calculated_at:t transcript_identifier_at_start transcript_path tool_call_count:i unique_tools_count:i research_count:i
    action_count:i first_write_position:d duration_seconds:d turn_count:i prompt_count:i content_hash user_persona session_success`),
  session_logs: cols(`session_id transcript_path context_md session_metadata_raw`),
  checkpoints: cols(`
    checkpoint_pk checkpoint_id repo_id session_pks session_count:i commit_shas commit_count:i author_user_ids unique_author_count:d
    user_id cli_version strategy branch checkpoints_count:i files_touched files_touched_count:i cp_input_tokens:i cp_output_tokens:i
    cp_cache_creation_tokens:i cp_cache_read_tokens:i cp_api_call_count:i total_additions:i total_deletions:i checkpoint_metadata_raw`),
  commits: cols(`
    commit_sha checkpoint_pk repo_id commit_index:i num_commits:i user_id github_username author_name author_email author_date:t
    commit_date:t commit_message branch is_agent_author:b files_changed_count:i total_additions:i total_deletions:i files_changed
    numstat patch agent_changes file_attribution status`),
  repositories: cols(`
    repo_id owner_id name url is_fork:b settings num_checkpoints:i num_sessions:i num_commits:i num_contributors_in_dataset:i
    total_additions_in_dataset:i total_deletions_in_dataset:i total_repo_commits_ever:d total_repo_additions_ever:d
    total_repo_deletions_ever:d total_agent_commits_ever:d total_agent_additions_ever:d total_agent_deletions_ever:d
    last_scraped_at:t license_type repo_github_metadata repo_type_domain repo_type_audience`),
};

/** A value for a column of this type from a plain JS value (numbers to bigint for INT64, ISO strings or ms to Date). */
export function toColumnValue(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "INT64":
      return typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
    case "DOUBLE":
      return Number(v);
    case "BOOLEAN":
      return Boolean(v);
    case "TIMESTAMP":
      return v instanceof Date ? v : new Date(typeof v === "number" ? v : String(v));
    default:
      return typeof v === "string" ? v : JSON.stringify(v);
  }
}
