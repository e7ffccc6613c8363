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
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

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
  log.prompt("add b").call("toolu_b", "Write", { file_path: `${ROOT}/b.txt`, content: "b\n" }).result("toolu_b", writeResult(`${ROOT}/b.txt`, "b\n", null));
  repo.commit("add b\n\nEntire-Checkpoint: aa0000000002", { "b.txt": "b\n" });
  const meta = (cp: string, id: string) => JSON.stringify({ checkpoint_id: cp, session_id: id, agent: "Claude Code" });
  repo.checkpointsBranch({
    ...oneSessionCheckpoint("aa0000000001", meta("aa0000000001", DATED), { "full.jsonl": first }),
    ...oneSessionCheckpoint("aa0000000002", meta("aa0000000002", UUID), { "full.jsonl": log.text() }),
  });
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  assert.deepEqual(rows.sessions.map((s) => s.session_id), [DATED]);
  assert.deepEqual(rows.units.map((u) => [u.session_id, u.ambiguity]), [[DATED, "multi-checkpoint-session"], [DATED, "multi-checkpoint-session"]]);
  assert.ok(rows.tool_calls.length === 2 && rows.tool_calls.every((c) => c.session_id === DATED));
  // Both folders' rows name the session as the other tables do (one session, one id), whatever each folder records.
  assert.deepEqual((rows.checkpoint_sessions ?? []).map((c) => c.session_id), [DATED, DATED]);
  assert.ok(rows.diagnostics.filter((d) => d.code === "unit-excluded").every((d) => d.session_id === DATED));
});
