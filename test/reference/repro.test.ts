/**
 * The smallest reproductions of the disagreements found on the dev mirror, and of the §1 rules the
 * dev mirror does not exercise (merge commits, a checkpoint id reused on a second commit). Each
 * builds a real git repository with one Entire checkpoint (fixture.ts), runs the reference and the
 * product's public `analyze`, and compares per-unit numbers worked out by hand.
 *
 * The product-side tests of the three disagreements found first (Codex hunk placement,
 * unreplayable calls counted per file, suffix-first tie-breaking) were `todo` until the product was
 * fixed; they are plain tests now and guard the fixes.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { type FixtureSpec, ROOT_IN_LOG, buildFixture, claudeWrite, codexRollout } from "./fixture";
import { NUMBER_COLUMNS, type ReferenceOptions, runReference } from "./reference";

/** "ambiguity produced/final/survived/human/outside/total unreplayable oc" per unit, sorted by commit time. */
type Row = Record<string, unknown>;
const fmt = (u: Row): string =>
  `${String(u.ambiguity ?? "-")} ${NUMBER_COLUMNS.slice(0, 6)
    .map((c) => u[c])
    .join("/")} u${u.unreplayable_calls} oc${u.outside_changes}`;

async function both(
  spec: FixtureSpec,
  options: ReferenceOptions = {},
): Promise<{ reference: string[]; product: string[] }> {
  const f = buildFixture(spec);
  try {
    const reference = runReference(f.repo, options).units;
    const { rows } = await analyze({ inputs: [f.repo] });
    const order = (units: Row[]) => [...units].sort((a, b) => String(a.commit_sha).localeCompare(String(b.commit_sha)));
    return {
      reference: order(reference as unknown as Row[]).map(fmt),
      product: order(rows.units as unknown as Row[]).map(fmt),
    };
  } finally {
    f.cleanup();
  }
}

// --- 1. Codex hunk placement -------------------------------------------------------------
// Base f.go = a, }, b, }. Codex's patch_apply_end records "@@ -4,1 +4,2 @@ / } / +c": c goes after
// line 4 (the second "}"). The commit is a, }, b, }, c. Reference: produced 1 (c), final 1, the
// commit adds 1 line (c), agent: 1/1/1/0/0/1. Applying the hunk at the first "}" (line 2) instead
// leaves c between "}" and "b"; at the commit that c is deleted and a new c inserted: human 1.
const HUNK: FixtureSpec = {
  checkpointId: "a1b2c3d4e5f6",
  sessionId: "019e0000-0000-7000-8000-000000000001",
  agent: "Codex",
  base: { "f.go": "a\n}\nb\n}\n" },
  commit: { "f.go": "a\n}\nb\n}\nc\n" },
  transcript: codexRollout(
    "019e0000-0000-7000-8000-000000000001",
    { [`${ROOT_IN_LOG}/f.go`]: { type: "update", unified_diff: "@@ -4,1 +4,2 @@\n }\n+c\n", move_path: null } },
    "*** Begin Patch\n*** Update File: f.go\n@@\n b\n }\n+c\n*** End Patch\n",
  ),
};

test("Codex hunk placement: the reference puts the hunk at its @@ line (hand-worked 1/1/1/0/0/1)", async () => {
  const { reference } = await both(HUNK);
  assert.deepEqual(reference, ["- 1/1/1/0/0/1 u0 oc0"]);
});

test("Codex hunk placement: analyze agrees (the hunk goes to its @@ line)", async () => {
  const { reference, product } = await both(HUNK);
  assert.deepEqual(product, reference);
});

// --- 2. Unreplayable calls are calls -----------------------------------------------------------
// One apply_patch changes a.txt and b.txt; neither hunk's old side ("q") is in the file. One call
// is unreplayable (metrics.md §3.2 "the call is unreplayable: count it"), not two. The commit adds
// z to a.txt: 1 committed line, human. 0/0/0/1/0/1, unreplayable 1.
const UNREPLAYABLE: FixtureSpec = {
  checkpointId: "b1b2c3d4e5f6",
  sessionId: "019e0000-0000-7000-8000-000000000002",
  agent: "Codex",
  base: { "a.txt": "x\n", "b.txt": "y\n" },
  commit: { "a.txt": "x\nz\n" },
  transcript: codexRollout(
    "019e0000-0000-7000-8000-000000000002",
    {
      [`${ROOT_IN_LOG}/a.txt`]: { type: "update", unified_diff: "@@ -1,1 +1,1 @@\n-q\n+r\n", move_path: null },
      [`${ROOT_IN_LOG}/b.txt`]: { type: "update", unified_diff: "@@ -1,1 +1,1 @@\n-q\n+s\n", move_path: null },
    },
    "*** Begin Patch\n*** Update File: a.txt\n@@\n-q\n+r\n*** Update File: b.txt\n@@\n-q\n+s\n*** End Patch\n",
  ),
};

