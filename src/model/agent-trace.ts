/**
 * Agent Trace 0.1.0 trace records, as zod schemas transcribed from the specification's own `schemas.ts`
 * (github.com/cursor/agent-trace, © Cursor, CC BY 4.0; changes: `version` checked as plain semver, since the
 * original regex literal demands a backslash and rejects `0.1.0`, formats.md §11.4).
 */
import { z } from "zod";

export const agentTraceContributorSchema = z.object({
  type: z.enum(["human", "ai", "mixed", "unknown"]),
  model_id: z.string().max(250).optional(),
});
export const agentTraceRangeSchema = z.object({
  start_line: z.number().int().min(1),
  end_line: z.number().int().min(1),
  content_hash: z.string().optional(),
  contributor: agentTraceContributorSchema.optional(),
});
export const agentTraceConversationSchema = z.object({
  url: z.string().url().optional(),
  contributor: agentTraceContributorSchema.optional(),
  ranges: z.array(agentTraceRangeSchema),
  related: z.array(z.object({ type: z.string(), url: z.string().url() })).optional(),
});
export const agentTraceRecordSchema = z.object({
  version: z.string().regex(/^[0-9]+\.[0-9]+\.[0-9]+$/),
  id: z.string().uuid(),
  timestamp: z.string().datetime(),
  vcs: z.object({ type: z.enum(["git", "jj", "hg", "svn"]), revision: z.string() }).optional(),
  tool: z.object({ name: z.string(), version: z.string() }).optional(),
  files: z.array(z.object({ path: z.string(), conversations: z.array(agentTraceConversationSchema) })),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type AgentTraceRecord = z.infer<typeof agentTraceRecordSchema>;
