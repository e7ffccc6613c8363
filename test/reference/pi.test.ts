/**
 * Pi sessions in Entire checkpoints (`entire-agent-pi`: `full.jsonl` is Pi's native session JSONL,
 * offsets count lines): the reference's numbers worked out by hand (metrics.md §1–5, pi.ts), then the
 * product (`swe-chat-eval analyze`, run as a user runs it) agreeing with them, unit by unit and
 * session by session. Real git repositories built in temp folders.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { both, counts, runCli } from "./agree-cli";
import { compareSessions, compareUnits } from "./compare";
import { applyPiEdits } from "./pi";
import { PI_ROOT, PiSession, piBash, piEdit, piMultiEdit, piWrite } from "./pi-session";
import { runReference } from "./reference";
import { buildRepo } from "./repo-fixture";
import { runReferenceSessions } from "./sessions";
import { parseTranscript } from "./transcripts";

const near = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);
const SONNET = "claude-sonnet-4-5";
const HAIKU = "claude-haiku-4-5";

test("Pi's edit, re-applied: exact first, fuzzy fallback, uniqueness, CRLF and BOM kept, multi-edit against the original", () => {
  assert.equal(applyPiEdits("a\nb\nc\n", [{ oldText: "b", newText: "B" }], false), "a\nB\nc\n");
  // Two exact occurrences: edit.ts refuses ("Found 2 occurrences"), so a logged success cannot come from this text.
  assert.equal(applyPiEdits("b\nb\n", [{ oldText: "b", newText: "B" }], false), null);
  // Fuzzy: the file has a trailing blank and a curly quote; the whole file comes back normalised (edit-diff.ts).
  assert.equal(
    applyPiEdits("say \u201chi\u201d  \nkeep  \n", [{ oldText: 'say "hi"', newText: "say bye" }], false),
    "say bye\nkeep\n",
  );
  // CRLF read as LF, written back with CRLF; the BOM stays.
  assert.equal(applyPiEdits("\uFEFFx\r\ny\r\n", [{ oldText: "x\ny", newText: "x\nz" }], false), "\uFEFFx\r\nz\r\n");
  // Several edits: each found once in the original, applied together ("ab" does not see the first edit's "b").
  assert.equal(
    applyPiEdits(
      "a\nb\n",
      [
        { oldText: "a", newText: "b" },
        { oldText: "b\n", newText: "c\n" },
      ],
      true,
    ),
    "b\nc\n",
  );
  assert.equal(
    applyPiEdits(
      "ab\n",
      [
        { oldText: "ab", newText: "x" },
        { oldText: "b", newText: "y" },
      ],
      true,
    ),
    null,
    "overlapping edits",
  );
});

test("Pi: write then edit twice, a failed edit, a multi-edit; the person adds a line", () => {
  const sid = "0d5c1a3e-0000-4000-8000-0000000000a1";
  const s = new PiSession(sid);
  s.modelChange(0, SONNET);
  s.user(1, "create the module");
  const w1 = piWrite("toolu_w1", "src/m.py", "a\nb\nc\n");
  s.assistant(3, { model: SONNET, usage: { input: 100, output: 20, cacheWrite: 500 }, calls: [w1] });
  s.result(4, w1);
  const e1 = piEdit("toolu_e1", "src/m.py", "b", "B1\nB2");
  s.assistant(6, { model: SONNET, usage: { input: 10, output: 30, cacheRead: 500, cacheWrite: 100 }, calls: [e1] });
  s.result(7, e1);
  // An absolute path under the header's cwd; and an edit the tool refused (isError).
  const e2 = piEdit("toolu_e2", `${PI_ROOT}/src/m.py`, "c\n", "c\nd\n");
  const e3 = piEdit("toolu_e3", "src/m.py", "zzz", "y");
  s.assistant(9, { model: SONNET, usage: { input: 5, output: 40, cacheRead: 600 }, calls: [e2, e3] });
  s.result(10, e2);
  s.result(10, e3, { isError: true, text: "Could not find the exact text in src/m.py." });
  const e4 = piMultiEdit("toolu_e4", "lib/k.py", [
    { oldText: "k1", newText: "K1" },
    { oldText: "k3", newText: "K3\nk4" },
  ]);
  s.assistant(12, { model: SONNET, usage: { input: 7, output: 10, cacheRead: 700 }, calls: [e4] });
  s.result(13, e4);
  s.assistant(15, { model: SONNET, usage: { input: 3, output: 5, cacheRead: 800 }, text: "done" });
  const transcript = s.text();
  const parsed = parseTranscript(transcript);
  assert.deepEqual(
    [parsed.format, parsed.lineCount, parsed.cwds, parsed.calls.map((c) => c.callId)],
    ["pi", 13, [PI_ROOT], ["toolu_w1", "toolu_e1", "toolu_e2", "toolu_e4"]],
  );

  const { units, sessions } = both({
    base: { "lib/k.py": "k1\nk2\nk3\n" },
    commits: [
      {
        files: { "src/m.py": "a\nB1\nB2\nc\nd\nhuman\n", "lib/k.py": "K1\nk2\nK3\nk4\n" },
        checkpoints: ["c1d2e3f4a5b6"],
      },
    ],
    checkpoints: {
      c1d2e3f4a5b6: [{ sessionId: sid, agent: "Pi", transcript, meta: { checkpoint_transcript_start: 0 } }],
    },
  });
  const [u] = units;
  // m.py: write [a,b,c] (3) → e1 b → B1,B2 (+2) → e2 c → c,d (+1); e3 failed, not replayed. k.py: [k1,k2,k3] →
  // [K1,k2,K3,k4] (+3, both edits found in the original). produced 9; final: a,B1,B2,c,d + K1,K3,k4 = 8 (b was
  // replaced). Commit: m.py adds those 5 and "human", k.py adds K1,K3,k4: total 9 = 8 survived + 1 human.
  assert.deepEqual(counts(u), [9, 8, 8, 1, 0, 9, 0, 0]);
  assert.deepEqual([u.agent, u.model, u.ambiguity], ["Pi", SONNET, null]);
  near(u.agent_authored_pct, (100 * 8) / 9);
  near(u.coding_efficiency, (100 * 8) / 9);
  near(u.code_survival_rate, 100);
  const [r] = sessions;
  // Five assistant messages with usage: input 100+10+5+7+3 = 125; output 20+30+40+10+5 = 105;
  // cache reads 500+600+700+800 = 2600; cache writes 500+100 = 600. One prompt.
  assert.deepEqual(
    [
      r.input_tokens,
      r.output_tokens,
      r.cache_read_tokens,
      r.cache_creation_tokens,
      r.api_calls,
      r.prompts,
      r.length_bin,
    ],
    [125, 105, 2600, 600, 5, 1, "1"],
  );
  // Calls: w1, e1, e2, e3, e4 (all edit calls), e3 failed. Times: header at 0 … last message at 15 s.
  assert.deepEqual(
    [r.tool_calls, r.edit_calls, r.failed_edit_calls, r.duration_s, r.active_s, r.agent, r.model],
    [5, 5, 1, 15, 15, "Pi", SONNET],
  );
  // Sonnet 4.5 per million: $3 input, $15 output, $0.30 cache read, $3.75 cache write:
  // 125·3 + 105·15 + 2600·0.3 + 600·3.75 = 375 + 1575 + 780 + 2250 = 4980 µ$.
  near(r.cost_usd, 4980e-6);
});

test("Pi: an edit on an abandoned branch stays on disk; a session over two checkpoints (line offsets); two models", () => {
  const sid = "0d5c1a3e-0000-4000-8000-0000000000b2";
  const s = new PiSession(sid);
  s.user(1, "make x");
  const w1 = piWrite("w1", "src/x.txt", "x1\nx2\n");
  s.assistant(2, { model: SONNET, usage: { input: 10, output: 100 }, calls: [w1] });
  const r1 = s.result(3, w1);
  const e1 = piEdit("e1", "src/x.txt", "x2", "X2");
  s.assistant(4, { model: SONNET, usage: { input: 10, output: 100 }, calls: [e1] });
  s.result(5, e1);
  // The person goes back to after w1's result (/tree) and asks again: e1's branch is abandoned, but Pi's
  // tools wrote to disk, and nothing undoes it.
  s.user(6, "no, do y instead", r1);
  s.modelChange(6, HAIKU);
  const w2 = piWrite("w2", "src/y.txt", "y\n");
  s.assistant(7, { model: HAIKU, usage: { input: 10, output: 10 }, calls: [w2, piBash("b1", "ls")] });
  s.result(8, w2);
  s.result(8, piBash("b1", "ls"), { text: "src" });
  const first = s.text(); // 11 lines: the first checkpoint's copy
  s.user(20, "more");
  const e2 = piEdit("e2", "src/y.txt", "y", "y\nz");
  // No `model` on this message: the model_change at line 6, before this slice, names it (Haiku).
  s.assistant(21, { usage: { input: 10, output: 30 }, calls: [e2] });
  s.result(22, e2);
  s.assistant(23, { model: SONNET, usage: { input: 10, output: 20 }, text: "ok" });
  const second = s.text(); // 15 lines
  assert.equal(first.split("\n").length - 1, 11);

  const { units, sessions } = both({
    base: { "README.md": "r\n" },
    commits: [
      { files: { "src/x.txt": "x1\nX2\n", "src/y.txt": "y\n" }, checkpoints: ["d1d2e3f4a5b6"] },
      { files: { "src/y.txt": "y\nz\n" }, checkpoints: ["e1d2e3f4a5b6"] },
    ],
    checkpoints: {
      d1d2e3f4a5b6: [{ sessionId: sid, agent: "Pi", transcript: first, meta: { checkpoint_transcript_start: 0 } }],
      e1d2e3f4a5b6: [{ sessionId: sid, agent: "Pi", transcript: second, meta: { checkpoint_transcript_start: 11 } }],
    },
  });
  const byCommit = (cp: string) => units.find((u) => u.checkpoint_id === cp)!;
  const u1 = byCommit("d1d2e3f4a5b6");
  // Slice 0–10: w1 (x1, x2: 2), e1 on the abandoned branch (x2 → X2: +1), w2 (y: 1): produced 4; final x1, X2, y = 3.
  // Commit 1 adds x1, X2, y: 3 survived of 3.
  assert.deepEqual(counts(u1), [4, 3, 3, 0, 0, 3, 0, 0]);
  // The unit's model (the product's slice reading): output 100 + 100 Sonnet against 10 Haiku.
  assert.equal(u1.model, SONNET);
  const u2 = byCommit("e1d2e3f4a5b6");
  // Slice from line 11: e2's result is line 13 (w2's at 9 belongs to the first checkpoint). y.txt is [y] at
  // commit 1 (not the agent's in this unit); y → y, z inserts z: produced 1, final 1; commit 2 adds z: survived 1 of 1.
  assert.deepEqual(counts(u2), [1, 1, 1, 0, 0, 1, 0, 0]);
  // The slice (lines 11–14): Haiku 30 (the message without a model) against Sonnet 20; read from line 11 alone,
  // the first would have no model and Sonnet would win (the fuzzing found this in the reference, round 6).
  assert.equal(u2.model, HAIKU);
  const [r] = sessions;
  // The longest copy (15 lines). Every assistant message, on both branches: 5 calls (Entire's own count keeps
  // the active branch only, 4). input 5·10 = 50; output 100+100+10+30+20 = 260; Sonnet 220 > Haiku 40.
  assert.deepEqual(
    [r.api_calls, r.input_tokens, r.output_tokens, r.model, r.models],
    [5, 50, 260, SONNET, `${SONNET};${HAIKU}`],
  );
  // Prompts: 3 user messages, one per branch point; calls w1, e1, w2, b1, e2: 4 edit calls, none failed.
  assert.deepEqual([r.prompts, r.length_bin, r.tool_calls, r.edit_calls, r.failed_edit_calls], [3, "3", 5, 4, 0]);
  // Times 0 … 23 s, no gap over 300 s.
  assert.deepEqual([r.duration_s, r.active_s], [23, 23]);
  // Sonnet: 30·3 + 220·15 = 3390 µ$; Haiku ($1 in, $5 out): 20·1 + 40·5 = 220 µ$. Total 3610 µ$.
  near(r.cost_usd, 3610e-6);
});

test("Pi: an edit Pi matched fuzzily (v0.58.3 wrote the whole file normalised): the reference replays it, the product counts it unreplayable", () => {
  // Minimal reproduction of the one §3 difference the differential fuzzing found (README "Pi sessions").
  const sid = "0d5c1a3e-0000-4000-8000-0000000000c3";
  const s = new PiSession(sid);
  s.user(1, "say bye");
  // The file has curly quotes and trailing blanks; the model typed straight quotes: no exact match.
  const e1 = piEdit("e1", "a.txt", 'say "hi"', "say bye");
  s.assistant(2, { model: SONNET, usage: { input: 10, output: 10 }, calls: [e1] });
  s.result(3, e1);
  const { repo, cleanup } = buildRepo({
    base: { "a.txt": "say \u201chi\u201d  \nkeep  \n" },
    // What Pi v0.58.3 wrote: fuzzyFindText's normalised file (trailing blanks gone everywhere) with the replacement.
    commits: [{ files: { "a.txt": "say bye\nkeep\n" }, checkpoints: ["f1d2e3f4a5b6"] }],
    checkpoints: {
      f1d2e3f4a5b6: [{ sessionId: sid, agent: "Pi", transcript: s.text(), meta: { checkpoint_transcript_start: 0 } }],
    },
  });
  try {
    const [u] = runReference(repo, {
      inferSliceStart: true,
      unitModel: "slice",
      multiSessionCommit: true,
      followSymlinks: true,
    }).units;
    // Reference: [say “hi”␠␠, keep␠␠] → [say bye, keep]: both lines replaced, 2 agent lines; the commit adds both: 2 of 2.
    assert.deepEqual(counts(u), [2, 2, 2, 0, 0, 2, 0, 0]);
    const product = runCli(repo);
    const p = product.units[0] as Record<string, unknown>;
    // The product: the edit is unreplayable (it re-applies exact strings only); the commit's two lines come out human.
    assert.equal(p.unreplayable_calls, 1);
    const diffs = compareUnits([u], product.units).diffs.map((d) => d.column);
    assert.ok(
      diffs.includes("unreplayable_calls") && diffs.includes("agent_lines_produced"),
      `the known difference: ${diffs.join(", ")}`,
    );
  } finally {
    cleanup();
  }
});

test("Pi: an assistant message with all-zero usage is an API call in the reference, not in the product (a reading)", () => {
  const sid = "0d5c1a3e-0000-4000-8000-0000000000d4";
  const s = new PiSession(sid);
  s.user(1, "hi");
  // A request that failed before any usage arrived (stopReason "error"): Pi still writes the message, usage all 0.
  s.assistant(2, { model: SONNET, usage: { input: 0, output: 0 } });
  s.assistant(4, { model: SONNET, usage: { input: 10, output: 10 }, text: "hello" });
  const { repo, cleanup } = buildRepo({
    base: { "a.txt": "a\n" },
    commits: [{ files: { "a.txt": "a\nb\n" }, checkpoints: ["a9d2e3f4a5b6"] }],
    checkpoints: {
      a9d2e3f4a5b6: [{ sessionId: sid, agent: "Pi", transcript: s.text(), meta: { checkpoint_transcript_start: 0 } }],
    },
  });
  try {
    const sessions = runReferenceSessions(repo, { modelsWithMain: true });
    // Two assistant messages with a usage object: 2 calls; tokens 10 in, 10 out either way.
    assert.deepEqual([sessions[0].api_calls, sessions[0].input_tokens, sessions[0].output_tokens], [2, 10, 10]);
    const diffs = compareSessions(sessions, runCli(repo).sessions).diffs;
    // The product skips the all-zero message (its `pi-zero-usage`): 1 call; nothing else differs.
    assert.deepEqual(
      diffs.map((d) => [d.column, d.reference, d.product]),
      [["api_calls", 2, 1]],
    );
  } finally {
    cleanup();
  }
});
