/**
 * Hand-worked checks of the reference's newer columns: the sessions table's `agent`, `models`,
 * `started_at`, `ended_at`, `tool_calls`, `edit_calls`, `failed_edit_calls` (tool-calls.ts,
 * sessions.ts) and the units' `entire_*` columns (entire-attribution.ts); then the same tiny
 * transcripts through `swe-chat-eval analyze FILE`, which must give the same numbers.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { SESSION_COLUMNS, compareSessions } from "./compare";
import { parseRecords } from "./effort";
import { entireColumns } from "./entire-attribution";
import { sessionRecord } from "./sessions";
import { callCounts } from "./tool-calls";

const at = (s: number): string => new Date(Date.parse("2026-04-01T10:00:00.000Z") + s * 1000).toISOString();
const jsonl = (records: object[]): string => `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;
const usage = (output: number) => ({
  input_tokens: 10,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

const CLAUDE_SESSION = "aaaaaaaa-1111-2222-3333-444444444444";
const CODEX_SESSION = "019d0000-0000-7000-8000-000000000001";

/** The brief's case: a Read, a successful Edit and a failed Edit. */
function smallClaude(): string {
  let n = 0;
  const env = (r: object) => ({ sessionId: CLAUDE_SESSION, uuid: `u${n++}`, cwd: "/w", version: "2.1.29", ...r });
  const use = (id: string, name: string, input: object, t: number) => ({
    type: "assistant",
    timestamp: at(t),
    requestId: `req_${id}`,
    message: {
      id: `msg_${id}`,
      model: "claude-opus-4-6",
      content: [{ type: "tool_use", id, name, input }],
      usage: usage(10),
    },
  });
  return jsonl(
    [
      { type: "user", timestamp: at(0), message: { role: "user", content: "rename x to y in a.ts" } },
      use("t_read", "Read", { file_path: "/w/a.ts" }, 1),
      {
        type: "user",
        timestamp: at(2),
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t_read", content: "const x = 1;" }] },
        toolUseResult: { type: "text" },
      },
      use("t_ok", "Edit", { file_path: "/w/a.ts", old_string: "x", new_string: "y" }, 3),
      {
        type: "user",
        timestamp: at(4),
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t_ok", content: "updated" }] },
        toolUseResult: { filePath: "/w/a.ts", oldString: "x", newString: "y", originalFile: "const x = 1;\n" },
      },
      use("t_bad", "Edit", { file_path: "/w/a.ts", old_string: "zzz", new_string: "w" }, 5),
      {
        type: "user",
        timestamp: at(6),
        message: {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t_bad",
              is_error: true,
              content: "String to replace not found in file.",
            },
          ],
        },
        toolUseResult: "Error: String to replace not found in file.",
      },
    ].map(env),
  );
}

test("Claude: a Read, a successful Edit and a failed Edit → tool_calls 3, edit_calls 2, failed_edit_calls 1", () => {
  // Three tool_use ids → 3 calls. Edit is on §3's list of file-changing tools, so both Edits are edit
  // calls: 2 (failed_edit_calls counts a part of edit_calls, and §3 lists tools, not outcomes).
  // t_bad's result has is_error and a string toolUseResult (§3 "Skipped"): 1 failed.
  assert.deepEqual(callCounts(parseRecords(smallClaude()), "claude-code"), {
    tool_calls: 3,
    edit_calls: 2,
    failed_edit_calls: 1,
    unresolved_edit_calls: 0,
  });
});

