/**
 * Zod schemas of Gemini CLI session records (`chatRecordingTypes.ts` in
 * `@google/gemini-cli-core`; formats.md §4). Lenient: unknown keys pass
 * through and a field of the wrong type becomes `undefined`.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);

/** `{input, output, cached, thoughts?, tool?, total}`: promptTokenCount, candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount, toolUsePromptTokenCount, totalTokenCount. */
export const tokensSchema = z.looseObject({
  input: optNum,
  output: optNum,
  cached: optNum,
  thoughts: optNum,
  tool: optNum,
  total: optNum,
});
export type RawTokens = z.infer<typeof tokensSchema>;

/** The FileDiff a write/edit tool shows (`resultDisplay`), when it is an object. */
export const fileDiffSchema = z.looseObject({
  fileDiff: optStr,
  fileName: optStr,
  filePath: optStr,
  originalContent: z.string().nullable().optional().catch(undefined),
  newContent: optStr,
  isNewFile: z.boolean().optional().catch(undefined),
  diffStat: z
    .looseObject({
      model_added_lines: optNum,
      model_removed_lines: optNum,
      user_added_lines: optNum,
      user_removed_lines: optNum,
    })
    .optional()
    .catch(undefined),
});
export type FileDiff = z.infer<typeof fileDiffSchema>;

export const toolCallSchema = z.looseObject({
  id: optStr,
  name: optStr,
  args: z.record(z.string(), z.unknown()).optional().catch(undefined),
  /** Part[] with `functionResponse.response.{output,error}`. */
  result: z.unknown().optional(),
  /** `success`, `error`, `cancelled` (and, while running, `scheduled`, `executing`, `awaiting_approval`, `validating`). */
  status: optStr,
  timestamp: optStr,
  resultDisplay: z.unknown().optional(),
  agentId: optStr,
});
export type RawToolCall = z.infer<typeof toolCallSchema>;

export const messageSchema = z.looseObject({
  id: optStr,
  timestamp: optStr,
  /** `user`, `gemini`, `info`, `error`, `warning`. */
  type: optStr,
  /** A string in older versions, a Part[] (`[{text}]`) in newer ones. */
  content: z.unknown().optional(),
  displayContent: z.unknown().optional(),
  toolCalls: z.array(z.unknown()).optional().catch(undefined),
  tokens: tokensSchema.nullable().optional().catch(undefined),
  model: optStr,
});
export type RawMessage = z.infer<typeof messageSchema>;

/** The whole document (`session-*.json`), or the metadata lines of the JSONL form. */
export const conversationSchema = z.looseObject({
  sessionId: optStr,
  projectHash: optStr,
  startTime: optStr,
  lastUpdated: optStr,
  messages: z.array(z.unknown()).optional().catch(undefined),
  summary: optStr,
  directories: z.array(z.string()).optional().catch(undefined),
  kind: optStr,
});
export type RawConversation = z.infer<typeof conversationSchema>;
