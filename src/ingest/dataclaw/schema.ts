/**
 * Zod schemas of DataClaw's `conversations.jsonl` (formats.md §8), checked
 * against its exporter (`peteromallet/dataclaw`, `dataclaw/parsers/common.py`
 * `make_session_result`, `parsers/claude.py`, `parsers/codex.py`,
 * `_cli/exporting.py`): one session object per line,
 *
 *   {session_id, model, git_branch, start_time, end_time, messages, stats,
 *    project, source, redaction_policy?}
 *   message  = {role: "user"|"assistant", content?, content_parts?, thinking?, tool_uses?, timestamp}
 *   tool_use = {tool, input, output?, status?}   (output/status only in newer exports)
 *   stats    = {user_messages, assistant_messages, tool_uses, input_tokens, output_tokens}
 *
 * Early exports (0.2/0.3) give `input` as a summary string ("src/auth.py").
 * Lenient: unknown keys pass, wrong types become `undefined`.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
/** DataClaw normalises timestamps to ISO strings; older parsers passed epoch milliseconds through. */
const timestamp = z.union([z.string(), z.number()]).nullable().optional().catch(undefined);

export const toolUseSchema = z.looseObject({
  tool: z.string().nullable().optional().catch(undefined),
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  /** "success" | "error" where the exporter attached the result. */
  status: optStr,
});
export type RawToolUse = z.infer<typeof toolUseSchema>;

export const messageSchema = z.looseObject({
  role: z.string(),
  content: z.unknown().optional(),
  thinking: optStr,
  tool_uses: z.array(z.unknown()).optional().catch(undefined),
  timestamp,
});
export type RawMessage = z.infer<typeof messageSchema>;

export const statsSchema = z.looseObject({
  user_messages: optNum,
  assistant_messages: optNum,
  tool_uses: optNum,
  /** Claude: input + cache reads; Codex: the maximum of input + cached input. Never uncached input alone. */
  input_tokens: optNum,
  output_tokens: optNum,
});

export const sessionSchema = z.looseObject({
  session_id: z.string().min(1),
  project: z.string().nullable().optional().catch(undefined),
  model: z.string().nullable().optional().catch(undefined),
  git_branch: z.string().nullable().optional().catch(undefined),
  start_time: timestamp,
  end_time: timestamp,
  /** claude | codex | gemini | opencode | openclaw | cursor | kimi | custom …; absent in early exports (all Claude Code). */
  source: z.string().nullable().optional().catch(undefined),
  messages: z.array(z.unknown()),
  stats: statsSchema.optional().catch(undefined),
});
export type RawSession = z.infer<typeof sessionSchema>;
