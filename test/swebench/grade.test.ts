/**
 * The strict rule (metrics.md §8): resolved only if the patch applied and
 * every FAIL_TO_PASS and every PASS_TO_PASS test passed. The harness's own
 * `resolved` is shown beside the rule, never trusted over it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyInstance, classifyReport, countTests, type GradedReport, recomputeResolved } from "../../src/swebench";

const graded = (tests: GradedReport["tests"], extra: Partial<GradedReport> = {}): GradedReport => ({
  patch_exists: true,
  applied: true,
  tests,
  reported_resolved: null,
  infra_failure_reason: null,
  ...extra,
});
const t = (f2p_passed: number, f2p_failed: number, p2p_passed: number, p2p_failed: number) => ({
  f2p_passed,
  f2p_failed,
  p2p_passed,
  p2p_failed,
  unreported: 0,
});

test("the rule: all F2P and all P2P passed and the patch applied, nothing less", () => {
  assert.equal(classifyReport(graded(t(1, 0, 21, 0))), "resolved");
  // RESOLVED_PARTIAL in the harness (0 < f2p < 1, p2p = 1) is not resolved: no partial credit.
  assert.equal(classifyReport(graded(t(1, 1, 5, 0))), "unresolved");
  assert.equal(classifyReport(graded(t(0, 2, 13, 0))), "unresolved");
  // A PASS_TO_PASS failure is a regression, even when FAIL_TO_PASS also fails.
  assert.equal(classifyReport(graded(t(1, 0, 4, 1))), "regression");
  assert.equal(classifyReport(graded(t(0, 2, 45, 1))), "regression");
  // No usable log: `patch_successfully_applied` false, or no tests_status at all.
  assert.equal(classifyReport(graded(t(1, 0, 1, 0), { applied: false })), "not_applied");
  assert.equal(classifyReport(graded(null)), "not_applied");
  assert.equal(classifyReport(graded(null, { patch_exists: false })), "empty_patch");
  // The harness takes f2p = 1 when there are no F2P tests; the rule agrees (every one of none passed).
  assert.equal(classifyReport(graded(t(0, 0, 3, 0))), "resolved");
});

test("a report whose own resolved disagrees with the rule: the rule wins", () => {
  // The file says resolved: true, but one PASS_TO_PASS test failed.
  const lying = graded(t(1, 0, 2, 1), { reported_resolved: true });
  assert.equal(recomputeResolved(lying), false);
  assert.equal(classifyReport(lying), "regression");
  // And the other way: resolved false with every test passing.
  const modest = graded(t(2, 0, 2, 0), { reported_resolved: false });
  assert.equal(recomputeResolved(modest), true);
});

test("without a report: empty patch, then a listing's verdict, then error for an ungraded patch, else missing", () => {
  const base = { instance_id: "a__b-1", report: null };
  assert.equal(classifyInstance({ ...base, patch: "empty", listed: "resolved" }), "empty_patch");
  assert.equal(classifyInstance({ ...base, patch: "present", listed: "unresolved" }), "unresolved");
  assert.equal(classifyInstance({ ...base, patch: "present", listed: null }), "error");
  assert.equal(classifyInstance({ ...base, patch: null, listed: null }), "missing");
  assert.equal(classifyInstance({ ...base, patch: null, listed: "missing" }), "missing");
  // A report is graded whatever the listing said.
  assert.equal(
    classifyInstance({ ...base, patch: "present", listed: "resolved", report: graded(t(0, 1, 1, 0)) }),
    "unresolved",
  );
});

test("countTests: dataset tests the report names in neither list count as failed", () => {
  const status = {
    FAIL_TO_PASS: { success: ["t1"], failure: [] },
    PASS_TO_PASS: { success: ["k1", "k2"], failure: ["k3"] },
  };
  assert.deepEqual(countTests(status), { f2p_passed: 1, f2p_failed: 0, p2p_passed: 2, p2p_failed: 1, unreported: 0 });
  // The dataset lists F2P t1, t2 and P2P k1, k4: t2 and k4 are in no list → 1 more F2P and 1 more P2P failure.
  const counts = countTests(status, { fail_to_pass: ["t1", "t2"], pass_to_pass: ["k1", "k4"] });
  assert.deepEqual(counts, { f2p_passed: 1, f2p_failed: 1, p2p_passed: 2, p2p_failed: 2, unreported: 2 });
  // Missing buckets are empty.
  assert.deepEqual(countTests({}), { f2p_passed: 0, f2p_failed: 0, p2p_passed: 0, p2p_failed: 0, unreported: 0 });
});
