import { z } from "zod";

/** Entire's own line attribution (`initial_attribution`), kept beside ours; a field Entire did not write (or wrote with the wrong type) is null. */
export const entireAttributionSchema = z.object({
  agent_lines: z.number().nullable(),
  human_added: z.number().nullable(),
  human_modified: z.number().nullable(),
  human_removed: z.number().nullable(),
  total_committed: z.number().nullable(),
  agent_percentage: z.number().nullable(),
});
export type EntireAttribution = z.infer<typeof entireAttributionSchema>;

/** Entire's recorded totals; a counter is null when the metadata holds a value outside its domain (src/model/domain.ts). */
export const entireTokenUsageSchema = z.object({
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  cache_creation_tokens: z.number().nullable(),
  cache_read_tokens: z.number().nullable(),
  api_call_count: z.number().nullable(),
});
export type EntireTokenUsage = z.infer<typeof entireTokenUsageSchema>;

/** One session folder (`<id[:2]>/<id[2:]>/<n>/`) of a checkpoint. */
export const checkpointSessionSchema = z.object({
  index: z.number().int().nonnegative(),
  /** Normalised: the `YYYY-MM-DD-` prefix of old Entire ids removed (the key that joins a session's folders). */
  session_id: z.string(),
  /** The id as the metadata records it (`YYYY-MM-DD-<uuid>` for old sessions): the form written in the tables (metrics.md §1 "Identity"). */
  recorded_session_id: z.string().optional(),
  /** The agent label in the metadata; informative only, the format is read from content. */
  agent_label: z.string().nullable(),
  model: z.string().nullable(),
  branch: z.string().nullable(),
  created_at: z.string().nullable(),
  /** Path of the transcript inside the checkpoints tree; null when absent. */
  transcript_path: z.string().nullable(),
  /** 0-based line where this checkpoint's part of the transcript begins. */
  transcript_start: z.number().int().nonnegative(),
  files_touched: z.array(z.string()),
  initial_attribution: entireAttributionSchema.nullable(),
  token_usage: entireTokenUsageSchema.nullable(),
});
export type CheckpointSession = z.infer<typeof checkpointSessionSchema>;

export const checkpointSchema = z.object({
  checkpoint_id: z.string(),
  sessions: z.array(checkpointSessionSchema),
  token_usage: entireTokenUsageSchema.nullable(),
});
export type Checkpoint = z.infer<typeof checkpointSchema>;
