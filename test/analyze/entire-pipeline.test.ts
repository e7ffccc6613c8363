import assert from "node:assert/strict";
import { test } from "node:test";
import { escape as opaque } from "arquero";
import { analyze } from "../../src/analyze";
import { linesOf } from "../../src/tables/lines";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";

/**
 * One session, one commit, every case of the foundation issue, counted by hand.
 *
 * Base commit: src/app.py = import os / "" / def main(): / pass ; README.md = readme.
 * The session runs in a subfolder of a worktree (/home/u/proj/.worktrees/2/src).
 *  1. Write src/util.py (create): 5 lines                       produced 5
 *  2. Edit util: "return a - b" → "result = a - b" + "return result"
 *     (the agent rewrites its own line: −1 +2)                 produced 7
 *  3. Bash sed changes `pass` → `print("hi")` in app.py (no structured record)
 *  4. Edit app.py "def main():" → "def main() -> None:"; its originalFile shows
 *     print("hi"): one outside change, that line is `outside`  produced 8
 *  5. Edit README.md fails (string not found): not replayed
 *  6. A sub-agent (agent_progress) edits README.md: +"" +"Usage: run main"  produced 10
 *  7. Write notes.txt (2 lines), never committed              produced 12
 *  8. Write ~/.claude/plans/plan.md: outside the repository, ignored
 * Final agent lines: util 6 + app 1 + README 2 + notes 2 = 11.
 *
 * The person then changes util's "return a + b" into "return int(a + b)" and
 * appends "# end" to app.py, and commits util, app and README.
 * Committed lines (Myers base → commit): util 6 (new file), app 3
 * (def main() -> None:, print("hi"), # end), README 2 → 11.
 * Owners: util 5 agent + 1 human; app 1 agent + 1 outside + 1 human; README 2 agent.
 * survived 8, human 2, outside 1 (8 + 2 + 1 = 11).
 */
/** The repository of the case above: its one commit, with the checkpoint. */
function handWorkedRepo(): { repo: TestRepo; sha: string } {
  const repo = new TestRepo();
  const app0 = "import os\n\ndef main():\n    pass\n";
  repo.commit("initial", { "src/app.py": app0, "README.md": "readme\n" });

  const root = "/home/u/proj/.worktrees/2";
  const util1 = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n";
  const util2 = "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    result = a - b\n    return result\n";
  const appSed = 'import os\n\ndef main():\n    print("hi")\n';
  const log = new ClaudeLog({ sessionId: "11111111-2222-3333-4444-555555555555", cwd: `${root}/src` })
    .prompt("add util helpers and a usage line")
    .call("toolu_1", "Write", { file_path: `${root}/src/util.py`, content: util1 })
    .result("toolu_1", writeResult(`${root}/src/util.py`, util1, null))
    .call("toolu_2", "Edit", {
      file_path: `${root}/src/util.py`,
      old_string: "    return a - b\n",
      new_string: "    result = a - b\n    return result\n",
    })
    .result(
      "toolu_2",
      editResult(`${root}/src/util.py`, util1, "    return a - b\n", "    result = a - b\n    return result\n"),
    )
    .call("toolu_3", "Bash", { command: "sed -i 's/pass/print(\"hi\")/' app.py" })
    .result("toolu_3", { stdout: "", stderr: "", interrupted: false, isImage: false })
    .call("toolu_4", "Edit", {
      file_path: `${root}/src/app.py`,
      old_string: "def main():",
      new_string: "def main() -> None:",
    })
    .result("toolu_4", editResult(`${root}/src/app.py`, appSed, "def main():", "def main() -> None:"))
    .call("toolu_5", "Edit", { file_path: `${root}/README.md`, old_string: "nothing", new_string: "x" })
    .result("toolu_5", "Error: String to replace not found in file.\nString: nothing", true)
    .subagentCall(
      "toolu_6",
      "Edit",
      { file_path: `${root}/README.md`, old_string: "readme\n", new_string: "readme\n\nUsage: run main\n" },
      editResult(`${root}/README.md`, "readme\n", "readme\n", "readme\n\nUsage: run main\n"),
    )
    .call("toolu_7", "Write", { file_path: `${root}/notes.txt`, content: "scratch\nnotes\n" })
    .result("toolu_7", writeResult(`${root}/notes.txt`, "scratch\nnotes\n", null))
    .call("toolu_8", "Write", { file_path: "/home/u/.claude/plans/plan.md", content: "plan\n" })
    .result("toolu_8", writeResult("/home/u/.claude/plans/plan.md", "plan\n", null));

  const sha = repo.commit("Add util helpers\n\nEntire-Checkpoint: abcdef012345", {
    "src/util.py": util2.replace("return a + b", "return int(a + b)"),
    "src/app.py": 'import os\n\ndef main() -> None:\n    print("hi")\n# end\n',
    "README.md": "readme\n\nUsage: run main\n",
  });
  repo.checkpointsBranch({
    "ab/cdef012345/metadata.json": JSON.stringify({
      checkpoint_id: "abcdef012345",
      strategy: "manual-commit",
      sessions: [{ metadata: "/ab/cdef012345/0/metadata.json", transcript: "/ab/cdef012345/0/full.jsonl" }],
    }),
    "ab/cdef012345/0/metadata.json": JSON.stringify({
      checkpoint_id: "abcdef012345",
      session_id: "11111111-2222-3333-4444-555555555555",
      agent: "Claude Code",
      created_at: "2026-03-02T11:00:00Z",
      initial_attribution: {
        agent_lines: 9,
        human_added: 2,
        human_modified: 1,
        human_removed: 0,
        total_committed: 11,
        agent_percentage: 81.8,
      },
    }),
    "ab/cdef012345/0/full.jsonl": log.text(),
  });
  return { repo, sha };
}

