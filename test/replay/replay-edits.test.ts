import assert from "node:assert/strict";
import { test } from "node:test";
import { agentLinesFinal, replayEdits } from "../../src/replay";
import { attributeAtCommit } from "../../src/attribution/at-commit";
import { step } from "../helpers/calls";

test("an agent rewrites its own lines, someone edits between calls, a person edits before the commit", () => {
  // base a.txt: 1 2 3
  const base = "1\n2\n3\n";
  const steps = [
    // c1 replaces "2" by "A","B": -1 +2 → produced 2. State: 1 A B 3 (A,B agent c1).
    step(
      "a.txt",
      { kind: "edit", pre_image: base, edits: [{ old_string: "2\n", new_string: "A\nB\n", replace_all: false }] },
      "c1",
    ),
    // c2 rewrites its own B into C: -1 +1 → produced 3. State: 1 A C 3.
    step(
      "a.txt",
      { kind: "edit", pre_image: "1\nA\nB\n3\n", edits: [{ old_string: "B", new_string: "C", replace_all: false }] },
      "c2",
    ),
    // Before c3 a formatter inserted "0" at the top: the pre-image differs → one outside change, "0" is outside.
    // c3 inserts D after C: +1 → produced 4. State: 0 1 A C D 3; agent lines A, C, D → final 3.
    step("a.txt", { kind: "edit", pre_image: "0\n1\nA\nC\n3\n", post_image: "0\n1\nA\nC\nD\n3\n" }, "c3"),
  ];
  const replay = replayEdits(steps, (p) => (p === "a.txt" ? base : null));
  assert.equal(replay.produced, 4);
  assert.equal(replay.outsideChanges, 1);
  assert.equal(replay.unreplayable, 0);
  assert.equal(agentLinesFinal(replay), 3);

  // The person changes C into C2 and appends E before committing.
  // Myers base (1 2 3) → commit (0 1 A C2 D 3 E): 2 deleted; 0, A, C2, D, E added → 5 committed lines.
  // Owners: 0 outside, A agent, C2 human (changed line = new text), D agent, E human.
  const result = attributeAtCommit(replay, [{ path: "a.txt", base, commit: "0\n1\nA\nC2\nD\n3\nE\n" }]);
  assert.deepEqual(
    {
      produced: result.agent_lines_produced,
      final: result.agent_lines_final,
      survived: result.agent_lines_survived,
      human: result.human_lines,
      outside: result.outside_lines,
      committed: result.total_committed_lines,
    },
    { produced: 4, final: 3, survived: 2, human: 2, outside: 1, committed: 5 },
  );
});

test("an edit whose old text is absent is unreplayable, counted, and the file resynchronises at the next pre-image", () => {
  const base = "x\ny\n";
  const steps = [
    // old_string redacted by Entire: cannot be applied → unreplayable, state stays x y.
    step("f.txt", { kind: "edit", edits: [{ old_string: "REDACTED", new_string: "z\n", replace_all: false }] }, "bad"),
    // Next call's pre-image shows the real effect of the bad call (x y z): z is `outside` (we cannot prove who wrote it).
    step(
      "f.txt",
      { kind: "edit", pre_image: "x\ny\nz\n", edits: [{ old_string: "y\n", new_string: "Y\n", replace_all: false }] },
      "good",
    ),
  ];
  const replay = replayEdits(steps, () => base);
  assert.equal(replay.unreplayable, 1);
  assert.equal(replay.outsideChanges, 1);
  assert.equal(replay.produced, 1); // only Y
  assert.deepEqual(
    replay.issues.map((i) => i.code),
    ["edit-unreplayable", "outside-change"],
  );
  assert.match(replay.issues[0].message, /REDACTED/);
});

test("userModified edits insert human lines, not agent lines", () => {
  const replay = replayEdits(
    [step("g.txt", { kind: "write", pre_image: "", post_image: "a\nb\n", user_modified: true })],
    () => null,
  );
  assert.equal(replay.produced, 0);
  const result = attributeAtCommit(replay, [{ path: "g.txt", base: null, commit: "a\nb\n" }]);
  assert.equal(result.human_lines, 2);
  assert.equal(result.agent_lines_survived, 0);
});

test("a created file the commit does not include counts toward final lines only", () => {
  const replay = replayEdits(
    [
      step("kept.txt", { kind: "write", pre_image: "", post_image: "k1\nk2\n" }),
      step("scratch.txt", { kind: "write", pre_image: "", post_image: "s1\ns2\ns3\n" }),
    ],
    () => null,
  );
  const result = attributeAtCommit(replay, [{ path: "kept.txt", base: null, commit: "k1\nk2\n" }]);
  // produced 2 + 3 = 5; final 5 (nothing rewritten); only kept.txt is committed: survived 2 of 2 committed.
  assert.equal(result.agent_lines_produced, 5);
  assert.equal(result.agent_lines_final, 5);
  assert.equal(result.agent_lines_survived, 2);
  assert.equal(result.total_committed_lines, 2);
});

