import assert from "node:assert/strict";
import { test } from "node:test";
import { editsFromInput } from "../../src/ingest/swechat";

const summary = (name: string, input: unknown) => {
  const r = editsFromInput(name, input);
  return r.ok
    ? r.edits.map((e) => [
        e.kind,
        e.path,
        e.post_image,
        e.edits?.map((x) => [x.old_string, x.new_string, x.replace_all]) ?? null,
        e.patch,
        ...(e.moved_from ? [e.moved_from] : []),
      ])
    : r.reason;
};

test("file edits from tool inputs, per agent", () => {
  assert.deepEqual(summary("Write", { file_path: "/a/x.py", content: "x\n" }), [
    ["write", "/a/x.py", "x\n", null, null],
  ]);
  assert.deepEqual(summary("Edit", { file_path: "/a/x.py", old_string: "a", new_string: "b", replace_all: true }), [
    ["edit", "/a/x.py", null, [["a", "b", true]], null],
  ]);
  assert.deepEqual(
    summary("MultiEdit", {
      file_path: "/a/x.py",
      edits: [
        { old_string: "a", new_string: "b" },
        { old_string: "c", new_string: "d" },
      ],
    }),
    [
      [
        "multi-edit",
        "/a/x.py",
        null,
        [
          ["a", "b", false],
          ["c", "d", false],
        ],
        null,
      ],
    ],
  );
  // OpenCode's camelCase fields; Gemini's tool names.
  assert.deepEqual(summary("edit", { filePath: "/a/y.ts", oldString: "o", newString: "n" }), [
    ["edit", "/a/y.ts", null, [["o", "n", false]], null],
  ]);
  assert.deepEqual(summary("write_file", { file_path: "/a/z.md", content: "" }), [
    ["write", "/a/z.md", "", null, null],
  ]);
  assert.deepEqual(summary("replace", { file_path: "/a/z.md", old_string: "1", new_string: "2" }), [
    ["edit", "/a/z.md", null, [["1", "2", false]], null],
  ]);
  assert.deepEqual(summary("NotebookEdit", { notebook_path: "/a/n.ipynb", new_source: "x" }), [
    ["notebook", "/a/n.ipynb", null, null, null],
  ]);
  assert.deepEqual(summary("Read", { file_path: "/a/x.py" }), []);
  assert.match(String(summary("Edit", { file_path: "/a/x.py" })), /without a path, old and new text/);
});

test("Codex apply_patch envelopes: add, update (with a move), delete; also inside a shell call", () => {
  const patch = [
    "*** Begin Patch",
    "*** Add File: src/new.py",
    "+a",
    "+b",
    "*** Update File: src/old.py",
    "*** Move to: src/moved.py",
    "@@ def f():",
    "-    return 1",
    "+    return 2",
    "*** Delete File: src/gone.py",
    "*** End Patch",
  ].join("\n");
  const expected = [
    ["write", "src/new.py", "a\nb\n", null, null],
    // the move: one edit on the new path, naming the old one (replay carries its lines over, then applies the hunks)
    ["patch", "src/moved.py", null, null, "@@\n-    return 1\n+    return 2\n", "src/old.py"],
    ["delete", "src/gone.py", null, null, null],
  ];
  assert.deepEqual(summary("apply_patch", { input: patch }), expected);
  assert.deepEqual(summary("apply_patch", patch), expected);
  assert.deepEqual(summary("shell", { command: ["apply_patch", patch] }), expected);
  assert.deepEqual(summary("exec_command", { cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }), expected);
  assert.deepEqual(summary("shell", { command: ["bash", "-lc", "ls"] }), []);
});
