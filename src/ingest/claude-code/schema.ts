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
const content = z
  .union([z.string(), z.array(z.unknown())])
  .optional()
  .catch(undefined);

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
  /** `attachment` records (2.1+): hook output, skill listings, IDE context, prompts queued mid-turn. */
  attachment: z.unknown().optional(),
});
export type RawRecord = z.infer<typeof recordSchema>;

/**
 * A prompt typed while the agent was working (2.1+): Claude Code delivers it into the running turn as
 * `{"type":"attachment","attachment":{"type":"queued_command","prompt":…,"commandMode":"prompt","origin":{"kind":"human"}}}`
 * and writes no `user` record for it. `commandMode` "task-notification" (origin kind "task-notification")
 * is a background task reporting back, not a person.
 */
export const queuedCommandSchema = z.looseObject({
  type: z.literal("queued_command"),
  prompt: z.union([z.string(), z.array(z.unknown())]),
  commandMode: optStr,
  origin: z.looseObject({ kind: optStr }).optional().catch(undefined),
});
export const parseQueuedCommand = (v: unknown) => queuedCommandSchema.safeParse(v);

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

// ---- fast paths -------------------------------------------------------------
// zod costs more than JSON.parse on this hot path (bench/README.md: 1.23 of
// 5.28 CPU-s per 500 MB). These guards accept only values on which the schema
// above would succeed and return them unchanged (the schemas are loose and
// their `.catch` only fires on a wrong type, which the guards send to zod);
// anything odd still goes through `safeParse`, so results and diagnostics are
// the schema's own.

type Obj = Record<string, unknown>;
type Guarded<T> = { success: true; data: T } | { success: false };

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
const str = (v: unknown) => v === undefined || typeof v === "string";
const bool = (v: unknown) => v === undefined || typeof v === "boolean";
const num = (v: unknown) => v === undefined || typeof v === "number";

function recordOk(v: Obj): boolean {
  return (
    str(v.type) &&
    str(v.uuid) &&
    (v.parentUuid === null || str(v.parentUuid)) &&
    str(v.sessionId) &&
    str(v.timestamp) &&
    str(v.cwd) &&
    str(v.gitBranch) &&
    str(v.version) &&
    str(v.agentId) &&
    str(v.requestId) &&
    bool(v.isSidechain) &&
    bool(v.isMeta) &&
    bool(v.isCompactSummary) &&
    bool(v.isVisibleInTranscriptOnly) &&
    bool(v.isApiErrorMessage) &&
    str(v.parentToolUseID) &&
    str(v.toolUseID)
  );
}

export function parseRecord(v: unknown) {
  if (isObj(v) && recordOk(v)) return { success: true as const, data: v as RawRecord };
  return recordSchema.safeParse(v);
}

function usageOk(u: unknown): boolean {
  if (u === undefined) return true;
  if (!isObj(u)) return false;
  const cc = u.cache_creation;
  return (
    num(u.input_tokens) &&
    num(u.output_tokens) &&
    num(u.cache_creation_input_tokens) &&
    num(u.cache_read_input_tokens) &&
    str(u.speed) &&
    (cc === undefined || (isObj(cc) && num(cc.ephemeral_5m_input_tokens) && num(cc.ephemeral_1h_input_tokens)))
  );
}
const contentOk = (c: unknown) => c === undefined || typeof c === "string" || Array.isArray(c);

export function parseAssistantMessage(v: unknown) {
  if (isObj(v) && str(v.id) && str(v.model) && str(v.role) && contentOk(v.content) && usageOk(v.usage)) {
    return { success: true as const, data: v as RawAssistantMessage };
  }
  return assistantMessageSchema.safeParse(v);
}

export function parseUserMessage(v: unknown) {
  if (isObj(v) && str(v.role) && contentOk(v.content)) {
    return { success: true as const, data: v as z.infer<typeof userMessageSchema> };
  }
  return userMessageSchema.safeParse(v);
}

/** A block of another type fails the literal: no zod, no error object. */
function block<T>(schema: z.ZodType<T>, type: string, ok: (v: Obj) => boolean, v: unknown): Guarded<T> {
  if (isObj(v)) {
    if (v.type !== type) return { success: false };
    if (ok(v)) return { success: true, data: v as T };
  }
  const r = schema.safeParse(v);
  return r.success ? { success: true, data: r.data } : { success: false };
}

export const parseToolUseBlock = (v: unknown) =>
  block(toolUseBlockSchema, "tool_use", (b) => typeof b.id === "string" && typeof b.name === "string", v);
export const parseToolResultBlock = (v: unknown) =>
  block(toolResultBlockSchema, "tool_result", (b) => typeof b.tool_use_id === "string" && bool(b.is_error), v);
export const parseTextBlock = (v: unknown) => block(textBlockSchema, "text", (b) => typeof b.text === "string", v);
export const parseAgentProgressData = (v: unknown) =>
  block(agentProgressDataSchema, "agent_progress", (b) => str(b.agentId) && str(b.prompt), v);

function stringEditsOk(e: unknown): boolean {
  if (e === undefined) return true;
  if (!Array.isArray(e)) return false;
  for (const x of e) {
    if (!isObj(x) || typeof x.old_string !== "string" || typeof x.new_string !== "string" || !bool(x.replace_all))
      return false;
  }
  return true;
}

function hunksOk(h: unknown): boolean {
  if (h === undefined) return true;
  if (!Array.isArray(h)) return false;
  for (const x of h) {
    if (
      !isObj(x) ||
      !num(x.oldStart) ||
      typeof x.oldLines !== "number" ||
      !num(x.newStart) ||
      typeof x.newLines !== "number"
    )
      return false;
    const lines = x.lines;
    if (lines === undefined) continue;
    if (!Array.isArray(lines)) return false;
    for (const l of lines) if (typeof l !== "string") return false;
  }
  return true;
}

export function parseFileToolInput(v: unknown) {
  if (
    isObj(v) &&
    str(v.file_path) &&
    str(v.abs_path) &&
    str(v.notebook_path) &&
    str(v.content) &&
    str(v.old_string) &&
    str(v.new_string) &&
    bool(v.replace_all) &&
    stringEditsOk(v.edits) &&
    str(v.new_source) &&
    str(v.cell_id) &&
    str(v.edit_mode)
  ) {
    return { success: true as const, data: v as FileToolInput };
  }
  return fileToolInputSchema.safeParse(v);
}

export function parseFileToolResult(v: unknown) {
  if (
    isObj(v) &&
    str(v.type) &&
    str(v.filePath) &&
    str(v.content) &&
    str(v.oldString) &&
    str(v.newString) &&
    bool(v.replaceAll) &&
    (v.originalFile === null || str(v.originalFile)) &&
    str(v.originalFileContents) &&
    stringEditsOk(v.edits) &&
    hunksOk(v.structuredPatch) &&
    bool(v.userModified)
  ) {
    return { success: true as const, data: v as FileToolResult };
  }
  return fileToolResultSchema.safeParse(v);
}

export function parseTaskResult(v: unknown) {
  if (isObj(v) && str(v.agentId) && str(v.status))
    return { success: true as const, data: v as z.infer<typeof taskResultSchema> };
  return taskResultSchema.safeParse(v);
}
