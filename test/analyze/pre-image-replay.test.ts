import assert from "node:assert/strict";
import { test } from "node:test";
import { attributeFromPreImages } from "../../src/analyze";
import { parseClaudeCodeTranscript } from "../../src/ingest/claude-code";
import { DiagnosticSink } from "../../src/model";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";

/**
 * Method `pre-image-replay`: no repository, only the log's pre-images and the
 * commit's patch (as SWE-chat's `commits.patch`).
 *
 * lib.py exists before the session: its first pre-image (the Edit's
 * originalFile) is the base: x = 1 / y = 2.
 *  - Edit lib.py: "y = 2" → "y = 3" + "z = 4"          produced 2
 *  - Write new.py (create, base ""): a / b / c          produced 5
 * The commit's patch: lib.py −"y = 2" +"y = 3" +"z = 5" (the person changed z),
 * new.py +a +b +c, and other.py +"hello" (never touched by the agent: base unknown,
 * its added line counted from the patch, human).
 * Committed 2 + 3 + 1 = 6: agent y = 3, a, b, c (4); human z = 5 and hello (2).
 */
test("pre-image-replay from the log's pre-images and the commit patch", async () => {
  const root = "/w/repo";
  const log = new ClaudeLog({ sessionId: "bbbbbbbb-0000-0000-0000-000000000001", cwd: root })
    .prompt("bump y, add z and a new module")
    .call("toolu_e", "Edit", { file_path: `${root}/lib.py`, old_string: "y = 2\n", new_string: "y = 3\nz = 4\n" })
    .result("toolu_e", editResult(`${root}/lib.py`, "x = 1\ny = 2\n", "y = 2\n", "y = 3\nz = 4\n"))
    .call("toolu_w", "Write", { file_path: `${root}/new.py`, content: "a\nb\nc\n" })
    .result("toolu_w", writeResult(`${root}/new.py`, "a\nb\nc\n", null));
  const sink = new DiagnosticSink("test");
  const session = parseClaudeCodeTranscript({ text: log.text(), file: "t.jsonl" }, sink);
  assert.ok(session);
  const counts = await attributeFromPreImages(
    session,
    0,
    [
      { path: "lib.py", patch: "@@ -1,2 +1,3 @@\n x = 1\n-y = 2\n+y = 3\n+z = 5\n" },
      { path: "new.py", patch: "@@ -0,0 +1,3 @@\n+a\n+b\n+c\n" },
      { path: "other.py", patch: "@@ -0,0 +1 @@\n+hello\n" },
    ],
    sink,
  );
  assert.deepEqual(
    [
      counts.agent_lines_produced,
      counts.agent_lines_final,
      counts.agent_lines_survived,
      counts.human_lines,
      counts.outside_lines,
      counts.total_committed_lines,
    ],
    [5, 5, 4, 2, 0, 6],
  );
  assert.equal(counts.unknown_base_files, 1);
});
