import { z } from "zod";

/** A real user prompt: not a tool result, meta record, command output, interruption or compaction summary. */
export const turnSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string(),
  timestamp: z.string().nullable(),
  /** 1-based transcript line. */
  record: z.number().int(),
  /** The agent's last text (main thread) after this prompt and before the next one, where the adapter keeps it (Claude Code); for clarification requests. */
  reply: z.string().nullable().optional(),
});
export type Turn = z.infer<typeof turnSchema>;
