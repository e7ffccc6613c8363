/**
 * The blame view's cut: a unit with more committed lines than the limit shows the first `limit` of them, in file and
 * line order, and says how many it left out; the counts above stay the unit's whole numbers.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LineRangeRow, UnitRow } from "../../src/model";
import { blameUnits } from "../../src/report/blame";
import { lineTextKey } from "../../src/report/line-text";

const SHA = "a".repeat(40);
const range = (file: string, start: number, end: number, owner: string): LineRangeRow =>
  ({
    session_id: "s1",
    commit_sha: SHA,
    group_id: null,
    file,
    start_line: start,
    end_line: end,
    owner,
    tool_call_seq: owner === "agent" ? 3 : null,
    model: null,
  }) as LineRangeRow;

test("a unit over the limit shows its first lines and names how many more the line_ranges table holds", () => {
  // a.ts: lines 1–4 agent, 5 human; b.ts: 1–3 agent. 8 committed lines, limit 6: a.ts 1–5 and b.ts 1 are shown.
  const unit = {
    session_id: "s1",
    commit_sha: SHA,
    ambiguity: null,
    agent_lines_survived: 7,
    human_lines: 1,
    outside_lines: 0,
    total_committed_lines: 8,
  } as UnitRow;
  const ranges = [range("a.ts", 1, 4, "agent"), range("a.ts", 5, 5, "human"), range("b.ts", 1, 3, "agent")];
  const texts = new Map([
    [lineTextKey(SHA, "a.ts"), ["1", "2", "3", "4", "5"]],
    [lineTextKey(SHA, "b.ts"), ["x", "y", "z"]],
  ]);
  const [block] = blameUnits([unit], [], ranges, {
    texts: texts as never,
    commits: new Map(),
    limit: 6,
    mask: (s) => s,
    hrefOf: () => null,
    groupRows: new Map(),
    commitsOf: new Map(),
  });
  assert.deepEqual(
    block.files.map((f) => [f.path, f.lines.map((l) => `${l.n}${l.mark}`)]),
    [
      ["a.ts", ["1A", "2A", "3A", "4A", "5H"]],
      ["b.ts", ["1A"]],
    ],
  );
  assert.equal(block.cut, "2 more committed lines not shown (the first 6 are); every line is in");
  assert.deepEqual(
    block.counts.map((c) => c.value),
    ["7", "1", "0"],
  );
  assert.equal(block.status, null);
});
