/**
 * Groups (metrics.md §1b), worked by hand in real Entire repositories the tests build
 * (test/reference/group-world.ts: one clock for every record, commit and checkpoint). Every count of §1b's
 * `group_units` table is asserted with its reasoning; each repository is also checked against the
 * independent reference (test/reference/groups.ts), column by column.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import type { Diagnostic, GroupUnitRow, UnitRow } from "../../src/model";
import { GroupWorld } from "../reference/group-world";
import { compareGroups, runReferenceGroups } from "../reference/groups";

async function run(w: GroupWorld): Promise<{ groups: GroupUnitRow[]; units: UnitRow[]; diagnostics: Diagnostic[] }> {
  w.finish();
  try {
    const { rows } = await analyze({ inputs: [w.dir], threads: 1 });
    const groups = rows.group_units ?? [];
    const c = compareGroups(runReferenceGroups(w.dir, { inferSliceStart: true }), groups);
    assert.deepEqual([c.onlyReference, c.onlyProduct, c.diffs], [[], [], []], "the reference agrees");
    return { groups, units: rows.units, diagnostics: rows.diagnostics };
  } finally {
    w.cleanup();
  }
}

/** §1b's counts in the table's order. */
const counts = (r: GroupUnitRow) => ({
  produced: r.agent_lines_produced,
  final: r.agent_lines_final,
  survived: r.agent_lines_survived,
  other: r.other_session_lines,
  human: r.human_lines,
  outside: r.outside_lines,
  total: r.total_committed_lines,
});
const shape = (r: GroupUnitRow) => ({
  commits: r.group_commits,
  sessions: r.group_sessions,
  concurrent: r.concurrent_calls,
  switches: r.branch_switches,
  unreplayable: r.unreplayable_calls,
  outside_changes: r.outside_changes,
  numstat: r.numstat_additions,
  ambiguity: r.ambiguity,
});

test("one session over two commits, a person editing between them", async () => {
  const w = new GroupWorld({ "a.txt": "a1\na2\n" });
  // A writes A1, A2 (produced 2); c1 commits them: both A's identities, survived.
  w.write("A", "a.txt", "a1\na2\nA1\nA2\n");
  const entire = (agent_lines: number, total_committed: number) => ({
    A: {
      initial_attribution: { agent_lines, total_committed, agent_percentage: (100 * agent_lines) / total_committed },
    },
  });
  const c1 = w.commit("c1", ["A"], null, entire(2, 2));
  // The person appends P1; A's next Edit logs originalFile with P1, which the replayed state lacks: one outside
  // change, P1 is `outside`. The Edit inserts A3 (produced 3).
  w.person({ "a.txt": "a1\na2\nA1\nA2\nP1\n" });
  w.edit("A", "a.txt", "P1\n", "P1\nA3\n");
  // After A's last call the person changes A1 into A1x and commits everything (c2).
  w.person({ "a.txt": "a1\na2\nA1x\nA2\nP1\nA3\n" });
  const c2 = w.commit("c2", ["A"], null, entire(1, 3));
  const { groups, units } = await run(w);
  // Strict: the session is in two checkpoints, so neither unit counts.
  assert.deepEqual(
    units.map((u) => u.ambiguity),
    ["multi-checkpoint-session", "multi-checkpoint-session"],
  );
  assert.equal(groups.length, 1);
  const g = groups[0];
  // c2's parent is c1 ([a1, a2, A1, A2]); c2 adds A1x (the state at c2 holds A1: human), P1 (outside), A3 (A's).
  // Committed: c1 A1, A2 + c2 A1x, P1, A3 = 5 = survived 3 + other 0 + human 1 + outside 1.
  // Final: A1, A2 present at c1, A3 at c2 (the replay never sees A1x: A1 stays in the working tree) = 3.
  assert.deepEqual(counts(g), { produced: 3, final: 3, survived: 3, other: 0, human: 1, outside: 1, total: 5 });
  // numstat: c1 +2, c2 +3 (A1→A1x, P1, A3). c1 is c2's parent: no branch switch.
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 0,
    unreplayable: 0,
    outside_changes: 1,
    numstat: 5,
    ambiguity: null,
  });
  assert.equal(g.commit_sha, c2);
  assert.notEqual(c1, c2);
  assert.equal(g.checkpoint_id, "c0ffee000001;c0ffee000002");
  // Rates: survival 3/3, efficiency 3/3, authored 3/5 = 60 %.
  assert.deepEqual(
    [g.code_survival_rate, g.coding_efficiency, g.agent_authored_pct, g.coding_mode],
    [100, 100, 60, "collaborative"],
  );
  // Entire's own numbers, summed over the session's two folders: 2 + 1 agent lines of 2 + 3.
  assert.deepEqual([g.entire_agent_lines, g.entire_total_committed, g.entire_agent_percentage], [3, 5, 60]);
});

