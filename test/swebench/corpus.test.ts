/**
 * The real files in ../shared/corpus: four harness reports of the
 * SWE-agent + Claude 3.5 Sonnet Verified submission (20240620), and two
 * SWE-agent trajectories with a predictions line. Expected classes worked
 * out by reading each report.json:
 * - sympy__sympy-20590: applied; F2P 1 passed (`test_immutable`), 0 failed; P2P 21/0; resolved: true → resolved.
 * - astropy__astropy-12907: applied; F2P 0 passed, 2 failed (test_separable[compound_model6/9]); P2P 13/0 → unresolved.
 * - django__django-11149: applied; F2P 0/2; P2P 45 passed, 1 failed
 *   ("Inlines without change permission shows field inputs on add form.") → regression.
 * - django__django-16877: patch_successfully_applied false, no tests_status → not_applied.
 * Every file's own `resolved` (true, false, false, false) agrees with the rule.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { evaluateRuns, readSwebenchFile, type SwebenchResult } from "../../src/swebench";
import { corpusPath } from "../helpers/corpus";

const CORPUS = corpusPath();
const SWEBENCH = join(CORPUS, "swebench");
const SWE_AGENT = join(CORPUS, "swe-agent");

function ok(r: ReturnType<typeof evaluateRuns>): SwebenchResult {
  if ("error" in r) throw new Error(r.error);
  return r;
}

test("each real report lands in the class its tests_status gives", () => {
  const r = ok(evaluateRuns({ inputs: [SWEBENCH], subset: "verified" }));
  const byId = Object.fromEntries(r.instances.map((i) => [i.instance_id, i]));
  assert.deepEqual(
    r.instances.map((i) => [i.instance_id, i.class]),
    [
      ["astropy__astropy-12907", "unresolved"],
      ["django__django-11149", "regression"],
      ["django__django-16877", "not_applied"],
      ["sympy__sympy-20590", "resolved"],
    ],
  );
  assert.deepEqual(
    [
      byId["sympy__sympy-20590"].f2p_passed,
      byId["sympy__sympy-20590"].f2p_failed,
      byId["sympy__sympy-20590"].p2p_passed,
      byId["sympy__sympy-20590"].p2p_failed,
    ],
    [1, 0, 21, 0],
  );
  assert.deepEqual([byId["astropy__astropy-12907"].f2p_failed, byId["astropy__astropy-12907"].p2p_passed], [2, 13]);
  assert.deepEqual(
    [
      byId["django__django-11149"].f2p_failed,
      byId["django__django-11149"].p2p_passed,
      byId["django__django-11149"].p2p_failed,
    ],
    [2, 45, 1],
  );
  assert.equal(byId["django__django-16877"].f2p_passed, null, "no tests_status: no counts");
  for (const i of r.instances) {
    assert.equal(i.disagrees, false, `${i.instance_id}: the file's own resolved agrees with the rule`);
    assert.equal(i.graded_by, "report");
    assert.equal(i.repo, i.instance_id.replace(/__/, "/").replace(/-\d+$/, ""));
  }
  assert.equal(r.runs.length, 1);
  const run = r.runs[0];
  // metadata.yaml: `name: SWE-agent + Claude 3.5 Sonnet`.
  assert.equal(run.system, "SWE-agent + Claude 3.5 Sonnet");
  assert.equal(run.harness, "harness report.json");
  // Verified has 500 instances; the corpus holds 4 reports, so 496 are missing (counted, ids unknown).
  assert.deepEqual(
    [
      run.total,
      run.resolved,
      run.unresolved,
      run.regression,
      run.not_applied,
      run.empty_patch,
      run.error,
      run.missing,
      run.unlisted,
    ],
    [500, 1, 1, 1, 1, 0, 0, 496, 496],
  );
  // 100 · 1 / 500 = 0.2 %.
  assert.equal(run.resolve_rate, 0.2);
  assert.equal(
    run.resolved + run.unresolved + run.regression + run.not_applied + run.empty_patch + run.error + run.missing,
    run.total,
  );
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-unlisted-instances" && /496/.test(d.message)));
});

test("without a subset the rate is out of the attempted instances, and a warning says so", () => {
  const r = ok(evaluateRuns({ inputs: [SWEBENCH] }));
  assert.equal(r.subset.name, "attempted");
  assert.equal(r.runs[0].total, 4);
  // 1 of 4 resolved = 25 %.
  assert.equal(r.runs[0].resolve_rate, 25);
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-subset-guessed"));
});

test("real files are recognised by content", () => {
  const kinds = [
    ["swebench/logs/sympy__sympy-20590/report.json", "report"],
    ["swebench/metadata.yaml", "metadata"],
    // One line of JSONL parses as one JSON object: still a predictions file.
    ["swe-agent/all_preds.jsonl", "predictions"],
    ["swe-agent/pydicom__pydicom-1458.v0-default.traj", "traj"],
    ["swe-agent/marshmallow-code__marshmallow-1867.function_calling_replace.traj", "traj"],
    // An OpenCode export is `{info, messages}` too, but no trajectory: not a SWE-bench file.
    ["entire/nivalis-studio-biome-config/01/25fb057a68/0/full.jsonl", "unknown"],
    // Entire's checkpoint metadata is JSON of another kind.
    ["entire/nivalis-studio-biome-config/01/25fb057a68/metadata.json", "unknown"],
  ];
  for (const [path, kind] of kinds) assert.equal(readSwebenchFile(join(CORPUS, path)).file.kind, kind, path);
});

test("SWE-agent trajectories give cost, tokens and API calls from info.model_stats", () => {
  const r = ok(evaluateRuns({ inputs: [SWE_AGENT] }));
  const byId = Object.fromEntries(r.instances.map((i) => [i.instance_id, i]));
  // pydicom v0: model_stats {total_cost 1.26719, instance_cost 1.26719, tokens_sent 122612, tokens_received 1369, api_calls 12}.
  const p = byId["pydicom__pydicom-1458"];
  assert.deepEqual(
    [p.cost_usd, p.tokens_sent, p.tokens_received, p.api_calls, p.exit_status],
    [1.26719, 122612, 1369, 12, "submitted"],
  );
  // all_preds.jsonl holds pydicom's patch: submitted, never graded → error.
  assert.equal(p.patch, "present");
  assert.equal(p.graded_by, "predictions");
  assert.equal(p.class, "error");
  // marshmallow: a replayed demonstration, instance_cost 0 with 11 API calls: kept as 0, with a warning.
  const m = byId["marshmallow-code__marshmallow-1867"];
  assert.deepEqual([m.cost_usd, m.tokens_sent, m.api_calls], [0, 0, 11]);
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-traj-zero-cost"));
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-not-graded"));
  const run = r.runs[0];
  // Mean cost per issue over the 2 instances with a cost: (1.26719 + 0) / 2 = 0.633595.
  assert.equal(run.cost_instances, 2);
  assert.equal(run.mean_cost_usd, 0.633595);
  // API calls 12 + 11 = 23; tokens sent 122612 + 0.
  assert.deepEqual([run.api_calls, run.tokens_sent], [23, 122612]);
  // The system is the predictions' model_name_or_path.
  assert.match(run.system, /^gpt4__swe-bench-dev-easy_first_only/);
});
