import { z } from "zod";
import { ambiguityReasonSchema, groupReasonSchema } from "./ambiguity";
import type { Diagnostic } from "./diagnostic";
import { promptIntentSchema, promptPushbackSchema, userPersonaSchema } from "./swechat-labels";

/**
 * The rows of the four output tables (architecture.md "Contracts"); column
 * names and order are a contract: notebooks, reports and other people's
 * scripts read them.
 */

const count = z.number().int().nonnegative();
const nullableCount = count.nullable();
const rate = z.number().min(0).max(100).nullable();

export const unitRowSchema = z.object({
  session_id: z.string(),
  commit_sha: z.string(),
  checkpoint_id: z.string().nullable(),
  repo: z.string(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  method: z.enum(["git-replay", "pre-image-replay", "patch-match"]).nullable(),
  /** The first ambiguity reason of metrics.md §1 that applies; null for an unambiguous unit. */
  ambiguity: ambiguityReasonSchema.nullable(),
  agent_lines_produced: nullableCount,
  agent_lines_final: nullableCount,
  agent_lines_survived: nullableCount,
  human_lines: nullableCount,
  outside_lines: nullableCount,
  total_committed_lines: nullableCount,
  numstat_additions: nullableCount,
  code_survival_rate: rate,
  coding_efficiency: rate,
  agent_authored_pct: rate,
  coding_mode: z.enum(["human-only", "collaborative", "vibe"]).nullable(),
  unreplayable_calls: nullableCount,
  outside_changes: nullableCount,
  entire_agent_lines: z.number().nullable(),
  entire_total_committed: z.number().nullable(),
  entire_agent_percentage: z.number().nullable(),
});
export type UnitRow = z.infer<typeof unitRowSchema>;

/**
 * One (session, group) of metrics.md §1b: the columns of `units` (counts over the group's commits, the row's
 * session's identities as survived, the other sessions' as `other_session_lines`), then the group's own.
 */
export const groupUnitRowSchema = unitRowSchema.extend({
  /** The first reason the group cannot be attributed; null for an attributable group. */
  ambiguity: groupReasonSchema.nullable(),
  other_session_lines: nullableCount,
  group_id: z.string(),
  group_commits: count,
  group_sessions: count,
  concurrent_calls: nullableCount,
  branch_switches: nullableCount,
});
export type GroupUnitRow = z.infer<typeof groupUnitRowSchema>;

export const sessionRowSchema = z.object({
  session_id: z.string(),
  source: z.string(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  /** Every model of the session, most output tokens first, joined with `;`. */
  models: z.string(),
  repo: z.string().nullable(),
  branch: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  duration_s: z.number().nullable(),
  active_s: z.number().nullable(),
  prompts: count,
  length_bin: z.string(),
  tool_calls: count,
  edit_calls: count,
  failed_edit_calls: count,
  input_tokens: count,
  output_tokens: count,
  cache_creation_tokens: count,
  cache_read_tokens: count,
  api_calls: count,
  cost_usd: z.number().nonnegative().nullable(),
  /** SWE-chat's LLM label of the user (swe-chat.md §3); null for other inputs. */
  user_persona: userPersonaSchema.nullable().optional(),
  /** SWE-chat's LLM success score 0–100 (stored as a string in the dataset, a number here); null for other inputs. */
  session_success: z.number().min(0).max(100).nullable().optional(),
  /** Entire's session-level `agent_percentage` (initial_attribution) as SWE-chat records it; null for other inputs. */
  entire_agent_percentage: z.number().nullable().optional(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;

export const toolCallRowSchema = z.object({
  session_id: z.string(),
  seq: count,
  tool: z.string(),
  category: z.string(),
  file: z.string().nullable(),
  success: z.boolean().nullable(),
  lines_added: nullableCount,
  lines_removed: nullableCount,
  timestamp: z.string().nullable(),
});
export type ToolCallRow = z.infer<typeof toolCallRowSchema>;

/**
 * One Entire checkpoint session folder: Entire's recorded `token_usage` and
 * `initial_attribution` beside our token counts over the same transcript
 * slice (main transcript only, as Entire counts; sub-agents excluded here).
 */
export const checkpointSessionRowSchema = z.object({
  checkpoint_id: z.string(),
  session_index: count,
  session_id: z.string(),
  agent_label: z.string().nullable(),
  agent: z.string().nullable(),
  transcript_start: count,
  slice_input_tokens: nullableCount,
  slice_output_tokens: nullableCount,
  slice_cache_creation_tokens: nullableCount,
  slice_cache_read_tokens: nullableCount,
  slice_api_calls: nullableCount,
  entire_input_tokens: z.number().nullable(),
  entire_output_tokens: z.number().nullable(),
  entire_cache_creation_tokens: z.number().nullable(),
  entire_cache_read_tokens: z.number().nullable(),
  entire_api_calls: z.number().nullable(),
  entire_agent_lines: z.number().nullable(),
  entire_total_committed: z.number().nullable(),
  entire_agent_percentage: z.number().nullable(),
});
export type CheckpointSessionRow = z.infer<typeof checkpointSessionRowSchema>;

/** A real user prompt (not tool results, meta records, command output or summaries), for per-session pages and Task Flow labelling. */
export const promptRowSchema = z.object({
  session_id: z.string(),
  /** 0-based prompt number in the session. */
  index: count,
  timestamp: z.string().nullable(),
  text: z.string(),
  /** SWE-chat's LLM labels of this prompt (swe-chat.md §3); null where the input has none. */
  prompt_intent: promptIntentSchema.nullable().optional(),
  prompt_pushback: promptPushbackSchema.nullable().optional(),
  /**
   * Whether the agent's reply to this prompt (up to the next prompt) asks the user for clarification, by the rules of
   * src/signals: an AskUserQuestion call, or its last text asks. Null when the reply's text is not in the input and no
   * such call was made.
   */
  agent_clarification: z.boolean().nullable().optional(),
});
export type PromptRow = z.infer<typeof promptRowSchema>;

/** One file of one unit: the per-file counts behind the unit's totals. */
export const unitFileRowSchema = z.object({
  session_id: z.string(),
  commit_sha: z.string(),
  path: z.string(),
  agent_lines_produced: count,
  agent_lines_final: count,
  agent_lines_survived: count,
  human_lines: count,
  outside_lines: count,
  total_committed_lines: count,
});
export type UnitFileRow = z.infer<typeof unitFileRowSchema>;

/**
 * A run of committed lines of one unit with one owner (issue 19): lines `start_line`..`end_line` (1-based, both
 * included, in the committed file) of `file`, added by the commit's first-parent diff. `owner` is `agent` (the
 * unit's session), `human`, `outside`, or, in a group (`group_id` set), the id of the other session that wrote them.
 * Runs, not one row per line: a file an agent call writes whole is one row (see README "Lines").
 */
export const lineRangeRowSchema = z.object({
  session_id: z.string(),
  commit_sha: z.string(),
  /** null for a strict unit; the group's id (as in `group_units`) for a group unit. */
  group_id: z.string().nullable(),
  file: z.string(),
  start_line: count,
  end_line: count,
  owner: z.string(),
  /** The `tool_calls.seq` of the call that wrote the lines (of the owner's session), for agent-written lines. */
  tool_call_seq: nullableCount,
  /** The writing session's model, for agent-written lines. */
  model: z.string().nullable(),
});
export type LineRangeRow = z.infer<typeof lineRangeRowSchema>;

export const TABLE_COLUMNS = {
  units: Object.keys(unitRowSchema.shape) as (keyof UnitRow)[],
  sessions: Object.keys(sessionRowSchema.shape) as (keyof SessionRow)[],
  tool_calls: Object.keys(toolCallRowSchema.shape) as (keyof ToolCallRow)[],
  diagnostics: ["source", "session_id", "file", "record", "severity", "code", "message"] as const,
  checkpoint_sessions: Object.keys(checkpointSessionRowSchema.shape) as (keyof CheckpointSessionRow)[],
  prompts: Object.keys(promptRowSchema.shape) as (keyof PromptRow)[],
  unit_files: Object.keys(unitFileRowSchema.shape) as (keyof UnitFileRow)[],
  group_units: Object.keys(groupUnitRowSchema.shape) as (keyof GroupUnitRow)[],
  line_ranges: Object.keys(lineRangeRowSchema.shape) as (keyof LineRangeRow)[],
} as const;
export type TableName = keyof typeof TABLE_COLUMNS;
export const TABLE_NAMES = Object.keys(TABLE_COLUMNS) as TableName[];

/** Bumped when a column changes meaning; written beside the tables. */
export const TABLES_FORMAT_VERSION = 1;

/** Every table an analysis writes, as rows. */
export interface AnalysisRows {
  units: UnitRow[];
  sessions: SessionRow[];
  tool_calls: ToolCallRow[];
  diagnostics: Diagnostic[];
  /** Only for Entire repositories: Entire's own numbers beside ours, per checkpoint session folder. */
  checkpoint_sessions?: CheckpointSessionRow[];
  /** Real user prompts, in order, per session (from transcripts). */
  prompts?: PromptRow[];
  /** Per-file counts of each computed unit. */
  unit_files?: UnitFileRow[];
  /** One row per (session, group) of metrics.md §1b (inputs with a repository). */
  group_units?: GroupUnitRow[];
  /** Every committed line's owner, as runs (only when asked for: `analyze --lines`, `AnalyzeRequest.lines`). */
  line_ranges?: LineRangeRow[];
}