test("two sessions in one commit, the second rewriting part of the first's lines", async () => {
  const w = new GroupWorld({ "b.txt": "b1\n" });
  // A writes A1, A2, A3 (A produced 3); B replaces A2 with B1, B2 (B produced 2; A2 is gone); A then adds A4
  // after A3 (A produced 4). B's one call falls inside A's span of calls on b.txt: B concurrent 1; A's calls lie
  // outside B's one-call span: A concurrent 0.
  w.write("A", "b.txt", "b1\nA1\nA2\nA3\n");
  w.edit("B", "b.txt", "A2\n", "B1\nB2\n");
  w.edit("A", "b.txt", "A3\n", "A3\nA4\n");
  const c1 = w.commit("c1", ["A", "B"]);
  const { groups, units } = await run(w);
  assert.deepEqual(
    units.map((u) => u.ambiguity),
    ["multi-session-checkpoint", "multi-session-checkpoint"],
  );
  const [a, b] = [w.sessionId("A"), w.sessionId("B")].map((id) => groups.find((g) => g.session_id === id)!);
  // The state at c1: b1, A1, B1, B2, A3, A4; c1 adds the 5 agent lines: A1, A3, A4 are A's, B1, B2 B's.
  assert.deepEqual(counts(a), { produced: 4, final: 3, survived: 3, other: 2, human: 0, outside: 0, total: 5 });
  assert.deepEqual(counts(b), { produced: 2, final: 2, survived: 2, other: 3, human: 0, outside: 0, total: 5 });
  assert.deepEqual(shape(a), {
    commits: 1,
    sessions: 2,
    concurrent: 0,
    switches: 0,
    unreplayable: 0,
    outside_changes: 0,
    numstat: 5,
    ambiguity: null,
  });
  assert.deepEqual(shape(b), { ...shape(a), concurrent: 1 });
  assert.equal(a.group_id, b.group_id);
  assert.equal(a.commit_sha, c1);
  // A: survival 3/3, efficiency 3/4, authored 3/5; B: 2/2, 2/2, 2/5.
  assert.deepEqual([a.code_survival_rate, a.coding_efficiency, a.agent_authored_pct], [100, 75, 60]);
  assert.deepEqual([b.code_survival_rate, b.coding_efficiency, b.agent_authored_pct], [100, 100, 40]);
});

test("a session whose two commits sit on two branches", async () => {
  const w = new GroupWorld({ "x.txt": "x\n" });
  // On feat1, A creates f.txt (F1, F2); c1. Back on main (f.txt leaves the working tree) and on to feat2,
  // A adds X1 to x.txt (its originalFile "x\n" is the replayed state: no outside change); the person
  // appends P; c2.
  w.checkout("feat1", true);
  w.write("A", "f.txt", "F1\nF2\n");
  w.commit("c1", ["A"]);
  w.checkout("main");
  w.checkout("feat2", true);
  w.edit("A", "x.txt", "x\n", "x\nX1\n");
  w.person({ "x.txt": "x\nX1\nP\n" });
  const c2 = w.commit("c2", ["A"]);
  const { groups } = await run(w);
  const g = groups[0];
  // c1 adds F1, F2 (A's). c2's parent is the base; it changes x.txt only and adds X1 (A's) and P (human).
  // f.txt is still in the replayed working tree, but c2 does not change it: nothing counted there twice.
  assert.deepEqual(counts(g), { produced: 3, final: 3, survived: 3, other: 0, human: 1, outside: 0, total: 4 });
  // c1 and c2 are not ancestor and descendant: one branch switch.
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 1,
    unreplayable: 0,
    outside_changes: 0,
    numstat: 4,
    ambiguity: null,
  });
  assert.equal(g.commit_sha, c2);
});

