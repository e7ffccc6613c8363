/**
 * Zod schemas of Pi session entries (one JSON object per line of
 * `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`, and Entire's
 * `full.jsonl` for Pi). Field names and meanings are from Pi's source
 * (badlogic/pi-mono v0.58.3: `packages/coding-agent/src/core/session-manager.ts`,
 * `packages/ai/src/types.ts`, `docs/session.md`; see README.md). Lenient:
 * unknown keys pass through and a field of the wrong type becomes `undefined`.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);

/** Line 1: `{type: "session", version, id, timestamp, cwd, parentSession?}`; v1 files have no `version`. */
export const headerSchema = z.looseObject({
  type: z.literal("session"),
  version: optNum,
  id: optStr,
  timestamp: optStr,
  cwd: optStr,
  /** The session file this one was forked from (`/fork`, `forkFrom`, `createBranchedSession`): its history is copied here. */
  parentSession: optStr,
});
export type PiHeader = z.infer<typeof headerSchema>;

/** Every entry after the header: `{type, id, parentId, timestamp}` (`SessionEntryBase`; v1 files have no id/parentId). */
export const entrySchema = z.looseObject({
  type: optStr,
  /** 8 hex characters, unique within the file. */
  id: optStr,
  /** null for the first entry (and after `resetLeaf`). */
  parentId: z.string().nullable().optional().catch(undefined),
  timestamp: optStr,
  /** `message` entries: the AgentMessage. */
  message: z.unknown().optional(),
  /** `model_change`. */
  provider: optStr,
  modelId: optStr,
});
export type PiEntry = z.infer<typeof entrySchema>;

/** `Usage` of pi-ai: input is uncached input for most providers (see usage.ts for the exception). */
export const usageSchema = z.looseObject({
  input: optNum,
  output: optNum,
  cacheRead: optNum,
  cacheWrite: optNum,
  totalTokens: optNum,
  /** Pi's own dollar figures (from its model table); not used: cost comes from src/effort's table. */
  cost: z.unknown().optional(),
});
export type PiUsage = z.infer<typeof usageSchema>;

/** The `message` of a `message` entry: UserMessage, AssistantMessage, ToolResultMessage, BashExecutionMessage, CustomMessage. */
export const messageSchema = z.looseObject({
  /** user, assistant, toolResult, bashExecution, custom (hookMessage before v3), branchSummary, compactionSummary. */
  role: optStr,
  /** A string (user, custom) or an array of parts. */
  content: z.unknown().optional(),
  /** Unix ms. */
  timestamp: optNum,
  // assistant
  model: optStr,
  provider: optStr,
  api: optStr,
  usage: usageSchema.optional().catch(undefined),
  /** stop, length, toolUse, error, aborted. */
  stopReason: optStr,
  errorMessage: optStr,
  // toolResult
  toolCallId: optStr,
  toolName: optStr,
  isError: optBool,
  details: z.unknown().optional(),
  // bashExecution
  command: optStr,
});
export type PiMessage = z.infer<typeof messageSchema>;

/** A content part: text, thinking, image, toolCall `{id, name, arguments}`. */
export const partSchema = z.looseObject({
  type: optStr,
  text: optStr,
  id: optStr,
  name: optStr,
  arguments: z.unknown().optional(),
});
export type PiPart = z.infer<typeof partSchema>;

/** One replacement of the `edit` tool: `{oldText, newText}` (0.64.0+ sends a list of them as `edits`). */
export const replaceEditSchema = z.looseObject({ oldText: z.string(), newText: z.string() });

/** `details` of a successful `edit` result: `diff` (display, line-numbered: not a patch) and, in newer versions, `patch` (a unified diff). */
export const editDetailsSchema = z.looseObject({ diff: optStr, patch: optStr, firstChangedLine: optNum });

/** Entry types Pi writes (session-manager.ts `SessionEntry`); others are counted as unknown. */
export const KNOWN_ENTRY_TYPES = new Set([
  "session",
  "message",
  "model_change",
  "thinking_level_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
]);
