import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { corpusPath } from "../helpers/corpus";

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8", env: { ...process.env, ...env } });

/** The worked example of metrics.md §7 as two labelled corpus files. */
function workedExample(): { dir: string; target: string; benchmark: string } {
  const dir = mkdtempSync(join(tmpdir(), "sce-tf-cli-"));
  const target = join(dir, "target.jsonl");
  const benchmark = join(dir, "benchmark.jsonl");
  writeFileSync(
    target,
    '{"session_id":"t1","labels":["bug-fix","explain","bug-fix"]}\n{"session_id":"t2","labels":["new-feature","greeting","question","new-feature"]}\n',
  );
  writeFileSync(
    benchmark,
    '{"session_id":"b1","labels":["new-feature","new-feature","new-feature"]}\n{"session_id":"b2","labels":["bug-fix","bug-fix","explain"]}\n',
  );
  return { dir, target, benchmark };
}

test("--json prints exactly S_L, S_T, S_R, TFAS, ci, n_target, n_benchmark (the worked example)", () => {
  const { target, benchmark } = workedExample();
  const run = cli(["taskflow", target, benchmark, "--json", "--replicates", "200", "--seed", "3"]);
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(out), ["S_L", "S_T", "S_R", "TFAS", "ci", "n_target", "n_benchmark"]);
  // metrics.md §7: S_L 0.688722, S_T 0.904563, S_R 0.5, TFAS 67.7877 (worked in tfas.test.ts).
  assert.deepEqual(
    [out.S_L.toFixed(6), out.S_T.toFixed(6), out.S_R.toFixed(6), out.TFAS.toFixed(4)],
    ["0.688722", "0.904563", "0.500000", "67.7877"],
  );
  assert.deepEqual([out.n_target, out.n_benchmark], [2, 2]);
  for (const k of ["S_L", "S_T", "S_R"]) assert.ok(out.ci[k][0] >= 0 && out.ci[k][1] <= 1, k);
  assert.ok(out.ci.TFAS[0] >= 0 && out.ci.TFAS[1] <= 100);
  assert.deepEqual([out.ci.replicates, out.ci.seed, out.ci.level], [200, 3, 0.95]);
  // Only the JSON on stdout: one line.
  assert.equal(run.stdout.trim().split("\n").length, 1);
});

test("--out writes an escaped report section, chart specs and both flows; a saved flow loads back as a target", () => {
  const { dir, target, benchmark } = workedExample();
  const out = join(dir, "report");
  const run = cli([
    "taskflow",
    target,
    benchmark,
    "--out",
    out,
    "--target-name",
    "prod <b>&</b>",
    "--replicates",
    "50",
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /TFAS 67\.8/);
  for (const f of [
    "taskflow-section.html",
    "taskflow.json",
    "taskflow-target.json",
    "taskflow-benchmark.json",
    "taskflow-diagnostics.json",
  ])
    assert.ok(existsSync(join(out, f)), f);
  for (const c of ["lengths", "task-types", "transitions", "flow-target", "flow-benchmark"])
    assert.ok(existsSync(join(out, "taskflow-charts", `taskflow-${c}.vl.json`)), c);
  const html = readFileSync(join(out, "taskflow-section.html"), "utf8");
  assert.ok(html.includes("prod &lt;b&gt;&amp;&lt;/b&gt;"));
  assert.ok(!html.includes("<b>&</b>"));
  // The saved target (counts plus sequences) against the same benchmark gives the same scores.
  const again = cli(["taskflow", join(out, "taskflow-target.json"), benchmark, "--json", "--replicates", "50"]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).TFAS.toFixed(4), "67.7877");
});