/** The quirks: a streamed repeat of a tool_use block, a sub-agent's Write, an Edit without result, out-of-order times, two models. */
function quirkyClaude(): string {
  let n = 0;
  const env = (r: object) => ({ sessionId: CLAUDE_SESSION, uuid: `u${n++}`, cwd: "/w", version: "2.1.29", ...r });
  const write = { type: "tool_use", id: "t_sub", name: "Write", input: { file_path: "/w/b.ts", content: "b\n" } };
  return jsonl(
    [
      { type: "user", timestamp: at(10), message: { role: "user", content: "go" } },
      // The same tool_use block in two streamed records of one API call (msg_1/req_1): one call.
      {
        type: "assistant",
        timestamp: at(11),
        requestId: "req_1",
        message: {
          id: "msg_1",
          model: "claude-opus-4-6",
          content: [{ type: "tool_use", id: "t_bash", name: "Bash", input: { command: "ls" } }],
          usage: usage(5),
        },
      },
      {
        type: "assistant",
        timestamp: at(12),
        requestId: "req_1",
        message: {
          id: "msg_1",
          model: "claude-opus-4-6",
          content: [{ type: "tool_use", id: "t_bash", name: "Bash", input: { command: "ls" } }],
          usage: usage(40),
        },
      },
      {
        type: "user",
        timestamp: at(13),
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t_bash", content: "a.ts" }] },
        toolUseResult: { stdout: "a.ts" },
      },
      // A sub-agent's Write and its result, nested in agent_progress records (§3: they count).
      {
        type: "progress",
        timestamp: at(14),
        data: {
          type: "agent_progress",
          message: {
            type: "assistant",
            timestamp: at(14),
            requestId: "req_2",
            message: { id: "msg_2", model: "claude-haiku-4-5-20251001", content: [write], usage: usage(30) },
          },
        },
      },
      {
        type: "progress",
        timestamp: at(15),
        data: {
          type: "agent_progress",
          message: {
            type: "user",
            timestamp: at(15),
            message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t_sub", content: "ok" }] },
            toolUseResult: { type: "create", filePath: "/w/b.ts", content: "b\n" },
          },
        },
      },
      // An Edit whose result never came (the log ends): neither successful nor failed.
      {
        type: "assistant",
        timestamp: at(16),
        requestId: "req_3",
        message: {
          id: "msg_3",
          model: "claude-opus-4-6",
          content: [
            {
              type: "tool_use",
              id: "t_cut",
              name: "Edit",
              input: { file_path: "/w/a.ts", old_string: "a", new_string: "b" },
            },
          ],
          usage: usage(20),
        },
      },
      // A record written out of time order (earlier than the first one).
      { type: "system", timestamp: at(2), subtype: "informational", content: "resumed" },
    ].map(env),
  );
}

test("Claude: streamed repeats count once, sub-agent calls count, a call without result is not a failure; times and models", () => {
  const s = sessionRecord(CLAUDE_SESSION, quirkyClaude(), "claude-code");
  // Calls: t_bash (two blocks, one id), t_sub (nested), t_cut → 3. Edit calls: t_sub (Write), t_cut (Edit) → 2.
  // Failed: none (t_cut has no result: unresolved 1).
  assert.deepEqual([s.tool_calls, s.edit_calls, s.failed_edit_calls, s.unresolved_edit_calls], [3, 2, 0, 1]);
  // Timestamps 10…16 s and one at 2 s: started_at is the earliest (2 s), not the first record's (10 s),
  // so that ended_at − started_at = duration_s = 16 − 2 = 14 s.
  assert.deepEqual([s.started_at, s.ended_at, s.duration_s], [at(2), at(16), 14]);
  // Output per model: opus 40 (msg_1's largest block) + 20 = 60, haiku 30 → model opus; §6 "the others": haiku.
  assert.deepEqual([s.agent, s.model, s.models], ["Claude Code", "claude-opus-4-6", "claude-haiku-4-5-20251001"]);
  // The product's reading keeps the main model too, first.
  assert.equal(
    sessionRecord(CLAUDE_SESSION, quirkyClaude(), "claude-code", { modelsWithMain: true }).models,
    "claude-opus-4-6;claude-haiku-4-5-20251001",
  );
});

/** A Codex rollout: a shell call, an applied patch, a patch refused by verification (no patch_apply_end), a web search. */
function codexRollout(): string {
  const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** End Patch\n";
  return jsonl([
    {
      timestamp: at(0),
      type: "session_meta",
      payload: { id: CODEX_SESSION, cwd: "/w", cli_version: "0.120.0", originator: "codex_cli_rs" },
    },
    { timestamp: at(1), type: "turn_context", payload: { cwd: "/w", model: "gpt-5.4" } },
    { timestamp: at(2), type: "event_msg", payload: { type: "user_message", message: "fix it", kind: "plain" } },
    {
      timestamp: at(3),
      type: "response_item",
      payload: {
        type: "function_call",
        name: "exec_command",
        arguments: JSON.stringify({ cmd: "cat a.ts" }),
        call_id: "c_sh",
      },
    },
    {
      timestamp: at(4),
      type: "response_item",
      payload: { type: "function_call_output", call_id: "c_sh", output: "Process exited with code 0\nx" },
    },
    {
      timestamp: at(5),
      type: "response_item",
      payload: { type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "c_ok" },
    },
    {
      timestamp: at(6),
      type: "event_msg",
      payload: {
        type: "patch_apply_end",
        call_id: "c_ok",
        success: true,
        stdout: "",
        stderr: "",
        changes: { "/w/a.ts": { type: "update", unified_diff: "@@ -1 +1 @@\n-x\n+y\n", move_path: null } },
      },
    },
    {
      timestamp: at(7),
      type: "response_item",
      payload: {
        type: "custom_tool_call_output",
        call_id: "c_ok",
        output: JSON.stringify({
          output: "Success. Updated the following files:\nM /w/a.ts\n",
          metadata: { exit_code: 0 },
        }),
      },
    },
    {
      timestamp: at(8),
      type: "response_item",
      payload: { type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "c_bad" },
    },
    {
      timestamp: at(9),
      type: "response_item",
      payload: {
        type: "custom_tool_call_output",
        call_id: "c_bad",
        output: "apply_patch verification failed: Failed to find expected lines in /w/a.ts:\nx",
      },
    },
    {
      timestamp: at(10),
      type: "response_item",
      payload: { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } },
    },
    {
      timestamp: at(11),
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          total_token_usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10 },
          last_token_usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10 },
        },
      },
    },
  ]);
}

