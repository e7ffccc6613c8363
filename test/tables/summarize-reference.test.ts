/**
 * The fast `summarizeUnits` must give exactly the figures of the
 * straightforward implementation of metrics.md §6 (test/helpers); only the
 * speed differs.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { slicing } from "../../src/charts";
import { referenceSummarizeUnits } from "../helpers/reference-summarize";
import { seededRandom, summarizeUnits } from "../../src/tables";
import type { SessionRow, UnitRow } from "../../src/model";
import { chartFixture } from "../charts/fixture";

test("identical to the reference on the fixture, for every slicing and two seeds", () => {
  const rows = chartFixture();
  for (const dimension of ["model", "agent", "repo", "length_bin", "coding_mode"] as const) {
    const s = slicing(dimension, rows.units, rows.sessions, 2);
    for (const seed of [1, 7]) {
      assert.deepEqual(
        summarizeUnits(rows.units, rows.sessions, s.sliceOf, { seed, iterations: 300 }),
        referenceSummarizeUnits(rows.units, rows.sessions, s.sliceOf, { seed, iterations: 300 }),
        `${dimension} seed ${seed}`,
      );
    }
  }
});

test("identical on 400 random sessions with 1-3 units each, ambiguous ones and null counts among them", () => {
  const random = seededRandom(42);
  const base = chartFixture();
  const units: UnitRow[] = [];
  const sessions: SessionRow[] = [];
  for (let i = 0; i < 400; i++) {
    const id = `r${i}`;
    sessions.push({
      ...base.sessions[i % base.sessions.length],
      session_id: id,
      cost_usd: i % 17 === 0 ? null : i / 10,
    });
    for (let j = 0, k = 1 + Math.floor(random() * 3); j < k; j++) {
      const final = Math.floor(random() * 40);
      const survived = Math.floor(final * random());
      const committed = survived + Math.floor(random() * 10);
      units.push({
        ...base.units[0],
        session_id: id,
        model: ["a", "b", "c"][i % 3],
        ambiguity: random() < 0.2 ? "merge-commit" : null,
        agent_lines_produced: final + Math.floor(random() * 5),
        agent_lines_final: final,
        agent_lines_survived: survived,
        total_committed_lines: committed,
        code_survival_rate: final > 0 ? (100 * survived) / final : null,
        coding_efficiency: null,
        agent_authored_pct: committed > 0 ? (100 * survived) / committed : null,
      });
    }
  }
  const byModel = (u: UnitRow) => u.model;
  assert.deepEqual(
    summarizeUnits(units, sessions, byModel, { seed: 3, iterations: 200 }),
    referenceSummarizeUnits(units, sessions, byModel, { seed: 3, iterations: 200 }),
  );
});

test("the figures depend on the set of units, not on their order (shards put together equal one run)", () => {
  const { units, sessions } = chartFixture();
  const reversed = [...units].reverse();
  const rotated = [...units.slice(5), ...units.slice(0, 5)];
  const all = summarizeUnits(units, sessions, () => "all", { seed: 7, iterations: 300 });
  assert.deepEqual(
    summarizeUnits(reversed, sessions, () => "all", { seed: 7, iterations: 300 }),
    all,
  );
  assert.deepEqual(
    summarizeUnits(rotated, [...sessions].reverse(), () => "all", { seed: 7, iterations: 300 }),
    all,
  );
});
