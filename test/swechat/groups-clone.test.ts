/**
 * SWE-chat groups replayed on clones (`--repos DIR` holding `<owner>/<name>`, metrics.md §1b): a real git
 * repository built here is the clone of acme/tool, and the dataset's commits table holds its commits.
 *
 * Timeline (seconds after T0; a commit's moment is its commit_date, here its committer date):
 *   0    base commit (README only)
 *   10   A writes greet.py "a1 / a2" (result at 11)
 *   20   B edits "a2" → "a2 / b1" (result at 21)
 *        a person appends "h1"
 *   100  X1 commits greet.py "a1 / a2 / b1 / h1"; its checkpoint K1 holds A and B
 *   200  B edits its own "b1" → "b2" (result at 201)
 *   250  a person commits greet.py + "side" on a side branch (no checkpoint; main is back at X1 after)
 *   300  X2 commits greet.py "a1 / a2 / b2 / h1"; its checkpoint K2 holds B
 * One group {A, B; X1, X2}. Joint replay from the base: A's a1, a2 and B's b1 precede X1 (results before 100);
 * X1 adds four lines: a1, a2 (A), b1 (B), h1 (not in the replayed state: human). B's second edit precedes X2; the
 * replayed state has no h1 (no pre-image in the rows), X2's own addition is b2 only (h1 is in its parent), B's.
 *   A: produced 2, final 2, survived 2, other 2 (b1, b2); B: produced 2 (b1, b2), final 2 (b1 at X1, b2 at X2),
 *   survived 2, other 2 (a1, a2); human 1, outside 0, total 2 + 2 + 1 = 5; agent-authored 40 % each.
 *   concurrent: A's one call (10 s) is outside B's span (20–200 s) and B's outside A's (one instant): 0.
 *   branch_switches 0 (X2 descends from X1); numstat from git: 4 + 1 = 5.
 * The strict units are the tables' (patch-match), unchanged by the clone.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyze } from "../../src/analyze";
import { A, B, buildCloneFixture as build, git } from "./clone-fixture";

const roots: string[] = [];
after(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("SWE-chat groups on a clone: the joint replay's numbers, hand-worked; without the clone the group is unreadable", async () => {
  const w = build();
  roots.push(w.root);
  const columns = [
    "session_id",
    "commit_sha",
    "method",
    "ambiguity",
    "agent_lines_produced",
    "agent_lines_final",
    "agent_lines_survived",
    "other_session_lines",
    "human_lines",
    "outside_lines",
    "total_committed_lines",
    "agent_authored_pct",
    "numstat_additions",
    "concurrent_calls",
    "branch_switches",
    "group_commits",
    "group_sessions",
    "checkpoint_id",
  ] as const;
  const show = (rows: Record<string, unknown>[]) => rows.map((r) => columns.map((c) => r[c]));
  const cloned = (await analyze({ inputs: [w.dataset], repos: w.clones, threads: 1 })).rows;
  const cps = "k1k1k1k1k1k1;k2k2k2k2k2k2";
  assert.deepEqual(show(cloned.group_units ?? []), [
    [A, w.x2, "git-replay", null, 2, 2, 2, 2, 1, 0, 5, 40, 5, 0, 0, 2, 2, cps],
    [B, w.x2, "git-replay", null, 2, 2, 2, 2, 1, 0, 5, 40, 5, 0, 0, 2, 2, cps],
  ]);
  assert.equal(cloned.diagnostics.filter((d) => d.code === "group-commit-unreadable").length, 0);
  // The side branch's commit at 250 s (no checkpoint) changes greet.py while the group is at work (100 s, its first
  // commit's moment, to 300 s, its last): named once, on the group's first session.
  const outside = cloned.diagnostics.filter((d) => d.code === "group-work-outside");
  assert.deepEqual(
    outside.map((d) => d.session_id),
    [A],
  );
  assert.match(outside[0].message, new RegExp(`^commit ${w.side.slice(0, 12)} \\("at 250"\\) changes greet\\.py`));

  // The same with the sessions built in worker threads (they come back whole for the group).
  const threaded = (await analyze({ inputs: [w.dataset], repos: w.clones, threads: 2 })).rows;
  assert.deepEqual(threaded.group_units, cloned.group_units);

  // Without clones: null counts, the reason, and the note saying what to pass; strict units the same either way.
  const plain = (await analyze({ inputs: [w.dataset], threads: 1 })).rows;
  assert.deepEqual(
    (plain.group_units ?? []).map((r) => [r.session_id, r.ambiguity, r.agent_lines_survived]),
    [
      [A, "group-commit-unreadable", null],
      [B, "group-commit-unreadable", null],
    ],
  );
  assert.match(plain.diagnostics.find((d) => d.code === "group-commit-unreadable")!.message, /--repos|clone/);
  assert.deepEqual(plain.units, cloned.units);

  // A clone that lacks a commit: the group stays unreadable, and the note names the commit.
  git(join(w.clones, "acme", "tool"), ["reset", "-q", "--hard", "HEAD~1"]);
  git(join(w.clones, "acme", "tool"), ["reflog", "expire", "--expire=now", "--all"]);
  git(join(w.clones, "acme", "tool"), ["gc", "-q", "--prune=now"]);
  const short = (await analyze({ inputs: [w.dataset], repos: w.clones, threads: 1 })).rows;
  assert.deepEqual(
    (short.group_units ?? []).map((r) => r.ambiguity),
    ["group-commit-unreadable", "group-commit-unreadable"],
  );
  assert.match(
    short.diagnostics.find((d) => d.code === "group-commit-unreadable")!.message,
    new RegExp(`commit\\(s\\) ${w.x2.slice(0, 12)} are not in the clone`),
  );
});