test("CRLF and a missing final newline do not change line identity", () => {
  const base = "a\r\nb\r\n";
  const replay = replayEdits(
    [step("w.txt", { kind: "edit", edits: [{ old_string: "b\n", new_string: "b\nc\n", replace_all: false }] })],
    () => base,
  );
  // The edit is written with LF but the file is CRLF: matched on LF, written back as CRLF; +1 line (c).
  assert.equal(replay.unreplayable, 0);
  assert.equal(replay.produced, 1);
  const result = attributeAtCommit(replay, [{ path: "w.txt", base, commit: "a\r\nb\r\nc" }]);
  // "c" without final newline is still a line and equals the replayed "c".
  assert.equal(result.agent_lines_survived, 1);
  assert.equal(result.total_committed_lines, 1);
});

test("binary files have no lines", () => {
  const replay = replayEdits(
    [step("bin.dat", { kind: "write", pre_image: "", post_image: "ab\u0000cd\nef\n" })],
    () => null,
  );
  assert.equal(replay.produced, 0);
  const result = attributeAtCommit(replay, [{ path: "bin.dat", base: null, commit: "ab\u0000cd\nef\n" }]);
  assert.equal(result.total_committed_lines, 0);
});

test("lines that leave and come back are anchored to git's base → commit diff", () => {
  // The agent deletes line "keep" and later writes it back: replay marks it agent,
  // but git sees it unchanged from base, so it is base and not a committed line.
  const base = "keep\nold\n";
  const replay = replayEdits(
    [
      step("r.txt", { kind: "write", pre_image: base, post_image: "new\n" }),
      step("r.txt", { kind: "write", pre_image: "new\n", post_image: "keep\nnew\n" }),
    ],
    () => base,
  );
  const result = attributeAtCommit(replay, [{ path: "r.txt", base, commit: "keep\nnew\n" }]);
  assert.equal(result.total_committed_lines, 1); // only "new"
  assert.equal(result.agent_lines_survived, 1);
  assert.equal(result.agent_lines_final, 2);
});

/** The same logged edit under another tool's name (the call decides which rules re-apply it). */
const renamed = (s: ReturnType<typeof step>, name: string): ReturnType<typeof step> => ({
  ...s,
  call: { ...s.call, name },
});

test("a Claude Code Edit without a post-image is re-applied by Claude Code's rules; another tool's by the plain rules", () => {
  // base: a, foo(), b. The edit deletes "foo()" (old_string without its newline, new_string empty).
  // Claude Code's Edit then also deletes the newline after it: a, b. Diff base → post: "foo()" deleted,
  // nothing inserted → produced 0, final 0.
  // A plain replacement (Gemini's `replace`, say) leaves an empty line: a, "", b. Diff: "foo()" → "" is
  // one line deleted and one inserted → produced 1, and that empty line is the agent's → final 1.
  const base = "a\nfoo()\nb\n";
  const del = step(
    "x.py",
    { kind: "edit", edits: [{ old_string: "foo()", new_string: "", replace_all: false }] },
    "d1",
  );
  const claude = replayEdits([del], () => base);
  assert.equal(claude.files.get("x.py")!.state.text, "a\nb\n");
  assert.deepEqual([claude.produced, agentLinesFinal(claude), claude.unreplayable], [0, 0, 0]);
  const plain = replayEdits([renamed(del, "replace")], () => base);
  assert.equal(plain.files.get("x.py")!.state.text, "a\n\nb\n");
  assert.deepEqual([plain.produced, agentLinesFinal(plain), plain.unreplayable], [1, 1, 0]);

  // Curly quotes in the file match the straight quotes of a Claude Code edit: one line changed → produced 1.
  // The plain rules find no "say \"hi\"" in the file: the call is unreplayable.
  const quoted = "say \u201Chi\u201D\n";
  const q = step(
    "q.txt",
    { kind: "edit", edits: [{ old_string: 'say "hi"', new_string: "say hello", replace_all: false }] },
    "q1",
  );
  const claudeQ = replayEdits([q], () => quoted);
  assert.equal(claudeQ.files.get("q.txt")!.state.text, "say hello\n");
  assert.deepEqual([claudeQ.produced, claudeQ.unreplayable], [1, 0]);
  assert.deepEqual([replayEdits([renamed(q, "replace")], () => quoted).unreplayable], [1]);

  // A CRLF file: Claude Code matches on LF and writes CRLF back; the deletion takes its line ending.
  const crlf = replayEdits(
    [step("w.txt", { kind: "multi-edit", edits: [{ old_string: "foo()", new_string: "", replace_all: false }] }, "m1")],
    () => "a\r\nfoo()\r\nb\r\n",
  );
  assert.equal(crlf.files.get("w.txt")!.state.text, "a\r\nb\r\n");
  assert.equal(crlf.unreplayable, 0);
});
