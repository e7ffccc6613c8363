/**
 * One snapshot per chart for the fixed input of ./fixture.ts (Observable
 * Plot's idiom): a change to any spec shows up as a `.changed.vl.json` file
 * to review. Each spec must also compile with vega-lite without a warning,
 * and render to an SVG that holds marks.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Chart, compileToVega, renderSvg } from "../../src/charts";
import { buildCharts, summarize } from "../../src/report";
import { chartFixture } from "./fixture";
import { assertSnapshot } from "./snapshot";

const rows = chartFixture();
const summaries = summarize(rows, { seed: 1, iterations: 200, topN: 10 });
const charts: Chart[] = buildCharts(rows, summaries, { seed: 1, iterations: 200 });

test("the report builds the ten charts, with unique file-safe names", () => {
  assert.deepEqual(
    charts.map((c) => c.name),
    [
      "agent-authored-histogram",
      "ratios-by-model",
      "ratios-by-agent",
      "ratios-by-repo",
      "ratios-by-length-bin",
      "effort-by-mode",
      "mode-share-rolling",
      "session-survival-distribution",
      "session-cost-distribution",
      "tool-categories",
    ],
  );
  for (const c of charts) assert.match(c.name, /^[a-z0-9-]+$/);
});

for (const chart of charts) {
  test(`${chart.name}: spec matches its snapshot`, () => assertSnapshot(chart.name, chart.spec));

  test(`${chart.name}: title, axis titles, a caption with counts and exclusions, and a clean compile`, async () => {
    const spec = chart.spec as { title: { text: string; subtitle: string[] }; description: string };
    assert.equal(spec.title.text, chart.title);
    assert.equal(spec.title.subtitle.join(" "), chart.caption);
    // Every caption names how many units, sessions or calls it shows.
    assert.match(chart.caption, /\d+ (unambiguous units|sessions?|calls)/);
    if (chart.name !== "tool-categories" && chart.name !== "session-cost-distribution")
      assert.match(chart.caption, /Excluded: 2 units \(multi-session-checkpoint 1, transcript-missing 1\)/);
    const warnings: string[] = [];
    await compileToVega(chart.spec, { onWarning: (m) => warnings.push(m) });
    assert.deepEqual(warnings, []);
  });

  test(`${chart.name}: renders to an SVG with marks`, async () => {
    const svg = await renderSvg(chart.spec);
    assert.match(svg, /^<svg /);
    assert.match(svg, /class="mark-(rect|line|symbol|rule|tick|text)/);
    assert.ok(svg.includes(chart.title), "the title is drawn");
  });
}
