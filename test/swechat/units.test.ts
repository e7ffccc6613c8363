import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type CheckpointRow,
  type CommitMetaRow,
  fingerprint,
  linkCheckpoints,
  makeUnitLinker,
  type SpooledPatch,
  splitGitPatch,
  type SwechatSessionRow,
} from "../../src/ingest/swechat";

const cp = (pk: string, sessions: string[], commits: string[], authors = 1): CheckpointRow => ({
  checkpoint_pk: pk,
  repo_id: "r/x",
  session_pks: sessions,
  session_count: sessions.length,
  commit_shas: commits,
  commit_count: commits.length,
  unique_author_count: authors,
});
let position = 0;
const commit = (sha: string, pk: string, hour: number, status = "ok"): CommitMetaRow => ({
  commit_sha: sha,
  checkpoint_pk: pk,
  repo_id: "r/x",
  commit_date: hour * 3_600_000,
  total_additions: 1,
  is_agent_author: false,
  status,
  position: position++,
});
const session = (id: string, checkpoints: string[]): SwechatSessionRow => ({
  session_id: id,
  repo_id: "r/x",
  checkpoint_ids: checkpoints,
  canonical_checkpoint_pk: checkpoints[0] ?? null,
  agent: "Claude Code",
  branch: null,
  created_at: null,
  files_touched: [],
  agent_lines: null,
  human_added: null,
  human_modified: null,
  human_removed: null,
  total_committed: null,
  agent_percentage: null,
  session_success: null,
});
const patch = (text: string | null): SpooledPatch => ({
  ref: text === null ? null : { offset: 0, length: text.length },
  fingerprint: text === null ? null : fingerprint(text),
  merge: text?.startsWith("diff --cc") === true,
});

/**
 * a: alone in cp1 with one commit → unambiguous.
 * b and c share cp2 → multi-session-checkpoint (c is linked only through cp2's session_pks).
 * d is in cp3 and cp4 (its checkpoint_ids) → multi-checkpoint-session, on both units;
 *   cp4's commit is a merge (combined diff) → its reasons also hold merge-commit.
 * e: cp5 has two commits plus a rebased copy of the first (same changes, other index line and hunk
 *   header, later) → two units, multi-commit-checkpoint; the copy is dropped (copies 1).
 * f: cp6, commit status "error" → commit-unreadable; two authors → multi-author-checkpoint after it.
 */
test("units and their ambiguity reasons, in metrics.md's order", () => {
  const P1 = "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
  const P1copy = "diff --git a/x b/x\nindex 7..8 100644\n--- a/x\n+++ b/x\n@@ -10 +10 @@\n-a\n+b\n";
  const checkpoints = new Map(
    [
      cp("cp1", ["a"], ["s1"]),
      cp("cp2", ["b", "c"], ["s2"]),
      cp("cp3", ["d"], ["s3"]),
      cp("cp4", ["d"], ["s4"]),
      cp("cp5", ["e"], ["s5", "s6", "s7"]),
      cp("cp6", ["f"], ["s8"], 2),
    ].map((c) => [c.checkpoint_pk, c]),
  );
  const commits = [
    commit("s1", "cp1", 1),
    commit("s2", "cp2", 1),
    commit("s3", "cp3", 1),
    commit("s4", "cp4", 2),
    commit("s7", "cp5", 3),
    commit("s5", "cp5", 1),
    commit("s6", "cp5", 2),
    commit("s8", "cp6", 1, "error"),
  ];
  const byCp = new Map<string, CommitMetaRow[]>();
  for (const c of commits) byCp.set(c.checkpoint_pk!, [...(byCp.get(c.checkpoint_pk!) ?? []), c]);
  const patches = new Map<string, SpooledPatch>([
    ["s1", patch(P1)],
    ["s2", patch(P1)],
    ["s3", patch(P1)],
    ["s4", patch("diff --cc x\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n +b\n")],
    ["s5", patch(P1)],
    ["s6", patch("diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n")],
    ["s7", patch(P1copy)],
    ["s8", patch(null)],
  ]);
  const links = new Map([
    ["a", { session: session("a", ["cp1"]), rowCheckpoint: "cp1" }],
    ["b", { session: session("b", ["cp2"]), rowCheckpoint: null }],
    ["c", { session: undefined, rowCheckpoint: null }],
    ["d", { session: session("d", ["cp3", "cp4"]), rowCheckpoint: "cp4" }],
    ["e", { session: session("e", ["cp5"]), rowCheckpoint: null }],
    ["f", { session: session("f", ["cp6"]), rowCheckpoint: null }],
  ]);
  const sessionCheckpoints = linkCheckpoints(checkpoints, links);
  assert.deepEqual(sessionCheckpoints.get("c"), ["cp2"]);
  const linker = makeUnitLinker(checkpoints, byCp, sessionCheckpoints);
  const got = [...links.keys()].flatMap((id) =>
    linker.unitsOf(id, patches).map((u) => [id, u.commit.commit_sha, u.reasons.join(","), u.copies]),
  );
  assert.deepEqual(got, [
    ["a", "s1", "", 0],
    ["b", "s2", "multi-session-checkpoint", 0],
    ["c", "s2", "multi-session-checkpoint", 0],
    ["d", "s3", "multi-checkpoint-session", 0],
    ["d", "s4", "multi-checkpoint-session,merge-commit", 0],
    ["e", "s5", "multi-commit-checkpoint", 1],
    ["e", "s6", "multi-commit-checkpoint", 0],
    ["f", "s8", "commit-unreadable,multi-author-checkpoint", 0],
  ]);
});

test("a commit's patch split per file: renames, deletions, binary files, quoted paths", () => {
  const text = [
    "diff --git a/src/a.ts b/src/a.ts",
    "index 1..2 100644",
    "--- a/src/a.ts",
    "+++ b/src/a.ts",
    "@@ -1,2 +1,2 @@",
    " keep",
    "-old",
    "+new",
    "diff --git a/old.md b/docs/new.md",
    "similarity index 90%",
    "rename from old.md",
    "rename to docs/new.md",
    "--- a/old.md",
    "+++ b/docs/new.md",
    "@@ -1 +1 @@",
    "-x",
    "+y",
    "diff --git a/gone.txt b/gone.txt",
    "deleted file mode 100644",
    "--- a/gone.txt",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-bye",
    "diff --git a/logo.png b/logo.png",
    "index 3..4 100644",
    "Binary files a/logo.png and b/logo.png differ",
    'diff --git "a/sp ace.txt" "b/sp ace.txt"',
    "new file mode 100644",
    "--- /dev/null",
    '+++ "b/sp ace.txt"',
    "@@ -0,0 +1 @@",
    "+hi",
    "",
  ].join("\n");
  assert.deepEqual(splitGitPatch(text), [
    { path: "src/a.ts", patch: "@@ -1,2 +1,2 @@\n keep\n-old\n+new\n" },
    { path: "docs/new.md", patch: "@@ -1 +1 @@\n-x\n+y\n" },
    { path: "gone.txt", patch: "@@ -1 +0,0 @@\n-bye\n" },
    { path: "logo.png", patch: null },
    { path: "sp ace.txt", patch: "@@ -0,0 +1 @@\n+hi\n" },
  ]);
});