test("unreplayable_calls counts calls: one apply_patch failing on two files is 1 (hand-worked 0/0/0/1/0/1, u1)", async () => {
  const { reference } = await both(UNREPLAYABLE);
  assert.deepEqual(reference, ["- 0/0/0/1/0/1 u1 oc0"]);
});

test("unreplayable_calls counts calls: analyze agrees (one call failing on two files is 1)", async () => {
  const { reference, product } = await both(UNREPLAYABLE);
  assert.deepEqual(product, reference);
});

// --- 3. Tie-breaking between equal lines ----------------------------------------------------
// Base t.txt = x. Claude Write (update): x → }, x, x (produced 2). Then the person appends y.
// jsdiff on whole arrays: the agent's lines are "}" and the second x; git's view base → commit
// (jsdiff, whole) keeps the first x; committed lines }, x₂, y → agent 2, human 1.
// After trimming the common suffix: the agent's lines are "}" and the first x, while the anchor
// diff base → commit (no common prefix or suffix to trim) still keeps the first x, so that agent x
// is "kept" and x₂ (replayed base) is committed as human: agent 1, human 2.
const TIE: FixtureSpec = {
  checkpointId: "c1b2c3d4e5f6",
  sessionId: "c0000000-0000-4000-8000-000000000003",
  agent: "Claude Code",
  base: { "t.txt": "x\n" },
  commit: { "t.txt": "}\nx\nx\ny\n" },
  transcript: claudeWrite("c0000000-0000-4000-8000-000000000003", "t.txt", "x\n", "}\nx\nx\n"),
};

test('tie-breaking: the reference\'s two readings of "Myers, the diff package" (hand-worked 2/2/2/1/0/3 and 2/2/1/2/0/3)', async () => {
  assert.deepEqual((await both(TIE)).reference, ["- 2/2/2/1/0/3 u0 oc0"]);
  assert.deepEqual((await both(TIE, { lineDiff: "trim-common" })).reference, ["- 2/2/1/2/0/3 u0 oc0"]);
});

test("tie-breaking: analyze agrees with jsdiff on whole line arrays", async () => {
  const { reference, product } = await both(TIE);
  assert.deepEqual(product, reference);
});

// --- 4. §1 rules the dev mirror does not exercise -------------------------------------------
const write = (id: string) => claudeWrite(id, "t.txt", "x\n", "x\ny\n");

test("merge commit: the unit carries merge-commit; the first-parent diff brings the side branch's lines in as human", async () => {
  // First-parent diff of the merge: t.txt +y (the agent's Write) and s.txt +s1, +s2 (the merged
  // branch, never touched by the agent): 3 committed lines, 1 agent, 2 human.
  const { reference, product } = await both({
    checkpointId: "d1b2c3d4e5f6",
    sessionId: "d0000000-0000-4000-8000-000000000004",
    agent: "Claude Code",
    base: { "t.txt": "x\n" },
    commit: { "t.txt": "x\ny\n" },
    mergeSide: { "s.txt": "s1\ns2\n" },
    transcript: write("d0000000-0000-4000-8000-000000000004"),
  });
  assert.deepEqual(reference, ["merge-commit 1/1/1/2/0/3 u0 oc0"]);
  assert.deepEqual(product, reference);
});

test("a checkpoint id on two different commits: two units, both multi-commit-checkpoint", async () => {
  // C1 adds y (the agent's Write): 1/1/1/0/0/1. C2 (later, same trailer) adds u.txt: its base is
  // C1, where t.txt already has y, so the Write's pre-image (x) differs from the replayed state: an
  // outside change (oc 1); the Write inserts y again (produced 1, final 1), C2 does not change t.txt
  // (survived 0), and u is human: 1/1/0/1/0/1.
  const { reference, product } = await both({
    checkpointId: "e1b2c3d4e5f6",
    sessionId: "e0000000-0000-4000-8000-000000000005",
    agent: "Claude Code",
    base: { "t.txt": "x\n" },
    commit: { "t.txt": "x\ny\n" },
    reuse: { "u.txt": "u\n" },
    transcript: write("e0000000-0000-4000-8000-000000000005"),
  });
  assert.deepEqual([...reference].sort(), [
    "multi-commit-checkpoint 1/1/0/1/0/1 u0 oc1",
    "multi-commit-checkpoint 1/1/1/0/0/1 u0 oc0",
  ]);
  assert.deepEqual([...product].sort(), [...reference].sort());
});

