import { z } from "zod";
import { taskLabelSchema } from "./taxonomy";

/** One session's user messages as task labels, in message order (what classifiers write, one JSONL line each). */
export const labelledSessionSchema = z.object({
  session_id: z.string().min(1),
  labels: z.array(taskLabelSchema),
});
export type LabelledSession = z.infer<typeof labelledSessionSchema>;

/** The edges around every filtered sequence (metrics.md §7). */
export const START = "START";
export const END = "END";

/** Bumped whenever a field of a saved Task Flow changes meaning. */
export const TASKFLOW_FORMAT_VERSION = 1;
export const TASKFLOW_KIND = "swe-chat-eval.taskflow";

export const transitionCountSchema = z.object({
  from: z.string(),
  to: z.string(),
  count: z.number().int().nonnegative(),
});
export type TransitionCount = z.infer<typeof transitionCountSchema>;

/** A distinct unfiltered label sequence and how many sessions have it (for the bootstrap and the flow diagram). */
export const sequenceCountSchema = z.object({
  labels: z.array(taskLabelSchema),
  n: z.number().int().positive(),
});
export type SequenceCount = z.infer<typeof sequenceCountSchema>;

/**
 * A corpus-level Task Flow (P_L, P_T, P_R) kept as counts, so it can be
 * published, merged, re-normalised and tested; shares are derived.
 */
export const taskFlowSchema = z.object({
  kind: z.literal(TASKFLOW_KIND),
  format_version: z.literal(TASKFLOW_FORMAT_VERSION),
  /** Free text: where the sessions came from. */
  name: z.string().nullable(),
  /** The corpus filter: sessions with fewer user messages (counted before label filtering) are left out. */
  min_messages: z.number().int().positive(),
  non_instantiable: z.array(taskLabelSchema),
  /** What a session whose messages are all excluded adds to P_R (the paper does not say). */
  all_excluded: z.enum(["start-end", "skip"]),
  /** Sessions given, before the corpus filter. */
  n_sessions_in: z.number().int().nonnegative(),
  /** Sessions with no user message: no length bin fits them, so they are counted here and left out. */
  n_empty: z.number().int().nonnegative(),
  /** Sessions kept by the corpus filter (the sessions of P_L). */
  n_sessions: z.number().int().nonnegative(),
  /** User messages in kept sessions, before label filtering. */
  n_messages: z.number().int().nonnegative(),
  /** Messages of kept sessions with an instantiable label (the messages of P_T). */
  n_retained_messages: z.number().int().nonnegative(),
  /** Kept sessions of length bin → count; all seven bins present. */
  lengths: z.record(z.string(), z.number().int().nonnegative()),
  /** Instantiable label → count over retained messages, pooled; every instantiable label present. */
  task_types: z.record(z.string(), z.number().int().nonnegative()),
  /** Directed adjacent pairs of retained messages with START/END, non-zero counts only, sorted. */
  transitions: z.array(transitionCountSchema),
  /** Kept sessions' unfiltered sequences; absent when a publisher leaves them out (then the bootstrap holds this side fixed). */
  sequences: z.array(sequenceCountSchema).optional(),
});
export type TaskFlow = z.infer<typeof taskFlowSchema>;
