/**
 * The chart builders are pure and their specs are valid Vega-Lite: each one
 * compiles and renders to SVG in Node. Every chart names its subset and
 * denominator. The report section escapes what the data says.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  CLASS_COLORS,
  classCountsSpec,
  compareByRepoSpec,
  compareRuns,
  INSTANCE_CLASSES,
  type InstanceRow,
  resolveRateSpec,
  resolveVsCostSpec,
  type RunRow,
  type SystemRow,
} from "../../src/swebench";
import { renderSvg } from "../../src/swebench/render-svg";
import { renderSwebenchSection, scriptJson } from "../../src/swebench/to-html";

const system = (name: string, rate: [number, number, number], cost: [number, number, number] | null): SystemRow => ({
  system: name,
  subset: "verified",
  total: 500,
  runs: 3,
  mean_resolve_rate: rate[0],
  min_resolve_rate: rate[1],
  max_resolve_rate: rate[2],
  mean_cost_usd: cost?.[0] ?? null,
  min_cost_usd: cost?.[1] ?? null,
  max_cost_usd: cost?.[2] ?? null,
  cost_runs: cost ? 3 : 0,
  run_names: "a;b;c",
});

const run = (name: string, sys: string, resolved: number): RunRow => ({
  run: name,
  system: sys,
  subset: "verified",
  subset_label: "SWE-bench Verified",
  subset_source: "--subset verified",
  total: 500,
  resolved,
  resolve_rate: (100 * resolved) / 500,
  unresolved: 500 - resolved - 10,
  regression: 4,
  not_applied: 2,
  empty_patch: 1,
  error: 1,
  missing: 2,
  unlisted: 2,
  outside_subset: 0,
  disagreements: 0,
  harness: "harness report.json",
  cost_instances: 0,
  total_cost_usd: null,
  mean_cost_usd: null,
  tokens_sent: null,
  tokens_received: null,
  api_calls: null,
  path: "/x",
});

const subset = { label: "SWE-bench Verified", total: 500 };
const systems = [
  system("Luna", [60, 58.2, 61.4], [0.28, 0.26, 0.3]),
  system("Terra", [65, 64, 66.2], [0.56, 0.5, 0.6]),
  system("NoCost", [40, 40, 40], null),
];

test("resolve rate vs mean cost: systems with a cost, min–max whiskers, subset and n in the subtitle", async () => {
  const spec = resolveVsCostSpec(systems, subset);
  const title = spec.title as { subtitle: string[] };
  assert.equal(title.subtitle[0], "SWE-bench Verified, n = 500; mean of runs, whiskers min–max");
  assert.equal(title.subtitle[1], "not shown (no cost recorded): NoCost");
  assert.deepEqual(
    (spec.data as { values: SystemRow[] }).values.map((v) => v.system),
    ["Luna", "Terra"],
  );
  const r = await renderSvg(spec);
  assert.equal(r.error, null);
  assert.deepEqual(r.warnings, []);
  assert.match(r.svg!, /^<svg/);
  assert.match(r.svg!, /Luna/);
});

test("every spec compiles and renders", async () => {
  const runs = [run("r1", "Luna", 290), run("r2", "Luna", 300), run("r3", "Terra", 325)];
  const rows = (name: string, resolvedIds: string[]): InstanceRow[] =>
    ["django__django-1", "django__django-2", "sympy__sympy-3"].map((id) => ({
      run: name,
      system: name,
      subset: "verified",
      instance_id: id,
      repo: id.split("__")[0] + "/" + id.split("__")[0],
      difficulty: null,
      in_subset: true,
      class: resolvedIds.includes(id) ? "resolved" : "unresolved",
      resolved: resolvedIds.includes(id),
      reported_resolved: null,
      disagrees: null,
      graded_by: "report",
      patch: "present",
      f2p_passed: null,
      f2p_failed: null,
      p2p_passed: null,
      p2p_failed: null,
      unreported_tests: null,
      infra_failure_reason: null,
      cost_usd: null,
      tokens_sent: null,
      tokens_received: null,
      api_calls: null,
      exit_status: null,
    }));
  const comparison = compareRuns(rows("A", ["django__django-1"]), rows("B", ["django__django-2", "sympy__sympy-3"]));
  const specs = [resolveRateSpec(systems, runs, subset), classCountsSpec(runs, subset), compareByRepoSpec(comparison)];
  for (const spec of specs) {
    const r = await renderSvg(spec);
    assert.equal(r.error, null, JSON.stringify(spec.title));
    assert.deepEqual(r.warnings, [], JSON.stringify(spec.title));
    assert.match(r.svg!, /<svg/);
  }
  // The class chart's colour scale lists every class in order, with fixed colours.
  const color = (
    (specs[1].encoding as Record<string, unknown>).color as { scale: { domain: string[]; range: string[] } }
  ).scale;
  assert.deepEqual(color.domain, [...INSTANCE_CLASSES]);
  assert.equal(color.range[0], CLASS_COLORS.resolved);
  // Per run, the class counts add up to the subset size (500).
  const values = (specs[1].data as { values: { run: string; count: number }[] }).values;
  assert.equal(
    values.filter((v) => v.run === "r1").reduce((s, v) => s + v.count, 0),
    500,
  );
});

test("the report section escapes names and inlines specs that cannot close their script", () => {
  const evil = "<script>alert(1)</script>";
  const runs = [run("r1", evil, 100)];
  const html = renderSwebenchSection({
    subset: { name: "verified", label: "SWE-bench Verified", size: 500, ids: null, source: "--subset verified" },
    runs,
    systems: [system(evil, [20, 20, 20], [0.1, 0.1, 0.1])],
    instances: [],
    charts: [
      { name: "c", title: evil, spec: resolveVsCostSpec([system(evil, [20, 20, 20], [0.1, 0.1, 0.1])], subset) },
    ],
    diagnostics: [],
  });
  assert.doesNotMatch(html, /<script>alert/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  // Inside the JSON spec `<` is \u003c, so `</script>` never appears in it.
  const inlined = html.match(/<script type="application\/json"[^>]*>([\s\S]*?)<\/script>/)![1];
  assert.doesNotMatch(inlined, /</);
  assert.equal(JSON.parse(inlined).data.values[0].system, evil);
  assert.equal(scriptJson("a\u2028b</"), '"a\\u2028b\\u003c/"');
  // The missing instances are said to count as unresolved.
  assert.match(html, /missing from a run count as unresolved/);
});
