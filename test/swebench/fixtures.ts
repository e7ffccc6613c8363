/** Writes synthetic SWE-bench runs in the harness's and the experiments' layouts, for tests. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const tempDir = (prefix = "sce-swebench-") => mkdtempSync(join(tmpdir(), prefix));

export function writeJson(path: string, value: unknown, pretty = true): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, pretty ? 2 : undefined));
  return path;
}

export function writeText(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/**
 * A harness report.json entry: `f2p`/`p2p` as [passed, failed] counts. Test ids are numbered across both
 * lists (passed `test_fix_1..p`, failed `test_fix_p+1..`), so the dataset's `test_fix_1` is always in one of them.
 */
export function report(opts: {
  f2p?: [number, number];
  p2p?: [number, number];
  applied?: boolean;
  resolved?: boolean;
  patchExists?: boolean;
  v5?: boolean;
}) {
  const ids = (prefix: string, from: number, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}_${from + i + 1}`);
  const [f2pOk, f2pBad] = opts.f2p ?? [1, 0];
  const [p2pOk, p2pBad] = opts.p2p ?? [2, 0];
  const applied = opts.applied ?? true;
  const entry: Record<string, unknown> = {
    patch_is_None: opts.patchExists === false,
    patch_exists: opts.patchExists ?? true,
    patch_successfully_applied: applied,
    resolved: opts.resolved ?? (applied && f2pBad === 0 && p2pBad === 0),
  };
  if (applied) {
    entry.tests_status = {
      FAIL_TO_PASS: { success: ids("test_fix", 0, f2pOk), failure: ids("test_fix", f2pOk, f2pBad) },
      PASS_TO_PASS: { success: ids("test_keep", 0, p2pOk), failure: ids("test_keep", p2pOk, p2pBad) },
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    };
  }
  if (opts.v5) entry.infra_failure = false;
  return entry;
}

export interface SyntheticInstance {
  id: string;
  /** The prediction's patch; undefined: no prediction. */
  patch?: string | null;
  report?: Record<string, unknown>;
  cost?: number;
}

/** A harness run: `logs/run_evaluation/<run>/<model>/<id>/report.json`, predictions JSONL, trajectories. */
export function writeHarnessRun(
  root: string,
  run: string,
  model: string,
  instances: readonly SyntheticInstance[],
): string {
  const preds: string[] = [];
  for (const inst of instances) {
    if (inst.patch !== undefined)
      preds.push(JSON.stringify({ instance_id: inst.id, model_name_or_path: model, model_patch: inst.patch }));
    if (inst.report)
      writeJson(join(root, "logs", "run_evaluation", run, model, inst.id, "report.json"), { [inst.id]: inst.report });
    if (inst.cost !== undefined) {
      writeJson(join(root, "logs", "run_evaluation", run, model, "trajs", `${inst.id}.traj`), {
        environment: "swe_main",
        trajectory: [],
        history: [],
        info: {
          exit_status: "submitted",
          submission: inst.patch ?? null,
          model_stats: { instance_cost: inst.cost, tokens_sent: 1000, tokens_received: 100, api_calls: 10 },
        },
      });
    }
  }
  writeText(join(root, "logs", "run_evaluation", run, model, "preds.jsonl"), preds.join("\n") + "\n");
  return join(root, "logs", "run_evaluation", run, model);
}

/** Dataset records with FAIL_TO_PASS / PASS_TO_PASS as JSON strings (as on the Hub) or lists. */
export function writeDataset(
  path: string,
  ids: readonly string[],
  extra: (id: string, i: number) => Record<string, unknown> = () => ({}),
): string {
  const lines = ids.map((id, i) =>
    JSON.stringify({
      instance_id: id,
      repo: id.replace(/__/, "/").replace(/-\d+$/, ""),
      FAIL_TO_PASS: i % 2 === 0 ? JSON.stringify(["test_fix_1"]) : ["test_fix_1"],
      PASS_TO_PASS: i % 2 === 0 ? ["test_keep_1"] : '["test_keep_1"]',
      ...extra(id, i),
    }),
  );
  return writeText(path, lines.join("\n") + "\n");
}

export const SUBSET = [
  "alpha__lib-1",
  "alpha__lib-2",
  "alpha__lib-3",
  "alpha__lib-4",
  "alpha__lib-5",
  "beta__app-6",
  "beta__app-7",
  "beta__app-8",
  "beta__app-9",
  "beta__app-10",
];

/**
 * Run A of the 10-instance subset, one instance per line:
 * - lib-1, lib-2, app-10: every test passed → resolved (3)
 * - lib-3: F2P 0 passed / 1 failed → unresolved (1)
 * - lib-4: P2P 1 passed / 1 failed → regression; app-9: P2P failing while the file says resolved: true → regression (2, 1 disagreement)
 * - lib-5: patch_successfully_applied false → not_applied (1)
 * - app-6: model_patch "" → empty_patch (1)
 * - app-7: a patch, no report → error (1)
 * - app-8: no prediction → missing (1)
 * - gamma__x-11: graded but not in the subset → outside_subset (not counted)
 * Costs on lib-1, lib-2, lib-3: 0.5, 1.0, 1.5 → mean 1.0 over 3.
 */
export function writeRunA(root: string, run = "runA", model = "sysA"): string {
  return writeHarnessRun(root, run, model, [
    { id: "alpha__lib-1", patch: "diff a", report: report({}), cost: 0.5 },
    { id: "alpha__lib-2", patch: "diff b", report: report({ v5: true }), cost: 1.0 },
    { id: "alpha__lib-3", patch: "diff c", report: report({ f2p: [0, 1] }), cost: 1.5 },
    { id: "alpha__lib-4", patch: "diff d", report: report({ p2p: [1, 1] }) },
    { id: "alpha__lib-5", patch: "diff e", report: report({ applied: false }) },
    { id: "beta__app-6", patch: "" },
    { id: "beta__app-7", patch: "diff g" },
    { id: "beta__app-9", patch: "diff i", report: report({ p2p: [1, 1], resolved: true }) },
    { id: "beta__app-10", patch: "diff j", report: report({}) },
    { id: "gamma__x-11", patch: "diff k", report: report({}) },
  ]);
}
