import assert from "node:assert/strict";
import { test } from "node:test";
import { applyStringEdits, applyUnifiedDiff, postImageOf } from "../../src/replay/apply-edit";

test("a hunk goes to the line its @@ header names, not to the first place its context matches", () => {
  // Old file: a } b } (4 lines). The hunk "@@ -4,1 +4,2 @@ / } / +c" keeps line 4 ("}") and adds
  // "c" after it. Its context "}" also matches line 2: placed there (the first match), "c" would
  // land between "}" and "b". By the header it lands at the end.
  const r = applyUnifiedDiff("a\n}\nb\n}\n", "@@ -4,1 +4,2 @@\n }\n+c\n");
  assert.deepEqual(r, { ok: true, text: "a\n}\nb\n}\nc\n" });
});

test("later hunks are placed with the shift of earlier ones; a drifted header still finds the nearest match", () => {
  // Hunk 1 turns "a" into "a x y" (+2 lines). Hunk 2's header says old line 3, but old line 3 is
  // "b" (the header drifted by one); its context "}" is at old lines 2 and 4, now 0-based 3 and 5
  // after the shift. The hint is 2 + 2 = 4; both matches are one away, and the search tries
  // forward first (as patch(1) does), so "z" goes after the last "}".
  const base = "a\n}\nb\n}\n";
  const patch = "@@ -1,1 +1,3 @@\n a\n+x\n+y\n@@ -3,1 +5,2 @@\n }\n+z\n";
  const r = applyUnifiedDiff(base, patch);
  assert.deepEqual(r, { ok: true, text: "a\nx\ny\n}\nb\n}\nz\n" });
});

test("hunks without line numbers (apply_patch's bare @@) are searched from the end of the previous hunk", () => {
  const r = applyUnifiedDiff("f\n}\ng\n}\n", "@@\n g\n }\n+h\n");
  assert.deepEqual(r, { ok: true, text: "f\n}\ng\n}\nh\n" });
});

test("an insertion into an empty range (-a,0) goes after line a", () => {
  // "-2,0 +3,1": nothing removed, one line added after old line 2.
  const r = applyUnifiedDiff("1\n2\n3\n", "@@ -2,0 +3 @@\n+new\n");
  assert.deepEqual(r, { ok: true, text: "1\n2\nnew\n3\n" });
});

test("applyUnifiedDiff: a blank context line written ' ' is a line of the file; only the final newline's empty line is an artefact", () => {
  // Found by differential fuzzing: the hunk's old side is a, b, blank (its header says 3 lines). A file without
  // that blank line does not match: the call is unreplayable, not applied as if the blank were not there.
  const hunk = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n \n";
  assert.equal(applyUnifiedDiff("a\nb\nc\n", hunk).ok, false);
  assert.deepEqual(applyUnifiedDiff("a\nb\n\nc\n", hunk), { ok: true, text: "a\nB\n\nc\n" });
  // The patch text's final "\n" leaves an empty line with no prefix: not a context line.
  assert.deepEqual(applyUnifiedDiff("a\nb\nc\n", "@@ -1,2 +1,2 @@\n a\n-b\n+B\n"), { ok: true, text: "a\nB\nc\n" });
});

test("postImageOf: an empty diff is the tool's record of no change; a diff with text but no hunk stays unreplayable", () => {
  // Found by differential fuzzing: Codex logs `{type: "update", unified_diff: ""}` for a pure rename or a no-op update.
  const edit = (patch: string) => ({
    path: "a.ts",
    kind: "patch" as const,
    pre_image: null,
    post_image: null,
    edits: null,
    patch,
    user_modified: false,
  });
  assert.deepEqual(postImageOf(edit(""), "x\ny\n", "apply_patch"), { ok: true, text: "x\ny\n" });
  assert.deepEqual(postImageOf({ ...edit(""), moved_from: "old.ts" }, "x\n", "apply_patch"), { ok: true, text: "x\n" });
  assert.equal(postImageOf(edit("garbled text\n"), "x\n", "apply_patch").ok, false);
});

