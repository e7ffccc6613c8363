import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { attributeUnit, toSessionRow } from "../../src/analyze";
import { sumUsage } from "../../src/effort";
import {
  defaultCodexSessionRoots,
  findCodexRollouts,
  parseCodexRollout,
  readCodexRollout,
} from "../../src/ingest/codex";
import { DiagnosticSink, type Session } from "../../src/model";
import { CodexLog, usage } from "./codex-log";
import { sharedCorpusPath, sharedCorpusSkip } from "../helpers/corpus";

// Only in the shared corpus: entireio/external-agents has no licence, so test/fixtures holds no copy.
const CORPUS = sharedCorpusPath("entire", "entireio-external-agents");
const C3 = join(CORPUS, "c3", "b191fe1158", "0", "full.jsonl");
/** fc's transcript is the first 640,339 bytes of c3's (corpus ORIGIN.md); its content_hash proves it. */
const FC_BYTES = 640339;

function parse(text: string | Uint8Array, file = "rollout.jsonl"): { session: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("codex", file);
  const session = parseCodexRollout({ text, file }, sink);
  assert.ok(session, `not parsed: ${sink.rows.map((r) => r.code).join(", ")}`);
  return { session, sink };
}

const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

describe("the real Codex session 019dbcc1 (entireio/external-agents, checkpoints c3 and fc)", {
  skip: sharedCorpusSkip,
}, () => {
  const bytes = sharedCorpusSkip ? Buffer.alloc(0) : readFileSync(C3);

  /*
   * Counted independently with Python over the JSONL (one-offs kept in the report):
   * - 387 records (the file ends without a newline: `wc -l` says 386);
   * - user_message events on lines 7 and 278: 2 prompts (lines 4 and 6 are the AGENTS.md and
   *   environment-context messages, not prompts);
   * - 80 function_call (75 exec_command, 3 write_stdin, 2 update_plan) + 3 custom_tool_call apply_patch = 83 calls;
   *   failed: exec_command_end exit_code != 0 on lines 13, 154, 284, 293, 311, 316, 321, 340, 341, 350, 362 = 11;
   * - patch_apply_end on lines 220 (8 files: 6 updates, 2 adds), 240 and 359, all success: 3 edit calls;
   * - 51 token_count events: line 8 has info null, line 279 repeats line 273's totals exactly,
   *   so 49 API calls; final totals: input 3,949,276 of which cached 3,762,688, output 22,594 of
   *   which reasoning 9,428 → uncached input 186,588.
   */
  test("c3 (the whole session): prompts, tool calls, edits, failures, API calls and normalised tokens", () => {
    const { session, sink } = parse(bytes, C3);
    assert.equal(session.session_id, "019dbcc1-3812-72e1-9caa-f97edd88215b");
    assert.equal(session.source, "codex");
    assert.equal(session.agent_version, "0.123.0");
    assert.equal(session.branch, "add-support-compact-transcripts");
    assert.deepEqual(session.cwds, ["/Users/ninawork/entire/external-agents/agents/entire-agent-kiro"]);
    assert.equal(session.record_count, 387);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text.slice(0, 21)]),
      [
        [7, "Following the guideli"],
        [278, "fix the linter errors"],
      ],
    );

    const names = new Map<string, number>();
    for (const c of session.tool_calls) names.set(c.name, (names.get(c.name) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(names), { exec_command: 75, write_stdin: 3, apply_patch: 3, update_plan: 2 });
    assert.equal(session.tool_calls.filter((c) => c.success === false).length, 11);
    assert.deepEqual(
      session.tool_calls.filter((c) => c.success === false).map((c) => c.record),
      [13, 154, 284, 293, 311, 316, 321, 340, 341, 350, 362],
    );
    const edits = session.tool_calls.filter((c) => c.file_edits.length > 0);
    assert.deepEqual(
      edits.map((c) => [c.record, c.result_record, c.file_edits.length]),
      [
        [218, 220, 8],
        [238, 240, 1],
        [357, 359, 1],
      ],
    );
    assert.deepEqual(edits[0].file_edits.map((e) => e.kind).sort(), [
      "patch",
      "patch",
      "patch",
      "patch",
      "patch",
      "patch",
      "write",
      "write",
    ]);
    // The add of compact.go carries the whole file: 265 lines, as committed in 21b5890d.
    const add = edits[0].file_edits.find((e) => e.path.endsWith("internal/kiro/compact.go"));
    assert.equal(add?.kind, "write");
    assert.equal(add?.post_image?.split("\n").length, 266);

    assert.equal(session.api_calls.length, 49);
    assert.ok(session.api_calls.every((c) => c.model === "gpt-5.4"));
    const u = sumUsage(session.api_calls);
    assert.deepEqual(
      [u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens, u.cache_creation_tokens],
      [186588, 3762688, 22594, 9428, 0],
    );
    assert.ok(codes(sink).includes("codex-token-count-repeat"));
    assert.equal(sink.rows.find((r) => r.code === "codex-token-count-repeat")?.record, 279);

    const row = toSessionRow(session, { repo: null, idleLimitS: 300 }, new DiagnosticSink("t"));
    assert.deepEqual(
      [row.prompts, row.tool_calls, row.edit_calls, row.failed_edit_calls, row.api_calls],
      [2, 83, 3, 0, 49],
    );
  });

  /*
   * fc's transcript = c3's first 640,339 bytes = lines 1–274 (273 newlines, the last line unterminated).
   * In it: 1 prompt; 55 exec_command + 2 write_stdin + 2 update_plan + 2 apply_patch = 61 calls, 2 failed
   * (lines 13, 154); 34 token_count events with info (lines 15 … 273), none repeated; totals at line 273:
   * input 2,429,069 (cached 2,341,888), output 17,440 (reasoning 6,731).
   * Entire's fc metadata records input 2,429,069 / cache_read 2,341,888 / output 24,171 / 34 calls: it copies
   * Codex's cached-inclusive input, and adds reasoning to output a second time (17,440 + 6,731 = 24,171).
   */
  test("fc (the first checkpoint's copy): its own counts, and Entire's recorded usage explained", () => {
    const fc = bytes.subarray(0, FC_BYTES);
    const hash = readFileSync(join(CORPUS, "fc", "9a115d0155", "0", "content_hash.txt"), "utf8").trim();
    assert.equal(`sha256:${createHash("sha256").update(fc).digest("hex")}`, hash);
    const { session } = parse(fc, "fc/full.jsonl");
    assert.equal(session.record_count, 274);
    assert.equal(session.turns.length, 1);
    assert.equal(session.tool_calls.length, 61);
    assert.equal(session.tool_calls.filter((c) => c.success === false).length, 2);
    assert.equal(session.tool_calls.filter((c) => c.file_edits.length > 0).length, 2);
    const u = sumUsage(session.api_calls);
    assert.deepEqual(
      [u.api_calls, u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens],
      [34, 87181, 2341888, 17440, 6731],
    );
    const entire = JSON.parse(readFileSync(join(CORPUS, "fc", "9a115d0155", "0", "metadata.json"), "utf8")).token_usage;
    assert.equal(entire.input_tokens, u.input_tokens + u.cache_read_tokens);
    assert.equal(entire.output_tokens, u.output_tokens + u.reasoning_tokens);
    assert.equal(entire.api_call_count, u.api_calls);
  });

  /*
   * c3's checkpoint slice starts after line 274 (checkpoint_transcript_start 274). token_count events with
   * info after it: lines 279 (the repeat), 285 … 386 = 16 events, 15 calls. Their tokens are the totals'
   * differences 3,949,276 − 2,429,069 = 1,520,207 input (cached 3,762,688 − 2,341,888 = 1,420,800, so
   * 99,407 uncached) and output 22,594 − 17,440 = 5,154. Entire's c3 metadata: input 1,520,207,
   * cache_read 1,420,800, output 7,851 (= 5,154 + reasoning 2,697), 16 calls (it counts the repeat).
   * Only one edit lies in the slice: the apply_patch whose patch_apply_end is line 359.
   */
  test("c3's checkpoint slice (checkpoint_transcript_start 274)", () => {
    const { session } = parse(bytes, C3);
    const meta = JSON.parse(readFileSync(join(CORPUS, "c3", "b191fe1158", "0", "metadata.json"), "utf8"));
    assert.equal(meta.checkpoint_transcript_start, 274);
    const slice = session.api_calls.filter((c) => c.record > meta.checkpoint_transcript_start);
    const u = sumUsage(slice);
    assert.deepEqual(
      [u.api_calls, u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens],
      [15, 99407, 1420800, 5154, 2697],
    );
    assert.equal(meta.token_usage.input_tokens, u.input_tokens + u.cache_read_tokens);
    assert.equal(meta.token_usage.cache_read_tokens, u.cache_read_tokens);
    assert.equal(meta.token_usage.output_tokens, u.output_tokens + u.reasoning_tokens);
    assert.equal(meta.token_usage.api_call_count, u.api_calls + 1);
    const sliceEdits = session.tool_calls.filter((c) => c.file_edits.length > 0 && (c.result_record ?? c.record) > 274);
    assert.deepEqual(
      sliceEdits.map((c) => c.result_record),
      [359],
    );
  });
});

