/**
 * Zod schemas of the raw Claude Code JSONL records this adapter relies on.
 * Lenient on purpose: unknown keys pass through, every field is optional, and
 * a field of the wrong type becomes `undefined` (`.catch`) instead of failing
 * the whole record. Parse at the boundary, then work with typed values.
 *
 * Field names and shapes: research/formats.md §2 and the README next to this file.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const content = z.union([z.string(), z.array(z.unknown())]).optional().catch(undefined);

/** Fields shared by user / assistant / system / progress records (formats.md §2.2). */
export const recordSchema = z.looseObject({
  type: optStr,
  uuid: optStr,
  parentUuid: z.string().nullable().optional().catch(undefined),
  sessionId: optStr,
  timestamp: optStr,
  cwd: optStr,
  gitBranch: optStr,
  version: optStr,
  agentId: optStr,
  requestId: optStr,
  isSidechain: optBool,
  isMeta: optBool,
  isCompactSummary: optBool,
  isVisibleInTranscriptOnly: optBool,
  isApiErrorMessage: optBool,
  /** progress records: the tool call the progress belongs to. */
  parentToolUseID: optStr,
  toolUseID: optStr,
  message: z.unknown().optional(),
  toolUseResult: z.unknown().optional(),
  data: z.unknown().optional(),
});
export type RawRecord = z.infer<typeof recordSchema>;

export const usageSchema = z.looseObject({
  input_tokens: optNum,
  output_tokens: optNum,
  cache_creation_input_tokens: optNum,
  cache_read_input_tokens: optNum,
  cache_creation: z
    .looseObject({
      ephemeral_5m_input_tokens: optNum,
      ephemeral_1h_input_tokens: optNum,
    })
    .optional()
    .catch(undefined),
  speed: optStr,
});
export type RawUsage = z.infer<typeof usageSchema>;

/** `message` of an assistant record: the Anthropic Messages API object. */
export const assistantMessageSchema = z.looseObject({
  id: optStr,
  model: optStr,
  role: optStr,
  content,
  usage: usageSchema.optional().catch(undefined),
});
export type RawAssistantMessage = z.infer<typeof assistantMessageSchema>;

/** `message` of a user record: a prompt string or blocks (tool results, text, images). */
export const userMessageSchema = z.looseObject({
  role: optStr,
  content,
});

export const toolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: z.unknown().optional(),
});
export type RawToolUse = z.infer<typeof toolUseBlockSchema>;

export const toolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: z.string(),
  content: z.unknown().optional(),
  is_error: optBool,
});
export type RawToolResult = z.infer<typeof toolResultBlockSchema>;

export const textBlockSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
});

/** `data` of a progress record that mirrors a sub-agent message (2.x). */
export const agentProgressDataSchema = z.looseObject({
  type: z.literal("agent_progress"),
  agentId: optStr,
  prompt: optStr,
  /** A nested user/assistant record, sometimes with its own `toolUseResult`. */
  message: z.unknown().optional(),
});

const rawStringEditSchema = z.looseObject({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: optBool,
});
export type RawStringEdit = z.infer<typeof rawStringEditSchema>;

const hunkSchema = z.looseObject({
  oldStart: optNum,
  oldLines: z.number(),
  newStart: optNum,
  newLines: z.number(),
  lines: z.array(z.string()).optional().catch(undefined),
});

/** `input` of the file-changing tools (Write, Edit, MultiEdit, NotebookEdit, mcp__acp__Write/Edit). */
export const fileToolInputSchema = z.looseObject({
  file_path: optStr,
  /** mcp__acp__* tools of older claude-code-acp releases. */
  abs_path: optStr,
  notebook_path: optStr,
  content: optStr,
  old_string: optStr,
  new_string: optStr,
  replace_all: optBool,
  edits: z.array(rawStringEditSchema).optional().catch(undefined),
  new_source: optStr,
  cell_id: optStr,
  edit_mode: optStr,
});
export type FileToolInput = z.infer<typeof fileToolInputSchema>;

/** Top-level `toolUseResult` of a successful file-changing call (formats.md §2.5). */
export const fileToolResultSchema = z.looseObject({
  /** Write: "create" | "update". */
  type: optStr,
  filePath: optStr,
  content: optStr,
  oldString: optStr,
  newString: optStr,
  replaceAll: optBool,
  /** Edit and 2.x Write: the file before the call (null for a create). */
  originalFile: z.string().nullable().optional().catch(undefined),
  /** MultiEdit (1.0.x). */
  originalFileContents: optStr,
  edits: z.array(rawStringEditSchema).optional().catch(undefined),
  structuredPatch: z.array(hunkSchema).optional().catch(undefined),
  userModified: optBool,
});
export type FileToolResult = z.infer<typeof fileToolResultSchema>;

/** Top-level `toolUseResult` of a Task (sub-agent) call: links the call to `subagents/agent-<agentId>.jsonl`. */
export const taskResultSchema = z.looseObject({
  agentId: optStr,
  status: optStr,
});
