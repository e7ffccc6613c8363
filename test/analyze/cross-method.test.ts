import assert from "node:assert/strict";
import { test } from "node:test";
import { createTwoFilesPatch } from "diff";
import { attributeFromPreImages, attributeUnit } from "../../src/analyze";
import { patchMatch } from "../../src/attribution/patch-match";
import { parseClaudeCodeTranscript } from "../../src/ingest/claude-code";
import { DiagnosticSink } from "../../src/model";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";

/**
 * One session and one commit on which all three methods can run, compared.
 *
 * Base: app.py = import os / "" / def main(): / pass; util.py does not exist.
 *  t1 Write util.py (create): def add(a, b): / return a + b            produced 2
 *  t2 Edit app.py: pass → print(add(1, 2))                              produced 3
 *  t3 Bash: a formatter appends "# formatted" to util.py (no structured record)
 *  t4 Edit util.py (its originalFile shows "# formatted"):
 *     return a + b → return int(a + b)                                  produced 4
 * Final agent lines: def add, return int(...), print(...) = 3.
 * Commit: util.py as the agent left it (3 lines, new file); app.py gets the
 * agent's print line and the person's "# done" (2 lines added). Committed 5.
 *
 * git-replay (file states from git): survived 3; "# formatted" appeared
 *   between agent edits → outside 1; "# done" → human 1. 3 + 1 + 1 = 5.
 * pre-image-replay (no repository: util.py's base is its first pre-image, the
 *   create's empty text; app.py's is the Edit's originalFile; commits rebuilt
 *   from the patch): the same states, so exactly the same numbers.
 * patch-match (tool inputs and the patch's + lines only): the agent lines
 *   match the same 3 added lines, but without file states a formatter's line
 *   cannot be told from a person's, so "# formatted" is human: human 2,
 *   outside 0 (it still counts the outside change it saw in the pre-image).
 */
test("git-replay, pre-image-replay and patch-match on one session: equal where they can be, and why they differ", async () => {
  const root = "/w/r";
  const util1 = "def add(a, b):\n    return a + b\n";
  const utilFormatted = util1 + "# formatted\n";
  const utilCommit = "def add(a, b):\n    return int(a + b)\n# formatted\n";
  const app0 = "import os\n\ndef main():\n    pass\n";
  const appCommit = "import os\n\ndef main():\n    print(add(1, 2))\n# done\n";
  const log = new ClaudeLog({ sessionId: "cccccccc-0000-0000-0000-000000000001", cwd: root })
    .prompt("add a helper and use it")
    .call("t1", "Write", { file_path: `${root}/util.py`, content: util1 })
    .result("t1", writeResult(`${root}/util.py`, util1, null))
    .call("t2", "Edit", { file_path: `${root}/app.py`, old_string: "    pass\n", new_string: "    print(add(1, 2))\n" })
    .result("t2", editResult(`${root}/app.py`, app0, "    pass\n", "    print(add(1, 2))\n"))
    .call("t3", "Bash", { command: "fmt util.py" })
    .result("t3", { stdout: "", stderr: "", interrupted: false, isImage: false })
    .call("t4", "Edit", {
      file_path: `${root}/util.py`,
      old_string: "    return a + b\n",
      new_string: "    return int(a + b)\n",
    })
    .result("t4", editResult(`${root}/util.py`, utilFormatted, "    return a + b\n", "    return int(a + b)\n"));
  const sink = new DiagnosticSink("test");
  const session = parseClaudeCodeTranscript({ text: log.text(), file: "t.jsonl" }, sink);
  assert.ok(session);
  const base: Record<string, string | null> = { "app.py": app0, "util.py": null };
  const commit: Record<string, string> = { "app.py": appCommit, "util.py": utilCommit };
  const patches = Object.keys(commit).map((p) => ({
    path: p,
    patch: createTwoFilesPatch(`a/${p}`, `b/${p}`, base[p] ?? "", commit[p]),
  }));
  const counts = (c: {
    agent_lines_produced: number;
    agent_lines_final: number;
    agent_lines_survived: number;
    human_lines: number;
    outside_lines: number;
    total_committed_lines: number;
    outside_changes: number;
  }) => [
    c.agent_lines_produced,
    c.agent_lines_final,
    c.agent_lines_survived,
    c.human_lines,
    c.outside_lines,
    c.total_committed_lines,
    c.outside_changes,
  ];

  const gitReplay = await attributeUnit(
    session,
    0,
    {
      changed: [
        { path: "app.py", binary: false },
        { path: "util.py", binary: false },
      ],
      readBase: async (p) => base[p] ?? null,
      readCommit: async (p) => commit[p] ?? null,
      exists: (p) => p in commit,
    },
    sink,
  );
  const preImage = await attributeFromPreImages(session, 0, patches, sink);
  const matched = patchMatch(session, patches, sink);

  //                          produced final survived human outside committed outside_changes
  assert.deepEqual(counts(gitReplay), [4, 3, 3, 1, 1, 5, 1]);
  assert.deepEqual(counts(preImage), [4, 3, 3, 1, 1, 5, 1]);
  assert.deepEqual(counts(matched), [4, 3, 3, 2, 0, 5, 1]);
});