describe("hand-worked Codex replays", () => {
  const cwd = "/home/u/proj";
  const app0 = 'import os\nimport sys\n\ndef main():\n    print("a")\n    return 0\n\ndef helper():\n    return 1\n';
  // Two hunks with real line numbers, as patch_apply_end writes them (about one line of context).
  const twoHunks =
    "@@ -1,2 +1,3 @@\n import os\n+import json\n import sys\n@@ -8,2 +9,3 @@\n def helper():\n-    return 1\n+    value = 2\n+    return value\n";
  const app1 =
    'import os\nimport json\nimport sys\n\ndef main():\n    print("a")\n    return 0\n\ndef helper():\n    value = 2\n    return value\n';

  function rollout(): string {
    return (
      new CodexLog({ id: "11111111-0000-0000-0000-000000000001", cwd })
        .meta()
        .turn()
        .prompt("add json and a helper value")
        .tokens(null)
        .patch("call_a", "*** Begin Patch\n*** Update File: src/app.py\n…\n*** End Patch\n", {
          [`${cwd}/src/app.py`]: { type: "update", unified_diff: twoHunks, move_path: null },
        })
        .tokens(usage(100, 0, 10, 4))
        // A patch that failed: its change must not be replayed.
        .patch(
          "call_b",
          "*** Begin Patch\n*** Update File: src/app.py\n@@\n import os\n+import re\n*** End Patch\n",
          {
            [`${cwd}/src/app.py`]: {
              type: "update",
              unified_diff: "@@ -1 +1,2 @@\n import os\n+import re\n",
              move_path: null,
            },
          },
          false,
          "apply_patch verification failed: context not found",
        )
        .tokens(usage(250, 80, 30, 10), usage(150, 80, 20, 6))
        // Codex repeats the last event at the start of a turn: not a call.
        .tokens(usage(250, 80, 30, 10), usage(150, 80, 20, 6))
        .patch("call_c", "*** Begin Patch\n*** Add File: src/new.py\n+x = 1\n+y = 2\n*** End Patch\n", {
          [`${cwd}/src/new.py`]: { type: "add", content: "x = 1\ny = 2\n" },
        })
        .exec("call_d", "pytest -q", 1)
        .tokens(usage(400, 200, 35, 10), usage(150, 120, 5, 0))
        .text()
    );
  }

  /*
   * Tokens: the totals move 0 → (100,0,10,4) → (250,80,30,10) → repeat → (400,200,35,10), so the calls are the
   * differences (100,0,10,4), (150,80,20,6), (150,120,5,0); normalised (input − cached): input 100, 70, 30 → 200;
   * cache reads 0 + 80 + 120 = 200; output 10 + 20 + 5 = 35 (reasoning 4 + 6 + 0 = 10 inside it); 3 calls.
   */
  test("cumulative total_token_usage → per-call deltas, normalised, repeats dropped", () => {
    const { session, sink } = parse(rollout());
    assert.deepEqual(
      session.api_calls.map((c) => [
        c.usage.input_tokens,
        c.usage.cache_read_tokens,
        c.usage.output_tokens,
        c.usage.reasoning_tokens,
      ]),
      [
        [100, 0, 10, 4],
        [70, 80, 20, 6],
        [30, 120, 5, 0],
      ],
    );
    assert.ok(codes(sink).includes("codex-token-count-repeat"));
    assert.ok(codes(sink).includes("codex-token-count-null"));
  });

  /*
   * Replay on the base (app0; src/new.py absent):
   *  call_a: two hunks → app1; Myers inserts "import json", "    value = 2", "    return value": produced 3.
   *  call_b failed (success false, no file edit): "import re" never appears.
   *  call_c adds src/new.py (2 lines): produced 5.
   *  call_d is a failed shell command (exit 1), no file edit.
   * The commit keeps app1 and adds "z = 3" to new.py (a person): committed lines app 3 + new 3 = 6;
   * survived 3 + 2 = 5, human 1, outside 0; final agent lines 5.
   */
  test("a patch with two hunks, an add, a failed patch and a failed command, attributed at the commit", async () => {
    const { session } = parse(rollout());
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.success, c.file_edits.length]),
      [
        ["call_a", true, 1],
        ["call_b", false, 0],
        ["call_c", true, 1],
        ["call_d", false, 0],
      ],
    );
    assert.match(session.tool_calls[1].error ?? "", /context not found/);
    const base: Record<string, string | null> = { "src/app.py": app0, "src/new.py": null };
    const commit: Record<string, string> = { "src/app.py": app1, "src/new.py": "x = 1\ny = 2\nz = 3\n" };
    const sink = new DiagnosticSink("t");
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [
          { path: "src/app.py", binary: false },
          { path: "src/new.py", binary: false },
        ],
        readBase: async (p) => base[p] ?? null,
        readCommit: async (p) => commit[p] ?? null,
        exists: (p) => p in commit,
      },
      sink,
    );
    assert.deepEqual(
      [
        a.agent_lines_produced,
        a.agent_lines_final,
        a.agent_lines_survived,
        a.human_lines,
        a.outside_lines,
        a.total_committed_lines,
        a.unreplayable_calls,
      ],
      [5, 5, 5, 1, 0, 6, 0],
    );
  });

  /*
   * The pre-envelope rollout (Codex CLI of mid 2025): bare header, `record_type: state`, bare items without
   * timestamps, no events. Prompts then come from user messages (the environment context is skipped and gives
   * the cwd); apply_patch runs inside a `shell` call; its outcome is the output's JSON exit_code; the edit is
   * read from the patch text (no line numbers: located by context).
   * Replay: app0 with "    return 0" → "    return 2": Myers −1 +1, produced 1; the commit equals that: survived 1 of 1.
   */
  test("the older bare-item rollout: prompts from messages, apply_patch inside a shell call", async () => {
    const lines = [
      {
        id: "22222222-0000-0000-0000-000000000002",
        timestamp: "2025-07-01T10:00:00.000Z",
        instructions: null,
        git: { branch: "dev" },
      },
      { record_type: "state" },
      {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }],
      },
      { type: "message", role: "user", content: [{ type: "input_text", text: "return two" }] },
      {
        type: "function_call",
        name: "shell",
        call_id: "call_s",
        arguments: JSON.stringify({
          command: [
            "apply_patch",
            '*** Begin Patch\n*** Update File: src/app.py\n@@ def main():\n     print("a")\n-    return 0\n+    return 2\n*** End Patch\n',
          ],
        }),
      },
      {
        type: "function_call_output",
        call_id: "call_s",
        output: JSON.stringify({
          output: "Success. Updated the following files:\nM src/app.py\n",
          metadata: { exit_code: 0, duration_seconds: 0 },
        }),
      },
      { record_type: "state" },
    ];
    const { session, sink } = parse(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    assert.equal(session.session_id, "22222222-0000-0000-0000-000000000002");
    assert.equal(session.branch, "dev");
    assert.deepEqual(session.cwds, [cwd]);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [[4, "return two"]],
    );
    assert.equal(session.tool_calls.length, 1);
    const call = session.tool_calls[0];
    assert.deepEqual(
      [call.name, call.success, call.result_record, call.file_edits[0]?.kind, call.file_edits[0]?.path],
      ["shell", true, 6, "patch", "src/app.py"],
    );
    for (const code of [
      "codex-prompts-from-messages",
      "codex-patch-from-input",
      "codex-patch-via-shell",
      "codex-state-marker",
      "codex-patch-anchor-dropped",
    ])
      assert.ok(codes(sink).includes(code), code);
    const committed = app0.replace("return 0", "return 2");
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "src/app.py", binary: false }],
        readBase: async () => app0,
        readCommit: async () => committed,
        exists: (p) => p === "src/app.py",
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_survived, a.total_committed_lines, a.unreplayable_calls],
      [1, 1, 1, 0],
    );
  });

  test("the older serialisation of changes ({update: {unified_diff}}, {add: {content}}) and a delete", () => {
    const log = new CodexLog({ id: "33333333-0000-0000-0000-000000000003", cwd }).meta().turn().prompt("p");
    log.patch("call_x", "*** Begin Patch\n*** End Patch\n", {
      [`${cwd}/a.txt`]: { update: { unified_diff: "@@ -1 +1 @@\n-a\n+b\n", move_path: null } },
      [`${cwd}/b.txt`]: { add: { content: "new\n" } },
      [`${cwd}/c.txt`]: { type: "delete", content: "old\n" },
    });
    const { session } = parse(log.text());
    assert.deepEqual(
      session.tool_calls[0].file_edits.map((e) => [
        e.path.slice(cwd.length + 1),
        e.kind,
        e.patch,
        e.pre_image,
        e.post_image,
      ]),
      [
        ["a.txt", "patch", "@@ -1 +1 @@\n-a\n+b\n", null, null],
        ["b.txt", "write", null, null, "new\n"],
        ["c.txt", "delete", null, "old\n", ""],
      ],
    );
  });

  /*
   * A sub-agent thread is a rollout of its own whose session_meta.source names the parent thread. Given with the
   * parent, its calls and tokens join the session as sidechain, placed on the parent line whose time is the last
   * not after theirs; its prompt is not a prompt of the session.
   */
  test("a sub-agent rollout joins its parent as sidechain", () => {
    const parent = new CodexLog({ id: "44444444-0000-0000-0000-000000000004", cwd })
      .meta()
      .turn()
      .prompt("delegate")
      .tokens(usage(10, 0, 1, 0));
    const child = new CodexLog({ id: "55555555-0000-0000-0000-000000000005", cwd, start: "2026-03-02T10:00:04.500Z" })
      .meta({
        source: { subagent: { thread_spawn: { parent_thread_id: "44444444-0000-0000-0000-000000000004", depth: 1 } } },
      })
      .turn("gpt-5.4-mini")
      .prompt("sub task")
      .exec("call_sub", "ls")
      .tokens(usage(20, 5, 2, 1));
    const sink = new DiagnosticSink("codex");
    const session = parseCodexRollout(
      { text: parent.text(), file: "parent.jsonl", subagents: [{ file: "child.jsonl", text: child.text() }] },
      sink,
    );
    assert.ok(session);
    assert.equal(session.turns.length, 1);
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.sidechain]),
      [["call_sub", true]],
    );
    assert.deepEqual(
      session.api_calls.map((c) => [c.model, c.sidechain, c.usage.input_tokens]),
      [
        ["gpt-5.4", false, 10],
        ["gpt-5.4-mini", true, 15],
      ],
    );
    // CodexLog stamps each line one second after the previous one (session_meta uses two: its payload, then its line).
    // Parent lines 1–6 are stamped 10:00:02 … 10:00:07; the child's exec call is stamped 10:00:11.5, after the
    // parent's last line, so it lands on line 6.
    assert.deepEqual([session.tool_calls[0].record, session.tool_calls[0].result_record], [6, 6]);
    assert.ok(codes(sink).includes("codex-subagent-lines-mapped"));
  });

  /*
   * Codex's multi-agent tools: `spawn_agent` starts a thread whose rollout is a file of its own. Entire copies
   * only the main rollout, so what the child edited is nowhere in the log: say so (one warning, counting the
   * spawns without a rollout), rather than let its committed lines pass as the person's without a word.
   */
  test("spawn_agent without the sub-agent's rollout: a warning; with it: none", () => {
    const parentLog = () => {
      const log = new CodexLog({ id: "44444444-0000-0000-0000-000000000004", cwd }).meta().turn().prompt("delegate");
      log.env("response_item", {
        type: "function_call",
        name: "spawn_agent",
        arguments: JSON.stringify({ message: "write the tests", agent_type: "worker" }),
        call_id: "call_spawn",
      });
      log.env("response_item", {
        type: "function_call_output",
        call_id: "call_spawn",
        output: JSON.stringify({ agent_id: "55555555-0000-0000-0000-000000000005" }),
      });
      return log.text();
    };
    const alone = new DiagnosticSink("codex");
    assert.ok(parseCodexRollout({ text: parentLog(), file: "parent.jsonl" }, alone));
    const missing = alone.rows.filter((d) => d.code === "codex-subagent-rollout-missing");
    assert.equal(missing.length, 1);
    assert.equal(missing[0].severity, "warning");
    // Lines: session_meta 1, turn_context 2, the prompt: environment message 3, message 4, user_message event 5; the spawn_agent call 6.
    assert.match(
      missing[0].message,
      /^1 spawn_agent call\(s\) whose sub-agent rollouts are not among the inputs \(0 given\).*first at line 6$/,
    );

    const child = new CodexLog({ id: "55555555-0000-0000-0000-000000000005", cwd })
      .meta({
        source: { subagent: { thread_spawn: { parent_thread_id: "44444444-0000-0000-0000-000000000004", depth: 1 } } },
      })
      .turn()
      .prompt("write the tests");
    const withChild = new DiagnosticSink("codex");
    assert.ok(
      parseCodexRollout(
        { text: parentLog(), file: "parent.jsonl", subagents: [{ file: "child.jsonl", text: child.text() }] },
        withChild,
      ),
    );
    assert.equal(withChild.rows.filter((d) => d.code === "codex-subagent-rollout-missing").length, 0);
  });

  test("bad input: not Codex, empty, truncated: diagnostics, never a throw", () => {
    const sink = new DiagnosticSink("codex");
    assert.equal(parseCodexRollout({ text: "", file: "empty.jsonl" }, sink), null);
    assert.ok(codes(sink).includes("codex-no-records"));
    const sink2 = new DiagnosticSink("codex");
    assert.equal(parseCodexRollout({ text: '{"type":"user","sessionId":"x"}\n', file: "claude.jsonl" }, sink2), null);
    assert.ok(codes(sink2).includes("codex-not-codex"));
    const cut = rolloutCut();
    const sink3 = new DiagnosticSink("codex");
    const s = parseCodexRollout({ text: cut, file: "cut.jsonl" }, sink3);
    assert.ok(s);
    assert.ok(codes(sink3).includes("jsonl-truncated"));
    assert.ok(codes(sink3).includes("codex-tool-call-without-result"));
  });

  function rolloutCut(): string {
    const log = new CodexLog({ id: "66666666-0000-0000-0000-000000000006", cwd }).meta().turn().prompt("p");
    log.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: "call_cut",
      name: "apply_patch",
      input: "*** Begin Patch\n*** Add File: z.txt\n+z\n*** End Patch\n",
    });
    return log.text() + '{"timestamp":"2026-03-02T10:01:00.000Z","type":"event_msg","payload":{"type":"patch_apply_';
  }
});

