/**
 * metrics.md §1b's invariants over random sequences of sessions' Writes, a person's edits, commits (of
 * everything or some files, with or without a checkpoint), branches and merges, in real Entire repositories
 * (test/reference/group-world.ts). Lines come from a small alphabet, so they repeat and the diffs have choices
 * to make. On every group_units row: `total = survived + other_session_lines + human + outside`,
 * `survived ≤ final ≤ produced`, `survived ≤ total`.
 *
 * GROUPS_PROPERTY_RUNS=N for a bigger run (default 8); GROUPS_PROPERTY_REFERENCE=1 also compares every row
 * with the independent reference (fast-check then shrinks a disagreement to a small timeline).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { analyze } from "../../src/analyze";
import type { GroupUnitRow } from "../../src/model";
import { GroupWorld } from "../reference/group-world";
import { compareGroups, runReferenceGroups } from "../reference/groups";

const RUNS = Number(process.env.GROUPS_PROPERTY_RUNS ?? 8);
const WITH_REFERENCE = process.env.GROUPS_PROPERTY_REFERENCE === "1";

const FILES = ["f.txt", "g.txt"];
const text = fc
  .array(fc.constantFrom("a", "b", "c", "}", ""), { maxLength: 6 })
  .map((ls) => (ls.length ? `${ls.join("\n")}\n` : ""));
const action = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      session: fc.constantFrom("A", "B", "C"),
      file: fc.constantFrom(...FILES),
      text,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("person" as const), file: fc.constantFrom(...FILES), text }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("commit" as const), trailer: fc.boolean(), partial: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("branch" as const), from: fc.constantFrom("here", "main") }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("checkout" as const), name: fc.constantFrom("main", "b1", "b2") }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("merge" as const), trailer: fc.boolean() }) },
);
type Action = typeof action extends fc.Arbitrary<infer T> ? T : never;

function build(actions: Action[]): GroupWorld {
  const w = new GroupWorld({ "f.txt": "a\nb\n" });
  let branches = 0;
  for (const a of actions) {
    if (a.kind === "write") w.write(a.session, a.file, a.text);
    else if (a.kind === "person") w.person({ [a.file]: a.text });
    else if (a.kind === "commit") {
      const dirty = w.dirty();
      w.commit("work", a.trailer ? w.activeSessions() : [], a.partial && dirty.length > 1 ? dirty.slice(0, 1) : null);
    } else if (a.kind === "branch") {
      if (branches < 2) w.checkout(`b${++branches}`, true, a.from === "main" ? "main" : null);
    } else if (a.kind === "checkout") w.checkout(a.name);
    else if (w.branch() !== "main") w.merge("main", a.trailer ? w.activeSessions() : []);
  }
  if (w.activeSessions().length > 0) w.commit("last", w.activeSessions());
  w.finish();
  return w;
}

function broken(r: GroupUnitRow): string[] {
  if (r.ambiguity !== null) return [];
  const [p, f, s, o, h, x, t] = [
    r.agent_lines_produced,
    r.agent_lines_final,
    r.agent_lines_survived,
    r.other_session_lines,
    r.human_lines,
    r.outside_lines,
    r.total_committed_lines,
  ];
  const out: string[] = [];
  if ([p, f, s, o, h, x, t].some((v) => v === null)) out.push("a count is null in an attributable group");
  else {
    if (t !== s! + o! + h! + x!) out.push(`total ${t} ≠ survived ${s} + other ${o} + human ${h} + outside ${x}`);
    if (!(s! <= f! && f! <= p!)) out.push(`survived ${s} ≤ final ${f} ≤ produced ${p} fails`);
    if (s! > t!) out.push(`survived ${s} > total ${t}`);
  }
  return out;
}

test("metrics.md §1b invariants hold on every group_units row over random timelines", async () => {
  let rows = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(action, { minLength: 2, maxLength: 14 }), async (actions) => {
      const w = build(actions);
      try {
        const { rows: out } = await analyze({ inputs: [w.dir], threads: 1 });
        const groups = out.group_units ?? [];
        rows += groups.length;
        for (const g of groups) assert.deepEqual(broken(g), [], JSON.stringify(g));
        if (WITH_REFERENCE) {
          const c = compareGroups(runReferenceGroups(w.dir, { inferSliceStart: true }), groups);
          assert.deepEqual([c.onlyReference, c.onlyProduct, c.diffs], [[], [], []]);
        }
      } finally {
        w.cleanup();
      }
    }),
    { numRuns: RUNS, seed: process.env.GROUPS_PROPERTY_SEED ? Number(process.env.GROUPS_PROPERTY_SEED) : undefined },
  );
  assert.ok(rows > 0, "the timelines made groups");
});

test("the invariant check catches a broken row", () => {
  // A test that cannot fail is a defect: the checker itself, on a row whose total misses a line.
  const row = {
    ambiguity: null,
    agent_lines_produced: 2,
    agent_lines_final: 3,
    agent_lines_survived: 1,
    other_session_lines: 0,
    human_lines: 1,
    outside_lines: 0,
    total_committed_lines: 3,
  } as GroupUnitRow;
  assert.deepEqual(broken(row), [
    "total 3 ≠ survived 1 + other 0 + human 1 + outside 0",
    "survived 1 ≤ final 3 ≤ produced 2 fails",
  ]);
});