test("an agent line committed, then rewritten by the agent and the rewrite committed: both identities final and survived", async () => {
  const w = new GroupWorld({ "r.txt": "r\n" });
  w.write("A", "r.txt", "r\nL1\n");
  w.commit("c1", ["A"]);
  w.edit("A", "r.txt", "L1\n", "L1v2\n");
  w.commit("c2", ["A"]);
  const { groups } = await run(w);
  const g = groups[0];
  // L1 (call 1) is present at c1 and committed by it; L1v2 (call 2) replaces it, is present at c2 and committed
  // by it. Two identities: produced 2, final 2, survived 2. A strict replay over both calls would say final 1.
  assert.deepEqual(counts(g), { produced: 2, final: 2, survived: 2, other: 0, human: 0, outside: 0, total: 2 });
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 0,
    unreplayable: 0,
    outside_changes: 0,
    numstat: 2,
    ambiguity: null,
  });
  assert.deepEqual(
    [g.code_survival_rate, g.coding_efficiency, g.agent_authored_pct, g.coding_mode],
    [100, 100, 100, "vibe"],
  );
});

test("a merge of main between two of the group's commits: its lines are not counted", async () => {
  const w = new GroupWorld({ "m.txt": "m\n", "s.txt": "s\n" });
  w.checkout("feat", true);
  w.edit("A", "s.txt", "s\n", "s\nA1\n");
  w.commit("c1", ["A"]);
  // A person's commit on main (no trailer), merged into feat (no trailer): neither is in the group.
  w.checkout("main");
  w.person({ "m.txt": "m\nM1\nM2\n" });
  const pm = w.commit("person on main");
  w.checkout("feat");
  assert.ok(w.merge("main"));
  // A's Edit logs m.txt as merged ([m, M1, M2]); the replayed state is the base's [m]: one outside change,
  // M1 and M2 become `outside` in the working tree. A2 is A's.
  w.edit("A", "m.txt", "M2\n", "M2\nA2\n");
  const c2 = w.commit("c2", ["A"]);
  const { groups, diagnostics } = await run(w);
  const g = groups[0];
  // c2's parent is the merge, which holds M1, M2: c2 adds A2 only. c1 added A1. M1, M2 count nowhere.
  assert.deepEqual(counts(g), { produced: 2, final: 2, survived: 2, other: 0, human: 0, outside: 0, total: 2 });
  // c1 is an ancestor of c2 (through the merge): no branch switch. numstat: c1 +1, c2 +1.
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 0,
    unreplayable: 0,
    outside_changes: 1,
    numstat: 2,
    ambiguity: null,
  });
  assert.equal(g.commit_sha, c2);
  // The person's commit changes m.txt, which A edited, while the group was at work: named.
  const outside = diagnostics.filter((d) => d.code === "group-work-outside");
  assert.ok(
    outside.some((d) => d.message.includes(pm.slice(0, 12))),
    outside.map((d) => d.message).join("\n"),
  );
});

test("a group whose commit is a merge is not attributable: the reason, null counts", async () => {
  const w = new GroupWorld({ "m.txt": "m\n" });
  w.checkout("side", true);
  w.person({ "side.txt": "side\n" });
  w.commit("side work");
  w.checkout("main");
  w.edit("A", "m.txt", "m\n", "m\nA1\n");
  w.commit("c1", ["A"]);
  // The merge of side carries a checkpoint of A too: the group is c1 and the merge.
  assert.ok(w.merge("side", ["A"]));
  const { groups } = await run(w);
  const g = groups[0];
  assert.equal(g.ambiguity, "group-merge-commit");
  assert.deepEqual(counts(g), {
    produced: null,
    final: null,
    survived: null,
    other: null,
    human: null,
    outside: null,
    total: null,
  });
  // The shape is still known; git's count is summed over both commits (c1 +1, the merge's first-parent diff +1).
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: null,
    switches: null,
    unreplayable: null,
    outside_changes: null,
    numstat: 2,
    ambiguity: "group-merge-commit",
  });
  assert.deepEqual([g.method, g.code_survival_rate, g.coding_mode], [null, null, null]);
});

