/** `swe-chat-eval swebench` as a user runs it: the real binary, real files, its outputs and exit codes. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SWEBENCH_TABLE_COLUMNS } from "../../src/swebench";
import { report, SUBSET, tempDir, writeDataset, writeHarnessRun, writeRunA } from "./fixtures";
import { corpusPath } from "../helpers/corpus";

const cli = (args: string[]) =>
  spawnSync(process.execPath, ["bin/swe-chat-eval.js", "swebench", ...args], { encoding: "utf8" });
const CORPUS = corpusPath("swebench");

test("--json prints one object per run naming the subset, with every class's count", () => {
  const out = tempDir();
  const run = cli([CORPUS, "--subset", "verified", "--json", "--out", out, "--no-figures"]);
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split("\n");
  assert.equal(lines.length, 1);
  const obj = JSON.parse(lines[0]);
  // The four real reports: 1 resolved, 1 unresolved, 1 regression, 1 not applied; Verified's other 496 missing.
  assert.deepEqual(
    {
      run: obj.run,
      subset: obj.subset,
      total: obj.total,
      resolved: obj.resolved,
      resolve_rate: obj.resolve_rate,
      unresolved: obj.unresolved,
      regression: obj.regression,
      not_applied: obj.not_applied,
      empty_patch: obj.empty_patch,
      error: obj.error,
      missing: obj.missing,
    },
    {
      run: "swebench",
      subset: "verified",
      total: 500,
      resolved: 1,
      resolve_rate: 0.2,
      unresolved: 1,
      regression: 1,
      not_applied: 1,
      empty_patch: 0,
      error: 0,
      missing: 496,
    },
  );
  assert.equal(obj.system, "SWE-agent + Claude 3.5 Sonnet");
});

test("several runs and --compare: tables with fixed columns, comparison.json, charts and swebench.html", () => {
  const dir = tempDir();
  const a = writeRunA(dir);
  const b = writeHarnessRun(
    dir,
    "runB",
    "sysB",
    SUBSET.map((id, i) => ({ id, patch: "d", report: report(i % 2 === 0 ? {} : { f2p: [0, 1] }), cost: 0.25 })),
  );
  const dataset = writeDataset(join(dir, "ten.jsonl"), SUBSET);
  const out = join(dir, "out");
  const run = cli([
    a,
    `B system=${b}`,
    "--instances",
    dataset,
    "--compare",
    "--seed",
    "5",
    "--iterations",
    "300",
    "--out",
    out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /runA\/sysA \[sysA\]: resolved 3\/10 = 30\.0 %/);
  // B resolves the even-indexed 5 of 10.
  assert.match(run.stdout, /runB\/sysB \[B system\]: resolved 5\/10 = 50\.0 %/);
  assert.match(run.stdout, /1 instance\(s\) missing from the run count as unresolved/);
  for (const name of Object.keys(SWEBENCH_TABLE_COLUMNS) as (keyof typeof SWEBENCH_TABLE_COLUMNS)[]) {
    const header = readFileSync(join(out, `${name}.csv`), "utf8").split("\n")[0];
    assert.equal(header, (SWEBENCH_TABLE_COLUMNS[name] as readonly string[]).join(","), name);
    const rows = JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));
    if (rows.length > 0) assert.deepEqual(Object.keys(rows[0]), SWEBENCH_TABLE_COLUMNS[name]);
  }
  const runs = JSON.parse(readFileSync(join(out, "runs.json"), "utf8"));
  assert.deepEqual(
    runs.map((r: { total: number }) => r.total),
    [10, 10],
  );
  const instances = JSON.parse(readFileSync(join(out, "instances.json"), "utf8"));
  // 10 subset rows per run, plus run A's out-of-subset gamma__x-11.
  assert.equal(instances.length, 21);
  const comparison = JSON.parse(readFileSync(join(out, "comparison.json"), "utf8"));
  // Both attempted: A's 9 (app-8 missing) ∩ B's 10 = 9. A resolved lib-1, lib-2, app-10; B resolved the even-indexed
  // lib-1, lib-3, lib-5, app-7, app-9. Both: lib-1; A only: lib-2, app-10; B only: lib-3, lib-5, app-7, app-9; neither: lib-4, app-6.
  assert.deepEqual(
    [comparison.n, comparison.both, comparison.a_only, comparison.b_only, comparison.neither],
    [9, 1, 2, 4, 2],
  );
  assert.equal(comparison.seed, 5);
  assert.equal(comparison.swebench_format_version, 1);
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  assert.equal(manifest.swebench_format_version, 1);
  assert.equal(manifest.subset.size, 10);
  for (const f of [
    "swebench.html",
    "charts/resolve-vs-cost.vl.json",
    "figures/resolve-vs-cost.svg",
    "figures/classes.svg",
    "figures/compare-by-repo.svg",
  ])
    assert.ok(existsSync(join(out, f)), f);
  const html = readFileSync(join(out, "swebench.html"), "utf8");
  assert.match(html, /exact McNemar p = /);
  assert.doesNotMatch(html, /https?:\/\/(?!vega\.github\.io\/schema)/, "the page loads nothing from the network");
  // Same seed, same interval: a second run writes the same comparison.
  const again = cli([
    a,
    `B system=${b}`,
    "--instances",
    dataset,
    "--compare",
    "--seed",
    "5",
    "--iterations",
    "300",
    "--out",
    join(dir, "out2"),
    "-q",
    "--no-figures",
  ]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stdout, "");
  assert.deepEqual(
    JSON.parse(readFileSync(join(dir, "out2", "comparison.json"), "utf8")).interval,
    comparison.interval,
  );
});

test("exit codes: 2 for usage errors, 1 when nothing could be read", () => {
  assert.equal(cli(["--seed", "x"]).status, 2, "a bad option");
  assert.equal(cli([CORPUS, "--subset", "nonesuch"]).status, 2);
  const one = cli([CORPUS, "--compare", "--no-figures", "--out", tempDir()]);
  assert.equal(one.status, 2, "--compare needs two runs");
  assert.match(one.stderr, /needs exactly two runs; there are 1/);
  assert.equal(cli([CORPUS, "--compare", "swebench,nonesuch", "--no-figures", "--out", tempDir()]).status, 2);
  const nothing = cli([join(tempDir(), "missing"), "--out", tempDir()]);
  assert.equal(nothing.status, 1);
  assert.match(nothing.stderr, /no SWE-bench file could be read/);
});

test("with no run, the bundled synthetic sample runs are graded: every class counted, totals add up to the subset", () => {
  const run = cli(["--json", "--out", tempDir(), "--no-figures"]);
  assert.equal(run.status, 0, run.stderr);
  const rows = run.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  // Two runs of "luna" and one of "terra" (src/sample/swebench.ts), each over the same 30 instances.
  assert.deepEqual(
    rows.map((r) => [r.run, r.subset, r.total]),
    [
      ["run-1/luna", "sample-30", 30],
      ["run-1/terra", "sample-30", 30],
      ["run-2/luna", "sample-30", 30],
    ],
  );
  for (const r of rows) {
    const classes = r.resolved + r.unresolved + r.regression + r.not_applied + r.empty_patch + r.error + r.missing;
    assert.equal(classes, r.total, r.run);
    assert.equal(r.resolve_rate, (100 * r.resolved) / r.total);
  }
});
