import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { seededRandom } from "../model/seeded-random";

/** Where the sample runs are: the harness `logs/run_evaluation/...` tree and the 30-instance list that fixes the subset. */
export interface SampleSwebenchRuns {
  runs: string;
  instances: string;
}

export const defaultSwebenchSampleDir = (): string => join(tmpdir(), "swe-chat-eval-swebench-sample-1");

/**
 * Writes seeded synthetic SWE-bench runs in the harness layout: 30 instances
 * of three repositories and three difficulties, two runs of system "luna" and
 * one of "terra", with every class of the strict rule present (resolved,
 * unresolved, regression, not applied, empty patch, missing), predictions and
 * trajectories with costs. Used by `swe-chat-eval swebench` with no RUN and by
 * notebooks/05-swebench.ipynb. Deterministic: the same files every time.
 */
export function writeSampleSwebenchRuns(root: string): SampleSwebenchRuns {
  rmSync(root, { recursive: true, force: true });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const repos = ["astro__kit", "pallet__flow", "tidy__frames"];
  const difficulties = ["<15 min fix", "15 min - 1 hour", "1-4 hours"];
  const ids = Array.from({ length: 30 }, (_, i) => `${repos[i % 3]}-${1000 + i}`);
  const instances = join(root, "sample-30.jsonl");
  const runs = join(root, "runs");
  write(
    instances,
    ids
      .map((id, i) =>
        JSON.stringify({
          instance_id: id,
          repo: id.replace("__", "/").replace(/-\d+$/, ""),
          difficulty: difficulties[i % 3],
          FAIL_TO_PASS: ["test_fix"],
          PASS_TO_PASS: ["test_keep"],
        }),
      )
      .join("\n") + "\n",
  );
  const tests = (fixOk: boolean, keepOk: boolean) => ({
    FAIL_TO_PASS: { success: fixOk ? ["test_fix"] : [], failure: fixOk ? [] : ["test_fix"] },
    PASS_TO_PASS: { success: keepOk ? ["test_keep"] : [], failure: keepOk ? [] : ["test_keep"] },
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  });
  const systems = [
    { run: "run-1", model: "luna", seed: 11, skill: 0.6, cost: [0.8, 1.6] },
    { run: "run-2", model: "luna", seed: 12, skill: 0.6, cost: [0.8, 1.6] },
    { run: "run-1", model: "terra", seed: 13, skill: 0.4, cost: [0.2, 0.6] },
  ];
  for (const s of systems) {
    const random = seededRandom(s.seed);
    const dir = join(runs, "logs", "run_evaluation", s.run, s.model);
    const preds: string[] = [];
    ids.forEach((id, i) => {
      // Harder instances (difficulty index 0..2) are less often resolved.
      const r = random() + 0.1 * (i % 3);
      const cost = s.cost[0] + random() * (s.cost[1] - s.cost[0]);
      if (r > 1.05) return; // never submitted: missing
      const empty = r > 0.98;
      preds.push(
        JSON.stringify({
          instance_id: id,
          model_name_or_path: s.model,
          model_patch: empty ? "" : `diff --git a/${id} b/${id}`,
        }),
      );
      write(
        join(dir, "trajs", `${id}.traj`),
        JSON.stringify({
          trajectory: [],
          info: {
            exit_status: "submitted",
            model_stats: {
              instance_cost: Math.round(cost * 1000) / 1000,
              tokens_sent: 150000,
              tokens_received: 4000,
              api_calls: 30,
            },
          },
        }),
      );
      if (empty) return;
      const applied = r < 0.93;
      const entry = applied
        ? {
            patch_is_None: false,
            patch_exists: true,
            patch_successfully_applied: true,
            resolved: r < s.skill,
            tests_status: tests(r < s.skill || r > 0.88, r < 0.88),
          }
        : { patch_is_None: false, patch_exists: true, patch_successfully_applied: false, resolved: false };
      write(join(dir, id, "report.json"), JSON.stringify({ [id]: entry }));
    });
    write(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
  }
  return { runs, instances };
}
