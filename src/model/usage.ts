import { z } from "zod";

/**
 * Tokens of one API call, normalised across agents: `input_tokens` is
 * uncached input only, `output_tokens` includes reasoning.
 */
export const usageSchema = z.object({
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  /** All cache writes (5-minute plus 1-hour). */
  cache_creation_tokens: z.number().nonnegative(),
  /** The part of `cache_creation_tokens` written with a 1-hour TTL (priced higher). */
  cache_creation_1h_tokens: z.number().nonnegative().default(0),
  cache_read_tokens: z.number().nonnegative(),
  reasoning_tokens: z.number().nonnegative().default(0),
});
export type Usage = z.infer<typeof usageSchema>;

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_tokens: 0,
  cache_creation_1h_tokens: 0,
  cache_read_tokens: 0,
  reasoning_tokens: 0,
});

/** One model request, counted once however many records the log wrote for it. */
export const apiCallSchema = z.object({
  id: z.string(),
  model: z.string().nullable(),
  timestamp: z.string().nullable(),
  /** 1-based line of the transcript record that gave the usage. */
  record: z.number().int(),
  sidechain: z.boolean(),
  usage: usageSchema,
  /** Long-context tier flag and the like, passed to pricing. */
  speed: z.string().nullable().default(null),
});
export type ApiCall = z.infer<typeof apiCallSchema>;
