/**
 * Claude Code logs + `--repo` (no Entire): a session started in a subfolder of
 * the repository creates `pkg/new.py`, the person commits it, and a later
 * commit deletes it. The repository root must be found from the files the
 * session touched, which are no longer at HEAD: before, only HEAD was asked,
 * the root fell back to the cwd, the file was called `new.py`, and no commit
 * was linked (0 units, and a misleading session-without-commit).
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";

test("a session in a subfolder is linked to its commit even when the file it made is gone at HEAD", async () => {
  const repo = new TestRepo("sce-subfolder-");
  const logs = join(repo.dir, "..", `${repo.dir.split("/").pop()}-logs`);
  try {
    repo.commit("initial", { "README.md": "readme\n", "pkg/__init__.py": "" });
    const add = repo.commit("add new.py", { "pkg/new.py": "x = 1\ny = 2\n" });
    repo.git("rm", "-q", "pkg/new.py");
    const remove = repo.commit("drop new.py");
    mkdirSync(logs);
    const cwd = join(repo.dir, "pkg");
    writeFileSync(
      join(logs, "s.jsonl"),
      new ClaudeLog({ sessionId: "sub-1", cwd })
        .prompt("make new.py")
        .call("toolu_1", "Write", { file_path: join(cwd, "new.py"), content: "x = 1\ny = 2\n" })
        .result("toolu_1", writeResult(join(cwd, "new.py"), "x = 1\ny = 2\n", null))
        .text(),
    );
    const { rows } = await analyze({ inputs: [logs], repo: repo.dir, threads: 1 });
    assert.deepEqual(
      rows.tool_calls.filter((c) => c.file !== null).map((c) => c.file),
      ["pkg/new.py"],
    );
    // Both commits change pkg/new.py inside the window: two units, each multi-commit-session. The first one
    // holds the agent's 2 lines, committed as written: produced 2, survived 2, total 2.
    const first = rows.units.find((u) => u.commit_sha === add)!;
    assert.deepEqual(
      [first.agent_lines_produced, first.agent_lines_survived, first.total_committed_lines, first.ambiguity],
      [2, 2, 2, "multi-commit-session"],
    );
    assert.ok(rows.units.some((u) => u.commit_sha === remove));
    assert.equal(rows.diagnostics.filter((d) => d.code === "session-without-commit").length, 0);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
});

test("a session that links to no commit says why: no timestamps, or a repository without commits", async () => {
  const repo = new TestRepo("sce-unlinked-");
  const empty = new TestRepo("sce-unlinked-empty-");
  const logs = `${repo.dir}-logs`;
  try {
    repo.commit("add a", { "a.txt": "a\n" });
    mkdirSync(logs);
    const log = new ClaudeLog({ sessionId: "no-times", cwd: repo.dir })
      .prompt("write a")
      .call("toolu_nt", "Write", { file_path: join(repo.dir, "a.txt"), content: "a\n" })
      .result("toolu_nt", writeResult(join(repo.dir, "a.txt"), "a\n", null))
      .text();
    writeFileSync(join(logs, "no-times.jsonl"), log.replace(/"timestamp":"[^"]*",?/g, ""));
    const without = await analyze({ inputs: [logs], repo: repo.dir, threads: 1 });
    assert.match(
      without.rows.diagnostics.find((d) => d.code === "session-without-commit")!.message,
      /carry no timestamps/,
    );
    writeFileSync(join(logs, "no-times.jsonl"), log);
    const inEmpty = await analyze({ inputs: [logs], repo: empty.dir, threads: 1 });
    assert.match(inEmpty.rows.diagnostics.find((d) => d.code === "session-without-commit")!.message, /has no commits/);
  } finally {
    for (const d of [repo.dir, empty.dir, logs]) rmSync(d, { recursive: true, force: true });
  }
});
