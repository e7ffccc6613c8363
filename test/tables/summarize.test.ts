import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionRow, UnitRow } from "../../src/model";
import { bootstrapInterval, quantileSorted, summarizeUnits, toTables } from "../../src/tables";
import { tableEqual } from "../helpers/table-equal";

const unit = (
  session: string,
  produced: number,
  final: number,
  survived: number,
  committed: number,
  ambiguity: UnitRow["ambiguity"] = null,
): UnitRow => ({
  session_id: session,
  commit_sha: `c-${session}-${committed}`,
  checkpoint_id: null,
  repo: "r",
  agent: "Claude Code",
  model: session === "s3" ? "opus" : "sonnet",
  method: "git-replay",
  ambiguity,
  agent_lines_produced: produced,
  agent_lines_final: final,
  agent_lines_survived: survived,
  human_lines: committed - survived,
  outside_lines: 0,
  total_committed_lines: committed,
  numstat_additions: committed,
  code_survival_rate: final ? (100 * survived) / final : null,
  coding_efficiency: produced ? (100 * survived) / produced : null,
  agent_authored_pct: committed ? (100 * survived) / committed : null,
  coding_mode: null,
  unreplayable_calls: 0,
  outside_changes: 0,
  entire_agent_lines: null,
  entire_total_committed: null,
  entire_agent_percentage: null,
});
const session = (id: string, cost: number, active: number, tokens: number): SessionRow => ({
  session_id: id,
  source: "claude-code",
  agent: "Claude Code",
  model: null,
  models: "",
  repo: "r",
  branch: null,
  started_at: null,
  ended_at: null,
  duration_s: active,
  active_s: active,
  prompts: 1,
  length_bin: "1",
  tool_calls: 0,
  edit_calls: 0,
  failed_edit_calls: 0,
  input_tokens: tokens,
  output_tokens: 0,
  cache_creation_tokens: 0,
  cache_read_tokens: 0,
  api_calls: 1,
  cost_usd: cost,
});

test("pooled ratios, per-unit mean and median, effort per line; ambiguous units left out", () => {
  // s1: final 10, survived 5, produced 20, committed 10; s2: final 30, survived 30, produced 30, committed 40;
  // s3: ambiguous (left out). Pooled survival = (5 + 30) / (10 + 30) = 87.5 %;
  // efficiency = 35 / 50 = 70 %; authored = 35 / 50 = 70 %. Per-unit survival 50 and 100: mean 75, median 75.
  // Effort: tokens (1000 + 3000) / 50 lines = 80; cost (2 + 3) / 50 = 0.1 $/line; active (100 + 400) / 50 = 10 s/line.
  const units = [unit("s1", 20, 10, 5, 10), unit("s2", 30, 30, 30, 40), unit("s3", 5, 5, 5, 5, "merge-commit")];
  const sessions = [session("s1", 2, 100, 1000), session("s2", 3, 400, 3000), session("s3", 9, 9, 9)];
  const [all] = summarizeUnits(units, sessions);
  assert.equal(all.units, 2);
  assert.equal(all.sessions, 2);
  assert.equal(all.ratios.code_survival_rate.pooled, 87.5);
  assert.equal(all.ratios.coding_efficiency.pooled, 70);
  assert.equal(all.ratios.agent_authored_pct.pooled, 70);
  assert.equal(all.ratios.code_survival_rate.mean, 75);
  assert.equal(all.ratios.code_survival_rate.median, 75);
  assert.deepEqual([all.tokens_per_line, all.cost_per_line, all.active_s_per_line], [80, 0.1, 10]);
  // The interval lies within the range of the two sessions' own ratios, and a rerun gives the same one.
  const ci = all.ratios.code_survival_rate;
  assert.ok(ci.ci_low! >= 50 && ci.ci_high! <= 100 && ci.ci_low! <= 87.5 && ci.ci_high! >= 87.5);
  assert.deepEqual(summarizeUnits(units, sessions)[0].ratios, all.ratios);
});

test("slices are sorted and named; a seed changes resamples, not the pooled figure", () => {
  const units = [unit("s1", 20, 10, 5, 10), unit("s2", 30, 30, 30, 40), unit("s3", 4, 4, 2, 4)];
  const slices = summarizeUnits(units, [], (u) => u.model);
  assert.deepEqual(
    slices.map((s) => [s.slice, s.units]),
    [
      ["opus", 1],
      ["sonnet", 2],
    ],
  );
  assert.equal(slices[0].ratios.code_survival_rate.pooled, 50);
  // One session in a slice: every resample is that session, so the interval collapses to the pooled value.
  assert.deepEqual([slices[0].ratios.code_survival_rate.ci_low, slices[0].ratios.code_survival_rate.ci_high], [50, 50]);
});

test("bootstrap and quantiles", () => {
  // Type-7 quantile of 1..5 at 0.25: h = 4 · 0.25 = 1 → 2; at 0.1: h = 0.4 → 1 + 0.4 · (2 − 1) = 1.4.
  assert.equal(quantileSorted([1, 2, 3, 4, 5], 0.25), 2);
  assert.ok(Math.abs(quantileSorted([1, 2, 3, 4, 5], 0.1) - 1.4) < 1e-12);
  const a = bootstrapInterval([1, 2, 3, 4], (s) => s.reduce((x, y) => x + y, 0) / s.length, {
    seed: 3,
    iterations: 500,
  });
  const b = bootstrapInterval([1, 2, 3, 4], (s) => s.reduce((x, y) => x + y, 0) / s.length, {
    seed: 3,
    iterations: 500,
  });
  assert.deepEqual(a, b);
  assert.equal(
    bootstrapInterval([], () => 1),
    null,
  );
});

test("toTables keeps the contract's columns even for empty tables", () => {
  const t = toTables({
    units: [],
    sessions: [],
    tool_calls: [
      {
        session_id: "s",
        seq: 0,
        tool: "Read",
        category: "read",
        file: null,
        success: true,
        lines_added: null,
        lines_removed: null,
        timestamp: null,
      },
    ],
    diagnostics: [],
  });
  assert.equal(t.units.numCols(), 24);
  assert.equal(t.units.numRows(), 0);
  tableEqual(t.tool_calls, { tool: ["Read"], category: ["read"], success: [true] });
});
