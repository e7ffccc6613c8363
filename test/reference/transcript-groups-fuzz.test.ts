/**
 * Groups (metrics.md §1b) on transcripts without Entire: the product (`analyze` on a folder of transcripts with
 * `repo`, in process) and the independent reference (transcript-groups.ts) must agree in every group_units
 * column, on a fixed timeline built for the cases and on random ones (group-fuzz.ts with
 * `entire: false`); and a group of one session and one commit gives exactly its strict unit's numbers.
 *
 * TRANSCRIPT_GROUPS_FUZZ=N runs N random repositories (default 4) after the fixed one; TRANSCRIPT_GROUPS_FUZZ_SEED=S
 * starts at seed S.
 */
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { randomWorld } from "./group-fuzz";
import { GroupWorld } from "./group-world";
import { compareGroups, formatGroupComparison, singleGroupDiffs } from "./groups";
import { runReferenceTranscriptGroups } from "./transcript-groups";

const N = Number(process.env.TRANSCRIPT_GROUPS_FUZZ ?? 4);
const FIRST = Number(process.env.TRANSCRIPT_GROUPS_FUZZ_SEED ?? 1);

/**
 * The issue's cases on one clock, without Entire (sessions are linked by the files they edited and time):
 * - A and B take turns on one file (a.txt), overlapping in time, and one commit takes both: a group of two
 *   sessions;
 * - C works over three commits of c.txt with a person's edit between them, the second on a branch (two
 *   branches), and main (with a person's commit of m.txt) is merged into that branch between C's second and
 *   third commit: the merge changes m.txt only, which no session edited, so it is not linked and its lines are
 *   not counted;
 * - D writes d.txt and one commit takes it: a group of one session and one commit (its strict unit's numbers).
 * The sessions' windows overlap (12 hours), so the links come only from the files.
 */
function fixedWorld(): GroupWorld {
  const w = new GroupWorld({ "a.txt": "a1\na2\n", "m.txt": "m\n" });
  w.write("A", "a.txt", "a1\nA1\na2\n");
  w.edit("B", "a.txt", "a2\n", "a2\nB1\n");
  w.edit("A", "a.txt", "A1\n", "A1\nA2\n");
  w.person({ "a.txt": "a1\nA1\nA2\na2\nB1\nP1\n" });
  w.commit("a: A and B", [], ["a.txt"]);
  w.write("C", "c.txt", "C1\nC2\n");
  w.commit("c one", [], ["c.txt"]);
  w.person({ "c.txt": "C1\nP2\nC2\n" });
  w.checkout("side", true);
  w.edit("C", "c.txt", "C2\n", "C2\nC3\n");
  w.commit("c two", [], ["c.txt"]);
  w.checkout("main");
  w.person({ "m.txt": "m\nmain work\n" });
  w.commit("main work", [], ["m.txt"]);
  w.checkout("side");
  w.merge("main");
  w.edit("C", "c.txt", "C3\n", "C3\nC4\n");
  w.commit("c three", [], ["c.txt"]);
  w.write("D", "d.txt", "D1\nD2\n");
  w.commit("d", [], ["d.txt"]);
  w.writeTranscripts();
  return w;
}

async function agreeOn(w: GroupWorld, label: string) {
  const folder = `${w.dir}-transcripts`;
  const { rows } = await analyze({ inputs: [folder], repo: w.dir, threads: 1 });
  const groups = rows.group_units ?? [];
  const files = readdirSync(folder).map((f) => join(folder, f));
  const reference = runReferenceTranscriptGroups(w.dir, files);
  const c = compareGroups(reference, groups);
  assert.deepEqual(
    [c.onlyReference, c.onlyProduct, c.diffs],
    [[], [], []],
    `${label}\n${formatGroupComparison(reference, groups, c)}`,
  );
  assert.deepEqual(singleGroupDiffs(groups, rows.units), [], `${label}: one-session one-commit groups`);
  return groups;
}

test("groups without Entire: product and reference agree on the issue's cases, every column", async () => {
  const w = fixedWorld();
  try {
    const groups = await agreeOn(w, "fixed");
    const of = (name: string) => groups.filter((g) => g.session_id === w.sessionId(name));
    // A and B: one group of two sessions and one commit; B's line is other_session_lines on A's row (and A's
    // two survived lines are other_session_lines on B's): A1, A2 survive for A, B1 for B, P1 is human. B's one
    // call falls inside A's span of calls on a.txt (A's first and third call): concurrent 1; A's calls are outside
    // B's span (one instant): 0.
    assert.deepEqual(
      [...of("A"), ...of("B")].map((g) => [
        g.group_sessions,
        g.group_commits,
        g.agent_lines_survived,
        g.other_session_lines,
        g.human_lines,
        g.concurrent_calls,
      ]),
      [
        [2, 1, 2, 1, 1, 0],
        [2, 1, 1, 2, 1, 1],
      ],
    );
    // C: three commits (not the merge), c one on main, c two and c three on side (each a descendant of the one
    // before, the merge of main between them: no branch switch). The person's P2 is in C's pre-image of its next
    // edit, so it is `outside` (one outside change), committed by c two; C1…C4 survive.
    assert.deepEqual(
      of("C").map((g) => [
        g.group_sessions,
        g.group_commits,
        g.ambiguity,
        g.agent_lines_survived,
        g.human_lines,
        g.outside_lines,
        g.outside_changes,
        g.branch_switches,
      ]),
      [[1, 3, null, 4, 0, 1, 1, 0]],
    );
    // D: a group of one session and one commit (checked against its unit by singleGroupDiffs).
    assert.deepEqual(
      of("D").map((g) => [g.group_sessions, g.group_commits, g.agent_lines_survived]),
      [[1, 1, 2]],
    );
  } finally {
    w.cleanup();
  }
});

test(`groups without Entire: product and reference agree on ${N} random repositories`, async () => {
  let rows = 0;
  let multi = 0;
  for (let seed = FIRST; seed < FIRST + N; seed++) {
    const w = randomWorld(seed, { entire: false });
    try {
      const groups = await agreeOn(w, `seed ${seed}`);
      rows += groups.length;
      multi += groups.filter((g) => g.group_sessions > 1 || g.group_commits > 1).length;
    } finally {
      w.cleanup();
    }
  }
  // A run without rows, or with single groups only, would test little.
  assert.ok(rows >= N, `${rows} rows`);
  assert.ok(multi > 0, "some groups of several sessions or commits");
});