test("commit moments come from the checkpoints' created_at: a commit amended after a later one keeps its place", async () => {
  const w = new GroupWorld({ "x.txt": "x\n" });
  // c1 on b1 (A creates a.txt), c2 on b2 (A creates b.txt); then the person amends c1 with a line P: the amended
  // commit's committer date is after c2's, but its checkpoint's folder was written at c1.
  w.checkout("b1", true);
  w.write("A", "a.txt", "A1\n");
  w.commit("c1", ["A"]);
  w.checkout("main");
  w.checkout("b2", true);
  w.write("A", "b.txt", "B1\n");
  const c2 = w.commit("c2", ["A"]);
  w.checkout("b1");
  w.person({ "a.txt": "A1\nP\n" });
  w.tick(30);
  w.git(["commit", "-q", "-a", "--amend", "--no-edit"]);
  const amended = w.head();
  const { groups } = await run(w);
  const g = groups[0];
  // By moment: amended c1 (its folder's created_at), then c2. The Write of a.txt is in c1's copy: it precedes the
  // amended commit, which adds A1 (A's) and P (human). The Write of b.txt precedes c2, which adds B1 (A's).
  assert.deepEqual(counts(g), { produced: 2, final: 2, survived: 2, other: 0, human: 1, outside: 0, total: 3 });
  // The last commit by moment is c2, though the amended commit was committed later; the two are on two branches.
  assert.equal(g.commit_sha, c2);
  assert.notEqual(g.commit_sha, amended);
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 1,
    unreplayable: 0,
    outside_changes: 0,
    numstat: 3,
    ambiguity: null,
  });
});

test("one checkpoint on two commits: the first takes the folder's moment, the second its committer date; Entire's numbers summed per session", async () => {
  const w = new GroupWorld({ "x.txt": "x\n" });
  w.write("A", "a.txt", "A1\nA2\n");
  w.write("A", "b.txt", "B1\n");
  // c1 commits a.txt with A's checkpoint (Entire's initial_attribution: 2 of 2).
  w.commit("c1", ["A"], ["a.txt"], {
    A: {
      initial_attribution: {
        agent_lines: 2,
        human_added: 0,
        human_modified: 0,
        human_removed: 0,
        total_committed: 2,
        agent_percentage: 100,
      },
    },
  });
  const id = w.checkpointIds[0];
  // The person commits b.txt and a line of their own in x.txt, copying the same trailer (no new folder).
  w.person({ "x.txt": "x\nH\n" });
  w.tick(10);
  w.git(["add", "-A"]);
  w.git(["commit", "-q", "-m", `c2\n\nEntire-Checkpoint: ${id}`]);
  const c2 = w.head();
  const { groups, units } = await run(w);
  // Strict: the checkpoint is on two commits.
  assert.ok(units.every((u) => u.ambiguity === "multi-commit-checkpoint"));
  const g = groups[0];
  // Every call is in the checkpoint's copy, so all precede c1 (the first commit carrying it). c1 adds A1, A2;
  // c2 adds B1 (the working tree still holds A's line) and H (human).
  assert.deepEqual(counts(g), { produced: 3, final: 3, survived: 3, other: 0, human: 1, outside: 0, total: 4 });
  assert.deepEqual(shape(g), {
    commits: 2,
    sessions: 1,
    concurrent: 0,
    switches: 0,
    unreplayable: 0,
    outside_changes: 0,
    numstat: 4,
    ambiguity: null,
  });
  assert.equal(g.commit_sha, c2);
  assert.equal(g.checkpoint_id, id);
  // Entire's initial_attribution of the session's one folder in the group: 2 of 2.
  assert.deepEqual([g.entire_agent_lines, g.entire_total_committed, g.entire_agent_percentage], [2, 2, 100]);
});

test("a group with a session whose transcript copy is missing, or unreadable, is not attributable", async () => {
  for (const [text, reason] of [
    [null, "group-transcript-missing"],
    ["not a transcript\n", "group-transcript-unreadable"],
  ] as const) {
    const w = new GroupWorld({ "x.txt": "x\n" });
    w.write("A", "a.txt", "A1\n");
    w.write("B", "b.txt", "B1\n");
    w.commit("c1", ["A", "B"]);
    w.write("B", "b.txt", "B1\nB2\n");
    w.commit("c2", ["B"]);
    // B's copy at c2 is lost (or replaced by text no reader knows): the whole group, A's row too, has no counts.
    w.replaceTranscript(w.checkpointIds[1], "B", text);
    const { groups } = await run(w);
    assert.equal(groups.length, 2);
    for (const g of groups) {
      assert.equal(g.ambiguity, reason);
      assert.deepEqual(counts(g), {
        produced: null,
        final: null,
        survived: null,
        other: null,
        human: null,
        outside: null,
        total: null,
      });
      // c1 adds 2 lines, c2 1: git's count is still there.
      assert.deepEqual([g.group_commits, g.group_sessions, g.numstat_additions, g.branch_switches], [2, 2, 3, null]);
    }
  }
});