// Found by the second round of differential fuzzing against the reference (Codex diffs on files changed underneath).
test("applyUnifiedDiff: the final newline follows the marker's side ('\\ No newline' after '-' is the old side's)", () => {
  // Old "l2\n\nx" has no final newline; the new text "l2\nx\n\n" ends with a blank line and a newline.
  const patch = "@@ -1,3 +1,3 @@\n l2\n+x\n \n-x\n\\ No newline at end of file\n";
  assert.deepEqual(applyUnifiedDiff("l2\n\nx", patch), { ok: true, text: "l2\nx\n\n" });
  // The marker after a '+' line: the new side has no final newline, even when the old one had.
  assert.deepEqual(applyUnifiedDiff("a\nb\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n"), {
    ok: true,
    text: "a\nc",
  });
  // No marker: the end stays as it was.
  assert.deepEqual(applyUnifiedDiff("a\nb", "@@ -1,2 +1,2 @@\n-a\n+A\n b\n"), { ok: true, text: "A\nb" });
});

test("applyUnifiedDiff: a hunk is never placed before the end of the previous one", () => {
  // Hunk 2's only context is a blank line, and the only blank line left is hunk 1's own trailing context.
  const patch = "@@ -1,2 +1,3 @@\n a\n+new1\n \n@@ -7,1 +8,2 @@\n \n+tail\n";
  assert.equal(applyUnifiedDiff("a\n\nx\ny\nz\nw\n", patch).ok, false);
});

test("applyUnifiedDiff: where a hunk applied away from its line, the next is looked for at the same offset first", () => {
  // The diff was made on the file with two more lines on top (o1, o2) than the replayed state. Hunk 1 (x → X, stated
  // at line 4) applies 2 lines higher, at line 2. Hunk 2 (Y into the "}" pair stated at lines 9–10) then belongs 2
  // lines higher too, at lines 7–8; the other pair, at lines 10–11, is nearer its stated line but wrong.
  const replayed = "a\nx\nb\n}\n}\nc\n}\n}\ne\n}\n}\nd\n";
  const patch = "@@ -4,1 +4,1 @@\n-x\n+X\n@@ -9,2 +9,3 @@\n }\n+Y\n }\n";
  assert.deepEqual(applyUnifiedDiff(replayed, patch), { ok: true, text: "a\nX\nb\n}\n}\nc\n}\nY\n}\ne\n}\n}\nd\n" });
});

test("applyStringEdits: an old string starting with a newline does not split a CRLF line break", () => {
  // "top\r\nold\r\n", old "\nold" → new "new". Literally, "\nold" matches after the "\r" and leaves "top\rnew\r\n"
  // (a line "top\rnew"). The tools match CRLF files as LF text: "top\nold\n" → "topnew\n", written back CRLF.
  assert.deepEqual(
    applyStringEdits("top\r\nold\r\n", [{ old_string: "\nold", new_string: "new", replace_all: false }]),
    { ok: true, text: "topnew\r\n" },
  );
  assert.deepEqual(
    applyStringEdits("a\r\nx\r\nb\r\nx\r\n", [{ old_string: "\nx", new_string: "", replace_all: true }]),
    { ok: true, text: "a\r\nb\r\n" }, // LF "a\nx\nb\nx\n" → "a\nb\n"
  );
  // On an LF file, or an old string that does not start with a newline, nothing changes: a literal match.
  assert.deepEqual(applyStringEdits("top\nold\n", [{ old_string: "\nold", new_string: "new", replace_all: false }]), {
    ok: true,
    text: "topnew\n",
  });
  assert.deepEqual(applyStringEdits("top\r\nold\r\n", [{ old_string: "old", new_string: "new", replace_all: false }]), {
    ok: true,
    text: "top\r\nnew\r\n",
  });
});
