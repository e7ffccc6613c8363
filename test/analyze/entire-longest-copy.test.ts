/**
 * The session row comes from the longest stored copy of its transcript (each checkpoint stores the session so
 * far). Found by differential fuzzing against the reference: the copies were ranked by one double,
 * `MAX_SAFE_INTEGER / 2 + records`, where doubles are 1 apart and x.5 rounds to even, so copies of 4 and 5
 * records tied and the first (shorter) one won.
 *
 * Real repository (`git init` in a temp folder). Session S: CP1 stores 4 records (prompt, the Write's two
 * streamed blocks, its result); CP2 stores those and a second prompt (5 records, its part starting at line 5).
 * The sessions row: 2 prompts (length bin "2"), from CP2's copy.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const SESSION = "1c000000-0000-4000-8000-000000000001";
const CP1 = "a20000000001";
const CP2 = "a20000000002";

const repo = new TestRepo("sce-longest-copy-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

test("the session row comes from the longest copy, also when it is one record longer", async () => {
  const log = new ClaudeLog({ sessionId: SESSION, cwd: ROOT })
    .prompt("write a.txt")
    .call("toolu_a", "Write", { file_path: `${ROOT}/a.txt`, content: "a\n" })
    .result("toolu_a", writeResult(`${ROOT}/a.txt`, "a\n", null));
  const short = log.text();
  const long = log.prompt("thanks").text();
  assert.deepEqual([short.split("\n").length - 1, long.split("\n").length - 1], [4, 5]);
  repo.commit("base", { "README.md": "r\n" });
  repo.commit(`Add a\n\nEntire-Checkpoint: ${CP1}`, { "a.txt": "a\n" });
  repo.commit(`Touch readme\n\nEntire-Checkpoint: ${CP2}`, { "README.md": "r2\n" });
  const meta = (cp: string, start: number) =>
    JSON.stringify({
      checkpoint_id: cp,
      session_id: SESSION,
      agent: "Claude Code",
      checkpoint_transcript_start: start,
    });
  repo.checkpointsBranch({
    ...oneSessionCheckpoint(CP1, meta(CP1, 0), { "full.jsonl": short }),
    ...oneSessionCheckpoint(CP2, meta(CP2, 4), { "full.jsonl": long }),
  });
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  assert.deepEqual(
    rows.sessions.map((s) => [s.session_id, s.prompts, s.length_bin]),
    [[SESSION, 2, "2"]],
  );
});
