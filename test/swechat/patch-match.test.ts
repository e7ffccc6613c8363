import assert from "node:assert/strict";
import { test } from "node:test";
import { addedLines, patchMatch } from "../../src/attribution/patch-match";
import { DiagnosticSink, type FileEdit, type Session, type ToolCall } from "../../src/model";

let record = 0;
function call(
  name: string,
  path: string,
  edit: Partial<FileEdit> & Pick<FileEdit, "kind">,
  success: boolean | null = true,
): ToolCall {
  record++;
  return {
    id: `call-${record}`,
    name,
    input: {},
    timestamp: null,
    record,
    result_record: success === null ? null : record,
    success,
    error: null,
    sidechain: false,
    file_edits: [{ path, pre_image: null, post_image: null, edits: null, patch: null, user_modified: false, ...edit }],
  };
}
const edit = (old_string: string, new_string: string) => ({
  kind: "edit" as const,
  edits: [{ old_string, new_string, replace_all: false }],
});

function session(calls: ToolCall[], cwds = ["/w/repo"]): Session {
  return {
    format_version: 1,
    session_id: "s1",
    source: "swechat",
    agent: "Claude Code",
    agent_version: null,
    transcript: null,
    cwds,
    branch: null,
    turns: [],
    tool_calls: calls,
    api_calls: [],
    record_times: [],
    record_count: calls.length,
  };
}
const counts = (a: ReturnType<typeof patchMatch>) => [
  a.agent_lines_produced,
  a.agent_lines_final,
  a.agent_lines_survived,
  a.human_lines,
  a.outside_lines,
  a.total_committed_lines,
];

/**
 * Hand-worked:
 *  1 Write a.py "import os / (blank) / def f(): / return 1"   file unknown → all 4 lines fresh: produced 4, a.py known
 *  2 Edit a.py "return 1" → "return 2 / # done"                on the known text: −1 +2, produced 6; a.py agent lines 5
 *  3 Edit b.py "x = 1 / y = 2" → "x = 1 / y = 3 / z = 4"       b.py never seen: a fragment; inserted y = 3, z = 4: produced 8
 *  4 Edit b.py "z = 4" → "z = 5"                               inside fragment 3: z = 4 overwritten, z = 5 inserted: produced 9
 *  5 Edit b.py "y = 3 / w = 0" → "w = 0"                       not inside one fragment: its deleted line "y = 3" removes the
 *                                                              agent's own y = 3; "w = 0" is context (unknown origin); produced 9
 *  6 Write c.py, failed                                        skipped
 *  7 Edit c.py "" → "hello", no result logged                  counted as applied: creates c.py, produced 10
 *  8 Write /tmp/notes.md                                       outside the repository: ignored
 * Final agent lines: a.py 5 (import os, blank, def f():, return 2, # done), b.py 1 (z = 5), c.py 1 → 7.
 * Commit: a.py adds import os (CRLF), import sys, blank, def f():, return 2 → 5 committed, 4 agent (multiset), import sys human;
 *         b.py adds z = 5, y = 3 → z = 5 agent; y = 3 human (the agent overwrote its own y = 3, so no agent copy is left);
 *         logo.png binary → no lines; c.py not in the commit → only in final.
 * survived 5, human 2, committed 7, outside 0.
 */
test("patch-match: self-overwrites removed, multiset match per file", () => {
  const calls = [
    call("Write", "/w/repo/a.py", { kind: "write", post_image: "import os\n\ndef f():\n    return 1\n" }),
    call("Edit", "/w/repo/a.py", edit("    return 1\n", "    return 2\n    # done\n")),
    call("Edit", "/w/repo/b.py", edit("x = 1\ny = 2\n", "x = 1\ny = 3\nz = 4\n")),
    call("Edit", "/w/repo/b.py", edit("z = 4\n", "z = 5\n")),
    call("Edit", "/w/repo/b.py", edit("y = 3\nw = 0\n", "w = 0\n")),
    call("Write", "/w/repo/c.py", { kind: "write", post_image: "never\n" }, false),
    call("Edit", "/w/repo/c.py", edit("", "hello\n"), null),
    call("Write", "/tmp/notes.md", { kind: "write", post_image: "plan\n" }),
  ];
  const sink = new DiagnosticSink("test");
  const a = patchMatch(
    session(calls),
    [
      {
        path: "a.py",
        patch:
          "diff --git a/a.py b/a.py\nnew file mode 100644\n--- /dev/null\n+++ b/a.py\n@@ -0,0 +1,5 @@\n+import os\r\n+import sys\n+\n+def f():\n+    return 2\n",
      },
      { path: "b.py", patch: "@@ -1,3 +1,3 @@\n x = 1\n-y = 2\n+z = 5\n+y = 3\n w = 0\n" },
      { path: "logo.png", patch: null },
    ],
    sink,
  );
  assert.deepEqual(counts(a), [10, 7, 5, 2, 0, 7]);
  assert.deepEqual(
    a.files.map((f) => [f.path, f.produced, f.final, f.survived, f.committed]),
    [
      ["a.py", 6, 5, 4, 5],
      ["b.py", 3, 1, 1, 2],
      ["c.py", 1, 1, 0, 0],
    ],
  );
  assert.equal(a.files_outside_repo, 1);
  assert.equal(a.unreplayable_calls, 0);
  assert.deepEqual(sink.rows.map((d) => d.code).sort(), ["patch-match-unknown-outcome", "path-outside-repo"]);
});

