/**
 * The SWE-chat paper's figures on the bundled sample's SWE-chat tables (src/sample/swe-chat, labels given by hand in
 * labels.ts): the figures in the paper's order, values worked from the labels, and every chart compiles and renders
 * without a Vega warning.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeSwechatDataset } from "../../src/analyze/analyze-swechat";
import { renderSvg } from "../../src/charts";
import type { AnalysisRows } from "../../src/model";
import { figureLine, hasSwechatLabels, swechatPaperFigures } from "../../src/report";
import { ensureSampleCorpus } from "../../src/sample";

test("SWE-chat's figures on the sample: published · here (n), in the paper's order, charts render", async () => {
  const corpus = await ensureSampleCorpus();
  const rows: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  await analyzeSwechatDataset(corpus.sweChatDir, { idleLimitS: 300, threads: 1 }, rows);
  assert.equal(hasSwechatLabels(rows), true);
  const figures = swechatPaperFigures(rows);
  assert.deepEqual(
    figures.map((f) => f.id),
    ["modes", "survival", "effort", "rolling", "tools", "intents", "pushback", "clarification", "personas", "success"],
  );
  const lineOf = (id: string, what: string) =>
    figureLine(figures.find((f) => f.id === id)!.lines.find((l) => l.what.startsWith(what))!);
  // success (labels.ts): 13 scored sessions with a transcript, 45 (s07b) and 30 (s11) below 50 → 11 / 13 = 84.6 %.
  assert.equal(
    lineOf("success", "sessions with"),
    "sessions with session_success ≥ 50: published 87.5 % · here 84.6 % (n = 13)",
  );
  // pushback: s02 #1 correction, s04 #1 requirement_change, s12 #1 correction → 3 of 18 prompts = 16.7 %.
  assert.equal(
    lineOf("pushback", "prompts that push back, dataset"),
    "prompts that push back, dataset's labels: published 44 % · here 16.7 % (n = 18)",
  );
  // intents: no prompt is labelled "understand".
  assert.equal(lineOf("intents", '"understand"'), '"understand": published 19.0 % · here 0.0 % (n = 18)');
  // Entire's %: no session of the sample is human-only (each commit holds agent lines).
  assert.equal(
    lineOf("modes", "human-only sessions (0 %), Entire"),
    "human-only sessions (0 %), Entire's %: published 23 % · here 0.0 % (n = 13)",
  );
  for (const f of figures) {
    assert.ok(f.lines.length > 0, f.id);
    for (const chart of f.charts) {
      const warnings: string[] = [];
      const svg = await renderSvg(chart.spec, { onWarning: (m) => warnings.push(m) });
      assert.deepEqual(warnings, [], chart.name);
      assert.match(svg, /<svg/);
    }
  }
  assert.equal(
    hasSwechatLabels({
      units: rows.units,
      sessions: rows.sessions.map((s) => ({
        ...s,
        user_persona: null,
        session_success: null,
        entire_agent_percentage: null,
      })),
      tool_calls: [],
    }),
    false,
  );
});
