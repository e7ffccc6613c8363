import { z } from "zod";
import { apiCallSchema } from "./usage";
import { toolCallSchema } from "./tool-call";
import { turnSchema } from "./turn";

/** Bumped whenever a field changes meaning; written with every serialised session. */
export const SESSION_FORMAT_VERSION = 1;

export const sourceIds = [
  "claude-code",
  "codex",
  "gemini",
  "opencode",
  "pi",
  "swe-agent",
  "dataclaw",
  "specstory",
  "swechat",
  "entire-compact",
] as const;
export const sourceIdSchema = z.enum(sourceIds);
export type SourceId = z.infer<typeof sourceIdSchema>;

/** One agent conversation normalised from any log format. */
export const sessionSchema = z.object({
  format_version: z.literal(SESSION_FORMAT_VERSION),
  session_id: z.string().min(1),
  /** The log format the transcript was read as (by content, never by label). */
  source: sourceIdSchema,
  /** Display name of the agent ("Claude Code", "Codex", …). */
  agent: z.string(),
  /** The agent version the log names, e.g. Claude Code "2.1.29". */
  agent_version: z.string().nullable(),
  transcript: z.string().nullable(),
  /** Working directories seen in the log (absolute paths), in order of first use. */
  cwds: z.array(z.string()),
  branch: z.string().nullable(),
  turns: z.array(turnSchema),
  tool_calls: z.array(toolCallSchema),
  api_calls: z.array(apiCallSchema),
  /** Epoch milliseconds of every timestamped record, ascending (for duration and active time). */
  record_times: z.array(z.number()),
  /** Number of lines (records) in the transcript. */
  record_count: z.number().int().nonnegative(),
});
export type Session = z.infer<typeof sessionSchema>;