test("git-replay of a hand-worked session through an Entire checkpoint", async () => {
  const { repo, sha } = handWorkedRepo();
  const { rows, readAnything } = await analyze({ inputs: [repo.dir] });
  assert.equal(readAnything, true);
  assert.equal(rows.units.length, 1);
  const u = rows.units[0];
  assert.equal(u.commit_sha, sha);
  assert.equal(u.checkpoint_id, "abcdef012345");
  assert.equal(u.ambiguity, null);
  assert.equal(u.method, "git-replay");
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
    [12, 11, 8, 2, 1, 11, 11],
  );
  assert.equal(u.unreplayable_calls, 0);
  assert.equal(u.outside_changes, 1);
  assert.ok(Math.abs(u.code_survival_rate! - (100 * 8) / 11) < 1e-9);
  assert.ok(Math.abs(u.coding_efficiency! - (100 * 8) / 12) < 1e-9);
  assert.ok(Math.abs(u.agent_authored_pct! - (100 * 8) / 11) < 1e-9);
  assert.equal(u.coding_mode, "collaborative");
  // Entire's own numbers are carried beside ours, untouched.
  assert.deepEqual([u.entire_agent_lines, u.entire_total_committed, u.entire_agent_percentage], [9, 11, 81.8]);

  // The plan file outside the repository is ignored and counted in diagnostics.
  const outside = rows.diagnostics.filter((d) => d.code === "path-outside-repo");
  assert.equal(outside.length, 1);
  assert.match(outside[0].message, /plans\/plan\.md/);

  // Session row: 1 prompt; 8 tool calls (7 main + 1 sub-agent); edit calls 7 (Writes, Edits), 1 failed.
  assert.equal(rows.sessions.length, 1);
  const s = rows.sessions[0];
  assert.deepEqual([s.prompts, s.length_bin, s.tool_calls, s.edit_calls, s.failed_edit_calls], [1, "1", 8, 7, 1]);
  // API calls: 7 main calls (one per message id, streamed twice) + 1 sub-agent call = 8.
  // Output tokens: 7 × 40 (largest record of each pair, not 3 + 40) + 20 = 300.
  assert.equal(s.api_calls, 8);
  assert.equal(s.output_tokens, 300);
  assert.equal(s.input_tokens, 7 * 10 + 5);
  assert.equal(s.cache_read_tokens, 7 * 1000);
  assert.ok(s.cost_usd !== null && s.cost_usd > 0);

  const files = rows.tool_calls.filter((c) => c.file !== null).map((c) => c.file);
  assert.ok(files.includes("src/util.py") && files.includes("README.md"), `repo-relative paths: ${files.join(", ")}`);
});

/**
 * The same unit's committed lines (issue 19), line by line, from the reasoning above:
 * util.py (new, 6 lines): 1 `def add` (Write, call 0), 2 `return int(a + b)` the person's, 3–4 the blank and
 * `def sub` (Write), 5–6 `result = …` / `return result` (the Edit, call 1).
 * app.py: 3 `def main() -> None:` (Edit, call 3), 4 `print("hi")` outside (the sed), 5 `# end` the person's;
 * lines 1–2 are the base's, not committed lines. README.md: 2–3 the sub-agent's Edit (call 5).
 * Per owner: agent 1+2+2+1+2 = 8 = survived, human 2, outside 1.
 */
test("line_ranges of the hand-worked unit name every committed line's owner and call", async () => {
  const { repo, sha } = handWorkedRepo();
  const { rows } = await analyze({ inputs: [repo.dir], lines: true });
  const got = (rows.line_ranges ?? [])
    .filter((r) => r.group_id === null)
    .map((r) => [r.file, r.start_line, r.end_line, r.owner, r.tool_call_seq]);
  assert.deepEqual(got, [
    ["README.md", 2, 3, "agent", 5],
    ["src/app.py", 3, 3, "agent", 3],
    ["src/app.py", 4, 4, "outside", null],
    ["src/app.py", 5, 5, "human", null],
    ["src/util.py", 1, 1, "agent", 0],
    ["src/util.py", 2, 2, "human", null],
    ["src/util.py", 3, 4, "agent", 0],
    ["src/util.py", 5, 6, "agent", 1],
  ]);
  assert.ok((rows.line_ranges ?? []).every((r) => r.session_id === rows.units[0].session_id && r.commit_sha === sha));
  // The one group (one session, one commit) gives the same lines, owned the same way.
  const grouped = (rows.line_ranges ?? []).filter((r) => r.group_id !== null);
  const lines = linesOf(rows);
  const u = rows.units[0];
  const count = (owner: string) =>
    lines
      .filter(opaque((d: { owner: string; group_id: string | null }) => d.owner === owner && d.group_id === null))
      .numRows();
  assert.deepEqual(
    [count("agent"), count("human"), count("outside")],
    [u.agent_lines_survived, u.human_lines, u.outside_lines],
  );
  assert.deepEqual(
    grouped.map((r) => [r.file, r.start_line, r.end_line, r.owner]),
    got.map((g) => g.slice(0, 4)),
  );
  // Without asking, no lines are gathered.
  const plain = await analyze({ inputs: [repo.dir] });
  assert.equal(plain.rows.line_ranges, undefined);
});
