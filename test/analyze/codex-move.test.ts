/**
 * Codex `*** Move to:` (a rename inside apply_patch), replayed in a real repository (`git init` in a
 * temp folder) with Entire checkpoints. The old path's lines move to the new path with their
 * provenance, the old path is left empty, then the diff applies (found by the session-5 adversarial
 * round: before, the diff was applied to the new path's empty state, failed, and the agent's lines
 * counted as human; the independent reference already carried the state over).
 *
 * Base commit: old.txt = "o1\no2\no3\n", a.txt = "a1\na2\n".
 *
 * Session A (checkpoint CP_A), patch_apply_end with `move_path`: old.txt → moved.txt, o2 → O2.
 *   Replay: moved.txt = [o1 base, o2 base, o3 base] carried over, then the diff: [o1 base, O2 agent,
 *   o3 base]; produced 1, final 1. Commit A deletes old.txt (adds nothing) and adds moved.txt: 3
 *   lines, none of them in the base (no rename detection, metrics.md §4), so all 3 are committed: O2
 *   agent, o1 and o3 replayed base → human. Survived 1, human 2, outside 0, total 3. Its tool_calls
 *   row names the new path, +1 −1.
 * Session B (CP_B), the same through a shell heredoc with no patch_apply_end: a.txt → b.txt, a2 →
 *   A2, A3. Replay [a1 base, A2 agent, A3 agent]: produced 2, final 2; commit B adds b.txt's 3
 *   lines: survived 2, human 1, total 3.
 * Session C (CP_C), a pure rename with an empty diff: k.txt → k2.txt, unchanged. Replay: k2.txt = [k1 base,
 *   k2 base]; produced 0; commit C adds k2.txt's 2 lines (replayed base → human): human 2, total 2, and the
 *   call replays (unreplayable 0).
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { analyze } from "../../src/index";
import type { Diagnostic, ToolCallRow, UnitRow } from "../../src/model";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { CodexLog, usage } from "../ingest-agents/codex-log";

const ROOT = "/home/u/proj";
const CP_A = "e10000000001";
const CP_B = "e10000000002";
const CP_C = "e10000000003";
const SESSION_A = "019dbcc1-0000-7000-8000-00000000a001";
const SESSION_B = "019dbcc1-0000-7000-8000-00000000b001";
const SESSION_C = "019dbcc1-0000-7000-8000-00000000c001";

/** A pure rename: patch_apply_end with an empty diff and `move_path` (found by differential fuzzing: it was unreplayable). */
function rolloutC(): string {
  return new CodexLog({ id: SESSION_C, cwd: ROOT, start: "2026-03-02T12:30:00.000Z" })
    .meta()
    .turn()
    .prompt("rename k.txt")
    .patch("call_r", `*** Begin Patch\n*** Update File: ${ROOT}/k.txt\n*** Move to: ${ROOT}/k2.txt\n*** End Patch\n`, {
      [`${ROOT}/k.txt`]: { type: "update", unified_diff: "", move_path: `${ROOT}/k2.txt` },
    })
    .tokens(usage(100, 0, 10, 0))
    .text();
}

