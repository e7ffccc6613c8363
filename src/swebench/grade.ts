/**
 * The strict SWE-bench rule (metrics.md §8) and the one class every instance
 * of a run lands in. The classes are disjoint and cover the subset, so their
 * counts add up to the denominator (the harness's "honest denominators":
 * reporting.py puts every dataset instance in exactly one bucket).
 */
import type { TestsStatus } from "./schema";

/** The classes, in report order. `resolved` is the only one that counts as resolved. */
export const INSTANCE_CLASSES = [
  "resolved",
  /** Patch applied, every PASS_TO_PASS test passed, some FAIL_TO_PASS test failed. */
  "unresolved",
  /** Patch applied, some PASS_TO_PASS test failed (whatever FAIL_TO_PASS did): the patch broke working code. */
  "regression",
  /** The patch did not apply, or the harness found no usable test log (no `tests_status`). */
  "not_applied",
  /** The prediction's patch is `""` or `null`: the harness never runs it. */
  "empty_patch",
  /** Submitted but never graded: no report.json, an unreadable one, or the harness's `error_ids`. */
  "error",
  /** In the subset but not in the run: counts as unresolved. */
  "missing",
] as const;
export type InstanceClass = (typeof INSTANCE_CLASSES)[number];

export interface TestCounts {
  f2p_passed: number;
  f2p_failed: number;
  p2p_passed: number;
  p2p_failed: number;
  /** Tests the dataset lists that the report names in neither list; already counted in the `*_failed` fields. */
  unreported: number;
}

/** What a per-instance report.json says, in the form the rule reads. */
export interface GradedReport {
  patch_exists: boolean;
  /** `patch_successfully_applied`: really "a usable test log was found". */
  applied: boolean;
  /** Null when the report has no `tests_status`. */
  tests: TestCounts | null;
  /** The file's own `resolved`, shown beside the recomputed one. */
  reported_resolved: boolean | null;
  infra_failure_reason: string | null;
}

/** A verdict from a listing (run summary, results.json, per_instance_details) for an instance without a report. */
export type ListedOutcome = Exclude<InstanceClass, "regression">;

/** Everything a run says about one instance. */
export interface InstanceEvidence {
  instance_id: string;
  /** The prediction's patch: present, empty (`""`/`null`), or null when no prediction was seen. */
  patch: "present" | "empty" | null;
  report: GradedReport | null;
  listed: ListedOutcome | null;
}

/**
 * The rule, on one report: resolved only if the patch applied and every
 * FAIL_TO_PASS and every PASS_TO_PASS test passed; no partial credit (the
 * harness's RESOLVED_PARTIAL is not resolved). A PASS_TO_PASS failure is a
 * regression even when FAIL_TO_PASS tests also fail: breaking working code is
 * the finding a reader needs first.
 */
export function classifyReport(report: GradedReport): InstanceClass {
  if (!report.patch_exists) return "empty_patch";
  if (!report.applied || report.tests === null) return "not_applied";
  if (report.tests.p2p_failed > 0) return "regression";
  if (report.tests.f2p_failed > 0) return "unresolved";
  return "resolved";
}

/**
 * The class of one instance: a report is graded by the rule; without one, an
 * empty patch is `empty_patch`, a listing's verdict is taken as given, a
 * submitted patch nobody graded is `error` (the harness's bucket for "no
 * report.json"), and an instance the run never mentions is `missing`.
 */
export function classifyInstance(evidence: InstanceEvidence): InstanceClass {
  if (evidence.report) return classifyReport(evidence.report);
  if (evidence.patch === "empty") return "empty_patch";
  if (evidence.listed) return evidence.listed;
  if (evidence.patch === "present") return "error";
  return "missing";
}

/** The rule's verdict on a report (the harness's RESOLVED_FULL). */
export function recomputeResolved(report: GradedReport): boolean {
  return classifyReport(report) === "resolved";
}

/**
 * Counts passed and failed FAIL_TO_PASS / PASS_TO_PASS tests. When the
 * dataset's lists are known, a listed test the report names in neither
 * bucket counts as failed (the harness fails a test missing from the log).
 */
export function countTests(
  status: TestsStatus,
  expected?: { fail_to_pass: string[]; pass_to_pass: string[] } | null,
): TestCounts {
  const f2p = status.FAIL_TO_PASS ?? { success: [], failure: [] };
  const p2p = status.PASS_TO_PASS ?? { success: [], failure: [] };
  const f2pMissing = expected ? unreported(expected.fail_to_pass, f2p.success, f2p.failure) : 0;
  const p2pMissing = expected ? unreported(expected.pass_to_pass, p2p.success, p2p.failure) : 0;
  return {
    f2p_passed: f2p.success.length,
    f2p_failed: f2p.failure.length + f2pMissing,
    p2p_passed: p2p.success.length,
    p2p_failed: p2p.failure.length + p2pMissing,
    unreported: f2pMissing + p2pMissing,
  };
}

function unreported(expected: readonly string[], success: readonly string[], failure: readonly string[]): number {
  const seen = new Set<string>(success);
  for (const t of failure) seen.add(t);
  let n = 0;
  for (const t of new Set(expected)) if (!seen.has(t)) n++;
  return n;
}
