/**
 * Gemini CLI sessions in Entire checkpoints: the reference's numbers worked out by hand (metrics.md
 * §1–5, gemini.ts), then the product (`swe-chat-eval analyze`, run as a user runs it) agreeing with
 * them, unit by unit and session by session. Real git repositories built in temp folders.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { corpusPath } from "../helpers/corpus";
import { both, counts } from "./agree-cli";
import {
  GEMINI_ROOT,
  geminiDocument,
  geminiLog,
  geminiMessage,
  infoMessage,
  replaceCall,
  shellCall,
  userMessage,
  writeFileCall,
} from "./gemini-session";
import { parseTranscript } from "./transcripts";

const near = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);
const FLASH = "gemini-2.5-flash";

test("Gemini document: write_file creates (relative path) and overwrites (absolute path); the person adds a line", () => {
  const sid = "6a1f0c2e-0000-4000-8000-00000000000a";
  const transcript = geminiDocument(sid, [
    userMessage("u0", 0, "make the files"),
    geminiMessage("g1", 5, {
      model: FLASH,
      tokens: { input: 1000, output: 50, cached: 200, thoughts: 10, tool: 5 },
      toolCalls: [
        writeFileCall("write_file-1", "src/new.txt", "n1\nn2\nn3\n", {
          at: 7,
          output: `Successfully created and wrote to new file: ${GEMINI_ROOT}/src/new.txt.`,
        }),
      ],
    }),
    geminiMessage("g2", 20, {
      model: FLASH,
      tokens: { input: 2000, output: 100, cached: 1500 },
      toolCalls: [
        writeFileCall("write_file-2", `${GEMINI_ROOT}/src/a.txt`, "a1\nA2\na3\n", {
          at: 24,
          output: `Successfully overwrote file: ${GEMINI_ROOT}/src/a.txt.`,
        }),
      ],
    }),
  ]);
  // The relative path resolves against the project root: an absolute path of the session whose sha256 is projectHash.
  assert.deepEqual(parseTranscript(transcript).cwds, [GEMINI_ROOT]);
  const { units, sessions } = both({
    base: { "src/a.txt": "a1\na2\n" },
    commits: [
      { files: { "src/new.txt": "n1\nn2\nn3\nh\n", "src/a.txt": "a1\nA2\na3\n" }, checkpoints: ["a1b2c3d4e5f6"] },
    ],
    checkpoints: {
      a1b2c3d4e5f6: [{ sessionId: sid, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } }],
    },
  });
  const [u] = units;
  // new.txt: created (pre-image "", as the base), 3 lines inserted. a.txt: [a1, a2] → [a1, A2, a3]: a2 deleted, 2 inserted.
  // produced 5 = final 5. At the commit: new.txt adds 4 lines (n1–n3 agent, h human: final → commit inserts it);
  // a.txt adds A2, a3 (agent). total 6 = 5 survived + 1 human.
  assert.deepEqual(counts(u), [5, 5, 5, 1, 0, 6, 0, 0]);
  assert.deepEqual([u.agent, u.model, u.ambiguity, u.coding_mode], ["Gemini CLI", FLASH, null, "collaborative"]);
  near(u.agent_authored_pct, (100 * 5) / 6);
  const [s] = sessions;
  // input = (1000 − 200 + 5) + (2000 − 1500) = 1305; output = 50 + 10 + 100 = 160; cache reads 200 + 1500 = 1700.
  assert.deepEqual(
    [
      s.input_tokens,
      s.output_tokens,
      s.cache_read_tokens,
      s.cache_creation_tokens,
      s.api_calls,
      s.prompts,
      s.length_bin,
    ],
    [1305, 160, 1700, 0, 2, 1, "1"],
  );
  // Times: the messages (0, 5, 20 s) and the tool calls, stamped when they finished (7, 24 s): 24 s.
  assert.deepEqual(
    [s.tool_calls, s.edit_calls, s.failed_edit_calls, s.duration_s, s.active_s, s.started_at, s.ended_at],
    [2, 2, 0, 24, 24, "2026-01-01T10:30:00.000Z", "2026-01-01T10:30:24.000Z"],
  );
  // gemini-2.5-flash: $0.30 input, $2.50 output, $0.03 cache read per million: 1305·0.3 + 160·2.5 + 1700·0.03 = 842.5 µ$.
  near(s.cost_usd, 842.5e-6);
});

test("Gemini document: replace × 2, a FileDiff whose newContent is not the args, modified_by_user, failed and cancelled calls", () => {
  const sid = "6a1f0c2e-0000-4000-8000-00000000000b";
  const x1 = "x = 2\nprint(x)\nx = 2\nend\n";
  const transcript = geminiDocument(sid, [
    userMessage("u0", 0, "rename", true),
    geminiMessage("g1", 10, {
      model: FLASH,
      tokens: { input: 100, output: 10, cached: 0 },
      toolCalls: [
        // Older Gemini CLI: no FileDiff; every occurrence is replaced (expected_replacements 2).
        replaceCall("replace-1", `${GEMINI_ROOT}/lib/x.py`, "x = 1", "x = 2", {
          expected: 2,
          output: "Successfully modified file: (2 replacements).",
        }),
        // Gemini corrected the content before writing: the FileDiff's newContent is what landed.
        writeFileCall("write_file-2", `${GEMINI_ROOT}/lib/y.py`, "y = 1\n", {
          fileDiff: { originalContent: "", newContent: "y = 1\ny = 2\n" },
        }),
      ],
    }),
    geminiMessage("g2", 20, {
      model: FLASH,
      tokens: { input: 200, output: 20, cached: 100 },
      toolCalls: [
        // The person rewrote the proposal in the confirmation editor: what it inserts is theirs.
        replaceCall("replace-3", `${GEMINI_ROOT}/lib/x.py`, "end", "finish\n# note", {
          modifiedByUser: true,
          fileDiff: { originalContent: x1, newContent: "x = 2\nprint(x)\nx = 2\nfinish\n# note\n", userAdded: 1 },
        }),
        replaceCall("replace-4", `${GEMINI_ROOT}/lib/y.py`, "y = 2", "y = 3", {
          status: "error",
          output: "Failed to edit, could not find the string to replace.",
        }),
        writeFileCall("write_file-5", `${GEMINI_ROOT}/lib/z.py`, "z\n", { status: "cancelled" }),
        shellCall("run_shell_command-6", "pytest"),
      ],
    }),
  ]);
  const { units, sessions } = both({
    base: { "lib/x.py": "x = 1\nprint(x)\nx = 1\nend\n" },
    commits: [
      {
        files: { "lib/x.py": "x = 2\nprint(x)\nx = 2\nfinish\n# note\n", "lib/y.py": "y = 1\ny = 2\n" },
        checkpoints: ["b1b2c3d4e5f6"],
      },
    ],
    checkpoints: {
      b1b2c3d4e5f6: [{ sessionId: sid, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } }],
    },
  });
  const [u] = units;
  // x.py: both "x = 1" lines changed (2 agent lines); y.py: 2 agent lines (newContent, not the args' 1).
  // replace-3: its originalContent equals the replayed state (no outside change); "finish" and "# note" are
  // human (modified_by_user), not produced. Failed and cancelled calls are not replayed: z.py never exists.
  // Commit: x.py adds x = 2, x = 2 (agent), finish, # note (human); y.py adds 2 (agent). total 6.
  assert.deepEqual(counts(u), [4, 4, 4, 2, 0, 6, 0, 0]);
  near(u.agent_authored_pct, (100 * 4) / 6);
  near(u.code_survival_rate, 100);
  const [s] = sessions;
  // 6 tool calls, 5 of §3's file tools, 2 of them failed (error, cancelled).
  assert.deepEqual([s.tool_calls, s.edit_calls, s.failed_edit_calls, s.prompts, s.api_calls], [6, 5, 2, 1, 2]);
  assert.deepEqual([s.input_tokens, s.output_tokens, s.cache_read_tokens], [100 + 100, 30, 100]);
});

test("Gemini log: one session over two checkpoints (slices count messages), message updates, a rewind, an outside edit", () => {
  const sid = "6a1f0c2e-0000-4000-8000-00000000000c";
  const f = `${GEMINI_ROOT}/f.txt`;
  // Checkpoint 1's copy: three messages (u0, g1, i2); g1 is written twice, its tokens and result arriving later.
  const first = [
    userMessage("u0", 0, "start"),
    geminiMessage("g1", 5, {
      model: FLASH,
      tokens: null,
      toolCalls: [writeFileCall("write_file-1", f, "1\n2\n", { status: "executing", at: 5 })],
    }),
    geminiMessage("g1", 5, {
      model: FLASH,
      tokens: { input: 300, output: 50, cached: 0 },
      toolCalls: [writeFileCall("write_file-1", f, "1\n2\n", { at: 6, output: `Successfully overwrote file: ${f}.` })],
    }),
    infoMessage("i2", 8, "Gemini CLI update available!"),
  ];
  // Checkpoint 2 adds a prompt that is rewound, the real prompt and a replace; the person also edits f.txt
  // by hand between the two calls ("1" → "one"), which the FileDiff's originalContent shows.
  const second = [
    ...first,
    userMessage("u3", 100, "oops"),
    { $rewindTo: "u3" },
    userMessage("u4", 110, "add three"),
    geminiMessage("g5", 120, {
      model: "gemini-2.5-pro",
      tokens: { input: 400, output: 40, cached: 0 },
      toolCalls: [
        replaceCall("replace-2", f, "2\n", "2\n3\n", {
          at: 125,
          fileDiff: { originalContent: "one\n2\n", newContent: "one\n2\n3\n" },
        }),
      ],
    }),
    { $set: { lastUpdated: "2026-01-01T10:32:00.000Z" } },
  ];
  const copy1 = geminiLog(sid, first);
  const copy2 = geminiLog(sid, second);
  // Positions are messages: copy 1 holds [u0, g1, i2]; copy 2 [u0, g1, i2, u4, g5] (u3 rewound).
  assert.equal(parseTranscript(copy1).lineCount, 3);
  assert.deepEqual(
    parseTranscript(copy2).calls.map((c) => [c.callId, c.resultLine]),
    [
      ["write_file-1", 1],
      ["replace-2", 4],
    ],
  );
  const { units, sessions } = both({
    base: { "f.txt": "1\n" },
    commits: [
      { files: { "f.txt": "1\n2\n" }, checkpoints: ["c1c2c3d4e5f6"] },
      { files: { "f.txt": "one\n2\n3\n4\n" }, checkpoints: ["c7c2c3d4e5f6"] },
    ],
    checkpoints: {
      c1c2c3d4e5f6: [
        { sessionId: sid, agent: "Gemini CLI", transcript: copy1, meta: { checkpoint_transcript_start: 0 } },
      ],
      c7c2c3d4e5f6: [
        { sessionId: sid, agent: "Gemini CLI", transcript: copy2, meta: { checkpoint_transcript_start: 3 } },
      ],
    },
  });
  assert.equal(units.length, 2);
  const [u1, u2] = [...units].sort((a, b) => (a.checkpoint_id < b.checkpoint_id ? -1 : 1));
  // Both units: the session is linked to two checkpoints (§1 rule 2), numbers still computed.
  assert.deepEqual([u1.ambiguity, u2.ambiguity], ["multi-checkpoint-session", "multi-checkpoint-session"]);
  // Unit 1 (slice from message 0): [1] → [1, 2]: 1 inserted, it survives; the commit adds "2".
  assert.deepEqual(counts(u1), [1, 1, 1, 0, 0, 1, 0, 0]);
  assert.equal(u1.model, FLASH);
  // Unit 2 (slice from message 3, base = commit 1 "1\n2\n"): only replace-2. Pre-image "one\n2\n" ≠ state:
  // 1 outside change, "one" outside. Post inserts "3" (agent). Commit adds one, 3, 4: outside, agent, human.
  assert.deepEqual(counts(u2), [1, 1, 1, 1, 1, 3, 0, 1]);
  // The slice's model is gemini-2.5-pro (the product's reading); the session's is flash (50 output tokens > 40).
  assert.equal(u2.model, "gemini-2.5-pro");
  const [s] = sessions;
  // The longest copy: prompts u0, u4 (u3 rewound); calls g1 (once, its latest version) and g5.
  assert.deepEqual(
    [s.prompts, s.api_calls, s.input_tokens, s.output_tokens, s.model, s.models],
    [2, 2, 700, 90, FLASH, `${FLASH};gemini-2.5-pro`],
  );
  // Records at 0, 5, 6 (g1's call), 8, 110, 120, 125 s (g5's call); u3 at 100 s was rewound. No gap reaches 300 s:
  // duration = active = 125.
  assert.deepEqual([s.duration_s, s.active_s], [125, 125]);
});

test("the real Gemini CLI sample (ab/2b9748b105, a pretty-printed document named full.jsonl) in a built repository", () => {
  const transcript = readFileSync(corpusPath("entire/entireio-cli/ab/2b9748b105/0/full.jsonl"), "utf8");
  const color = "# Blue\n\nBlue is a primary color.\n";
  const { units, sessions } = both({
    base: { "docs/color.md": color },
    // The session's only committed change came through `echo -e … >> docs/color.md` (formats.md §4).
    commits: [
      { files: { "docs/color.md": `${color}\n# Red\nRed is a primary color.\n` }, checkpoints: ["ab2b9748b105"] },
    ],
    checkpoints: {
      ab2b9748b105: [{ sessionId: "2026-01-15-f7633853-6663-4dbb-bbf4-6159afa29df8", agent: "Gemini CLI", transcript }],
    },
  });
  const [u] = units;
  // One file edit: write_file docs/blue.md (relative; the root comes from its result text and hashes to projectHash),
  // 309 characters, no final newline: 3 lines ("# Blue", "", the paragraph), all produced and final (the `rm` is a
  // shell command). The commit adds 3 lines to docs/color.md through the shell: human.
  assert.deepEqual(counts(u), [3, 3, 0, 3, 0, 3, 0, 0]);
  assert.deepEqual([u.agent, u.model, u.coding_mode], ["Gemini CLI", FLASH, "human-only"]);
  const [s] = sessions;
  // 11 gemini messages with tokens (message 7's all 0): input Σ 131,375 − cached 113,854 = 17,521; output 717 + thoughts
  // 1,095 = 1,812. One prompt; 9 tool calls, 1 of them an edit. Times: first message 20:51:48.582, last 20:52:56.381.
  assert.deepEqual(
    [s.api_calls, s.input_tokens, s.cache_read_tokens, s.output_tokens, s.prompts, s.tool_calls, s.edit_calls],
    [11, 17521, 113854, 1812, 1, 9, 1],
  );
  assert.deepEqual([s.started_at, s.ended_at], ["2026-01-15T20:51:48.582Z", "2026-01-15T20:52:56.381Z"]);
});