test("taskflow save, then the saved flow as a target; imported labels through --classifier imported", () => {
  const { dir, benchmark } = workedExample();
  // Imported labels for the two Claude Code sessions of c6/39a44ea03d (1 and 2 prompts).
  const labels = join(dir, "labels.csv");
  writeFileSync(
    labels,
    "session_id,message_index,label\nce24e94d-ea12-40cb-9b87-ceb55770af78,0,generate-docs\nfe0cdcc5-cd91-4041-8742-e375aca7f56e,0,new-feature\nfe0cdcc5-cd91-4041-8742-e375aca7f56e,1,explain\n",
  );
  const saved = join(dir, "flow.json");
  const s = cli([
    "taskflow",
    "save",
    corpusPath("entire/entireio-cli/c6/39a44ea03d"),
    "--classifier",
    "imported",
    "--labels",
    labels,
    "--min-messages",
    "1",
    "--out",
    saved,
    "--quiet",
  ]);
  assert.equal(s.status, 0, s.stderr);
  const flow = JSON.parse(readFileSync(saved, "utf8"));
  // Two sessions, lengths 1 and 2; labels as imported.
  assert.deepEqual([flow.n_sessions, flow.lengths["1"], flow.lengths["2"]], [2, 1, 1]);
  assert.deepEqual(
    [flow.task_types["generate-docs"], flow.task_types["new-feature"], flow.task_types.explain],
    [1, 1, 1],
  );
  const r = cli(["taskflow", saved, benchmark, "--min-messages", "1", "--json", "--replicates", "20"]);
  assert.equal(r.status, 0, r.stderr);
  // Lengths {1: ½, 2: ½} vs {3: 1}: disjoint → S_L = 0 → TFAS = 0.
  assert.deepEqual([JSON.parse(r.stdout).S_L, JSON.parse(r.stdout).TFAS], [0, 0]);
});

test("taskflow label with the rules classifier writes the labelled corpus, each label with its rule", () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-tf-label-"));
  const out = join(dir, "labels.jsonl");
  const run = cli(["taskflow", "label", corpusPath("entire/entireio-cli-changelog"), "--out", out]);
  assert.equal(run.status, 0, run.stderr);
  const lines = readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  // Two CHANGELOG sessions of 4 prompts each (prompts.test.ts).
  assert.deepEqual(
    lines.map((l) => l.labels.length),
    [4, 4],
  );
  for (const l of lines) {
    assert.deepEqual(Object.keys(l), ["session_id", "labels", "rules"]);
    assert.equal(l.rules.length, l.labels.length);
  }
});

test("exit codes: 2 for usage errors, 1 when a side cannot be read", () => {
  const { target, benchmark } = workedExample();
  assert.equal(cli(["taskflow", target, benchmark, "--classifier", "magic"]).status, 2);
  assert.equal(cli(["taskflow", target, benchmark, "--classifier", "imported"]).status, 2);
  assert.equal(
    cli(["taskflow", target, benchmark, "--classifier", "llm"], {
      TASKFLOW_LLM_MODEL: undefined,
      OPENAI_MODEL: undefined,
    }).status,
    2,
  );
  assert.equal(cli(["taskflow", target, benchmark, "--min-messages", "0"]).status, 2);
  assert.equal(cli(["taskflow", target]).status, 2);
  const missing = cli(["taskflow", target, join(tmpdir(), `sce-none-${process.pid}`), "--json"]);
  assert.equal(missing.status, 1);
  assert.equal(missing.stdout, "");
  assert.match(missing.stderr, /input-missing/);
  // A target whose sessions are all shorter than --min-messages leaves nothing to compare.
  assert.equal(cli(["taskflow", target, benchmark, "--min-messages", "9"]).status, 1);
});

test("a label table alone is a corpus: SWE-chat prompt_intent rows, mapped through the approximate table", () => {
  const { dir } = workedExample();
  const table = join(dir, "swechat.csv");
  // Session s1: create new code, debug, git → new-feature, bug-fix, execute (turn numbers only order them); s2: understand → explain.
  writeFileSync(
    table,
    "session_id,turn_number,prompt_intent\ns1,0,create new code\ns1,3,debug\ns1,7,git\ns2,0,understand\n",
  );
  const run = cli(["taskflow", "save", table, "--min-messages", "1", "--out", join(dir, "f.json"), "--quiet"]);
  assert.equal(run.status, 0, run.stderr);
  const flow = JSON.parse(readFileSync(join(dir, "f.json"), "utf8"));
  assert.deepEqual([flow.lengths["3"], flow.lengths["1"]], [1, 1]);
  assert.deepEqual(
    [
      flow.task_types["new-feature"],
      flow.task_types["bug-fix"],
      flow.task_types.execute,
      flow.task_types.explain,
      flow.task_types.debug,
    ],
    [1, 1, 1, 1, 0],
  );
});