/*
 * Discovery in Codex's own layout: ~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl. Found by content
 * (a Claude Code file and history.jsonl in the same tree are not rollouts); the sub-agent rollout goes with
 * its parent, a sub-agent whose parent is absent is read on its own.
 */
test("findCodexRollouts: the sessions/YYYY/MM/DD layout, content detection, sub-agent grouping", () => {
  const home = mkdtempSync(join(tmpdir(), "sce-codex-home-"));
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), text);
  };
  const day = "sessions/2026/03/02";
  const parentId = "88888888-0000-0000-0000-000000000008";
  const sub = (id: string, parent: string) =>
    new CodexLog({ id, cwd: "/p" })
      .meta({ source: { subagent: { thread_spawn: { parent_thread_id: parent } } } })
      .turn()
      .text();
  put(
    `${day}/rollout-2026-03-02T10-00-00-${parentId}.jsonl`,
    new CodexLog({ id: parentId, cwd: "/p" }).meta().turn().prompt("hi").text(),
  );
  put(
    `${day}/rollout-2026-03-02T10-05-00-99999999-0000-0000-0000-000000000009.jsonl`,
    sub("99999999-0000-0000-0000-000000000009", parentId),
  );
  put(
    `${day}/rollout-2026-03-02T10-06-00-aaaaaaaa-0000-0000-0000-00000000000a.jsonl`,
    sub("aaaaaaaa-0000-0000-0000-00000000000a", "not-here"),
  );
  put("history.jsonl", JSON.stringify({ session_id: parentId, ts: 1, text: "hi" }) + "\n");
  put(
    "claude/x.jsonl",
    JSON.stringify({ type: "user", sessionId: "s", uuid: "u", message: { role: "user", content: "hi" } }) + "\n",
  );
  const sink = new DiagnosticSink("codex");
  const found = findCodexRollouts(home, sink);
  assert.deepEqual(
    found.map((f) => [f.file.slice(home.length + 1), f.subagents.map((s) => s.slice(home.length + 1))]),
    [
      [
        `${day}/rollout-2026-03-02T10-00-00-${parentId}.jsonl`,
        [`${day}/rollout-2026-03-02T10-05-00-99999999-0000-0000-0000-000000000009.jsonl`],
      ],
      [`${day}/rollout-2026-03-02T10-06-00-aaaaaaaa-0000-0000-0000-00000000000a.jsonl`, []],
    ],
  );
  assert.ok(codes(sink).includes("codex-orphan-subagent"));
  assert.equal(readCodexRollout(found[0], new DiagnosticSink("codex"))?.session_id, parentId);
  assert.deepEqual(defaultCodexSessionRoots({ CODEX_HOME: home }), [join(home, "sessions")]);
});
