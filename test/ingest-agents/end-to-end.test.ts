import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { TestRepo } from "../helpers/git-repo";
import { CodexLog, usage } from "./codex-log";
import { EXTERNAL_AGENTS_MIRROR } from "../helpers/corpus";

const MIRROR = EXTERNAL_AGENTS_MIRROR;

/*
 * END TO END on the development mirror of entireio/external-agents (Entire checkpoints, Claude Code and Codex
 * sessions). Before the Codex adapter every Codex unit had no counts (transcript-format-unsupported: 16 units,
 * 0 computed); now all 16 are computed by git-replay.
 *
 * Session 019dbcc1-3812-72e1-9caa-f97edd88215b, worked by hand (replaying each patch_apply_end diff by its line
 * numbers on `git show <parent>:<path>` with a Python one-off, then comparing with `git show <commit>:<path>`):
 *
 * Commit 21b5890d (checkpoint fc9a115d0155, no checkpoint_transcript_start: the whole transcript so far, lines
 * 1–274; parent f187947a). Two patches reach it: line 220 (8 files) and line 240 (compact_test.go +"os").
 *   produced: main.go 2, agent.go 3 (its diff rewrites the Hooks and UsesTerminal alignment lines and adds
 *   CompactTranscript: Myers −2 +3), compact.go 265 (add), compact_test.go 86 (add) + 1, handlers_test.go 22,
 *   info_test.go 3, protocol.go 18, types.go 12 → 412; nothing is overwritten later, so final = 412.
 *   The commit adds 410 lines (git numstat 410). `gofmt -w` ran afterwards through exec_command (no structured
 *   record): it re-aligned agent.go back to the base ("Hooks:              true," is then a base line again)
 *   and wrote "CompactTranscript:  true," with two spaces, and re-aligned one line of types.go
 *   (`Transcript string … json:"transcript"`). Those two committed lines differ from the agent's final text, so
 *   they are human (changed between the agent's final state and the commit; metrics.md §2, §4).
 *   → survived 408, human 2, outside 0, total 410. Entire records 410 of 410 agent lines: it diffs snapshots
 *   taken after the formatter ran.
 *
 * Commit 24546040 (checkpoint c3b191fe1158, checkpoint_transcript_start 274; parent 21b5890d). Only the patch
 * whose patch_apply_end is line 359 lies in the slice: compact.go, 7 hunks, +12 −11; the replayed file equals
 * the committed one byte for byte. → produced 12, final 12, survived 12, human 0, total 12 (numstat 12, Entire 12/12).
 * Both units are ambiguous (`multi-checkpoint-session`: the session is stored at two checkpoints) but computed.
 */
test("analyze on the external-agents mirror computes the Codex units (hand-worked session 019dbcc1)", async (t) => {
  if (!existsSync(MIRROR)) {
    t.skip(`the development mirror ${MIRROR} is not on this machine`);
    return;
  }
  const { rows } = await analyze({ inputs: [MIRROR], threads: 1 });
  const codex = rows.units.filter((u) => u.agent === "Codex");
  assert.equal(codex.length, 16);
  assert.equal(codex.filter((u) => u.total_committed_lines !== null && u.method === "git-replay").length, 16);
  assert.equal(rows.diagnostics.filter((d) => d.code === "transcript-format-unsupported").length, 0);

  const pick = (sha: string) => {
    const u = rows.units.find(
      (x) => x.session_id === "019dbcc1-3812-72e1-9caa-f97edd88215b" && x.commit_sha.startsWith(sha),
    );
    assert.ok(u, sha);
    return [
      u.checkpoint_id,
      u.ambiguity,
      u.model,
      u.agent_lines_produced,
      u.agent_lines_final,
      u.agent_lines_survived,
      u.human_lines,
      u.outside_lines,
      u.total_committed_lines,
      u.numstat_additions,
      u.unreplayable_calls,
      u.entire_agent_lines,
      u.entire_total_committed,
    ];
  };
  assert.deepEqual(pick("21b5890d"), [
    "fc9a115d0155",
    "multi-checkpoint-session",
    "gpt-5.4",
    412,
    412,
    408,
    2,
    0,
    410,
    410,
    0,
    410,
    410,
  ]);
  assert.deepEqual(pick("24546040"), [
    "c3b191fe1158",
    "multi-checkpoint-session",
    "gpt-5.4",
    12,
    12,
    12,
    0,
    0,
    12,
    12,
    0,
    12,
    12,
  ]);

  // The session row comes from the longest stored copy (c3's 387 records): 2 prompts, 83 calls, 3 edits, 49 API calls.
  const s = rows.sessions.find((x) => x.session_id === "019dbcc1-3812-72e1-9caa-f97edd88215b");
  assert.deepEqual(
    [
      s?.source,
      s?.prompts,
      s?.tool_calls,
      s?.edit_calls,
      s?.failed_edit_calls,
      s?.api_calls,
      s?.input_tokens,
      s?.cache_read_tokens,
      s?.output_tokens,
    ],
    ["codex", 2, 83, 3, 0, 49, 186588, 3762688, 22594],
  );
});

/*
 * The same path without Entire: a folder holding a Codex rollout (in Codex's own sessions/YYYY/MM/DD layout), a
 * Gemini CLI session log and an OpenCode storage folder, with --repo. Every session is found by content and
 * read by its adapter; sessions link to the commits that change the files they edited within the time window.
 *
 * Repo: base commit (11:00) with src/app.py (app0). Codex session 11:30: a two-hunk patch on src/app.py (+3 −1,
 * Myers inserts "import json", "    value = 2", "    return value"). Commit 12:00 = that state: codex unit
 * produced 3, survived 3 of 3 committed lines. Gemini session 12:30 writes notes.md (2 lines, a new file);
 * commit 13:00 adds it: gemini unit 2 of 2. The OpenCode session edits nothing: a session row, no unit.
 */
