/**
 * The output tables of `swe-chat-eval swebench`: `instances` (one row per
 * run × instance), `runs` (one per run), `systems` (one per system: several
 * runs summarised). Column names and order are fixed by these schemas.
 */
import { z } from "zod";
import { INSTANCE_CLASSES } from "./grade";

/** Bumped when a column changes meaning; written into manifest.json and the report. */
export const SWEBENCH_FORMAT_VERSION = 1;

const count = z.number().int().nonnegative();
const nullableCount = count.nullable();
const percent = z.number().min(0).max(100);

export const instanceClassSchema = z.enum(INSTANCE_CLASSES);

export const instanceRowSchema = z.object({
  run: z.string(),
  system: z.string(),
  /** The subset's name (`verified`, `lite`, a custom list's name, …). */
  subset: z.string(),
  instance_id: z.string(),
  /** `owner/repo` from the id (`owner__repo-NNN`), or the dataset's `repo`. */
  repo: z.string().nullable(),
  /** From the dataset (Verified has it), else null. */
  difficulty: z.string().nullable(),
  /** False for instances the run has that the subset does not: they are in no count. */
  in_subset: z.boolean(),
  class: instanceClassSchema,
  /** `class == "resolved"`: the strict rule. */
  resolved: z.boolean(),
  /** The report.json's own `resolved` (null without a report). */
  reported_resolved: z.boolean().nullable(),
  /** The report's own `resolved` differs from the rule (null without a report). */
  disagrees: z.boolean().nullable(),
  graded_by: z.enum(["report", "summary", "results", "per_instance_details", "predictions", "trajectory", "none"]),
  /** The prediction's patch: present, empty (`""`/`null`), or null when no prediction or trajectory was seen. */
  patch: z.enum(["present", "empty"]).nullable(),
  f2p_passed: nullableCount,
  f2p_failed: nullableCount,
  p2p_passed: nullableCount,
  p2p_failed: nullableCount,
  /** Dataset tests the report names in neither list (counted as failed). */
  unreported_tests: nullableCount,
  /** Harness v5's advisory infrastructure-failure reason; it does not change the class. */
  infra_failure_reason: z.string().nullable(),
  cost_usd: z.number().nonnegative().nullable(),
  tokens_sent: nullableCount,
  tokens_received: nullableCount,
  api_calls: nullableCount,
  exit_status: z.string().nullable(),
});
export type InstanceRow = z.infer<typeof instanceRowSchema>;

export const runRowSchema = z.object({
  run: z.string(),
  system: z.string(),
  subset: z.string(),
  subset_label: z.string(),
  /** Where the subset came from: `--subset`, `--instances FILE`, a split folder, run.json, or the union of the runs. */
  subset_source: z.string(),
  /** The denominator: the subset's size. */
  total: count,
  resolved: count,
  /** `100 · resolved / total`. */
  resolve_rate: percent.nullable(),
  unresolved: count,
  regression: count,
  not_applied: count,
  empty_patch: count,
  error: count,
  missing: count,
  /** Of `missing` (or, for results.json runs, of `unresolved`): instances counted but not listed, because the subset's ids are unknown. */
  unlisted: count,
  /** Instances of the run outside the subset (not counted). */
  outside_subset: count,
  /** Reports whose own `resolved` differs from the rule. */
  disagreements: count,
  harness: z.string(),
  /** Subset instances with a recorded cost; `mean_cost_usd` is over these. */
  cost_instances: count,
  total_cost_usd: z.number().nonnegative().nullable(),
  mean_cost_usd: z.number().nonnegative().nullable(),
  tokens_sent: nullableCount,
  tokens_received: nullableCount,
  api_calls: nullableCount,
  path: z.string(),
});
export type RunRow = z.infer<typeof runRowSchema>;

export const systemRowSchema = z.object({
  system: z.string(),
  subset: z.string(),
  total: count,
  runs: count,
  mean_resolve_rate: percent.nullable(),
  min_resolve_rate: percent.nullable(),
  max_resolve_rate: percent.nullable(),
  /** Mean over runs with costs of each run's mean cost per issue. */
  mean_cost_usd: z.number().nonnegative().nullable(),
  min_cost_usd: z.number().nonnegative().nullable(),
  max_cost_usd: z.number().nonnegative().nullable(),
  cost_runs: count,
  /** The runs, sorted, joined with `;`. */
  run_names: z.string(),
});
export type SystemRow = z.infer<typeof systemRowSchema>;

export const SWEBENCH_TABLE_COLUMNS = {
  instances: Object.keys(instanceRowSchema.shape) as (keyof InstanceRow)[],
  runs: Object.keys(runRowSchema.shape) as (keyof RunRow)[],
  systems: Object.keys(systemRowSchema.shape) as (keyof SystemRow)[],
  diagnostics: ["source", "session_id", "file", "record", "severity", "code", "message"],
} as const;
export type SwebenchTableName = keyof typeof SWEBENCH_TABLE_COLUMNS;
