/**
 * Zod schemas of the SWE-bench files this module reads (research/
 * taskflow-swebench.md §2–3). Unknown keys pass through (the harness added
 * keys over versions; `schema_version` stayed 2, so keys are detected, never
 * the version). A field of the wrong type fails the file's parse and becomes
 * a diagnostic: a grading file that lies about its types is not trusted.
 */
import { z } from "zod";

const ids = z.array(z.string());

// MARK: per-instance report.json

/** One `tests_status` bucket: test ids that succeeded and failed. */
export const testBucketSchema = z.looseObject({
  success: ids.default([]),
  failure: ids.default([]),
});
export type TestBucket = z.infer<typeof testBucketSchema>;

export const testsStatusSchema = z.looseObject({
  FAIL_TO_PASS: testBucketSchema.optional(),
  PASS_TO_PASS: testBucketSchema.optional(),
  FAIL_TO_FAIL: testBucketSchema.optional(),
  PASS_TO_FAIL: testBucketSchema.optional(),
});
export type TestsStatus = z.infer<typeof testsStatusSchema>;

/** `report.json` is `{<instance_id>: reportEntry}` (grading.py `get_eval_report`). */
export const reportEntrySchema = z.looseObject({
  patch_is_None: z.boolean().optional(),
  patch_exists: z.boolean().optional(),
  /** Really "a usable test log was found" (grading.py `get_logs_eval`). */
  patch_successfully_applied: z.boolean().optional(),
  resolved: z.boolean().optional(),
  /** Absent when no usable log was found. */
  tests_status: testsStatusSchema.optional(),
  /** Harness v5: advisory, `resolved` is unchanged by it. */
  infra_failure: z.boolean().optional(),
  infra_failure_reason: z.string().nullable().optional(),
});
export type ReportEntry = z.infer<typeof reportEntrySchema>;
export const reportFileSchema = z.record(z.string(), reportEntrySchema);

// MARK: run summary (<model>.<run_id>.json, OpenHands output.report.json)

export const runSummarySchema = z.looseObject({
  total_instances: z.number().int().nonnegative().optional(),
  submitted_instances: z.number().int().nonnegative().optional(),
  completed_instances: z.number().int().nonnegative().optional(),
  resolved_instances: z.number().int().nonnegative().optional(),
  resolved_ids: ids.optional(),
  unresolved_ids: ids.optional(),
  empty_patch_ids: ids.optional(),
  error_ids: ids.optional(),
  incomplete_ids: ids.optional(),
  completed_ids: ids.optional(),
  submitted_ids: ids.optional(),
  infra_failure_ids: ids.optional(),
  ambiguous_failure_ids: ids.optional(),
  failure_reasons: z.record(z.string(), z.string()).optional(),
  model_name_or_path: z.string().optional(),
  schema_version: z.number().optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

// MARK: experiments results/results.json

/**
 * `{no_generation, no_logs, resolved}` (analysis/get_results.py): only resolved
 * ids are listed; unresolved means "in the split but not listed". The
 * pre-Docker harness wrote more lists (`no_apply`, `test_errored`, …).
 */
export const experimentsResultsSchema = z.looseObject({
  resolved: ids,
  no_generation: ids.optional(),
  no_logs: ids.optional(),
  generated: ids.optional(),
  with_logs: ids.optional(),
  install_fail: ids.optional(),
  reset_failed: ids.optional(),
  no_apply: ids.optional(),
  applied: ids.optional(),
  test_errored: ids.optional(),
  test_timeout: ids.optional(),
});
export type ExperimentsResults = z.infer<typeof experimentsResultsSchema>;

/** bash-only / mini-SWE-agent `per_instance_details`: every instance with its outcome and cost. */
export const instanceDetailSchema = z.looseObject({
  resolved: z.boolean(),
  cost: z.number().nullable().optional(),
  api_calls: z.number().int().nullable().optional(),
});
export const perInstanceDetailsSchema = z.record(z.string(), instanceDetailSchema);
export type PerInstanceDetails = z.infer<typeof perInstanceDetailsSchema>;

/** Harness v5 `logs/run_evaluation/<run_id>/run.json`. */
export const runInfoSchema = z.looseObject({
  dataset: z.string().nullable().optional(),
  split: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
});
export type RunInfo = z.infer<typeof runInfoSchema>;

// MARK: predictions

export const predictionSchema = z.looseObject({
  instance_id: z.string().min(1),
  model_name_or_path: z.string().nullable().optional(),
  /** `""` and `null` are the harness's "empty patch": never run. */
  model_patch: z.string().nullable().optional(),
});
export type Prediction = z.infer<typeof predictionSchema>;

// MARK: metadata.yaml

export const metadataSchema = z.looseObject({
  name: z.string().nullable().optional(),
  oss: z.boolean().nullable().optional(),
  site: z.string().nullable().optional(),
  verified: z.boolean().nullable().optional(),
  /** Newer submissions: `info: {name, site, report, logo}`, `tags: {model, org, …}`. */
  info: z.looseObject({ name: z.string().nullable().optional() }).nullable().optional(),
});
export type SubmissionMetadata = z.infer<typeof metadataSchema>;

// MARK: SWE-agent / mini-SWE-agent trajectories

/** `info.model_stats` (sweagent/types.py `AgentInfo`); v0 also wrote `total_cost`; mini has no tokens. */
export const modelStatsSchema = z.looseObject({
  instance_cost: z.number().nullable().optional(),
  total_cost: z.number().nullable().optional(),
  tokens_sent: z.number().int().nullable().optional(),
  tokens_received: z.number().int().nullable().optional(),
  api_calls: z.number().int().nullable().optional(),
});
export type ModelStats = z.infer<typeof modelStatsSchema>;

export const trajSchema = z.looseObject({
  info: z.looseObject({
    model_stats: modelStatsSchema.nullable().optional(),
    exit_status: z.string().nullable().optional(),
    submission: z.string().nullable().optional(),
  }),
  trajectory: z.array(z.unknown()).optional(),
  messages: z.array(z.unknown()).optional(),
  trajectory_format: z.string().optional(),
});
export type Traj = z.infer<typeof trajSchema>;

// MARK: dataset instances

/** The HF datasets store FAIL_TO_PASS / PASS_TO_PASS as JSON-encoded string lists; the harness `json.loads` them. */
const testList = z.union([ids, z.string()]);

export const datasetInstanceSchema = z.looseObject({
  instance_id: z.string().min(1),
  repo: z.string().optional(),
  FAIL_TO_PASS: testList.optional(),
  PASS_TO_PASS: testList.optional(),
  /** SWE-bench Verified: `<15 min fix`, `15 min - 1 hour`, `1-4 hours`, `>4 hours`. */
  difficulty: z.string().nullable().optional(),
  created_at: z.string().nullable().optional(),
});
export type RawDatasetInstance = z.infer<typeof datasetInstanceSchema>;
