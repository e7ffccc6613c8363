/**
 * metrics.md §1 "Identity": a session's id is written as the source records it. Old Entire sessions record
 * `YYYY-MM-DD-<uuid>`, the form SWE-chat's tables use too, so the tables join with SWE-chat's and Entire's.
 * Before, the Entire path wrote `<uuid>` and the SWE-chat path `2026-01-10-<uuid>`: one session, two ids.
 *
 * Two checkpoints of one old session, one folder recording the dated id, the other the bare uuid (Entire
 * changed the form between versions): they are still one session (one `sessions` row, a
 * multi-checkpoint-session pair of units), and every table writes the dated form.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { writeTable } from "../swechat/fixture";

const ROOT = "/home/u/proj";
const UUID = "b9bdbf44-0000-4000-8000-0000000000aa";
const DATED = `2026-01-10-${UUID}`;

const repo = new TestRepo("sce-identity-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

test("an old Entire session keeps its recorded YYYY-MM-DD-<uuid> id in every table, and its folders stay one session", async () => {
  repo.commit("base", { "README.md": "x\n" });
  const log = new ClaudeLog({ sessionId: UUID, cwd: ROOT })
    .prompt("add a")
    .call("toolu_a", "Write", { file_path: `${ROOT}/a.txt`, content: "a\n" })
    .result("toolu_a", writeResult(`${ROOT}/a.txt`, "a\n", null));
  const first = log.text();
  repo.commit("add a\n\nEntire-Checkpoint: aa0000000001", { "a.txt": "a\n" });
  log
    .prompt("add b")
    .call("toolu_b", "Write", { file_path: `${ROOT}/b.txt`, content: "b\n" })
    .result("toolu_b", writeResult(`${ROOT}/b.txt`, "b\n", null));
  repo.commit("add b\n\nEntire-Checkpoint: aa0000000002", { "b.txt": "b\n" });
  const meta = (cp: string, id: string) => JSON.stringify({ checkpoint_id: cp, session_id: id, agent: "Claude Code" });
  repo.checkpointsBranch({
    ...oneSessionCheckpoint("aa0000000001", meta("aa0000000001", DATED), { "full.jsonl": first }),
    ...oneSessionCheckpoint("aa0000000002", meta("aa0000000002", UUID), { "full.jsonl": log.text() }),
  });
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  assert.deepEqual(
    rows.sessions.map((s) => s.session_id),
    [DATED],
  );
  assert.deepEqual(
    rows.units.map((u) => [u.session_id, u.ambiguity]),
    [
      [DATED, "multi-checkpoint-session"],
      [DATED, "multi-checkpoint-session"],
    ],
  );
  assert.ok(rows.tool_calls.length === 2 && rows.tool_calls.every((c) => c.session_id === DATED));
  // Both folders' rows name the session as the other tables do (one session, one id), whatever each folder records.
  assert.deepEqual(
    (rows.checkpoint_sessions ?? []).map((c) => c.session_id),
    [DATED, DATED],
  );
  assert.ok(rows.diagnostics.filter((d) => d.code === "unit-excluded").every((d) => d.session_id === DATED));
});

test("one session read from an Entire repository and from SWE-chat's tables of it has one id, and their units join", async () => {
  // The same old session as above, one checkpoint: Entire's folder records the dated id, and so do SWE-chat's
  // tables (they copy Entire's metadata). Both paths must write DATED, so `units` from either joins `sessions`.
  const r = new TestRepo("sce-identity-both-");
  after(() => rmSync(r.dir, { recursive: true, force: true }));
  r.commit("base", { "README.md": "x\n" });
  const log = new ClaudeLog({ sessionId: UUID, cwd: ROOT })
    .prompt("add a")
    .call("toolu_a", "Write", { file_path: `${ROOT}/a.txt`, content: "a\n" })
    .result("toolu_a", writeResult(`${ROOT}/a.txt`, "a\n", null));
  const sha = r.commit("add a\n\nEntire-Checkpoint: bb0000000001", { "a.txt": "a\n" });
  r.checkpointsBranch(
    oneSessionCheckpoint(
      "bb0000000001",
      JSON.stringify({ checkpoint_id: "bb0000000001", session_id: DATED, agent: "Claude Code" }),
      { "full.jsonl": log.text() },
    ),
  );
  const fromEntire = (await analyze({ inputs: [r.dir], threads: 1 })).rows;

  const dataset = writeSwechatTables(DATED, sha, log.text());
  after(() => rmSync(dataset, { recursive: true, force: true }));
  const fromSwechat = (await analyze({ inputs: [dataset], threads: 1 })).rows;

  assert.deepEqual(
    fromEntire.sessions.map((s) => s.session_id),
    [DATED],
  );
  assert.deepEqual(
    fromSwechat.sessions.map((s) => s.session_id),
    [DATED],
  );
  const key = (u: { session_id: string; commit_sha: string }) => `${u.session_id} ${u.commit_sha}`;
  assert.deepEqual(fromSwechat.units.map(key), fromEntire.units.map(key));
  assert.deepEqual(fromEntire.units.map(key), [`${DATED} ${sha}`]);
});

/** A SWE-chat-shaped dataset of one session (conversation rows, sessions, session_logs, checkpoints, commits). */
function writeSwechatTables(sessionId: string, sha: string, transcript: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sce-identity-swechat-"));
  mkdirSync(join(dir, "transcripts"));
  writeFileSync(join(dir, "transcripts", `${sessionId}.jsonl`), transcript);
  const checkpoint = "acme/app#bb0000000001";
  const at = (s: number) => new Date(Date.parse("2026-01-10T10:00:00.000Z") + s * 1000);
  const row = (turn: number, fields: Record<string, unknown>) => ({
    turn_id: `${sessionId}#${turn}`,
    session_id: sessionId,
    checkpoint_pk: checkpoint,
    repo_id: "acme/app",
    turn_number: turn,
    agent: "Claude Code",
    strategy: "manual-commit",
    ...fields,
  });
  const input = { file_path: `${ROOT}/a.txt`, content: "a\n" };
  writeTable(join(dir, "conversations.parquet"), "conversations", [
    row(0, {
      turn_type: "user_prompt",
      role: "user",
      is_conversational: true,
      content: "add a",
      timestamp: at(0),
      is_first_turn: true,
    }),
    row(1, {
      turn_type: "tool_use",
      role: "tool_use",
      tool_name: "Write",
      tool_call_id: "toolu_a",
      tool_input_json: JSON.stringify(input),
      content: JSON.stringify(input),
      file_path: input.file_path,
      timestamp: at(10),
    }),
    row(2, {
      turn_type: "tool_result",
      role: "tool_result",
      tool_call_id: "toolu_a",
      content: `File created successfully at: ${input.file_path}`,
      timestamp: at(20),
    }),
  ]);
  writeTable(join(dir, "sessions.parquet"), "sessions", [
    {
      session_id: sessionId,
      repo_id: "acme/app",
      owner_id: "acme",
      checkpoint_ids: JSON.stringify([checkpoint]),
      canonical_checkpoint_pk: checkpoint,
      agent: "Claude Code",
      strategy: "manual-commit",
      created_at: at(0),
      files_touched: JSON.stringify(["a.txt"]),
      branch: "main",
      agent_lines: 1,
      total_committed: 1,
      agent_percentage: 100,
    },
  ]);
  writeTable(join(dir, "session_logs.parquet"), "session_logs", [
    { session_id: sessionId, transcript_path: `transcripts/${sessionId}.jsonl`, session_metadata_raw: "{}" },
  ]);
  writeTable(join(dir, "checkpoints.parquet"), "checkpoints", [
    {
      checkpoint_pk: checkpoint,
      checkpoint_id: "bb0000000001",
      repo_id: "acme/app",
      session_pks: JSON.stringify([sessionId]),
      session_count: 1,
      commit_shas: JSON.stringify([sha]),
      commit_count: 1,
      unique_author_count: 1,
    },
  ]);
  const patch = [
    "diff --git a/a.txt b/a.txt",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/a.txt",
    "@@ -0,0 +1 @@",
    "+a",
    "",
  ].join("\n");
  writeTable(join(dir, "commits.parquet"), "commits", [
    {
      commit_sha: sha,
      checkpoint_pk: checkpoint,
      repo_id: "acme/app",
      commit_date: at(60),
      author_date: at(60),
      commit_message: "add a",
      is_agent_author: false,
      total_additions: 1,
      total_deletions: 0,
      patch,
      status: "ok",
    },
  ]);
  return dir;
}
