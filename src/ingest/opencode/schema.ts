/**
 * Zod schemas of OpenCode session records: the export document
 * `{info, messages: [{info, parts}]}` (`opencode export`, and Entire's
 * `full.jsonl` for OpenCode) and the same objects as separate files in
 * OpenCode's storage folder (see storage.ts). Lenient: unknown keys pass
 * through and a field of the wrong type becomes `undefined`.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);

export const sessionInfoSchema = z.looseObject({
  id: optStr,
  projectID: optStr,
  directory: optStr,
  /** Set on child sessions (sub-agents started by the `task` tool). */
  parentID: optStr,
  title: optStr,
  /** The OpenCode version, e.g. "1.3.13". */
  version: optStr,
  time: z.looseObject({ created: optNum, updated: optNum }).optional().catch(undefined),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** `{total?, input, output, reasoning, cache: {read, write}}`: input is uncached (OpenCode subtracts cache reads and writes for providers that include them). */
export const tokensSchema = z.looseObject({
  total: optNum,
  input: optNum,
  output: optNum,
  reasoning: optNum,
  cache: z.looseObject({ read: optNum, write: optNum }).optional().catch(undefined),
});
export type RawTokens = z.infer<typeof tokensSchema>;

export const messageInfoSchema = z.looseObject({
  id: optStr,
  sessionID: optStr,
  role: optStr,
  time: z.looseObject({ created: optNum, completed: optNum }).optional().catch(undefined),
  modelID: optStr,
  providerID: optStr,
  tokens: tokensSchema.optional().catch(undefined),
  cost: optNum,
  path: z.looseObject({ cwd: optStr, root: optStr }).optional().catch(undefined),
  error: z.unknown().optional(),
  summary: z.unknown().optional(),
});
export type MessageInfo = z.infer<typeof messageInfoSchema>;

export const partSchema = z.looseObject({
  id: optStr,
  /** text, reasoning, tool, step-start, step-finish, file, patch, snapshot, agent, subtask, compaction, retry. */
  type: optStr,
  text: optStr,
  /** Text OpenCode added (an `@file` expansion, "Called the Read tool…"): not typed by the person. */
  synthetic: optBool,
  ignored: optBool,
  tool: optStr,
  callID: optStr,
  state: z.unknown().optional(),
  /** step-finish. */
  tokens: tokensSchema.optional().catch(undefined),
  cost: optNum,
});
export type Part = z.infer<typeof partSchema>;

export const toolStateSchema = z.looseObject({
  /** pending, running, completed, error. */
  status: optStr,
  input: z.unknown().optional(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional().catch(undefined),
  title: optStr,
  time: z.looseObject({ start: optNum, end: optNum }).optional().catch(undefined),
});
export type ToolState = z.infer<typeof toolStateSchema>;

/** `metadata.filediff` of edit/write (older versions carry `before`/`after`, newer ones a display `patch`). */
export const fileDiffSchema = z.looseObject({
  file: optStr,
  before: optStr,
  after: optStr,
  patch: optStr,
  additions: optNum,
  deletions: optNum,
});

/** One entry of apply_patch's `metadata.files`. */
export const patchFileSchema = z.looseObject({
  filePath: optStr,
  relativePath: optStr,
  type: optStr,
  movePath: optStr,
  before: optStr,
  after: optStr,
});

export const exportSchema = z.looseObject({
  info: z.unknown(),
  messages: z.array(z.looseObject({ info: z.unknown(), parts: z.array(z.unknown()).optional().catch(undefined) })),
});
export type RawExport = z.infer<typeof exportSchema>;
