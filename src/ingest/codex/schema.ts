/**
 * Zod schemas of the raw Codex CLI rollout records this adapter relies on.
 * Lenient on purpose, like the Claude Code schemas: unknown keys pass
 * through, every field is optional, and a field of the wrong type becomes
 * `undefined` (`.catch`) instead of failing the whole record.
 *
 * Field names and shapes: research/formats.md §3, the README next to this
 * file, and the real rollouts in `../shared/corpus/entire/entireio-external-agents`.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);

/** One line of a current rollout: `{timestamp, type, payload}`. */
export const envelopeSchema = z.looseObject({
  timestamp: optStr,
  type: optStr,
  payload: z.unknown().optional(),
});

/** `session_meta` payload, and the bare first line of a pre-envelope rollout (`{id, timestamp, instructions, git}`). */
export const sessionMetaSchema = z.looseObject({
  id: optStr,
  timestamp: optStr,
  cwd: optStr,
  originator: optStr,
  cli_version: optStr,
  /** `"cli"`, `"exec"`, or `{subagent: {thread_spawn: {parent_thread_id, …}}}`. */
  source: z.unknown().optional(),
  forked_from_id: optStr,
  model: optStr,
  git: z.looseObject({ commit_hash: optStr, branch: optStr, repository_url: optStr }).optional().catch(undefined),
});
export type SessionMeta = z.infer<typeof sessionMetaSchema>;

export const turnContextSchema = z.looseObject({
  turn_id: optStr,
  cwd: optStr,
  model: optStr,
});

/** Every payload has a `type`; the fields below are shared by the kinds this adapter reads. */
export const payloadSchema = z.looseObject({
  type: optStr,
  // response items
  role: optStr,
  content: z.unknown().optional(),
  name: optStr,
  namespace: optStr,
  /** function_call: a JSON string. */
  arguments: z.unknown().optional(),
  /** custom_tool_call: the raw input (apply_patch: the patch text). */
  input: z.unknown().optional(),
  call_id: optStr,
  id: optStr,
  status: optStr,
  /** function_call_output / custom_tool_call_output: a string (sometimes JSON), or an object / array in some versions. */
  output: z.unknown().optional(),
  /** local_shell_call. */
  action: z.unknown().optional(),
  // events
  message: z.unknown().optional(),
  kind: optStr,
  success: optBool,
  exit_code: optNum,
  stdout: optStr,
  stderr: optStr,
  aggregated_output: optStr,
  changes: z.unknown().optional(),
  info: z.unknown().optional(),
});
export type Payload = z.infer<typeof payloadSchema>;

export const tokenUsageSchema = z.looseObject({
  input_tokens: optNum,
  cached_input_tokens: optNum,
  output_tokens: optNum,
  reasoning_output_tokens: optNum,
  total_tokens: optNum,
});
export type RawTokenUsage = z.infer<typeof tokenUsageSchema>;

export const tokenInfoSchema = z.looseObject({
  total_token_usage: tokenUsageSchema.optional().catch(undefined),
  last_token_usage: tokenUsageSchema.optional().catch(undefined),
});

/**
 * One entry of `patch_apply_end.changes`, in the two serialisations Codex
 * has used: internally tagged (`{type: "update", unified_diff, move_path}`,
 * the real samples) and externally tagged (`{update: {unified_diff,
 * move_path}}`, the protocol's older TypeScript bindings).
 */
export const fileChangeSchema = z.looseObject({
  type: optStr,
  content: optStr,
  unified_diff: optStr,
  move_path: z.string().nullable().optional().catch(undefined),
  add: z.looseObject({ content: optStr }).optional().catch(undefined),
  delete: z
    .union([z.looseObject({ content: optStr }), z.null()])
    .optional()
    .catch(undefined),
  update: z
    .looseObject({ unified_diff: optStr, move_path: z.string().nullable().optional().catch(undefined) })
    .optional()
    .catch(undefined),
});
export type RawFileChange = z.infer<typeof fileChangeSchema>;

/** `function_call.arguments` of the shell tools: `shell` (`command: string[]`), `exec_command` (`cmd: string`), `shell_command` (`command: string`). */
export const shellArgumentsSchema = z.looseObject({
  command: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .catch(undefined),
  cmd: optStr,
  workdir: optStr,
  /** apply_patch as a function tool: `{input: "*** Begin Patch…"}`. */
  input: optStr,
});