test("Codex: apply_patch calls are edit calls; one refused by verification (no patch_apply_end) is a failed one", () => {
  const s = sessionRecord(CODEX_SESSION, codexRollout(), "codex");
  // Calls: c_sh, c_ok, c_bad, ws_1 → 4. Edit calls: c_ok, c_bad → 2. Failed: c_bad (its output is not "Success.") → 1.
  assert.deepEqual([s.tool_calls, s.edit_calls, s.failed_edit_calls, s.unresolved_edit_calls], [4, 2, 1, 0]);
  assert.deepEqual([s.agent, s.model, s.models, s.started_at, s.ended_at], ["Codex", "gpt-5.4", "", at(0), at(11)]);
});

test("the product (`swe-chat-eval analyze FILE`) gives the same session columns for the three transcripts", () => {
  const dir = mkdtempSync(join(tmpdir(), "ref-columns-"));
  try {
    const cases: [string, string, string, "claude-code" | "codex"][] = [
      ["small", `${CLAUDE_SESSION}.jsonl`, smallClaude(), "claude-code"],
      ["quirky", `${CLAUDE_SESSION}.jsonl`, quirkyClaude(), "claude-code"],
      ["codex", `rollout-2026-04-01T10-00-00-${CODEX_SESSION}.jsonl`, codexRollout(), "codex"],
    ];
    for (const [name, file, text, format] of cases) {
      const sub = join(dir, name);
      spawnSync("mkdir", ["-p", sub]);
      writeFileSync(join(sub, file), text);
      const r = spawnSync(
        process.execPath,
        [join(process.cwd(), "bin/swe-chat-eval.js"), "analyze", join(sub, file), "--out", join(sub, "out"), "--quiet"],
        { encoding: "utf8" },
      );
      assert.equal(r.status, 0, r.stderr);
      const product = JSON.parse(readFileSync(join(sub, "out", "sessions.json"), "utf8"));
      const reference = sessionRecord(format === "codex" ? CODEX_SESSION : CLAUDE_SESSION, text, format, {
        modelsWithMain: true,
      });
      const c = compareSessions([reference], product);
      assert.deepEqual([c.diffs, c.onlyProduct, c.onlyReference], [[], [], []], name);
      for (const col of SESSION_COLUMNS) assert.equal(c.perColumn[col].agree, 1, `${name} ${col}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("entire_* columns: the session folder's initial_attribution, copied as recorded", () => {
  // metric_version 2 (the dev mirror's 019dc116@1ff0d0c8): agent_percentage is (agent_lines + agent_removed) /
  // total_lines_changed = (6 + 5) / 15 = 73.33…, not agent_lines / total_committed = 6 / 8 = 75: copied, not recomputed.
  const v2 = {
    initial_attribution: {
      agent_lines: 6,
      agent_removed: 5,
      human_added: 2,
      human_modified: 0,
      human_removed: 2,
      total_committed: 8,
      total_lines_changed: 15,
      agent_percentage: 73.33333333333333,
      metric_version: 2,
    },
  };
  assert.deepEqual(entireColumns(v2), {
    entire_agent_lines: 6,
    entire_total_committed: 8,
    entire_agent_percentage: 73.33333333333333,
  });
  // No record (3 folders of the dev mirror), no metadata at all, or a record with a missing field.
  const none = { entire_agent_lines: null, entire_total_committed: null, entire_agent_percentage: null };
  assert.deepEqual(entireColumns({ session_id: "s" }), none);
  assert.deepEqual(entireColumns(null), none);
  assert.deepEqual(entireColumns({ initial_attribution: { agent_lines: 3, agent_percentage: "n/a" } }), {
    ...none,
    entire_agent_lines: 3,
  });
});
