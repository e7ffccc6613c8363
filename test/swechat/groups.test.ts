/**
 * SWE-chat groups (metrics.md §1b) from the tables: a small dataset with the real schema, written here.
 *
 * Repository acme/tool; checkpoints (12 hex ids, "k1k1k1k1k1k1" …) and commits:
 *   K1 holds sessions A and B, on commit X1 (hour 1, +2 lines);
 *   K2 holds B, on commit X2 (hour 2, +3 lines)            → group {A, B; X1, X2};
 *   K3 holds C and N, on X3 (hour 3); N has no conversation rows (named only by K3's session_pks)
 *                                                           → group {C, N; X3}, N's transcript missing;
 *   K4 holds D, on M (hour 4), a merge (its patch is a combined diff) → group {D; M};
 *   K5 holds E, on E1 (hour 5) and E2 (hour 6) with the same patch: copies, E1 the representative
 *                                                           → group {E; E1};
 *   K6 holds F and has no commit                            → no group.
 * No group of several sessions or commits can be replayed from the tables (patches, not file states), so its rows have
 * null counts and a reason: the first of merge → transcript missing → commit unreadable. A group of one session and
 * one commit ({E}) gives its strict unit's numbers (metrics.md §1b), here patch-match. Strict units are the ones units.ts gives
 * (checked unchanged against a run that ignores groups: the `units` table has no group column to change).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyze } from "../../src/analyze";
import { groupIdOf } from "../../src/attribution/attribute-group";
import { checkpointRow, commitRow, writeTable } from "./fixture";

const REPO = "acme/tool";
const T0 = Date.parse("2026-05-01T09:00:00.000Z");
const id = (c: string) => `${c.repeat(8)}-${c.repeat(4)}-4${c.repeat(3)}-8${c.repeat(3)}-${c.repeat(12)}`;
const [A, B, C, N, D, E, F] = ["a", "b", "c", "1", "d", "e", "f"].map(id);
const pk = (k: string) => `${REPO}#${k.repeat(6)}`;
const [X1, X2, X3, M, E1, E2] = ["01", "02", "03", "0d", "e1", "e2"].map((x) => x.repeat(20));

const fileDiff = (path: string, lines: string[]) =>
  [
    `diff --git a/${path} b/${path}`,
    "new file mode 100644",
    "index 0000000..1111111",
    "--- /dev/null",
    `+++ b/${path}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    "",
  ].join("\n");
const MERGE =
  "diff --cc m.txt\nindex 1111111,2222222..3333333\n--- a/m.txt\n+++ b/m.txt\n@@@ -1,1 -1,1 +1,2 @@@\n  m\n++n\n";

function writeDataset(): string {
  const dir = mkdtempSync(join(tmpdir(), "swechat-groups-"));
  const rows: Record<string, unknown>[] = [];
  const conv = (session: string, k: string, n: number) => {
    for (let t = 0; t < 2; t++)
      rows.push({
        turn_id: `${session}#${t}`,
        session_id: session,
        checkpoint_pk: pk(k),
        repo_id: REPO,
        turn_number: t,
        turn_type: t === 0 ? "user_prompt" : "assistant_response",
        role: t === 0 ? "user" : "assistant",
        content: `turn ${t}`,
        timestamp: new Date(T0 + (n * 100 + t) * 1000),
        agent: "Claude Code",
      });
  };
  conv(A, "k1", 1);
  conv(B, "k2", 2);
  conv(C, "k3", 3);
  conv(D, "k4", 4);
  conv(E, "k5", 5);
  conv(F, "k6", 6);
  writeTable(join(dir, "conversations.parquet"), "conversations", rows);
  const session = (s: string, checkpoints: string[], lines: number) => ({
    session_id: s,
    repo_id: REPO,
    owner_id: "acme",
    checkpoint_ids: JSON.stringify(checkpoints.map(pk)),
    canonical_checkpoint_pk: pk(checkpoints[0]),
    agent: "Claude Code",
    created_at: new Date(T0),
    files_touched: "[]",
    agent_lines: lines,
    total_committed: lines + 1,
    agent_percentage: (100 * lines) / (lines + 1),
    session_success: "50",
  });
  writeTable(join(dir, "sessions.parquet"), "sessions", [
    session(A, ["k1"], 1),
    session(B, ["k1", "k2"], 2),
    session(C, ["k3"], 3),
    session(D, ["k4"], 4),
    session(E, ["k5"], 5),
    session(F, ["k6"], 6),
  ]);
  const checkpoint = (k: string, sessions: string[], commits: string[]) =>
    checkpointRow(REPO, pk(k), k.repeat(6), sessions, commits);
  writeTable(join(dir, "checkpoints.parquet"), "checkpoints", [
    checkpoint("k1", [A, B], [X1]),
    checkpoint("k2", [B], [X2]),
    checkpoint("k3", [C, N], [X3]),
    checkpoint("k4", [D], [M]),
    checkpoint("k5", [E], [E1, E2]),
    checkpoint("k6", [F], []),
  ]);
  const commit = (sha: string, k: string, hours: number, patch: string, additions: number) =>
    commitRow({ sha, pk: pk(k), repo: REPO, date: new Date(T0 + hours * 3600_000), patch, additions });
  writeTable(join(dir, "commits.parquet"), "commits", [
    commit(X1, "k1", 1, fileDiff("x1.txt", ["a", "b"]), 2),
    commit(X2, "k2", 2, fileDiff("x2.txt", ["c", "d", "e"]), 3),
    commit(X3, "k3", 3, fileDiff("x3.txt", ["f"]), 1),
    commit(M, "k4", 4, MERGE, 1),
    commit(E1, "k5", 5, fileDiff("e.txt", ["g"]), 1),
    commit(E2, "k5", 6, fileDiff("e.txt", ["g"]), 1),
  ]);
  writeTable(join(dir, "repositories.parquet"), "repositories", [{ repo_id: REPO, name: "tool", num_checkpoints: 6 }]);
  return dir;
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataset = () => {
  const d = writeDataset();
  dirs.push(d);
  return d;
};

const NULL_COUNTS = {
  method: null,
  agent_lines_produced: null,
  agent_lines_final: null,
  agent_lines_survived: null,
  human_lines: null,
  outside_lines: null,
  total_committed_lines: null,
  code_survival_rate: null,
  coding_efficiency: null,
  agent_authored_pct: null,
  coding_mode: null,
  unreplayable_calls: null,
  outside_changes: null,
  other_session_lines: null,
  concurrent_calls: null,
  branch_switches: null,
};

const COUNT_COLUMNS = [
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
] as const;

test("SWE-chat groups: found from the tables, one row per (session, group), each with its reason and null counts; a one-session one-commit group its strict unit's numbers", async () => {
  const { rows } = await analyze({ inputs: [dataset()], threads: 1 });
  const row = (
    session: string,
    shas: string[],
    last: string,
    checkpoints: string,
    reason: string,
    numstat: number,
    sessions: number,
    entireLines: number | null,
    model: string | null = null,
  ) => ({
    session_id: session,
    commit_sha: last,
    checkpoint_id: checkpoints,
    repo: REPO,
    agent: "Claude Code",
    model,
    ambiguity: reason,
    numstat_additions: numstat,
    ...NULL_COUNTS,
    // The sessions row's session-level attribution, as the session's units show it (N has no sessions row).
    entire_agent_lines: entireLines,
    entire_total_committed: entireLines === null ? null : entireLines + 1,
    entire_agent_percentage: entireLines === null ? null : (100 * entireLines) / (entireLines + 1),
    group_id: groupIdOf(shas),
    group_commits: shas.length,
    group_sessions: sessions,
  });
  const k = (x: string) => x.repeat(6);
  // Groups in the order of their first commit's moment (commit_date): X1 (hour 1), X3, M, E1; members by id (N = 1111… before C = cccc…).
  // {A, B}: X1 then X2, the last is X2; checkpoints k1 (X1's) then k2; git's additions 2 + 3.
  // {C, N}: N has no conversation rows → group-transcript-missing (before commit-unreadable); N's agent is
  // unknown (no sessions row, no rows): null.
  // {D}: M's patch is a combined diff → group-merge-commit first. {E}: E2 is a copy of E1, left out: 1 commit, 1 line.
  const expected = [
    row(A, [X1, X2], X2, `${k("k1")};${k("k2")}`, "group-commit-unreadable", 5, 2, 1),
    row(B, [X1, X2], X2, `${k("k1")};${k("k2")}`, "group-commit-unreadable", 5, 2, 2),
    { ...row(N, [X3], X3, k("k3"), "group-transcript-missing", 1, 2, null), agent: null },
    row(C, [X3], X3, k("k3"), "group-transcript-missing", 1, 2, 3),
    row(D, [M], M, k("k4"), "group-merge-commit", 1, 1, 4),
  ];
  const shown = (rows.group_units ?? []).map((r) =>
    Object.fromEntries(Object.keys(expected[0]).map((c) => [c, r[c as keyof typeof r]])),
  );
  assert.deepEqual(shown.slice(0, 5), expected);
  // {E}: one session, one commit, so (metrics.md §1b) exactly its strict unit's numbers, patch-match from the tables,
  // with no other session's lines and nothing concurrent.
  const e = (rows.group_units ?? [])[5];
  const strictE = rows.units.find((u) => u.session_id === E)!;
  assert.equal(e.session_id, E);
  assert.equal(e.group_id, groupIdOf([E1]));
  for (const c of COUNT_COLUMNS) assert.equal(e[c], strictE[c], c);
  assert.equal(e.method, "patch-match");
  assert.equal(e.ambiguity, null);
  assert.deepEqual([e.other_session_lines, e.concurrent_calls, e.branch_switches], [0, 0, 0]);
  assert.equal(rows.group_units?.length, 6);

  // One note per group that a clone would attribute ({A, B}; {E} has its strict numbers), carrying its first session's
  // id and saying what to pass.
  const notes = rows.diagnostics.filter((d) => d.code === "group-commit-unreadable");
  assert.deepEqual(
    notes.map((d) => d.session_id),
    [A],
  );
  assert.match(
    notes[0].message,
    /group [0-9a-f]{12} of acme\/tool \(2 session\(s\), commits 010101010101, 020202020202\)/,
  );
  assert.match(notes[0].message, /clone https:\/\/github\.com\/acme\/tool into DIR\/acme\/tool and pass `--repos DIR`/);

  // Strict units are untouched: F (no commit) has none; B's two units are multi-checkpoint-session, A's multi-session-checkpoint.
  assert.deepEqual(
    rows.units.map((u) => [u.session_id.slice(0, 1), u.commit_sha.slice(0, 2), u.ambiguity]).sort(),
    [
      ["a", "01", "multi-session-checkpoint"],
      ["b", "01", "multi-session-checkpoint"],
      ["b", "02", "multi-checkpoint-session"],
      ["c", "03", "multi-session-checkpoint"],
      ["d", "0d", "merge-commit"],
      ["e", "e1", null],
    ].sort(),
  );
});

test("SWE-chat groups and shards: a group's sessions land in one shard, and the shards together are the whole run", async () => {
  const dir = dataset();
  const whole = (await analyze({ inputs: [dir], threads: 1 })).rows;
  const parts = [];
  // By id alone A and B would fall in shards 1 and 2 of 2 (shardOfKey): the group's id keeps them together.
  for (const index of [1, 2])
    parts.push((await analyze({ inputs: [dir], threads: 1, shard: { index, count: 2 } })).rows);
  const key = (r: { session_id: string; group_id: string }) => `${r.group_id}/${r.session_id}`;
  assert.deepEqual(
    parts.flatMap((p) => (p.group_units ?? []).map(key)).sort(),
    (whole.group_units ?? []).map(key).sort(),
  );
  assert.deepEqual(
    parts.flatMap((p) => p.units.map((u) => `${u.session_id}/${u.commit_sha}`)).sort(),
    whole.units.map((u) => `${u.session_id}/${u.commit_sha}`).sort(),
  );
  // A and B share a group: the shard holding A's units holds B's too.
  for (const p of parts) {
    const has = (s: string) => p.units.some((u) => u.session_id === s);
    assert.equal(has(A), has(B));
  }
});
