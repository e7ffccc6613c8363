import assert from "node:assert/strict";
import { test } from "node:test";
import { diffArrays } from "diff";
import fc from "fast-check";
import { insertedMask, lineDiff } from "../../src/replay";

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

const total = (runs: { kind: string; count: number }[], kind: string) => runs.filter((r) => r.kind === kind).reduce((s, r) => s + r.count, 0);

test("lineDiff is the diff package's Myers script on the part between the common prefix and suffix", () => {
  // lineDiff keeps the common prefix and suffix as equal lines (most edits touch a few lines of a
  // long file) and runs Myers on the middle, with the diff package's own choices among scripts of
  // equal cost: small alphabets make many such ties, so a port that chose differently fails here.
  const lines = fc.array(fc.constantFrom("a", "b", "c", "", "}"), { maxLength: 40 });
  fc.assert(
    fc.property(lines, lines, (a, b) => {
      let p = 0;
      while (p < a.length && p < b.length && a[p] === b[p]) p++;
      let q = 0;
      while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
      const middle = jsdiffRuns(a.slice(p, a.length - q), b.slice(p, b.length - q));
      const expected = [...(p ? [{ kind: "equal", count: p }] : []), ...middle, ...(q ? [{ kind: "equal", count: q }] : [])].reduce<{ kind: string; count: number }[]>((out, r) => {
        const last = out[out.length - 1];
        if (last && last.kind === r.kind) last.count += r.count;
        else out.push({ ...r });
        return out;
      }, []);
      const got = lineDiff(a, b);
      assert.deepEqual(got, expected);
      // Either way the script is minimal: as many insertions and deletions as the diff package on the whole.
      const whole = jsdiffRuns(a, b);
      assert.equal(total(got, "insert"), total(whole, "insert"));
      assert.equal(total(got, "delete"), total(whole, "delete"));
    }),
    { seed: 11, numRuns: 3000 },
  );
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
