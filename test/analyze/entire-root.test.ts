/**
 * Where the repository root is on the agent's machine (it is not recorded): Entire's `files_touched`, which are
 * repo-relative, count as evidence beside the base and commit trees. Found by differential fuzzing against the
 * reference: a session started in a subfolder that only creates a file committed later had no evidence at all,
 * fell back to its cwd as the root, and called the file "outside the repository".
 *
 * Real repository (`git init` in a temp folder). Base: src/a.ts = "a\n". The session (cwd /home/u/proj/src)
 * Writes /home/u/proj/c.txt = "c1\nc2\nc3\n"; files_touched ["c.txt"]. The unit's commit only adds "h" to
 * src/a.ts; c.txt is committed later. metrics.md §4: files the agent changed that the commit does not change
 * contribute agent lines to the final state and none to survival: produced 3, final 3, survived 0; the commit's
 * one line is human: human 1, total 1.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const SESSION = "7007e000-0000-4000-8000-000000000001";
const CP = "b30000000001";

const repo = new TestRepo("sce-entire-root-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

test("a session in a subfolder creating a file committed later: files_touched place the root", async () => {
  repo.commit("base", { "src/a.ts": "a\n" });
  const sha = repo.commit(`Human a\n\nEntire-Checkpoint: ${CP}`, { "src/a.ts": "a\nh\n" });
  repo.commit("later: c.txt", { "c.txt": "c1\nc2\nc3\n" });
  const transcript = new ClaudeLog({ sessionId: SESSION, cwd: `${ROOT}/src` })
    .prompt("write c.txt at the root")
    .call("toolu_c", "Write", { file_path: `${ROOT}/c.txt`, content: "c1\nc2\nc3\n" })
    .result("toolu_c", writeResult(`${ROOT}/c.txt`, "c1\nc2\nc3\n", null))
    .text();
  const meta = JSON.stringify({
    checkpoint_id: CP,
    session_id: SESSION,
    agent: "Claude Code",
    files_touched: ["c.txt"],
  });
  repo.checkpointsBranch(oneSessionCheckpoint(CP, meta, { "full.jsonl": transcript }));
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  const u = rows.units.find((x) => x.checkpoint_id === CP)!;
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(
    [
      u.ambiguity,
      u.agent_lines_produced,
      u.agent_lines_final,
      u.agent_lines_survived,
      u.human_lines,
      u.total_committed_lines,
    ],
    [null, 3, 3, 0, 1, 1],
  );
  assert.equal(rows.diagnostics.filter((d) => d.code === "path-outside-repo").length, 0);
});
