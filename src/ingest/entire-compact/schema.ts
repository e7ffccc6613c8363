/**
 * Zod schemas of Entire's compact transcript (`transcript.jsonl`, format
 * `v: 1`), after Entire's `cmd/entire/cli/transcript/compact/compact.go` and
 * the external-agent compactors (entireio/external-agents, kiro and pi).
 * Lenient on purpose, like the Claude Code schemas: unknown keys pass
 * through, every field is optional, and a field of the wrong type becomes
 * `undefined` instead of failing the whole line.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);

/**
 * One line: `{"v":1,"agent":"claude-code","cli_version":"0.42.0","type":"user"|"assistant",
 * "ts":…,"id":"msg_…","input_tokens":N,"output_tokens":N,"content":…}`. The
 * token fields are omitted when 0; `id` only on assistant lines.
 */
export const compactLineSchema = z.looseObject({
  v: optNum,
  agent: optStr,
  /** The Entire CLI (or external agent) version that wrote the line, not the agent's own version. */
  cli_version: optStr,
  type: optStr,
  ts: optStr,
  id: optStr,
  input_tokens: optNum,
  output_tokens: optNum,
  content: z.unknown().optional(),
});
export type CompactLine = z.infer<typeof compactLineSchema>;

/** A user line's text block: `{"id":"<promptId>"?,"text":"…"}` (no `type`; images are kept verbatim with theirs). */
export const userTextBlockSchema = z.looseObject({
  id: optStr,
  type: z.literal("text").optional(),
  text: z.string(),
});

/** The tool result inlined into its tool_use block. */
export const compactResultSchema = z.looseObject({
  output: z.unknown().optional(),
  /** "success" | "error" (error when the agent's tool_result had `is_error`). */
  status: optStr,
  file: z.looseObject({ filePath: optStr, numLines: optNum }).optional().catch(undefined),
  matchCount: optNum,
});
export type CompactResult = z.infer<typeof compactResultSchema>;

/** An assistant line's tool_use block: only `type`, `id`, `name`, `input` of the original, plus `result`. */
export const compactToolUseSchema = z.looseObject({
  type: z.literal("tool_use"),
  /** Optional: the kiro compactor writes it with `omitempty`. */
  id: optStr,
  name: z.string(),
  input: z.unknown().optional(),
  result: compactResultSchema.optional().catch(undefined),
});
export type CompactToolUse = z.infer<typeof compactToolUseSchema>;

const rawStringEditSchema = z.looseObject({
  old_string: optStr,
  new_string: optStr,
  replace_all: optBool,
  /** OpenCode's multiedit spells them in camelCase. */
  oldString: optStr,
  newString: optStr,
  replaceAll: optBool,
});
export type RawStringEdit = z.infer<typeof rawStringEditSchema>;

/**
 * `input` of the file-changing tools. Claude Code names the file `file_path`
 * (`abs_path` in older claude-code-acp, `notebook_path`); the external-agent
 * compactors map their tools to `Write`/`Edit` but keep their own `path`;
 * OpenCode says `filePath`, `oldString`, `newString`, `replaceAll`; Gemini's
 * `replace` says `expected_replacements`.
 */
export const fileToolInputSchema = z.looseObject({
  file_path: optStr,
  abs_path: optStr,
  notebook_path: optStr,
  path: optStr,
  filePath: optStr,
  content: optStr,
  old_string: optStr,
  new_string: optStr,
  replace_all: optBool,
  oldString: optStr,
  newString: optStr,
  replaceAll: optBool,
  expected_replacements: optNum,
  edits: z.array(rawStringEditSchema).optional().catch(undefined),
});
export type FileToolInput = z.infer<typeof fileToolInputSchema>;

export function parseLine(v: unknown) {
  return compactLineSchema.safeParse(v);
}
export function parseUserTextBlock(v: unknown) {
  return userTextBlockSchema.safeParse(v);
}
export function parseToolUse(v: unknown) {
  return compactToolUseSchema.safeParse(v);
}
export function parseFileToolInput(v: unknown) {
  return fileToolInputSchema.safeParse(v);
}
