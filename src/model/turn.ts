import { z } from "zod";

/** A real user prompt: not a tool result, meta record, command output, interruption or compaction summary. */
export const turnSchema = z.object({
  index: z.number().int().nonnegative(),
  text: z.string(),
  timestamp: z.string().nullable(),
  /** 1-based transcript line. */
  record: z.number().int(),
});
export type Turn = z.infer<typeof turnSchema>;
