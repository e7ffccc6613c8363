/**
 * The dataset's own labels (swe-chat.md §3): prompt_intent and prompt_pushback on the prompts table, user_persona,
 * session_success (a string in the data, a number here) and Entire's agent_percentage on the sessions table; values
 * outside the documented sets become `swechat-label-unknown` and read as no label.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyzeSwechatDataset } from "../../src/analyze/analyze-swechat";
import type { AnalysisRows } from "../../src/model";
import { writeTable } from "./fixture";

const A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
const B = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
const T0 = Date.parse("2026-05-01T09:00:00.000Z");
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const row = (session: string, turn: number, fields: Record<string, unknown>) => ({
  turn_id: `${session}#${turn}`,
  session_id: session,
  checkpoint_pk: `o/r#${session.slice(0, 12)}`,
  repo_id: "o/r",
  turn_number: turn,
  timestamp: new Date(T0 + turn * 1000),
  agent: "Claude Code",
  ...fields,
});
const prompt = (session: string, turn: number, content: string, intent: string | null, pushback: string | null) =>
  row(session, turn, {
    turn_type: "user_prompt",
    role: "user",
    content,
    prompt_intent: intent,
    prompt_pushback: pushback,
  });
const reply = (session: string, turn: number, content: string) =>
  row(session, turn, { turn_type: "assistant_response", role: "assistant", content });

function writeDataset(): string {
  const dir = mkdtempSync(join(tmpdir(), "swechat-labels-"));
  dirs.push(dir);
  writeTable(join(dir, "conversations.parquet"), "conversations", [
    prompt(A, 0, "how does the parser work?", "understand", "non_pushback"),
    reply(A, 1, "It reads rows.\n\nWhich one do you mean, the CSV parser or the JSON parser?"),
    prompt(A, 2, "no, the JSON one", "understand", "correction"),
    reply(A, 3, "Done. Would you like me to commit?"),
    // Outside the documented sets: a capitalised intent and an unknown pushback kind.
    prompt(A, 4, "thanks", "Other", "gratitude"),
    prompt(B, 0, "add a flag", "create new code", null),
    row(B, 1, {
      turn_type: "tool_use",
      role: "tool_use",
      tool_name: "AskUserQuestion",
      tool_call_id: "toolu_b1",
      tool_input_json: "{}",
    }),
  ]);
  const session = (id: string, persona: string | null, success: string | null, pct: number | null) => ({
    session_id: id,
    repo_id: "o/r",
    checkpoint_ids: "[]",
    canonical_checkpoint_pk: null,
    agent: "Claude Code",
    created_at: new Date(T0),
    files_touched: "[]",
    agent_percentage: pct,
    agent_lines: pct === null ? null : 1,
    total_committed: pct === null ? null : 1,
    user_persona: persona,
    session_success: success,
  });
  writeTable(join(dir, "sessions.parquet"), "sessions", [
    session(A, "Expert Nitpicker", "87.5", 100),
    session(B, "Picky", "high", null),
  ]);
  writeTable(join(dir, "checkpoints.parquet"), "checkpoints", []);
  writeTable(join(dir, "commits.parquet"), "commits", []);
  return dir;
}

test("SWE-chat labels: prompts carry intent and pushback, sessions persona, success and Entire's agent %; unknown values are diagnostics", async () => {
  const out: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  assert.equal(await analyzeSwechatDataset(writeDataset(), { idleLimitS: 300, threads: 1 }, out), true);

  // Rows come in job order; sorted here by session and prompt.
  const prompts = [...(out.prompts ?? [])]
    .sort((x, y) => x.session_id.localeCompare(y.session_id) || x.index - y.index)
    .map((p) => [p.session_id.slice(0, 1), p.index, p.text, p.prompt_intent, p.prompt_pushback, p.agent_clarification]);
  assert.deepEqual(prompts, [
    // A's first reply closes on "Which one do you mean …?": a clarification request (rule "clarify" / "choose").
    ["a", 0, "how does the parser work?", "understand", "non_pushback", true],
    // "Would you like me to commit?" is an offer, not a request for missing input.
    ["a", 1, "no, the JSON one", "understand", "correction", false],
    // Both labels outside their sets → null; no reply after the last prompt and no asking call → null.
    ["a", 2, "thanks", null, null, null],
    // No pushback label in the row → null; the AskUserQuestion call is a clarification request whatever the text.
    ["b", 0, "add a flag", "create new code", null, true],
  ]);

  const sessions = [...out.sessions]
    .sort((x, y) => x.session_id.localeCompare(y.session_id))
    .map((s) => [s.session_id.slice(0, 1), s.user_persona, s.session_success, s.entire_agent_percentage]);
  // "87.5" → 87.5; "Picky" and "high" are outside the documented forms → null.
  assert.deepEqual(sessions, [
    ["a", "Expert Nitpicker", 87.5, 100],
    ["b", null, null, null],
  ]);

  const unknown = out.diagnostics.filter((d) => d.code === "swechat-label-unknown").map((d) => d.message);
  assert.equal(unknown.length, 4, unknown.join("\n"));
  assert.match(unknown.join("\n"), /sessions: 1 user_persona value\(s\) outside the documented set \("Picky" ×1\)/);
  assert.match(unknown.join("\n"), /sessions: 1 session_success value\(s\) outside the documented set \("high" ×1\)/);
  assert.match(unknown.join("\n"), /1 prompt_intent value\(s\) outside the documented set \("Other" ×1\)/);
  assert.match(unknown.join("\n"), /1 prompt_pushback value\(s\) outside the documented set \("gratitude" ×1\)/);
});