function rolloutA(): string {
  const diff = "@@ -1,3 +1,3 @@\n o1\n-o2\n+O2\n o3\n";
  return new CodexLog({ id: SESSION_A, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
    .meta()
    .turn()
    .prompt("rename old.txt and fix o2")
    .patch(
      "call_m",
      `*** Begin Patch\n*** Update File: ${ROOT}/old.txt\n*** Move to: ${ROOT}/moved.txt\n@@\n o1\n-o2\n+O2\n o3\n*** End Patch\n`,
      {
        [`${ROOT}/old.txt`]: { type: "update", unified_diff: diff, move_path: `${ROOT}/moved.txt` },
      },
    )
    .tokens(usage(100, 0, 10, 0))
    .text();
}

function rolloutB(): string {
  const patch = "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n a1\n-a2\n+A2\n+A3\n*** End Patch";
  const log = new CodexLog({ id: SESSION_B, cwd: ROOT, start: "2026-03-02T11:30:00.000Z" })
    .meta()
    .turn()
    .prompt("rename a.txt");
  log.env("response_item", {
    type: "function_call",
    name: "exec_command",
    arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF`, workdir: ROOT }),
    call_id: "call_h",
  });
  log.env("response_item", {
    type: "function_call_output",
    call_id: "call_h",
    output: "Process exited with code 0\nOutput:\nSuccess. Updated the following files:\nM b.txt\n",
  });
  return log.tokens(usage(100, 0, 10, 0)).text();
}

describe("Codex file moves: the old path's lines move to the new path, then the diff applies", () => {
  const repo = new TestRepo("sce-codex-move-");
  const sha: Record<string, string> = {};
  let units: UnitRow[] = [];
  let toolCalls: ToolCallRow[] = [];
  let diagnostics: Diagnostic[] = [];
  const counts = (u: UnitRow) => [
    u.ambiguity,
    u.agent_lines_produced,
    u.agent_lines_final,
    u.agent_lines_survived,
    u.human_lines,
    u.outside_lines,
    u.total_committed_lines,
    u.unreplayable_calls,
  ];

  before(async () => {
    repo.commit("base", { "old.txt": "o1\no2\no3\n", "a.txt": "a1\na2\n", "k.txt": "k1\nk2\n" });
    repo.git("rm", "-q", "old.txt");
    sha.A = repo.commit(`Rename old\n\nEntire-Checkpoint: ${CP_A}`, { "moved.txt": "o1\nO2\no3\n" });
    repo.git("rm", "-q", "a.txt");
    sha.B = repo.commit(`Rename a\n\nEntire-Checkpoint: ${CP_B}`, { "b.txt": "a1\nA2\nA3\n" });
    repo.git("rm", "-q", "k.txt");
    sha.C = repo.commit(`Rename k\n\nEntire-Checkpoint: ${CP_C}`, { "k2.txt": "k1\nk2\n" });
    const meta = (id: string, session: string) =>
      JSON.stringify({ checkpoint_id: id, session_id: session, agent: "Codex", created_at: "2026-03-02T12:00:00Z" });
    repo.checkpointsBranch({
      ...oneSessionCheckpoint(CP_A, meta(CP_A, SESSION_A), { "full.jsonl": rolloutA() }),
      ...oneSessionCheckpoint(CP_B, meta(CP_B, SESSION_B), { "full.jsonl": rolloutB() }),
      ...oneSessionCheckpoint(CP_C, meta(CP_C, SESSION_C), { "full.jsonl": rolloutC() }),
    });
    const result = await analyze({ inputs: [repo.dir], threads: 1 });
    units = result.rows.units;
    toolCalls = result.rows.tool_calls;
    diagnostics = result.rows.diagnostics;
  });
  after(() => rmSync(repo.dir, { recursive: true, force: true }));

  test("a move logged in patch_apply_end (move_path): the changed line is the agent's, the carried lines human", () => {
    const u = units.find((x) => x.checkpoint_id === CP_A)!;
    assert.equal(u.commit_sha, sha.A);
    assert.deepEqual(counts(u), [null, 1, 1, 1, 2, 0, 3, 0]);
    assert.deepEqual(
      toolCalls.filter((c) => c.session_id === SESSION_A).map((c) => [c.tool, c.file, c.lines_added, c.lines_removed]),
      [["apply_patch", "moved.txt", 1, 1]],
    );
    const move = diagnostics.filter((d) => d.code === "codex-patch-move" && d.session_id === SESSION_A);
    assert.deepEqual(
      move.map((d) => d.severity),
      ["info"],
    );
    assert.equal(diagnostics.filter((d) => d.code === "edit-unreplayable").length, 0);
  });

  test("a move in apply_patch text only (a shell heredoc, no patch_apply_end)", () => {
    const u = units.find((x) => x.checkpoint_id === CP_B)!;
    assert.equal(u.commit_sha, sha.B);
    assert.deepEqual(counts(u), [null, 2, 2, 2, 1, 0, 3, 0]);
  });

  test("a pure rename (empty diff): the carried lines, unchanged, and nothing unreplayable", () => {
    const u = units.find((x) => x.checkpoint_id === CP_C)!;
    assert.equal(u.commit_sha, sha.C);
    assert.deepEqual(counts(u), [null, 0, 0, 0, 2, 0, 2, 0]);
  });
});