/**
 * A known file edited behind the agent's back: Write "a / b", then an Edit whose old text "c" is not in it
 * (someone changed the file) → outside_changes 1, the text becomes a fragment, the edit a new fragment
 * ("c" → "d": d agent). Agent lines a, b, d (3); produced 2 + 1 = 3. A notebook cell edit has no text to
 * replay: unreplayable 1. The commit adds a, d, e: a and d agent (2), e human.
 */
test("patch-match: outside change on a known file, unreplayable notebook edit", () => {
  const calls = [
    call("Write", "/w/repo/x.txt", { kind: "write", post_image: "a\nb\n" }),
    call("Edit", "/w/repo/x.txt", edit("c\n", "d\n")),
    call("NotebookEdit", "/w/repo/n.ipynb", { kind: "notebook" }),
  ];
  const sink = new DiagnosticSink("test");
  const a = patchMatch(session(calls), [{ path: "x.txt", patch: "@@ -1,1 +1,3 @@\n+a\n+d\n+e\n c\n" }], sink);
  assert.deepEqual(counts(a), [3, 3, 2, 1, 0, 3]);
  assert.equal(a.outside_changes, 1);
  assert.equal(a.unreplayable_calls, 1);
});

/**
 * apply_patch hunks on a file never seen: "-b +c" with context a → c agent (produced 1); a second patch
 * "-c +C" (context a) lies inside the first fragment: c overwritten by C (produced 2). An "Add File"
 * patch (all `+`) creates new.txt: 2 lines produced. Commit adds C, x, y: C agent, x and y human
 * (new.txt is not in the commit). final = C + 2 = 3.
 */
test("patch-match: apply_patch hunks replayed on each other", () => {
  const calls = [
    call("apply_patch", "/w/repo/p.txt", { kind: "patch", patch: "@@\n a\n-b\n+c\n" }),
    call("apply_patch", "/w/repo/p.txt", { kind: "patch", patch: "@@\n a\n-c\n+C\n" }),
    call("apply_patch", "/w/repo/new.txt", { kind: "patch", patch: "+n1\n+n2\n" }),
  ];
  const a = patchMatch(
    session(calls),
    [{ path: "p.txt", patch: "@@ -1,2 +1,4 @@\n a\n-b\n+C\n+x\n+y\n" }],
    new DiagnosticSink("test"),
  );
  assert.deepEqual(counts(a), [4, 3, 1, 2, 0, 3]);
});

/** Without a recorded cwd and with no edited file in the commit, paths still map (common folder), so final counts. */
test("patch-match: no cwd, edits that miss the commit still count in final", () => {
  const calls = [
    call("Write", "/home/u/p/src/a.ts", { kind: "write", post_image: "1\n2\n" }),
    call("Write", "/home/u/p/b.ts", { kind: "write", post_image: "3\n" }),
  ];
  const a = patchMatch(
    session(calls, []),
    [{ path: "README.md", patch: "@@ -0,0 +1 @@\n+hi\n" }],
    new DiagnosticSink("test"),
  );
  assert.deepEqual(counts(a), [3, 3, 0, 1, 0, 1]);
  assert.deepEqual(
    a.files.map((f) => f.path),
    ["README.md", "b.ts", "src/a.ts"],
  );
});

test("addedLines reads hunks by their header counts", () => {
  // "+++x" inside a hunk is the added line "++x"; the next file's "+++ b/y" header is outside any hunk.
  const patch =
    "--- a/x\n+++ b/x\n@@ -1 +1,2 @@\n-old\n+++x\n+\n--- a/y\n+++ b/y\n@@ -0,0 +1 @@\n+y1\r\n\\ No newline at end of file\n";
  assert.deepEqual(addedLines(patch), ["++x", "", "y1"]);
});

/**
 * Claude Code's deletion rule in patch-match, on the known text and inside a fragment:
 *  1 Write a.py "a / foo() / b"                    produced 3
 *  2 Edit a.py "foo()" → ""                        Claude Code also deletes the newline after foo(): "a / b", nothing
 *                                                  inserted, produced 3 (the plain rule would leave an empty line: 4)
 *  3 Edit b.py "x / bar() / y" → "x / bar() / y / z"   b.py never seen: a fragment; inserted z: produced 4
 *  4 Edit b.py "bar()" → ""                        inside the fragment: "x / y / z", nothing inserted: produced 4
 * Final agent lines: a.py a, b (2), b.py z (1) → 3. Nothing is committed.
 * Under another tool's name (`replace`) steps 2 and 4 leave an empty line each: produced 6, final 5.
 */
test("patch-match: a Claude Code Edit that deletes a text takes its newline with it", () => {
  const calls = (tool: string) => [
    call("Write", "/w/repo/a.py", { kind: "write", post_image: "a\nfoo()\nb\n" }),
    call(tool, "/w/repo/a.py", edit("foo()", "")),
    call(tool, "/w/repo/b.py", edit("x\nbar()\ny\n", "x\nbar()\ny\nz\n")),
    call(tool, "/w/repo/b.py", edit("bar()", "")),
  ];
  const claude = patchMatch(session(calls("Edit")), [], new DiagnosticSink("test"));
  assert.deepEqual([claude.agent_lines_produced, claude.agent_lines_final], [4, 3]);
  const plain = patchMatch(session(calls("replace")), [], new DiagnosticSink("test"));
  assert.deepEqual([plain.agent_lines_produced, plain.agent_lines_final], [6, 5]);
});
