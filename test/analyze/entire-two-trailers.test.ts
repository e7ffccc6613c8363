/**
 * A commit that carries the checkpoints of two sessions (two `Entire-Checkpoint` trailers in its last
 * paragraph), in a real repository (`git init` in a temp folder). metrics.md §1 leaves out a commit's
 * units when one checkpoint holds several sessions (rule 1); this is its mirror image, and the product
 * leaves these units out too, as `multi-session-commit` (found by the session-5 adversarial round: both
 * units were unambiguous, each counting the other session's agent lines as human, and the commit twice).
 *
 * Commit C adds a.txt = "a1\na2\n" and b.txt = "b1\n" with trailers CP_A and CP_B.
 * - Session A (CP_A) Writes a.txt: produced 2, final 2; committed: a1, a2 agent, b1 human (A never
 *   touched b.txt): survived 2, human 1, total 3.
 * - Session B (CP_B) Writes b.txt: produced 1, final 1, survived 1, human 2, total 3.
 * Both are `multi-session-commit`; each unit-excluded row names the commit's two checkpoints.
 * Commit D carries two checkpoints of ONE session (CP_S1, CP_S2): `multi-checkpoint-session` (rule 2),
 * and not `multi-session-commit`, since no other session's lines are in it.
 * Commit E carries CP_S3 (session S again) and CP_F (session F): S's unit has both reasons, rule 2 first
 * (`multi-session-commit` comes after rule 3); F's unit is `multi-session-commit`.
 * The independent reference with the same addition (`multiSessionCommit`) agrees on every column.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { analyze } from "../../src/index";
import type { Diagnostic, UnitRow } from "../../src/model";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { agrees, compareUnits, formatComparison } from "../reference/compare";
import { runReference } from "../reference/reference";

const ROOT = "/home/u/proj";
const CP_A = "aa0000000001";
const CP_B = "bb0000000001";
const CP_S1 = "cc0000000001";
const CP_S2 = "cc0000000002";
const CP_S3 = "cc0000000003";
const CP_F = "ff0000000001";
const SESSION_A = "a0000000-0000-4000-8000-000000000001";
const SESSION_B = "b0000000-0000-4000-8000-000000000001";
const SESSION_S = "c0000000-0000-4000-8000-000000000001";
const SESSION_F = "f0000000-0000-4000-8000-000000000001";

const write = (session: string, path: string, content: string) =>
  new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt(`write ${path}`)
    .call(`toolu_${path}`, "Write", { file_path: `${ROOT}/${path}`, content })
    .result(`toolu_${path}`, writeResult(`${ROOT}/${path}`, content, null))
    .text();
const meta = (cp: string, session: string) =>
  JSON.stringify({ checkpoint_id: cp, session_id: session, agent: "Claude Code" });

describe("Entire: one commit carrying the checkpoints of several sessions", () => {
  const repo = new TestRepo("sce-two-trailers-");
  const sha: Record<string, string> = {};
  let units: UnitRow[] = [];
  let diagnostics: Diagnostic[] = [];
  const unit = (cp: string) => units.find((u) => u.checkpoint_id === cp)!;
  const counts = (u: UnitRow) => [
    u.ambiguity,
    u.agent_lines_produced,
    u.agent_lines_final,
    u.agent_lines_survived,
    u.human_lines,
    u.total_committed_lines,
  ];

  before(async () => {
    repo.commit("base", { "README.md": "r\n" });
    sha.C = repo.commit(`Add a and b\n\nEntire-Checkpoint: ${CP_A}\nEntire-Checkpoint: ${CP_B}`, {
      "a.txt": "a1\na2\n",
      "b.txt": "b1\n",
    });
    sha.D = repo.commit(`Add s\n\nEntire-Checkpoint: ${CP_S1}\nEntire-Checkpoint: ${CP_S2}`, { "s.txt": "s1\n" });
    sha.E = repo.commit(`Add e and f\n\nEntire-Checkpoint: ${CP_S3}\nEntire-Checkpoint: ${CP_F}`, {
      "e.txt": "e1\n",
      "f.txt": "f1\n",
    });
    repo.checkpointsBranch({
      ...oneSessionCheckpoint(CP_A, meta(CP_A, SESSION_A), { "full.jsonl": write(SESSION_A, "a.txt", "a1\na2\n") }),
      ...oneSessionCheckpoint(CP_B, meta(CP_B, SESSION_B), { "full.jsonl": write(SESSION_B, "b.txt", "b1\n") }),
      ...oneSessionCheckpoint(CP_S1, meta(CP_S1, SESSION_S), { "full.jsonl": write(SESSION_S, "s.txt", "s1\n") }),
      ...oneSessionCheckpoint(CP_S2, meta(CP_S2, SESSION_S), { "full.jsonl": write(SESSION_S, "s.txt", "s1\n") }),
      ...oneSessionCheckpoint(CP_S3, meta(CP_S3, SESSION_S), { "full.jsonl": write(SESSION_S, "e.txt", "e1\n") }),
      ...oneSessionCheckpoint(CP_F, meta(CP_F, SESSION_F), { "full.jsonl": write(SESSION_F, "f.txt", "f1\n") }),
    });
    const result = await analyze({ inputs: [repo.dir], threads: 1 });
    units = result.rows.units;
    diagnostics = result.rows.diagnostics;
  });
  after(() => rmSync(repo.dir, { recursive: true, force: true }));

  test("each session's unit is left out of headline numbers, with the two checkpoints named", () => {
    assert.deepEqual(counts(unit(CP_A)), ["multi-session-commit", 2, 2, 2, 1, 3]);
    assert.deepEqual(counts(unit(CP_B)), ["multi-session-commit", 1, 1, 1, 2, 3]);
    for (const [cp, session] of [
      [CP_A, SESSION_A],
      [CP_B, SESSION_B],
    ]) {
      const rows = diagnostics.filter((d) => d.code === "unit-excluded" && d.session_id === session);
      assert.equal(rows.length, 1);
      assert.match(
        rows[0].message,
        new RegExp(`checkpoint ${cp}\\).*multi-session-commit \\(.*the commit carries checkpoints 2: ${CP_A}, ${CP_B}`),
      );
    }
  });

  test("two checkpoints of one session on one commit: rule 2 only", () => {
    for (const cp of [CP_S1, CP_S2]) {
      assert.equal(unit(cp).ambiguity, "multi-checkpoint-session");
      assert.equal(unit(cp).commit_sha, sha.D);
    }
  });

  test("with rule 2 as well, rule 2 comes first; the other session's unit is multi-session-commit", () => {
    const s3 = units.find((u) => u.checkpoint_id === CP_S3)!;
    assert.deepEqual([s3.commit_sha, s3.ambiguity], [sha.E, "multi-checkpoint-session"]);
    assert.match(
      diagnostics.find((d) => d.code === "unit-excluded" && d.message.includes(`checkpoint ${CP_S3}`))!.message,
      /multi-checkpoint-session \(.*; also multi-session-commit \(/,
    );
    assert.equal(unit(CP_F).ambiguity, "multi-session-commit");
  });

  test("the independent reference, with the same addition, agrees on every column", () => {
    const comparison = compareUnits(runReference(repo.dir, { multiSessionCommit: true }).units, units);
    assert.ok(agrees(comparison), formatComparison(comparison));
    // By the letter of §1 (no addition) the reference calls the first two unambiguous.
    assert.deepEqual(
      runReference(repo.dir)
        .units.filter((u) => u.commit_sha === sha.C)
        .map((u) => u.ambiguity),
      [null, null],
    );
  });
});
