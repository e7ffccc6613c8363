import assert from "node:assert/strict";
import { test } from "node:test";
import { diffArrays } from "diff";
import fc from "fast-check";
import { insertedMask, lineDiff } from "../../src/replay";
import { setLineDiffCompactionThreshold } from "../../src/replay/line-diff";

/** The edit script of the `diff` package (metrics.md §2 names it), in our run form. */
function jsdiffRuns(a: string[], b: string[]) {
  const runs: { kind: string; count: number }[] = [];
  for (const c of diffArrays(a, b)) {
    const kind = c.added ? "insert" : c.removed ? "delete" : "equal";
    const count = c.count ?? c.value.length;
    const last = runs[runs.length - 1];
    if (count === 0) continue;
    if (last && last.kind === kind) last.count += count;
    else runs.push({ kind, count });
  }
  return runs;
}

test("lineDiff is the diff package's Myers script on the whole line arrays", () => {
  // metrics.md §2 names the `diff` package: lineDiff must give jsdiff's edit script on the
  // whole arrays, with its own choices among scripts of equal cost. Small alphabets make
  // many such ties, so a port that chose differently (or trimmed the common suffix first)
  // fails here.
  const lines = fc.array(fc.constantFrom("a", "b", "c", "", "}"), { maxLength: 40 });
  fc.assert(
    fc.property(lines, lines, (a, b) => {
      assert.deepEqual(lineDiff(a, b), jsdiffRuns(a, b));
    }),
    { seed: 11, numRuns: 5000 },
  );
});

test("the component pool is compacted without changing a diff (jsdiff frees unreachable components; the port must too)", () => {
  // Compaction at every edit length (threshold 1) on longer, more different arrays than above: the
  // scripts must stay jsdiff's. Without compaction the pool grows with the square of the edit
  // distance (a 20 000-line rewrite held 6 GB); with it, memory is what the live paths reach.
  setLineDiffCompactionThreshold(1);
  try {
    const lines = fc.array(fc.constantFrom("a", "b", "c", "d", "", "}"), { maxLength: 120 });
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        assert.deepEqual(lineDiff(a, b), jsdiffRuns(a, b));
      }),
      { seed: 12, numRuns: 2000 },
    );
    const a = Array.from({ length: 600 }, (_, i) => `old ${i % 7}`);
    const b = Array.from({ length: 500 }, (_, i) => `new ${i % 5}`).concat(a.slice(0, 50));
    assert.deepEqual(lineDiff(a, b), jsdiffRuns(a, b));
  } finally {
    setLineDiffCompactionThreshold(null);
  }
});

test("a tie the common suffix would break differently: jsdiff's choice is kept", () => {
  // ["x"] → ["}", "x", "x"]: jsdiff inserts "}" before the equal "x" and the second "x"
  // after it (lines 1 and 3 new). Matching the common suffix "x" first would keep the
  // last "x" and insert lines 1 and 2 instead: the owners of the lines would differ.
  assert.deepEqual(insertedMask(["x"], ["}", "x", "x"]), [true, false, true]);
});

test("a hand-worked diff: a changed line is a deletion plus an insertion", () => {
  // 1 2 3 → 1 X 3: equal 1, delete 2, insert X, equal 1.
  assert.deepEqual(lineDiff(["1", "2", "3"], ["1", "X", "3"]), [
    { kind: "equal", count: 1 },
    { kind: "delete", count: 1 },
    { kind: "insert", count: 1 },
    { kind: "equal", count: 1 },
  ]);
  assert.deepEqual(insertedMask(["1", "2", "3"], ["1", "X", "3", "4"]), [false, true, false, true]);
});
