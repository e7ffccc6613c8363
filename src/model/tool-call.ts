import { z } from "zod";
import { fileEditSchema } from "./file-edit";

/** One tool call of the agent (or of one of its sub-agents), with its outcome. */
export const toolCallSchema = z.object({
  /** The tool-use id of the log (e.g. `toolu_…`, `call_…`). */
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
  /** Timestamp of the call (the assistant record), ISO-8601. */
  timestamp: z.string().nullable(),
  /** 1-based transcript line of the call record. */
  record: z.number().int(),
  /** 1-based transcript line of the result record; null when no result was logged. */
  result_record: z.number().int().nullable(),
  /** Timestamp of the result record, where the adapter reads it (Claude Code); orders calls of several sessions (metrics.md §1b). */
  result_timestamp: z.string().nullable().optional(),
  /** true/false from the result; null when no result was logged. */
  success: z.boolean().nullable(),
  /** Why it failed (the tool's error text, shortened), when it did. */
  error: z.string().nullable(),
  /** Made by a sub-agent (Task, isSidechain, agent_progress, subagents/*.jsonl). */
  sidechain: z.boolean(),
  /** Files this call changed; empty for calls that change no file. */
  file_edits: z.array(fileEditSchema),
});
export type ToolCall = z.infer<typeof toolCallSchema>;
