/**
 * The figures inside the chart specs, worked out by hand from the rows of
 * ./fixture.ts (its table is repeated in the comments here).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  agentAuthoredHistogram,
  boxStats,
  effortByMode,
  formatCount,
  formatNumber,
  headlineSubset,
  modeShareOverTime,
  ratiosBySlice,
  sessionCostDistribution,
  sessionModes,
  slicing,
  toolCategoryTable,
  wrapText,
} from "../../src/charts";
import { summarizeUnits as summarizeSlices } from "../../src/tables";
import { chartFixture } from "./fixture";

const rows = chartFixture();
type Values = Record<string, unknown>[];
const dataOf = (spec: Record<string, unknown>, layer?: number): Values => {
  const s = (layer === undefined ? spec : (spec.layer as Record<string, unknown>[])[layer]) as {
    data: { values: Values };
  };
  return s.data.values;
};

test("headline subset: 7 unambiguous units from 6 sessions; 2 excluded, one per reason", () => {
  // u6 multi-session-checkpoint, u7 transcript-missing; the other 7 units come from s1, s2, s3, s4 (two), s7, s8.
  assert.deepEqual(headlineSubset(rows.units), {
    units: 7,
    sessions: 6,
    excluded: [
      { reason: "multi-session-checkpoint", units: 1 },
      { reason: "transcript-missing", units: 1 },
    ],
  });
});

test("histogram: bins of 5 points stacked by mode; shares of units in the legend", () => {
  // authored %: u1 100, u2 50, u3 0, u4 100, u5 90, u8 100, u9 50.
  // 0 → bin [0,5) human-only; 50, 50 → [50,55) collaborative ×2; 90 → [90,95) collaborative; 100 ×3 → last bin [95,100] vibe.
  const chart = agentAuthoredHistogram(rows.units);
  assert.deepEqual(
    dataOf(chart.spec, 0).map((v) => [v.bin_start, v.mode, v.units]),
    [
      [0, "human-only", 1],
      [50, "collaborative", 2],
      [90, "collaborative", 1],
      [95, "vibe", 3],
    ],
  );
  // Shares: human-only 1/7 = 14.3 %, collaborative 3/7 = 42.9 %, vibe 3/7 = 42.9 %.
  const legend = JSON.stringify(chart.spec);
  assert.ok(
    legend.includes("human-only 14.3 %") && legend.includes("collaborative 42.9 %") && legend.includes("vibe 42.9 %"),
  );
});

test("histogram: 99 % is vibe and 98.9 % collaborative, both in the last bin, stacked", () => {
  const u = rows.units[0];
  const chart = agentAuthoredHistogram([
    { ...u, session_id: "x1", agent_authored_pct: 99 },
    { ...u, session_id: "x2", agent_authored_pct: 98.9 },
  ]);
  assert.deepEqual(
    dataOf(chart.spec, 0).map((v) => [v.bin_start, v.mode, v.y0, v.y1]),
    [
      [95, "collaborative", 0, 1],
      [95, "vibe", 1, 2],
    ],
  );
});

test("ratios by model: pooled per slice, slices by units, n on every bar", () => {
  const s = slicing("model", rows.units, rows.sessions);
  // Headline units per model: sonnet u3, u4, u5 (3); opus u1, u2 (2); (unknown) u8 (1); haiku u9 (1); ties by name.
  assert.deepEqual(s.order, [
    "claude-sonnet-4-5-20250929",
    "claude-opus-4-6",
    "(unknown)",
    "claude-haiku-4-5-20251001",
  ]);
  const chart = ratiosBySlice(
    summarizeSlices(rows.units, rows.sessions, s.sliceOf, { iterations: 50 }),
    s,
    headlineSubset(rows.units),
  );
  const survival = dataOf(chart.spec).filter((v) => v.metric === "survival rate %");
  // sonnet: Σ survived 0+25+9 = 34 over Σ final 5+25+10 = 40 → 85 %; opus: (10+8)/(10+16) = 69.23 %.
  assert.deepEqual(
    survival.map((v) => [v.slice, v.n_label]),
    [
      ["claude-sonnet-4-5-20250929", "n=3"],
      ["claude-opus-4-6", "n=2"],
      ["(unknown)", "n=1"],
      ["claude-haiku-4-5-20251001", "n=1"],
    ],
  );
  assert.equal(survival[0].pooled, 85);
  assert.ok(Math.abs((survival[1].pooled as number) - (100 * 18) / 26) < 1e-9);
  // Efficiency for sonnet: 34 / (5+30+10) = 75.56 %; agent-authored: 34 / (12+25+10) = 72.34 %.
  const sonnet = dataOf(chart.spec).filter((v) => v.slice === "claude-sonnet-4-5-20250929");
  assert.ok(Math.abs((sonnet[1].pooled as number) - (100 * 34) / 45) < 1e-9);
  assert.ok(Math.abs((sonnet[2].pooled as number) - (100 * 34) / 47) < 1e-9);
});

test("repositories: the top N are kept and the rest pooled, but one name is never folded alone", () => {
  // Headline units per repo: acme/web 4 (u1, u2, u4, u5), acme/api 2 (u3, u8), other/x 1 (u9).
  const top1 = slicing("repo", rows.units, rows.sessions, 1);
  assert.deepEqual(top1.order, ["acme/web", "other (2 repositories)"]);
  assert.deepEqual(top1.folded, ["acme/api", "other/x"]);
  assert.equal(top1.sliceOf(rows.units[8]), "other (2 repositories)");
  const top2 = slicing("repo", rows.units, rows.sessions, 2);
  assert.deepEqual(top2.order, ["acme/web", "acme/api", "other/x"]);
  assert.deepEqual(top2.folded, []);
});

test("session-length bins come in their natural order, from the session rows", () => {
  const s = slicing("length_bin", rows.units, rows.sessions);
  assert.deepEqual(s.order.slice(0, 8), ["0", "1", "2", "3", "4", "5", "6-10", "11+"]);
  // u8 belongs to s7 (12 prompts → "11+"); u7's session s6 has no row → "(unknown)".
  assert.equal(s.sliceOf(rows.units[7]), "11+");
  assert.equal(s.sliceOf(rows.units[6]), "(unknown)");
});

test("effort by mode: the mode's sessions' totals over its committed lines", () => {
  const byMode = summarizeSlices(rows.units, rows.sessions, (u) => u.coding_mode, { iterations: 10 });
  const chart = effortByMode(byMode, headlineSubset(rows.units));
  const human = dataOf(chart.spec).filter((v) => v.mode === "human-only");
  // human-only: only u3 (session s3, k = 3): 3000 tokens, $0.60, 60 s active over 12 committed lines → 250, 0.05, 5.
  assert.deepEqual(
    human.map((v) => v.metric),
    ["tokens / line", "US$ / line", "active s / line"],
  );
  assert.equal(human[0].value, 250);
  assert.ok(Math.abs((human[1].value as number) - 0.05) < 1e-12);
  assert.equal(human[2].value, 5);
  // vibe: u1 (s1), u4 (s4), u8 (s7); s4's tokens count once although u5 is collaborative: (1+4+7)·1000 / (10+25+8).
  const vibe = dataOf(chart.spec).filter((v) => v.mode === "vibe");
  assert.ok(Math.abs((vibe[0].value as number) - 12000 / 43) < 1e-9);
});

test("rolling 14-day mode share, by the session's start day", () => {
  // Session modes (pooled): s1 vibe (01-01), s2 collaborative 8/16 (01-03), s3 human-only (01-05),
  // s4 collaborative 34/35 = 97.1 % (01-10), s7 vibe (01-20), s8 collaborative (01-20); s5 has only an ambiguous unit.
  assert.deepEqual(
    sessionModes(rows.units, rows.sessions).map((m) => `${m.session_id} ${m.day} ${m.mode}`),
    [
      "s1 2026-01-01 vibe",
      "s2 2026-01-03 collaborative",
      "s3 2026-01-05 human-only",
      "s4 2026-01-10 collaborative",
      "s7 2026-01-20 vibe",
      "s8 2026-01-20 collaborative",
    ],
  );
  const values = dataOf(modeShareOverTime(rows.units, rows.sessions).spec);
  const at = (day: string) =>
    Object.fromEntries(
      values.filter((v) => v.day === day).map((v) => [v.mode, Math.round((v.share as number) * 100) / 100]),
    );
  // One point per day from 01-01 to 01-20: 20 days × 3 modes.
  assert.equal(values.length, 60);
  // 01-14: window 01-01..01-14 holds s1 vibe, s2 and s4 collaborative, s3 human-only → 25 / 50 / 25.
  assert.deepEqual(at("2026-01-14"), { "human-only": 25, collaborative: 50, vibe: 25 });
  // 01-15: s1 (01-01) has left the window → s2, s4 collaborative, s3 human-only.
  assert.deepEqual(at("2026-01-15"), { "human-only": 33.33, collaborative: 66.67, vibe: 0 });
  // 01-20: window 01-07..01-20 holds s4 and s8 collaborative, s7 vibe.
  assert.deepEqual(at("2026-01-20"), { "human-only": 0, collaborative: 66.67, vibe: 33.33 });
});

test("box statistics: type-7 quartiles and Tukey whiskers", () => {
  // [1, 2, 3, 4, 100]: q1 = 2, median 3, q3 = 4; IQR 2, fences -1 and 7 → whiskers 1 and 4 (100 is an outlier).
  assert.deepEqual(boxStats("g", [100, 3, 1, 4, 2]), { group: "g", n: 5, q1: 2, median: 3, q3: 4, lo: 1, hi: 4 });
});

test("cost distribution leaves out unknown and zero costs, and says how many", () => {
  const sessions = [
    ...rows.sessions,
    { ...rows.sessions[0], session_id: "z", cost_usd: 0 },
    { ...rows.sessions[0], session_id: "n", cost_usd: null },
  ];
  const chart = sessionCostDistribution(sessions);
  assert.match(chart.caption, /7 sessions of 9; left out: 1 with unknown cost \(unpriced model\), 1 with zero cost/);
});

test("tool categories: calls, shares, failures, most calls first", () => {
  // 12 calls: edit 5 (one failed), read 4, bash:build 2, grep 1.
  const table = toolCategoryTable(rows.tool_calls);
  assert.deepEqual(
    table.map((r) => [r.category, r.calls, Math.round(r.share * 100) / 100, r.failed, r.sessions]),
    [
      ["edit", 5, 41.67, 1, 4],
      ["read", 4, 33.33, 0, 4],
      ["bash:build", 2, 16.67, 0, 2],
      ["grep", 1, 8.33, 0, 1],
    ],
  );
});

test("formatting never depends on the locale", () => {
  assert.equal(formatCount(1234567), "1,234,567");
  assert.equal(formatCount(999), "999");
  assert.equal(formatNumber(1234.5), "1,235");
  assert.equal(formatNumber(12.34), "12.3");
  assert.equal(formatNumber(0.01234), "0.0123");
  assert.deepEqual(wrapText("aa bb cc", 5), ["aa bb", "cc"]);
});

test("with no rows at all every chart still compiles without a warning and draws its message", async () => {
  const { buildCharts, summarize } = await import("../../src/report");
  const { compileToVega, renderSvg } = await import("../../src/charts");
  const empty = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  const charts = buildCharts(empty, summarize(empty, { iterations: 10 }));
  assert.equal(charts.length, 10);
  for (const c of charts) {
    const warnings: string[] = [];
    await compileToVega(c.spec, { onWarning: (m) => warnings.push(m) });
    const svg = await renderSvg(c.spec, { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(warnings, [], c.name);
    assert.match(svg, /No (unambiguous unit|session|tool call)/, c.name);
  }
});