test("a folder of Codex, Gemini and OpenCode sessions with --repo: found by content, linked, attributed", async () => {
  const repo = new TestRepo("sce-agents-");
  const app0 = 'import os\nimport sys\n\ndef main():\n    print("a")\n    return 0\n\ndef helper():\n    return 1\n';
  const app1 =
    'import os\nimport json\nimport sys\n\ndef main():\n    print("a")\n    return 0\n\ndef helper():\n    value = 2\n    return value\n';
  repo.commit("base", { "src/app.py": app0 });
  const diff =
    "@@ -1,2 +1,3 @@\n import os\n+import json\n import sys\n@@ -8,2 +9,3 @@\n def helper():\n-    return 1\n+    value = 2\n+    return value\n";
  const sessions = mkdtempSync(join(tmpdir(), "sce-agent-logs-"));
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(sessions, rel)), { recursive: true });
    writeFileSync(join(sessions, rel), text);
  };
  put(
    "codex/sessions/2026/03/02/rollout-2026-03-02T11-30-00-77777777-0000-0000-0000-000000000007.jsonl",
    new CodexLog({ id: "77777777-0000-0000-0000-000000000007", cwd: repo.dir, start: "2026-03-02T11:30:00.000Z" })
      .meta()
      .turn()
      .prompt("json and a value")
      .patch("call_1", "*** Begin Patch\n*** Update File: src/app.py\n…\n*** End Patch\n", {
        [`${repo.dir}/src/app.py`]: { type: "update", unified_diff: diff, move_path: null },
      })
      .tokens(usage(1000, 400, 50, 10))
      .text(),
  );
  repo.commit("codex work", { "src/app.py": app1 });
  const gemini = [
    {
      sessionId: "g-1",
      projectHash: "x",
      startTime: "2026-03-02T12:30:00.000Z",
      lastUpdated: "2026-03-02T12:31:00.000Z",
    },
    { id: "m1", timestamp: "2026-03-02T12:30:01.000Z", type: "user", content: [{ text: "write notes" }] },
    {
      id: "m2",
      timestamp: "2026-03-02T12:30:02.000Z",
      type: "gemini",
      content: "",
      model: "gemini-2.5-pro",
      tokens: { input: 10, output: 2, cached: 0, thoughts: 0, tool: 0, total: 12 },
      toolCalls: [
        {
          id: "w1",
          name: "write_file",
          status: "success",
          timestamp: "2026-03-02T12:30:03.000Z",
          args: { file_path: `${repo.dir}/notes.md`, content: "n1\nn2\n" },
          result: [
            {
              functionResponse: {
                response: { output: `Successfully created and wrote to new file: ${repo.dir}/notes.md.` },
              },
            },
          ],
        },
      ],
    },
  ];
  put(
    "gemini/tmp/abc/chats/session-2026-03-02T12-30-g-1.jsonl",
    gemini.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  repo.commit("notes", { "notes.md": "n1\nn2\n" });
  const sid = "ses_e2e000000000000000000001";
  put(`opencode/storage/session/p1/${sid}.json`, JSON.stringify({ id: sid, directory: repo.dir, version: "1.2.0" }));
  put(
    `opencode/storage/message/${sid}/msg_01.json`,
    JSON.stringify({ id: "msg_01", sessionID: sid, role: "user", time: { created: 1772454600000 } }),
  );
  put(
    "opencode/storage/part/msg_01/prt_01.json",
    JSON.stringify({ id: "prt_01", type: "text", text: "what does app.py do?" }),
  );
  // Not a transcript: reported, not read.
  put("codex/history.jsonl", JSON.stringify({ session_id: "x", ts: 1, text: "hi" }) + "\n");

  const { rows } = await analyze({ inputs: [sessions], repo: repo.dir });
  assert.deepEqual(rows.sessions.map((s) => [s.source, s.session_id, s.prompts]).sort(), [
    ["codex", "77777777-0000-0000-0000-000000000007", 1],
    ["gemini", "g-1", 1],
    ["opencode", sid, 1],
  ]);
  const unit = (source: string) =>
    rows.units.filter((u) => rows.sessions.find((s) => s.session_id === u.session_id)?.source === source);
  assert.deepEqual(
    unit("codex").map((u) => [
      u.ambiguity,
      u.agent_lines_produced,
      u.agent_lines_survived,
      u.human_lines,
      u.total_committed_lines,
    ]),
    [[null, 3, 3, 0, 3]],
  );
  assert.deepEqual(
    unit("gemini").map((u) => [
      u.ambiguity,
      u.agent_lines_produced,
      u.agent_lines_survived,
      u.human_lines,
      u.total_committed_lines,
    ]),
    [[null, 2, 2, 0, 2]],
  );
  assert.equal(unit("opencode").length, 0);
  assert.ok(rows.diagnostics.some((d) => d.code === "not-a-transcript" && d.file?.endsWith("history.jsonl")));
  assert.deepEqual(
    rows.tool_calls.filter((c) => c.tool === "apply_patch").map((c) => [c.file, c.lines_added, c.lines_removed]),
    [["src/app.py", 3, 1]],
  );
});
