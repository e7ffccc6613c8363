/**
 * Differential fuzzing of groups (metrics.md §1b): the product (`analyze`, in process) and the independent
 * reference (groups.ts) on random timelines (group-fuzz.ts) must agree in every group_units column; and on
 * every one of them, a group of one session and one commit gives exactly its strict unit's numbers.
 *
 * GROUPS_FUZZ=N runs N random repositories (default 4, a few seconds) after a fixed one; GROUPS_FUZZ_SEED=S starts at seed S.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { randomWorld } from "./group-fuzz";
import { GroupWorld } from "./group-world";
import { compareGroups, runReferenceGroups, singleGroupDiffs } from "./groups";
import { runReference } from "./reference";

const N = Number(process.env.GROUPS_FUZZ ?? 4);
const FIRST = Number(process.env.GROUPS_FUZZ_SEED ?? 1);

function fixedWorld(): GroupWorld {
  const w = new GroupWorld({ "a.txt": "a\n" });
  w.write("A", "a.txt", "a\nA1\n");
  w.person({ "a.txt": "a\nA1\nP\n" });
  w.commit("one", ["A"], null, {
    A: { initial_attribution: { agent_lines: 1, total_committed: 2, agent_percentage: 50 } },
  });
  w.write("B", "b.txt", "B1\n");
  w.commit("two", ["B"]);
  w.edit("B", "b.txt", "B1\n", "B1\nB2\n");
  w.commit("three", ["B"]);
  w.finish();
  return w;
}

test(`groups: product and reference agree on ${N} random repositories, and one-session one-commit groups are their strict units`, async () => {
  let singles = 0;
  let rows = 0;
  // Seed 0 is a fixed timeline with a group of one session and one commit (and a group of two commits), so the
  // strict-unit check always has a case whatever the random seeds make.
  for (const seed of [0, ...Array.from({ length: N }, (_, i) => FIRST + i)]) {
    const w = seed === 0 ? fixedWorld() : randomWorld(seed);
    try {
      const { rows: out } = await analyze({ inputs: [w.dir], threads: 1 });
      const groups = out.group_units ?? [];
      rows += groups.length;
      const reference = runReferenceGroups(w.dir, { inferSliceStart: true });
      const c = compareGroups(reference, groups);
      assert.deepEqual([c.onlyReference, c.onlyProduct, c.diffs], [[], [], []], `seed ${seed}`);
      assert.deepEqual(singleGroupDiffs(groups, out.units), [], `seed ${seed}: one-session one-commit groups`);
      const strict = runReference(w.dir, { inferSliceStart: true, multiSessionCommit: true }).units;
      assert.deepEqual(
        singleGroupDiffs(reference, strict as unknown as Record<string, unknown>[]),
        [],
        `seed ${seed}: the reference's own`,
      );
      singles += groups.filter((g) => g.group_commits === 1 && g.group_sessions === 1 && g.ambiguity === null).length;
    } finally {
      w.cleanup();
    }
  }
  // The generator makes groups of every size; a run without rows would test nothing.
  assert.ok(rows >= N, `${rows} rows`);
  assert.ok(singles > 0, "some groups of one session and one commit");
});
