/**
 * Codex 0.149+ reports file changes as `item_completed` events holding a `FileChange` item instead of
 * `patch_apply_end`, and Code Mode runs `tools.apply_patch(…)` inside a JavaScript `exec` call (record shapes
 * from public Codex rollouts and readers of 2026; found by the session-6 format-drift round). Before, both
 * were dropped without a word: in Code Mode every agent line counted as human. Real git repositories with an
 * Entire checkpoint; the independent reference (test/reference) must agree on every unit column.
 *
 * Each case: base a.py = "old\nkeep\n". Patch A: old → new, +added (a.py = "new\nkeep\nadded\n"); patch B adds
 * b.py = "fresh\nfile\n". The commit holds exactly that. Replayed: new and added (2) + fresh and file (2) are
 * the agent's: produced 4, final 4; all committed as written: survived 4, human 0, total 4 (git: a.py +2 −1,
 * b.py +2).
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { CodexLog, usage } from "../ingest-agents/codex-log";
import { compareSessions, compareUnits } from "../reference/compare";
import { runReference } from "../reference/reference";
import { runReferenceSessions } from "../reference/sessions";

const ROOT = "/home/u/cx";
const SESSION = "019e0000-0000-7000-8000-0000000000f1";
const PATCH_A = `*** Begin Patch\n*** Update File: ${ROOT}/a.py\n@@\n-old\n+new\n keep\n+added\n*** End Patch`;
const PATCH_B = `*** Begin Patch\n*** Add File: ${ROOT}/b.py\n+fresh\n+file\n*** End Patch`;
const CHANGE_A = {
  [`${ROOT}/a.py`]: { type: "update", unified_diff: "@@ -1,2 +1,3 @@\n-old\n+new\n keep\n+added\n", move_path: null },
};
const CHANGE_B = { [`${ROOT}/b.py`]: { type: "add", content: "fresh\nfile\n" } };

const fileChange = (log: CodexLog, id: string, changes: object, status = "completed") =>
  log.env("event_msg", {
    type: "item_completed",
    thread_id: SESSION,
    turn_id: "t1",
    item: { type: "FileChange", id, status, changes },
  });

async function run(cp: string, transcript: (log: CodexLog) => CodexLog) {
  const repo = new TestRepo("sce-codex-filechange-");
  try {
    repo.commit("base", { "a.py": "old\nkeep\n" });
    repo.commit(`Edit\n\nEntire-Checkpoint: ${cp}`, { "a.py": "new\nkeep\nadded\n", "b.py": "fresh\nfile\n" });
    const log = transcript(
      new CodexLog({ id: SESSION, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
        .meta({ cli_version: "0.152.0" })
        .turn()
        .prompt("fix a.py, add b.py"),
    );
    repo.checkpointsBranch(
      oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: SESSION, agent: "Codex" }), {
        "full.jsonl": log.tokens(usage(1000, 200, 150, 50)).text(),
      }),
    );
    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    const unit = rows.units.find((u) => u.checkpoint_id === cp)!;
    const comparison = compareUnits(
      runReference(repo.dir, { inferSliceStart: true, unitModel: "slice", multiSessionCommit: true }).units,
      rows.units as never,
    );
    // The sessions too (tool and edit call counts, tokens, prompts, …): every case must agree on every column.
    const sessions = compareSessions(runReferenceSessions(repo.dir, { modelsWithMain: true }), rows.sessions as never);
    assert.deepEqual([sessions.diffs, sessions.onlyReference.length, sessions.onlyProduct.length], [[], 0, 0]);
    return { rows, unit, comparison };
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

const counts = (u: {
  agent_lines_produced: number | null;
  agent_lines_final: number | null;
  agent_lines_survived: number | null;
  human_lines: number | null;
  total_committed_lines: number | null;
  unreplayable_calls: number | null;
}) => [
  u.agent_lines_produced,
  u.agent_lines_final,
  u.agent_lines_survived,
  u.human_lines,
  u.total_committed_lines,
  u.unreplayable_calls,
];

test("a direct apply_patch call whose change is an item_completed FileChange (same id), no patch_apply_end", async () => {
  const { unit, rows, comparison } = await run("f0c000000001", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c1",
      name: "apply_patch",
      input: PATCH_A,
    });
    fileChange(log, "c1", CHANGE_A);
    log.env("response_item", {
      type: "custom_tool_call_output",
      call_id: "c1",
      output: JSON.stringify({ output: "Success.", metadata: { exit_code: 0 } }),
    });
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c2",
      name: "apply_patch",
      input: PATCH_B,
    });
    fileChange(log, "c2", CHANGE_B);
    return log.env("response_item", {
      type: "custom_tool_call_output",
      call_id: "c2",
      output: JSON.stringify({ output: "Success.", metadata: { exit_code: 0 } }),
    });
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  // The FileChange is the call's own record: not the patch text re-applied.
  assert.equal(rows.diagnostics.filter((d) => d.code === "codex-patch-from-input").length, 0);
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
});

test("Code Mode: two tools.apply_patch calls inside one exec call replay as two apply_patch calls", async () => {
  // tool_calls: exec + the two nested apply_patch calls = 3, of which 2 change files.
  const { unit, rows, comparison } = await run("f0c000000002", (log) => {
    const js = `const p = ${JSON.stringify(PATCH_A)};\ntext(await tools.apply_patch(p));\ntext(await tools.apply_patch(${JSON.stringify(PATCH_B)}));\n`;
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_x",
      name: "exec",
      input: js,
    });
    fileChange(log, "exec-1", CHANGE_A);
    fileChange(log, "exec-2", CHANGE_B);
    return log.env("response_item", {
      type: "custom_tool_call_output",
      call_id: "call_x",
      output: [{ type: "input_text", text: "Script completed\nOutput:\nSuccess.\n" }],
    });
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  const session = rows.sessions[0];
  assert.deepEqual([session.tool_calls, session.edit_calls], [3, 2]);
  assert.ok(rows.diagnostics.some((d) => d.code === "codex-nested-file-change"));
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
});

test("Code Mode with no record of what its patch did: a warning, and the lines count as human (nothing guessed)", async () => {
  // No FileChange and no patch_apply_end: nothing to replay. produced 0; the commit's 4 added lines are human.
  const { unit, rows } = await run("f0c000000003", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_y",
      name: "exec",
      input: `text(await tools.apply_patch(${JSON.stringify(PATCH_A)}));`,
    });
    return log.env("response_item", { type: "custom_tool_call_output", call_id: "call_y", output: "Success." });
  });
  assert.deepEqual(counts(unit), [0, 0, 0, 4, 4, 0]);
  assert.equal(rows.diagnostics.find((d) => d.code === "codex-nested-patch-unrecorded")?.severity, "warning");
});

test("a FileChange that failed (status failed) changes nothing", async () => {
  // Patch A applies; B's item says failed: b.py's 2 committed lines are human. produced 2, survived 2, human 2.
  const { unit, rows, comparison } = await run("f0c000000004", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_z",
      name: "exec",
      input: "text(await tools.apply_patch(p)); text(await tools.apply_patch(q));",
    });
    fileChange(log, "exec-1", CHANGE_A);
    fileChange(log, "exec-2", CHANGE_B, "failed");
    return log.env("response_item", {
      type: "custom_tool_call_output",
      call_id: "call_z",
      output: "Error: patch failed",
    });
  });
  assert.deepEqual(counts(unit), [2, 2, 2, 2, 4, 0]);
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
  // exec + two nested apply_patch calls; both nested calls change files, the failed one counts as a failed edit.
  const session = rows.sessions[0];
  assert.deepEqual([session.tool_calls, session.edit_calls, session.failed_edit_calls], [3, 2, 1]);
});

// Found by the session-6 adversarial round on this code (each case failed before its fix).
// apply_patch's own output, as Codex writes it.
const OK = JSON.stringify({ output: "Success. Updated the following files:\nM a.py\n", metadata: { exit_code: 0 } });
const scriptDone = (id: string) => ({
  type: "custom_tool_call_output",
  call_id: id,
  output: [{ type: "input_text", text: "Script completed\nOutput:\nSuccess.\n" }],
});

test("a direct apply_patch with both patch_apply_end and its FileChange item is one change, not two", async () => {
  // Codex keeps writing patch_apply_end "for rollout compatibility" beside the FileChange item. Before: the item
  // became a second apply_patch call whose hunk no longer applied (3 calls, unreplayable 1). Now: 2 calls, 4/4/4/0/4.
  const { unit, rows, comparison } = await run("f0c000000005", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c1",
      name: "apply_patch",
      input: PATCH_A,
    });
    log.env("event_msg", {
      type: "patch_apply_end",
      call_id: "c1",
      stdout: "Success.",
      stderr: "",
      success: true,
      changes: CHANGE_A,
    });
    fileChange(log, "c1", CHANGE_A);
    log.env("response_item", { type: "custom_tool_call_output", call_id: "c1", output: OK });
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c2",
      name: "apply_patch",
      input: PATCH_B,
    });
    fileChange(log, "c2", CHANGE_B);
    return log.env("response_item", { type: "custom_tool_call_output", call_id: "c2", output: OK });
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  assert.deepEqual([rows.sessions[0].tool_calls, rows.sessions[0].edit_calls], [2, 2]);
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
});

test("parallel calls: a Code Mode item is never taken by an apply_patch call that happens to be open", async () => {
  // exec call_x (nested patch A) and apply_patch c2 (patch B, its own record only its text) are open together; the
  // item exec-1 comes after c2's call line. Before: it became c2's record, so patch B was never read (human 2).
  const { unit } = await run("f0c000000006", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_x",
      name: "exec",
      input: `text(await tools.apply_patch(${JSON.stringify(PATCH_A)}));`,
    });
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c2",
      name: "apply_patch",
      input: PATCH_B,
    });
    fileChange(log, "exec-1", CHANGE_A);
    log.env("response_item", { type: "custom_tool_call_output", call_id: "c2", output: OK });
    return log.env("response_item", scriptDone("call_x"));
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
});

test("two Code Mode calls whose nested items reuse the id exec-1 are two changes on both sides", async () => {
  const { unit, comparison } = await run("f0c000000007", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_x",
      name: "exec",
      input: `text(await tools.apply_patch(${JSON.stringify(PATCH_A)}));`,
    });
    fileChange(log, "exec-1", CHANGE_A);
    log.env("response_item", scriptDone("call_x"));
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_y",
      name: "exec",
      input: `text(await tools.apply_patch(${JSON.stringify(PATCH_B)}));`,
    });
    fileChange(log, "exec-1", CHANGE_B);
    return log.env("response_item", scriptDone("call_y"));
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
});

test("an interrupted call holds nothing after its turn; an exec that only prints a patch is no unrecorded patch", async () => {
  // exec_command sh0 never gets output (turn_aborted); in the next turn an item with no call around it adds b.py:
  // it is its own apply_patch call, not "inside exec_command". An exec that prints an example patch (no
  // tools.apply_patch call) gets no codex-nested-patch-unrecorded warning. Numbers: 4/4/4/0/4.
  const { unit, rows } = await run("f0c000000008", (log) => {
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_p",
      name: "exec",
      input: `text("Example:\\n${PATCH_A.replace(/\n/g, "\\n")}");`,
    });
    log.env("response_item", scriptDone("call_p"));
    log.env("response_item", {
      type: "function_call",
      call_id: "sh0",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: "sleep 1000" }),
    });
    log.env("event_msg", { type: "turn_aborted", reason: "interrupted" });
    log.turn().prompt("now apply it");
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "c1",
      name: "apply_patch",
      input: PATCH_A,
    });
    fileChange(log, "c1", CHANGE_A);
    log.env("response_item", { type: "custom_tool_call_output", call_id: "c1", output: OK });
    return fileChange(log, "fc-orphan", CHANGE_B);
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  const codes = rows.diagnostics.map((d) => d.code);
  assert.ok(codes.includes("codex-file-change-without-call"), codes.join(","));
  assert.ok(
    !codes.includes("codex-nested-file-change") && !codes.includes("codex-nested-patch-unrecorded"),
    codes.join(","),
  );
});

test("a shell call running apply_patch: its FileChange item (with the call's id) is its record, once", async () => {
  // exec_command runs `apply_patch <<'EOF' …` (patch A, then patch B as a second call): each call logs
  // patch_apply_end and a FileChange item with its own call id. Found by the fourth fuzzing round: the item used to
  // become a second apply_patch call whose hunk no longer applied. One change per call: 4/4/4/0/4, 2 edit calls.
  const { unit, rows, comparison } = await run("f0c000000009", (log) => {
    for (const [id, patch, change] of [
      ["s1", PATCH_A, CHANGE_A],
      ["s2", PATCH_B, CHANGE_B],
    ] as const) {
      log.env("response_item", {
        type: "function_call",
        call_id: id,
        name: "exec_command",
        arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF\n`, workdir: ROOT }),
      });
      log.env("event_msg", {
        type: "patch_apply_end",
        call_id: id,
        stdout: "Success.",
        stderr: "",
        success: true,
        changes: change,
      });
      fileChange(log, id, change);
      log.env("response_item", {
        type: "function_call_output",
        call_id: id,
        output: "Process exited with code 0\nOutput:\nSuccess. Updated the following files:\nM a.py\n",
      });
    }
    return log;
  });
  assert.deepEqual(counts(unit), [4, 4, 4, 0, 4, 0]);
  assert.deepEqual([rows.sessions[0].tool_calls, rows.sessions[0].edit_calls], [2, 2]);
  assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
});

test("a failed apply_patch run through a shell call is a failed edit call (it carries no edits)", async () => {
  // exec_command runs `apply_patch <<'EOF'` (patch A); Codex records the failure (patch_apply_end success false,
  // exit code 1). Nothing changes; the commit adds one line of the person's. Unit: 0/0/0/1/1. Session: 1 tool call,
  // an edit call, failed (before: 0 edit calls, since a failed shell call carries no edits and its name is "exec_command").
  const repo = new TestRepo("sce-codex-failed-shell-patch-");
  try {
    repo.commit("base", { "a.py": "old\nkeep\n" });
    const cp = "f0c00000000a";
    repo.commit(`Human\n\nEntire-Checkpoint: ${cp}`, { "a.py": "old\nkeep\nhuman\n" });
    const log = new CodexLog({ id: SESSION, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
      .meta()
      .turn()
      .prompt("patch a.py");
    log.env("response_item", {
      type: "function_call",
      call_id: "s1",
      name: "exec_command",
      arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${PATCH_A}\nEOF\n`, workdir: ROOT }),
    });
    log.env("event_msg", {
      type: "patch_apply_end",
      call_id: "s1",
      stdout: "",
      stderr: "error: hunk does not apply",
      success: false,
      changes: {},
    });
    log.env("response_item", {
      type: "function_call_output",
      call_id: "s1",
      output: "Process exited with code 1\nOutput:\nerror: hunk does not apply\n",
    });
    repo.checkpointsBranch(
      oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: SESSION, agent: "Codex" }), {
        "full.jsonl": log.tokens(usage(1000, 200, 150, 50)).text(),
      }),
    );
    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    assert.deepEqual(counts(rows.units[0]), [0, 0, 0, 1, 1, 0]);
    const s = rows.sessions[0];
    assert.deepEqual([s.tool_calls, s.edit_calls, s.failed_edit_calls], [1, 1, 1]);
    const sessions = compareSessions(runReferenceSessions(repo.dir, { modelsWithMain: true }), rows.sessions as never);
    assert.deepEqual([sessions.diffs, sessions.onlyReference.length, sessions.onlyProduct.length], [[], 0, 0]);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
});