test("sessions' calls are ordered by the time of their result: a Codex patch applied after a Claude Code write it was called before", async () => {
  // Ordered by call time instead, X's add would replay first (t1 < t2): K's create would then see f.txt as [C1]
  // (one outside change, C1 gone), and the commit's C1 would be human. The Codex reader gives each patch call its
  // patch_apply_end's time as result_timestamp.
  const w = new GroupWorld({ "x.txt": "x\n" });
  const codex = "019a0000-0000-7000-8000-00000000c0de";
  w.codexSession("X", codex);
  // X calls apply_patch (t1: add f.txt); before the patch is applied, K (Claude Code) creates f.txt with K1 (t2);
  // then X's patch lands (t3), replacing the file with C1, and patch_apply_end says so.
  w.raw("X", {
    type: "response_item",
    payload: {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_x1",
      name: "apply_patch",
      input: "*** Begin Patch\n*** Add File: f.txt\n+C1\n*** End Patch\n",
    },
  });
  w.write("K", "f.txt", "K1\n");
  w.person({ "f.txt": "C1\n" });
  w.raw("X", {
    type: "event_msg",
    payload: {
      type: "patch_apply_end",
      call_id: "call_x1",
      turn_id: "turn-1",
      stdout: "Success.",
      stderr: "",
      success: true,
      changes: { [`/home/dev/world/f.txt`]: { type: "add", content: "C1\n" } },
      status: "completed",
    },
  });
  w.raw("X", {
    type: "response_item",
    payload: {
      type: "custom_tool_call_output",
      call_id: "call_x1",
      output: JSON.stringify({
        output: "Success. Updated the following files:\nA f.txt\n",
        metadata: { exit_code: 0 },
      }),
    },
  });
  w.commit("c1", ["X", "K"], null, { X: { agent: "Codex" } });
  const { groups } = await run(w);
  const x = groups.find((g) => g.session_id === codex)!;
  const k = groups.find((g) => g.session_id === w.sessionId("K"))!;
  // By result time: K's create (t2), then X's add (t3: post-image C1, K1 gone). The commit adds C1: X's.
  assert.deepEqual(counts(x), { produced: 1, final: 1, survived: 1, other: 0, human: 0, outside: 0, total: 1 });
  assert.deepEqual(counts(k), { produced: 1, final: 0, survived: 0, other: 1, human: 0, outside: 0, total: 1 });
});

test("a group of one session and one commit is its strict unit, Entire's recorded numbers too", async () => {
  const w = new GroupWorld({ "x.txt": "x\n" });
  w.write("A", "a.txt", "A1\nA2\n");
  w.person({ "a.txt": "A1\nA2\nP\n" });
  // Entire rounds its percentage (2 of 3: 66.7), and writes 0 where nothing was committed; a unit shows what it
  // recorded, so the group of this one folder must too (not 100 · 2 / 3 = 66.666…).
  w.commit("c1", ["A"], null, {
    A: {
      initial_attribution: {
        agent_lines: 2,
        human_added: 1,
        human_modified: 0,
        human_removed: 0,
        total_committed: 3,
        agent_percentage: 66.7,
      },
    },
  });
  const { groups, units } = await run(w);
  const [g, u] = [groups[0], units[0]];
  assert.equal(u.ambiguity, null);
  // A's Write adds A1, A2; the person's P is human: 2 of 3.
  assert.deepEqual(counts(g), { produced: 2, final: 2, survived: 2, other: 0, human: 1, outside: 0, total: 3 });
  assert.deepEqual([g.entire_agent_lines, g.entire_total_committed, g.entire_agent_percentage], [2, 3, 66.7]);
  assert.deepEqual([u.entire_agent_lines, u.entire_total_committed, u.entire_agent_percentage], [2, 3, 66.7]);
  for (const c of [
    "agent_lines_produced",
    "agent_lines_final",
    "agent_lines_survived",
    "human_lines",
    "outside_lines",
    "total_committed_lines",
    "code_survival_rate",
    "coding_efficiency",
    "agent_authored_pct",
    "coding_mode",
    "numstat_additions",
  ] as const) {
    assert.equal(g[c], u[c], c);
  }
});
