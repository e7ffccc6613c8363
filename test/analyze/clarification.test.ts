/**
 * Agent clarification requests on a Claude Code transcript (no labels): the adapter keeps the main thread's last text
 * after each prompt (Turn.reply), and the prompts rows say whether that reply, or an AskUserQuestion call, asks the user.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { toPromptRows } from "../../src/analyze/session-rows";
import { readTranscriptByContent } from "../../src/ingest/read-transcript";
import { DiagnosticSink } from "../../src/model";
import { ClaudeLog } from "../helpers/claude-log";

test("Claude Code: the reply's closing question, an AskUserQuestion call, or neither", () => {
  const log = new ClaudeLog({ sessionId: "c1a2f1c4-0000-4000-8000-000000000001", cwd: "/w/app" }).prompt(
    "refactor the parser",
  );
  // The agent answers with text only, closing on a choice for the user.
  log.lines.push(
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      userType: "external",
      cwd: "/w/app",
      sessionId: "c1a2f1c4-0000-4000-8000-000000000001",
      version: "2.1.30",
      gitBranch: "main",
      uuid: "u-reply",
      timestamp: "2026-03-02T11:00:00.000Z",
      type: "assistant",
      requestId: "req_r",
      message: {
        id: "msg_r",
        model: "claude-sonnet-4-5-20250929",
        role: "assistant",
        type: "message",
        content: [{ type: "text", text: "There are two parsers.\n\nShould I refactor csv.ts or json.ts?" }],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }),
  );
  log.prompt("csv").call("toolu_1", "Read", { file_path: "/w/app/csv.ts" }).result("toolu_1", { type: "text" });
  log.prompt("now the tests").call("toolu_2", "AskUserQuestion", { questions: [] }).result("toolu_2", {});
  const outcome = readTranscriptByContent(
    Buffer.from(log.text()),
    "t.jsonl",
    "Claude Code",
    new DiagnosticSink("test"),
  );
  assert.ok(outcome.ok);
  const rows = toPromptRows(outcome.session);
  // 1: "Should I … or …?" closes the reply (rule "choose"); 2: "Working on it." asks nothing; 3: AskUserQuestion.
  assert.deepEqual(
    rows.map((r) => [r.text, r.agent_clarification]),
    [
      ["refactor the parser", true],
      ["csv", false],
      ["now the tests", true],
    ],
  );
  assert.equal(outcome.session.turns[1].reply, "Working on it.");
});
