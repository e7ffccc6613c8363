/**
 * Synthetic runs with known counts, in the harness's and the experiments'
 * layouts: every class present, and the classes add up to the subset size.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { evaluateRuns, INSTANCE_CLASSES, type RunRow, type SwebenchResult } from "../../src/swebench";
import { report, SUBSET, tempDir, writeDataset, writeHarnessRun, writeJson, writeRunA, writeText } from "./fixtures";

function ok(r: ReturnType<typeof evaluateRuns>): SwebenchResult {
  if ("error" in r) throw new Error(r.error);
  return r;
}
const classSum = (r: RunRow) => INSTANCE_CLASSES.reduce((s, c) => s + r[c], 0);

test("every class present; the counts add up to the subset size", () => {
  const dir = tempDir();
  const runDir = writeRunA(dir);
  const dataset = writeDataset(join(dir, "subset.jsonl"), SUBSET);
  const r = ok(evaluateRuns({ inputs: [runDir], instances: dataset }));
  assert.equal(r.subset.size, 10);
  assert.equal(r.runs.length, 1);
  const run = r.runs[0];
  assert.equal(run.run, "runA/sysA");
  assert.equal(run.system, "sysA", "the harness's model folder names the system");
  assert.deepEqual(
    INSTANCE_CLASSES.map((c) => run[c]),
    [3, 1, 2, 1, 1, 1, 1], // resolved, unresolved, regression, not_applied, empty_patch, error, missing
  );
  assert.equal(classSum(run), 10);
  assert.equal(run.total, 10);
  assert.equal(run.resolve_rate, 30); // 100 · 3 / 10
  assert.equal(run.outside_subset, 1);
  assert.equal(run.disagreements, 1);
  assert.equal(run.unlisted, 0);
  assert.deepEqual([run.cost_instances, run.total_cost_usd, run.mean_cost_usd], [3, 3, 1]);
  assert.equal(run.harness, "harness report.json + harness report.json (v5)");
  const byId = Object.fromEntries(r.instances.map((i) => [i.instance_id, i]));
  assert.equal(byId["beta__app-9"].disagrees, true);
  assert.equal(byId["beta__app-9"].reported_resolved, true);
  assert.equal(byId["beta__app-8"].graded_by, "none");
  assert.equal(byId["beta__app-6"].graded_by, "predictions");
  assert.equal(byId["gamma__x-11"].in_subset, false);
  // Rows are sorted by id; the dataset's repo is used.
  const ids = r.instances.map((i) => i.instance_id);
  assert.deepEqual(ids, [...ids].sort());
  assert.equal(byId["alpha__lib-1"].repo, "alpha/lib");
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-outside-subset" && /gamma__x-11/.test(d.message)));
});

test("dataset tests missing from a report count as failed", () => {
  const dir = tempDir();
  // The dataset lists F2P test_fix_1 and test_fix_2; the report passes test_fix_1 only and names test_fix_2 nowhere.
  const runDir = writeHarnessRun(dir, "r", "m", [{ id: "alpha__lib-1", patch: "d", report: report({}) }]);
  const dataset = writeDataset(join(dir, "subset.jsonl"), ["alpha__lib-1"], () => ({
    FAIL_TO_PASS: ["test_fix_1", "test_fix_2"],
    PASS_TO_PASS: [],
  }));
  const r = ok(evaluateRuns({ inputs: [runDir], instances: dataset }));
  const row = r.instances[0];
  assert.deepEqual([row.class, row.f2p_passed, row.f2p_failed, row.unreported_tests], ["unresolved", 1, 1, 1]);
  // The file said resolved: true; the rule disagrees.
  assert.equal(row.disagrees, true);
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-tests-unreported"));
});

test("the harness summary <model>.<run>.json joins its run from outside logs/ and grades instances without reports", () => {
  const dir = tempDir();
  const runDir = writeHarnessRun(dir, "r1", "sysS", [{ id: "alpha__lib-1", patch: "d", report: report({}) }]);
  // Written where the harness writes it: the working directory, not logs/.
  const summary = writeJson(join(dir, "sysS.r1.json"), {
    total_instances: 300,
    submitted_instances: 4,
    completed_instances: 2,
    resolved_instances: 1,
    unresolved_instances: 1,
    empty_patch_instances: 1,
    error_instances: 1,
    completed_ids: ["alpha__lib-1", "alpha__lib-2"],
    incomplete_ids: [],
    empty_patch_ids: ["alpha__lib-3"],
    submitted_ids: ["alpha__lib-1", "alpha__lib-2", "alpha__lib-3", "alpha__lib-4"],
    resolved_ids: ["alpha__lib-1"],
    unresolved_ids: ["alpha__lib-2"],
    error_ids: ["alpha__lib-4"],
    schema_version: 2,
  });
  const r = ok(evaluateRuns({ inputs: [runDir, summary], subset: "lite" }));
  assert.equal(r.runs.length, 1, "the summary is part of the run, not a run of its own");
  const run = r.runs[0];
  // lib-1 by its report (resolved), lib-2 unresolved, lib-3 empty patch, lib-4 error by the summary; Lite's other 296 missing.
  assert.deepEqual(
    INSTANCE_CLASSES.map((c) => run[c]),
    [1, 1, 0, 0, 1, 1, 296],
  );
  assert.equal(run.total, 300);
  assert.equal(classSum(run), 300);
  assert.equal(run.harness, "run summary + harness report.json");
  const byId = Object.fromEntries(r.instances.map((i) => [i.instance_id, i]));
  assert.equal(byId["alpha__lib-2"].graded_by, "summary");
});

test("experiments layout: results.json lists only resolved ids, so the rest of the split is unresolved", () => {
  const root = tempDir();
  const run = join(root, "evaluation", "lite", "20240101_demo");
  writeText(join(run, "metadata.yaml"), "name: Demo <Agent>\noss: true\nsite: null\nverified: false\n");
  writeJson(join(run, "results", "results.json"), {
    no_generation: ["beta__app-6"],
    no_logs: ["beta__app-7"],
    resolved: ["alpha__lib-1", "alpha__lib-2"],
  });
  writeJson(join(run, "results", "resolved_by_repo.json"), { "alpha/lib": { resolved: 2, total: 5 } });
  writeJson(join(run, "logs", "alpha__lib-3", "report.json"), { "alpha__lib-3": report({ p2p: [0, 1] }) });
  const r = ok(evaluateRuns({ inputs: [run] }));
  // The split folder `lite/` names the subset: 300 instances.
  assert.equal(r.subset.name, "lite");
  assert.equal(r.subset.source, "split folder lite/");
  const row = r.runs[0];
  assert.equal(row.system, "Demo <Agent>");
  assert.equal(row.run, "20240101_demo");
  // resolved 2; lib-3 regression by its report; app-6 empty (no_generation); app-7 not_applied (no_logs);
  // the other 300 − 5 = 295 unresolved (not listed, ids unknown); nothing missing.
  assert.deepEqual(
    INSTANCE_CLASSES.map((c) => row[c]),
    [2, 295, 1, 1, 1, 0, 0],
  );
  assert.equal(row.unlisted, 295);
  assert.equal(classSum(row), 300);
  // 100 · 2 / 300
  assert.equal(row.resolve_rate, 200 / 300);
  assert.ok(r.diagnostics.some((d) => d.code === "swebench-aggregate-ignored"));
});

test("per_instance_details: resolved and cost for every instance", () => {
  const dir = tempDir();
  const path = writeJson(join(dir, "per_instance_details.json"), {
    per_instance_details: {
      "alpha__lib-1": { resolved: true, cost: 0.2, api_calls: 10 },
      "alpha__lib-2": { resolved: false, cost: 0.4, api_calls: 30 },
    },
  });
  const r = ok(evaluateRuns({ inputs: [path] }));
  const run = r.runs[0];
  assert.deepEqual([run.resolved, run.unresolved, run.total], [1, 1, 2]);
  // (0.2 + 0.4) / 2 = 0.3 (up to float rounding of 0.2 + 0.4)
  assert.ok(Math.abs(run.mean_cost_usd! - 0.3) < 1e-12);
  assert.equal(run.api_calls, 40);
});

test("several runs of one system: mean resolve rate with min–max, mean cost per issue", () => {
  const dir = tempDir();
  const ids = ["alpha__lib-1", "alpha__lib-2", "alpha__lib-3", "alpha__lib-4"];
  // Three runs of S resolving 1, 2, 3 of the 4 instances (25, 50, 75 %), each instance costing 0.1, 0.2, 0.3.
  const runs = [1, 2, 3].map((k) =>
    writeHarnessRun(
      dir,
      `run${k}`,
      "S",
      ids.map((id, i) => ({ id, patch: "d", report: report(i < k ? {} : { f2p: [0, 1] }), cost: k / 10 })),
    ),
  );
  const other = writeHarnessRun(
    dir,
    "run1",
    "T",
    ids.map((id) => ({ id, patch: "d", report: report({}) })),
  );
  const r = ok(evaluateRuns({ inputs: [...runs, other] }));
  assert.deepEqual(
    r.runs.map((x) => [x.run, x.resolve_rate]),
    [
      ["run1/S", 25],
      ["run2/S", 50],
      ["run3/S", 75],
      ["run1/T", 100],
    ],
  );
  const s = r.systems.find((x) => x.system === "S")!;
  // mean (25 + 50 + 75) / 3 = 50, min 25, max 75; mean cost (0.1 + 0.2 + 0.3) / 3 = 0.2.
  assert.deepEqual([s.runs, s.mean_resolve_rate, s.min_resolve_rate, s.max_resolve_rate], [3, 50, 25, 75]);
  assert.ok(Math.abs(s.mean_cost_usd! - 0.2) < 1e-12);
  assert.equal(s.run_names, "run1/S;run2/S;run3/S");
  const t = r.systems.find((x) => x.system === "T")!;
  assert.deepEqual([t.mean_resolve_rate, t.mean_cost_usd, t.cost_runs], [100, null, 0]);
});

test("bad files become diagnostics, never a crash: an unreadable report.json is the harness's error", () => {
  const dir = tempDir();
  const run = join(dir, "logs", "run_evaluation", "r", "m");
  writeText(join(run, "alpha__lib-1", "report.json"), "");
  writeText(join(run, "alpha__lib-2", "report.json"), '{"alpha__lib-2": {"patch_successfully_applied": "yes"}}');
  writeText(join(run, "alpha__lib-3", "report.json"), '{"alpha__lib-3": {"resolved": tru');
  writeText(
    join(run, "preds.jsonl"),
    [
      '{"instance_id": "alpha__lib-1", "model_patch": "d"}',
      "not json",
      '{"instance_id": "alpha__lib-2", "model_patch": "d"}{"instance_id": "alpha__lib-3", "model_patch": "d"}',
      '{"instance_id": "alpha__lib-4", "model_pa',
    ].join("\n"),
  );
  const r = ok(evaluateRuns({ inputs: [run] }));
  const byId = Object.fromEntries(r.instances.map((i) => [i.instance_id, i]));
  // Empty, wrongly typed and truncated reports: error (graded by the report's presence).
  assert.deepEqual(
    ["alpha__lib-1", "alpha__lib-2", "alpha__lib-3"].map((id) => byId[id].class),
    ["error", "error", "error"],
  );
  const codes = new Set(r.diagnostics.map((d) => d.code));
  for (const code of [
    "swebench-empty-file",
    "swebench-schema",
    "swebench-invalid-json",
    "jsonl-invalid-line",
    "jsonl-concatenated-objects",
    "jsonl-truncated",
  ]) {
    assert.ok(codes.has(code), `diagnostic ${code}`);
  }
  assert.equal(classSum(r.runs[0]), r.runs[0].total);
});

test("predictions as a list .json and as a dict .json keyed by instance id", () => {
  const dir = tempDir();
  const list = writeJson(join(dir, "list", "preds.json"), [
    { instance_id: "alpha__lib-1", model_name_or_path: "x", model_patch: "d" },
    { instance_id: "alpha__lib-2", model_name_or_path: "x", model_patch: null },
  ]);
  const dict = writeJson(join(dir, "dict", "preds.json"), {
    "alpha__lib-1": { model_name_or_path: "y", model_patch: "d" },
    "alpha__lib-2": { model_name_or_path: "y", model_patch: "" },
  });
  const r = ok(evaluateRuns({ inputs: [list, dict] }));
  assert.deepEqual(
    r.runs.map((x) => [x.run, x.system, x.error, x.empty_patch]),
    [
      ["preds", "x", 1, 1],
      ["preds#2", "y", 1, 1],
    ],
  );
});

test("SYSTEM=PATH names the system; an unknown subset name is an error", () => {
  const dir = tempDir();
  const runDir = writeRunA(dir);
  const r = ok(evaluateRuns({ inputs: [{ path: runDir, system: "My agent" }] }));
  assert.equal(r.runs[0].system, "My agent");
  const bad = evaluateRuns({ inputs: [runDir], subset: "nonesuch" });
  assert.ok("error" in bad && /unknown subset nonesuch/.test(bad.error));
});

test("mini-SWE-agent trajectories: cost and API calls, no tokens; the id from the folder", () => {
  const dir = tempDir();
  // mini-swe-agent writes `<id>/<id>.traj.json` with `trajectory_format` and per-instance `info.model_stats`.
  writeJson(join(dir, "mini", "alpha__lib-1", "alpha__lib-1.traj.json"), {
    info: {
      model_stats: { instance_cost: 0.12, api_calls: 9 },
      exit_status: "Submitted",
      submission: "diff --git a/x b/x",
    },
    messages: [{ role: "system", content: "…" }],
    trajectory_format: "mini-swe-agent-1.1",
  });
  writeJson(join(dir, "mini", "preds.json"), {
    "alpha__lib-1": { model_name_or_path: "mini", instance_id: "alpha__lib-1", model_patch: "diff --git a/x b/x" },
  });
  const r = ok(evaluateRuns({ inputs: [join(dir, "mini")] }));
  const row = r.instances[0];
  assert.deepEqual(
    [row.instance_id, row.cost_usd, row.api_calls, row.tokens_sent, row.exit_status, row.patch],
    ["alpha__lib-1", 0.12, 9, null, "Submitted", "present"],
  );
});
