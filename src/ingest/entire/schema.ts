/**
 * Lenient zod schemas of Entire's `metadata.json` files (formats.md §1.3,
 * swe-chat.md "Raw source format"; entireio/cli `checkpoint/checkpoint.go`).
 *
 * Every field is optional and unknown fields are kept: Entire has added and
 * renamed fields across versions, and older checkpoints lack many. A field
 * of the wrong type is dropped (and reported by {@link parseLenient}), never
 * a reason to lose the whole file.
 */
import { z } from "zod";

const str = z.string().nullish();
const num = z.number().nullish();
const int = z.number().int().nonnegative().nullish();
const bool = z.boolean().nullish();

export interface EntireTokenUsageRaw {
  input_tokens?: number | null;
  cache_creation_tokens?: number | null;
  cache_read_tokens?: number | null;
  output_tokens?: number | null;
  api_call_count?: number | null;
  /** Newer CLIs: the sub-agents' share, reported separately. */
  subagent_tokens?: EntireTokenUsageRaw | null;
  [key: string]: unknown;
}

/** `token_usage` (checkpoint and session level). */
export const tokenUsageSchema: z.ZodType<EntireTokenUsageRaw> = z.looseObject({
  input_tokens: num,
  cache_creation_tokens: num,
  cache_read_tokens: num,
  output_tokens: num,
  api_call_count: num,
  get subagent_tokens() {
    return tokenUsageSchema.nullish();
  },
});

/** `initial_attribution`: Entire's own agent/human line split of the commit (formats.md §1.6). */
export const initialAttributionSchema = z.looseObject({
  calculated_at: str,
  agent_lines: num,
  /** metric_version 2 */
  agent_removed: num,
  human_added: num,
  human_modified: num,
  human_removed: num,
  total_committed: num,
  /** metric_version 2 */
  total_lines_changed: num,
  agent_percentage: num,
  metric_version: num,
});
export type InitialAttributionRaw = z.infer<typeof initialAttributionSchema>;

export const promptAttributionSchema = z.looseObject({
  checkpoint_number: num,
  user_lines_added: num,
  user_lines_removed: num,
  agent_lines_added: num,
  agent_lines_removed: num,
});

/** Session-level `<id>/<n>/metadata.json` (`CommittedMetadata`). */
export const sessionMetadataSchema = z.looseObject({
  cli_version: str,
  checkpoint_id: str,
  /** Old CLIs: `YYYY-MM-DD-<uuid>`; normalised by the reader. */
  session_id: str,
  strategy: str,
  created_at: str,
  branch: str,
  checkpoints_count: num,
  save_step_count: num,
  /** null in migrated auto-commit checkpoints. */
  files_touched: z.array(z.string()).nullish(),
  /** Display name ("Claude Code", "Codex", "Gemini CLI", "Agent", …); a label only, not the log format. */
  agent: str,
  model: str,
  turn_id: str,
  is_task: bool,
  tool_use_id: str,
  agent_id: str,
  /** Last record UUID (Claude) / message id (Gemini) before this checkpoint. */
  transcript_identifier_at_start: str,
  /** 0-based line of `full.jsonl` where this checkpoint's part begins. */
  checkpoint_transcript_start: int,
  /** Older name of `checkpoint_transcript_start`. */
  transcript_lines_at_start: int,
  /** Line offset into the compact `transcript.jsonl` (its own coordinates). */
  compact_transcript_start: int,
  /** The transcript's path relative to the user's home at capture time. */
  transcript_path: str,
  summary: z.unknown().optional(),
  /** Older summary fields (pre-`summary` object). */
  intent: str,
  outcome: str,
  learnings: z.array(z.string()).nullish(),
  friction_points: z.array(z.string()).nullish(),
  summary_source: str,
  session_metrics: z.looseObject({ turn_count: num }).nullish(),
  prompt_attributions: z.array(promptAttributionSchema).nullish(),
  initial_attribution: initialAttributionSchema.nullish(),
  token_usage: tokenUsageSchema.nullish(),
  /** Old multi-session fields. */
  session_count: num,
  session_ids: z.array(z.string()).nullish(),
  /** `entire import`: default-branch head at import time (a UI anchor, not a link). */
  commit_sha: str,
  migration_source_commit: str,
});
export type SessionMetadataRaw = z.infer<typeof sessionMetadataSchema>;

/** One entry of the summary's `sessions[]`: paths from the branch root, e.g. `/c6/39a44ea03d/0/full.jsonl`. */
export const sessionPathsSchema = z.looseObject({
  metadata: str,
  transcript: str,
  compact_transcript: str,
  context: str,
  content_hash: str,
  prompt: str,
});

/** Checkpoint-level `<id[:2]>/<id[2:]>/metadata.json` (`CheckpointSummary`). */
export const checkpointSummarySchema = z.looseObject({
  cli_version: str,
  checkpoint_id: str,
  strategy: str,
  branch: str,
  /** Sum of the sessions' prompt-window counts, not a count of checkpoints. */
  checkpoints_count: num,
  files_touched: z.array(z.string()).nullish(),
  sessions: z.array(sessionPathsSchema).nullish(),
  token_usage: tokenUsageSchema.nullish(),
  /** Newer CLIs: attribution summed over the sessions. */
  combined_attribution: initialAttributionSchema.nullish(),
  migration_source_commit: str,
  commit_sha: str,
  /** Legacy root-session layout (`entire/sessions`): the root file is a session's metadata. */
  session_id: str,
});
export type CheckpointSummaryRaw = z.infer<typeof checkpointSummarySchema>;

export interface FieldProblem {
  /** Dotted path of the field that failed, e.g. `token_usage.output_tokens` (only that count is dropped). */
  field: string;
  message: string;
}

/**
 * Parses `raw` (a JSON value) with `schema`, dropping each field that fails
 * validation (the deepest one: a bad `token_usage.input_tokens` costs that
 * count, not the whole `token_usage`) and trying again, so one bad field costs
 * that field only. Returns null when `raw` is not a JSON object at all.
 */
export function parseLenient<T>(schema: z.ZodType<T>, raw: unknown): { value: T; problems: FieldProblem[] } | null {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return null;
  const obj: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const problems: FieldProblem[] = [];
  for (let round = 0; round < 64; round++) {
    const result = schema.safeParse(obj);
    if (result.success) return { value: result.data, problems };
    let dropped = false;
    for (const issue of result.error.issues) {
      if (dropDeepest(obj, issue.path)) {
        problems.push({ field: issue.path.map(String).join("."), message: issue.message });
        dropped = true;
      }
    }
    if (!dropped) return null;
  }
  return null;
}

/**
 * Deletes the deepest object key on `path` (`token_usage.input_tokens`, not all of `token_usage`),
 * copying the objects on the way so that the caller's value is not changed. A path through an
 * array stops above it: removing an element would shift its neighbours.
 */
function dropDeepest(root: Record<string, unknown>, path: readonly PropertyKey[]): boolean {
  let holder = root;
  let dropFrom: Record<string, unknown> | null = null;
  let dropKey = "";
  for (const step of path) {
    if (typeof step !== "string" || !Object.hasOwn(holder, step)) break;
    dropFrom = holder;
    dropKey = step;
    const next = holder[step];
    if (next === null || typeof next !== "object" || Array.isArray(next)) break;
    const copy = { ...(next as Record<string, unknown>) };
    holder[step] = copy;
    holder = copy;
  }
  if (dropFrom === null) return false;
  delete dropFrom[dropKey];
  return true;
}
