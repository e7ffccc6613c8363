/**
 * Which SWE-bench file a parsed value is, by content only: a `.json` may hold
 * JSONL, a `preds.json` may be a list or a dict, a report and a dict of
 * predictions are both keyed by instance id. Keys are detected, never
 * `schema_version` (it stayed 2 while the harness added keys).
 */

export type SwebenchFileKind =
  | "report"
  | "summary"
  | "results"
  | "per-instance-details"
  | "predictions"
  | "traj"
  | "dataset"
  | "run-info"
  | "metadata"
  /** `resolved_by_repo.json`, `resolved_by_time.json`: recomputed here, not read. */
  | "aggregate"
  | "unknown";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k);

const REPORT_KEYS = ["patch_successfully_applied", "tests_status", "patch_is_None", "patch_exists"];
const SUMMARY_ID_KEYS = [
  "resolved_ids",
  "unresolved_ids",
  "completed_ids",
  "submitted_ids",
  "error_ids",
  "empty_patch_ids",
];
const RESULTS_LIST_KEYS = ["no_generation", "no_logs", "generated", "applied", "no_apply", "with_logs"];

/** How many values of a dict are looked at; a 2,294-key dict need not be scanned whole to be named. */
const SAMPLE = 20;

function sampleValues(o: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const k in o) {
    out.push(o[k]);
    if (out.length >= SAMPLE) break;
  }
  return out;
}

/** The kind of one record of a list (JSON array or JSONL, or a one-line JSONL / SWE-agent `.pred` file). */
export function recordKind(r: unknown): "predictions" | "dataset" | null {
  if (!isObject(r) || typeof r.instance_id !== "string") return null;
  if (has(r, "FAIL_TO_PASS") || has(r, "PASS_TO_PASS")) return "dataset";
  if (has(r, "model_patch")) return "predictions";
  return null;
}

/** Kind of a list of records: every sampled record must agree. */
export function detectRecordsKind(records: readonly unknown[]): SwebenchFileKind {
  if (records.length === 0) return "unknown";
  const first = recordKind(records[0]);
  if (!first) return "unknown";
  for (let i = 1; i < Math.min(records.length, SAMPLE); i++) if (recordKind(records[i]) !== first) return "unknown";
  return first;
}

/** Kind of one parsed JSON (or YAML) document. */
export function detectSwebenchKind(value: unknown, fromYaml = false): SwebenchFileKind {
  if (Array.isArray(value)) return detectRecordsKind(value);
  if (!isObject(value)) return "unknown";
  if (fromYaml) return typeof value.name === "string" || isObject(value.info) ? "metadata" : "unknown";
  // SWE-agent: `trajectory[]` + `info`; mini-SWE-agent: `messages[]` + `info.model_stats` + `trajectory_format`.
  // An OpenCode export is also `{info, messages}`, so `messages` alone is not enough.
  if (
    isObject(value.info) &&
    (Array.isArray(value.trajectory) ||
      typeof value.trajectory_format === "string" ||
      (Array.isArray(value.messages) && isObject(value.info.model_stats)))
  )
    return "traj";
  if (
    SUMMARY_ID_KEYS.some((k) => Array.isArray(value[k])) &&
    (has(value, "total_instances") || has(value, "submitted_instances") || Array.isArray(value.resolved_ids))
  )
    return "summary";
  if (Array.isArray(value.resolved) && RESULTS_LIST_KEYS.some((k) => Array.isArray(value[k]))) return "results";
  if (isObject(value.per_instance_details)) return "per-instance-details";
  if (typeof value.dataset === "string" && has(value, "split")) return "run-info";
  const values = sampleValues(value);
  if (values.length === 0 || !values.every(isObject)) return "unknown";
  const objects = values as Record<string, unknown>[];
  if (objects.every((v) => REPORT_KEYS.some((k) => has(v, k)))) return "report";
  if (objects.every((v) => has(v, "model_patch"))) return "predictions";
  if (objects.every((v) => typeof v.resolved === "boolean")) return "per-instance-details";
  if (objects.every((v) => typeof v.resolved === "number" && typeof v.total === "number")) return "aggregate";
  return "unknown";
}
