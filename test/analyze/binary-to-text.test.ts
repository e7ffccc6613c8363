/**
 * metrics.md §2: "a file with a NUL byte in its first 8000 bytes is binary and
 * has no lines", a rule about one state of a file. git marks a change binary
 * when either side is, so a file that turns from binary to text was skipped
 * whole. Hand-worked: data.txt holds bytes with a NUL at the base; the agent
 * Writes "one\ntwo\n" over it and the person commits that unchanged. The base
 * has no lines, the commit has 2, both the agent's: produced 2, final 2,
 * survived 2, human 0, total 2 (numstat_additions stays git's: 0, binary).
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";

test("a file that turns from binary to text counts its committed lines", async () => {
  const repo = new TestRepo("sce-bin2text-");
  const logs = `${repo.dir}-logs`;
  try {
    repo.commit("initial", { "README.md": "readme\n", "data.txt": "\u0000\u0001binary\u0000\n" });
    const commit = repo.commit("data as text", { "data.txt": "one\ntwo\n" });
    mkdirSync(logs);
    writeFileSync(
      join(logs, "s.jsonl"),
      new ClaudeLog({ sessionId: "bin-1", cwd: repo.dir })
        .prompt("turn data.txt into text")
        .call("toolu_1", "Write", { file_path: join(repo.dir, "data.txt"), content: "one\ntwo\n" })
        .result("toolu_1", writeResult(join(repo.dir, "data.txt"), "one\ntwo\n", "\u0000\u0001binary\u0000\n"))
        .text(),
    );
    const { rows } = await analyze({ inputs: [logs], repo: repo.dir, threads: 1 });
    const u = rows.units.find((x) => x.commit_sha === commit)!;
    assert.deepEqual(
      [
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.outside_lines,
        u.total_committed_lines,
        u.numstat_additions,
      ],
      [2, 2, 2, 0, 0, 2, 0],
    );
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
});
