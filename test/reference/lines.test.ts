/**
 * The reference's own building blocks, on inputs small enough to work out by hand
 * (metrics.md §2 lines and provenance, §3 edits).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { normaliseSessionId } from "./checkpoints";
import {
  type Line,
  applyStringEdits,
  applyUnifiedDiff,
  carry,
  isBinary,
  keptIndices,
  setLineDiffMode,
  toLines,
} from "./lines";
import { detectFormat, parseTranscript } from "./transcripts";

const base = (...texts: string[]): Line[] => texts.map((text) => ({ text, prov: "base", call: null }));
const provs = (lines: Line[]): string => lines.map((l) => `${l.text}:${l.prov}`).join(" ");

test("toLines follows metrics.md §2: last line without \\n counts, empty text has 0 lines, trailing \\r dropped, blank lines count", () => {
  assert.deepEqual(toLines(""), []);
  assert.deepEqual(toLines("a"), ["a"]);
  assert.deepEqual(toLines("a\n"), ["a"]);
  assert.deepEqual(toLines("\n"), [""]); // one blank line
  assert.deepEqual(toLines("a\r\nb"), ["a", "b"]);
  assert.deepEqual(toLines("a\n\n\nb\n"), ["a", "", "", "b"]);
});

test("a NUL byte in the first 8000 bytes makes a file binary; later NULs do not", () => {
  assert.equal(isBinary(Buffer.from("ab\0c")), true);
  assert.equal(isBinary(Buffer.concat([Buffer.alloc(8000, 97), Buffer.from([0])])), false);
  assert.equal(isBinary(Buffer.from("plain\n")), false);
});

test("carry: equal lines keep their provenance, inserted lines take the changer's, a changed line is delete + insert", () => {
  // [a, b, c] → [a, B, c, d]: b deleted, B and d inserted: 2 agent lines.
  const r = carry(base("a", "b", "c"), ["a", "B", "c", "d"], "agent", "call1");
  assert.equal(r.inserted, 2);
  assert.equal(provs(r.lines), "a:base B:agent c:base d:agent");
  assert.equal(r.lines[1].call, "call1");
});

test("tie-breaking: jsdiff on whole arrays and jsdiff between the common prefix/suffix keep different equal lines", () => {
  // ["x"] → ["}", "x", "x"]: jsdiff on the whole arrays keeps the first x (inserts lines 1 and 3);
  // after trimming the common suffix "x" the last x is kept (inserts lines 1 and 2).
  try {
    assert.equal(provs(carry(base("x"), ["}", "x", "x"], "agent", null).lines), "}:agent x:base x:agent");
    setLineDiffMode("trim-common");
    assert.equal(provs(carry(base("x"), ["}", "x", "x"], "agent", null).lines), "}:agent x:agent x:base");
  } finally {
    setLineDiffMode("whole");
  }
});

test("keptIndices: the committed lines a Myers diff base → commit keeps as equal", () => {
  // base [a, b] → commit [a, x, b]: a (0) and b (2) kept; x (1) is the one committed line.
  assert.deepEqual([...keptIndices(["a", "b"], ["a", "x", "b"])].sort(), [0, 2]);
  assert.deepEqual([...keptIndices([], ["a"])], []);
});

test("applyStringEdits: first match or all matches, `$&` taken literally, absent old text → unreplayable (null)", () => {
  assert.equal(applyStringEdits("a a a", [{ oldString: "a", newString: "b", replaceAll: false }]), "b a a");
  assert.equal(applyStringEdits("a a a", [{ oldString: "a", newString: "b", replaceAll: true }]), "b b b");
  assert.equal(applyStringEdits("x", [{ oldString: "x", newString: "$&$&", replaceAll: false }]), "$&$&");
  assert.equal(applyStringEdits("x", [{ oldString: "REDACTED", newString: "y", replaceAll: false }]), null);
  // MultiEdit: edits in order, the second sees the first's result.
  assert.equal(
    applyStringEdits("one", [
      { oldString: "one", newString: "two", replaceAll: false },
      { oldString: "two", newString: "three", replaceAll: false },
    ]),
    "three",
  );
  // Creating a file from an empty old_string.
  assert.equal(applyStringEdits("", [{ oldString: "", newString: "new\n", replaceAll: false }]), "new\n");
});

test('applyStringEdits: deleting text (new_string "") also removes the newline after it, as Claude Code\'s Edit does', () => {
  // "keep\ndrop\nkeep2\n" minus "drop" is "keep\nkeep2\n" (2 lines), not "keep\n\nkeep2\n" (3 lines).
  assert.equal(
    applyStringEdits("keep\ndrop\nkeep2\n", [{ oldString: "drop", newString: "", replaceAll: false }]),
    "keep\nkeep2\n",
  );
  // Not when old_string already ends with a newline, and not when new_string is not empty.
  assert.equal(
    applyStringEdits("keep\ndrop\nkeep2\n", [{ oldString: "drop\n", newString: "", replaceAll: false }]),
    "keep\nkeep2\n",
  );
  assert.equal(
    applyStringEdits("keep\ndrop\nkeep2\n", [{ oldString: "drop", newString: "d", replaceAll: false }]),
    "keep\nd\nkeep2\n",
  );
});

test("applyUnifiedDiff: a hunk goes where its @@ line numbers say, not to the first place its context matches", () => {
  // Context "}" occurs at lines 2 and 4; the hunk says line 4, so "c" goes after the second "}".
  assert.equal(applyUnifiedDiff("a\n}\nb\n}\n", "@@ -4,1 +4,2 @@\n }\n+c\n"), "a\n}\nb\n}\nc\n");
  // Two hunks; the second's numbers are in the old file's coordinates.
  assert.equal(
    applyUnifiedDiff("1\n2\n3\n4\n5\n", "@@ -1,1 +1,2 @@\n 1\n+1b\n@@ -5,1 +6,1 @@\n-5\n+five\n"),
    "1\n1b\n2\n3\n4\nfive\n",
  );
  // A file one line longer than Codex saw: the nearest exact match of the old side is used.
  assert.equal(applyUnifiedDiff("0\na\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+B\n"), "0\na\nB\n");
  // Old side nowhere: unreplayable.
  assert.equal(applyUnifiedDiff("x\n", "@@ -1,1 +1,1 @@\n-q\n+r\n"), null);
  // "\ No newline at end of file" after an added line: the result has no final newline.
  assert.equal(applyUnifiedDiff("a\n", "@@ -1,1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n"), "a\nb");
  // A pure insertion into an empty file (-0,0).
  assert.equal(applyUnifiedDiff("", "@@ -0,0 +1,2 @@\n+p\n+q\n"), "p\nq\n");
});

test("session ids: `YYYY-MM-DD-<uuid>` is `<uuid>` (metrics.md §1)", () => {
  assert.equal(
    normaliseSessionId("2026-01-06-a3419413-6c53-4891-8ed5-e3f01e07fcba"),
    "a3419413-6c53-4891-8ed5-e3f01e07fcba",
  );
  assert.equal(normaliseSessionId("a3419413-6c53-4891-8ed5-e3f01e07fcba"), "a3419413-6c53-4891-8ed5-e3f01e07fcba");
});

test("transcripts: format by content; Claude 2.x streamed blocks and nested sub-agent calls each count once, failures never", () => {
  assert.equal(detectFormat([{ timestamp: "t", type: "session_meta", payload: {} }]), "codex");
  assert.equal(detectFormat([{ type: "user", sessionId: "s", message: { content: "hi" } }]), "claude-code");
  assert.equal(detectFormat([{ sessionId: "s", messages: [] }]), "unknown");
  const use = (id: string, name: string, input: object) => ({
    type: "assistant",
    message: { id: "m", content: [{ type: "tool_use", id, name, input }] },
  });
  const result = (id: string, tur: unknown, isError = false) => ({
    type: "user",
    message: { content: [{ type: "tool_result", tool_use_id: id, is_error: isError }] },
    toolUseResult: tur,
  });
  const lines = [
    use("t1", "Write", { file_path: "/r/a", content: "a\n" }),
    use("t1", "Write", { file_path: "/r/a", content: "a\n" }), // a streamed duplicate block
    use("t2", "Edit", { file_path: "/r/a", old_string: "zzz", new_string: "y" }),
    {
      type: "progress",
      data: { type: "agent_progress", message: use("t3", "Write", { file_path: "/r/b", content: "b\n" }) },
    },
    result("t2", "Error: String to replace not found in file.", true), // failed: skipped
    result("t1", { type: "create", filePath: "/r/a", content: "a\n", structuredPatch: [], originalFile: null }),
    {
      type: "progress",
      data: { type: "agent_progress", message: result("t3", { type: "create", filePath: "/r/b", content: "b\n" }) },
    },
    result("t1", { type: "create", filePath: "/r/a", content: "a\n" }), // a repeated result: counted once
  ]
    .map((r) => JSON.stringify(r))
    .join("\n");
  const parsed = parseTranscript(`${lines}\n`);
  // Two successful calls, in the order of their result records (lines 5 and 6, 0-based).
  assert.deepEqual(
    parsed.calls.map((c) => [c.callId, c.resultLine, c.preImage, c.postImage]),
    [
      ["t1", 5, "", "a\n"],
      ["t3", 6, "", "b\n"],
    ],
  );
});