test("a session also in a checkpoint on no commit: multi-checkpoint-session, and that folder is counted, not a unit", async () => {
  // metrics.md §1 rule 2 reads "linked to exactly one checkpoint"; both sides count every checkpoint
  // holding a folder of the session, committed or not. Numbers: the Write adds y: 1/1/1/0/0/1.
  const spec: FixtureSpec = {
    checkpointId: "f1b2c3d4e5f6",
    unlinkedCheckpointId: "f2b2c3d4e5f6",
    sessionId: "f0000000-0000-4000-8000-000000000006",
    agent: "Claude Code",
    base: { "t.txt": "x\n" },
    commit: { "t.txt": "x\ny\n" },
    transcript: write("f0000000-0000-4000-8000-000000000006"),
  };
  const { reference, product } = await both(spec);
  assert.deepEqual(reference, ["multi-checkpoint-session 1/1/1/0/0/1 u0 oc0"]);
  assert.deepEqual(product, reference);
  const f = buildFixture(spec);
  try {
    assert.equal(runReference(f.repo).unlinked_session_folders, 1);
  } finally {
    f.cleanup();
  }
});

test("symbolic links: a Write through CLAUDE.md (→ AGENTS.md) and through a folder link; the reference follows them with --follow-symlinks", async () => {
  // Base: AGENTS.md = "x\n", CLAUDE.md → AGENTS.md. The agent Writes CLAUDE.md = "x\ny\n" (originalFile "x\n",
  // read through the link). The commit: AGENTS.md = "x\ny\nz\n" (z: the person's).
  // Following the link: the pre-image matches AGENTS.md (oc 0); y is the agent's (produced 1, final 1); at the
  // commit y survives and z is human: 1/1/1/1/0/2.
  // On the link's own blob (the text "AGENTS.md", the reference's default): the pre-image "x" differs (oc 1;
  // x becomes an outside line), the Write inserts y (produced 1, final 1) in CLAUDE.md, which the commit does
  // not change: survived 0, and y and z in AGENTS.md are human: 1/1/0/2/0/2.
  const spec: FixtureSpec = {
    checkpointId: "a7b2c3d4e5f6",
    sessionId: "a0000000-0000-4000-8000-000000000007",
    agent: "Claude Code",
    base: { "AGENTS.md": "x\n" },
    links: { "CLAUDE.md": "AGENTS.md" },
    commit: { "AGENTS.md": "x\ny\nz\n" },
    transcript: claudeWrite("a0000000-0000-4000-8000-000000000007", "CLAUDE.md", "x\n", "x\ny\n"),
  };
  const followed = await both(spec, { followSymlinks: true });
  assert.deepEqual(followed.reference, ["- 1/1/1/1/0/2 u0 oc0"]);
  assert.deepEqual(followed.product, followed.reference);
  const literal = await both(spec);
  assert.deepEqual(literal.reference, ["- 1/1/0/2/0/2 u0 oc1"]);

  // A folder link: .claude/skills → ../.agents/skills; the Write of .claude/skills/s.md lands in .agents/skills/s.md.
  const folder: FixtureSpec = {
    checkpointId: "a8b2c3d4e5f6",
    sessionId: "a0000000-0000-4000-8000-000000000008",
    agent: "Claude Code",
    base: { ".agents/skills/s.md": "x\n" },
    links: { ".claude/skills": "../.agents/skills" },
    commit: { ".agents/skills/s.md": "x\ny\n" },
    transcript: claudeWrite("a0000000-0000-4000-8000-000000000008", ".claude/skills/s.md", "x\n", "x\ny\n"),
  };
  const viaFolder = await both(folder, { followSymlinks: true });
  assert.deepEqual(viaFolder.reference, ["- 1/1/1/0/0/1 u0 oc0"]);
  assert.deepEqual(viaFolder.product, viaFolder.reference);
});
