/**
 * Zod schemas of the SWE-agent `.traj` document (formats.md §5). Lenient on
 * purpose: unknown keys pass through and a field of the wrong type becomes
 * `undefined` (`.catch`), so one odd step never rejects the whole run.
 */
import { z } from "zod";

const optStr = z.string().optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const optBool = z.boolean().optional().catch(undefined);

/** One step of `trajectory[]`: the parsed command and what the environment answered. */
export const stepSchema = z.looseObject({
  action: optStr,
  observation: optStr,
  response: optStr,
  thought: optStr,
  /** v0: a JSON string; 1.x: an object. Either way `{open_file, working_dir}`. */
  state: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .optional()
    .catch(undefined),
  execution_time: optNum,
});
export type RawStep = z.infer<typeof stepSchema>;

export const functionCallSchema = z.looseObject({
  id: optStr,
  function: z
    .looseObject({
      name: optStr,
      /** A JSON string in the samples; some providers give an object. */
      arguments: z
        .union([z.string(), z.record(z.string(), z.unknown())])
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
});
export type RawFunctionCall = z.infer<typeof functionCallSchema>;

/** One `history[]` message (the chat as sent to the model). */
export const historyMessageSchema = z.looseObject({
  role: optStr,
  content: z.unknown().optional(),
  agent: optStr,
  message_type: optStr,
  action: optStr,
  thought: optStr,
  is_demo: optBool,
  tool_calls: z.array(functionCallSchema).optional().catch(undefined),
  tool_call_ids: z.array(z.string()).optional().catch(undefined),
});
export type RawHistoryMessage = z.infer<typeof historyMessageSchema>;

export const modelStatsSchema = z.looseObject({
  instance_cost: optNum,
  total_cost: optNum,
  tokens_sent: optNum,
  tokens_received: optNum,
  api_calls: optNum,
});
export type RawModelStats = z.infer<typeof modelStatsSchema>;

export const infoSchema = z.looseObject({
  exit_status: z.string().nullable().optional().catch(undefined),
  submission: z.string().nullable().optional().catch(undefined),
  model_stats: modelStatsSchema.optional().catch(undefined),
});

export const trajectorySchema = z.looseObject({
  environment: optStr,
  trajectory: z.array(z.unknown()),
  history: z.array(z.unknown()).optional().catch(undefined),
  info: z.record(z.string(), z.unknown()).optional().catch(undefined),
  /** 1.x: the run configuration (an object, in some releases a JSON string). */
  replay_config: z.unknown().optional(),
});
export type RawTrajectory = z.infer<typeof trajectorySchema>;

/** The parts of `replay_config` we read: the model name and the problem statement. */
export const replayConfigSchema = z.looseObject({
  agent: z
    .looseObject({
      model: z.looseObject({ name: optStr }).optional().catch(undefined),
      tools: z
        .looseObject({ parse_function: z.looseObject({ type: optStr }).optional().catch(undefined) })
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
  problem_statement: z.looseObject({ text: optStr, id: optStr }).optional().catch(undefined),
  env: z
    .looseObject({
      repo: z.looseObject({ repo_name: optStr, base_commit: optStr, github_url: optStr }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});
export type RawReplayConfig = z.infer<typeof replayConfigSchema>;

export const stateSchema = z.looseObject({ open_file: optStr, working_dir: optStr });
