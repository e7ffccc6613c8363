/**
 * Differential fuzzing of groups (metrics.md §1b): the product (`analyze`, in process) and the independent
 * reference (groups.ts) on random timelines (group-fuzz.ts) must agree in every group_units column; and on
 * every one of them, a group of one session and one commit gives exactly its strict unit's numbers.
 *
 * GROUPS_FUZZ=N runs N repositories (default 6, a few seconds); GROUPS_FUZZ_SEED=S starts at seed S.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import type { GroupUnitRow, UnitRow } from "../../src/model";
import { randomWorld } from "./group-fuzz";
import { compareGroups, runReferenceGroups } from "./groups";

const N = Number(process.env.GROUPS_FUZZ ?? 6);
const FIRST = Number(process.env.GROUPS_FUZZ_SEED ?? 1);

/** The `units` columns a one-session one-commit group must repeat (its ambiguity names group reasons, not §1's). */
export const STRICT_COLUMNS = [
  "session_id", "commit_sha", "checkpoint_id", "agent", "method",
  "agent_lines_produced", "agent_lines_final", "agent_lines_survived", "human_lines", "outside_lines", "total_committed_lines",
  "numstat_additions", "code_survival_rate", "coding_efficiency", "agent_authored_pct", "coding_mode", "unreplayable_calls", "outside_changes",
  "entire_agent_lines", "entire_total_committed", "entire_agent_percentage",
] as const;

/** Groups of one session and one commit whose row differs from the unit's: "group_id column: group / unit". */
export function singleGroupDiffs(groups: readonly GroupUnitRow[], units: readonly UnitRow[]): string[] {
  const out: string[] = [];
  for (const g of groups) {
    if (g.group_commits !== 1 || g.group_sessions !== 1 || g.ambiguity !== null) continue;
    const u = units.find((x) => x.session_id === g.session_id && x.commit_sha === g.commit_sha);
    if (!u) {
      out.push(`${g.group_id}: no unit`);
      continue;
    }
    for (const c of STRICT_COLUMNS) if ((g[c] ?? null) !== (u[c] ?? null)) out.push(`${g.group_id} ${c}: ${String(g[c])} / ${String(u[c])}`);
    if (g.other_session_lines !== 0) out.push(`${g.group_id} other_session_lines: ${g.other_session_lines}`);
  }
  return out;
}

test(`groups: product and reference agree on ${N} random repositories, and one-session one-commit groups are their strict units`, async () => {
  let singles = 0;
  let rows = 0;
  for (let seed = FIRST; seed < FIRST + N; seed++) {
    const w = randomWorld(seed);
    try {
      const { rows: out } = await analyze({ inputs: [w.dir], threads: 1 });
      const groups = out.group_units ?? [];
      rows += groups.length;
      const c = compareGroups(runReferenceGroups(w.dir, { inferSliceStart: true }), groups);
      assert.deepEqual([c.onlyReference, c.onlyProduct, c.diffs], [[], [], []], `seed ${seed}`);
      assert.deepEqual(singleGroupDiffs(groups, out.units), [], `seed ${seed}: one-session one-commit groups`);
      singles += groups.filter((g) => g.group_commits === 1 && g.group_sessions === 1 && g.ambiguity === null).length;
    } finally {
      w.cleanup();
    }
  }
  // The generator makes groups of every size; a run without rows would test nothing.
  assert.ok(rows > N, `${rows} rows`);
  assert.ok(N < 6 || singles > 0, "some groups of one session and one commit");
});
