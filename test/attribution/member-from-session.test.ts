/**
 * Which calls precede which commit in a group without checkpoints (metrics.md §1b "without Entire"): a call precedes
 * the first commit whose moment is later than its result. Where §1b is silent, a call without times goes with the
 * call before it, and one before any timed call with the first commit (src/attribution/member-from-session.ts: one
 * rule for transcripts + --repo and for SWE-chat groups on clones).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { memberFromSession } from "../../src/attribution/member-from-session";
import type { GroupCommit } from "../../src/attribution/attribute-group";
import { parseClaudeCodeTranscript } from "../../src/ingest/claude-code";
import { DiagnosticSink } from "../../src/model";
import { ClaudeLog, writeResult } from "../helpers/claude-log";

const T0 = Date.parse("2026-05-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

test("each call before the first commit later than its result; an untimed call with the call before it", () => {
  // Six Writes; result times (minutes): none, 5, none, 15, none, 25. Commits at minutes 10 and 20.
  const times = [null, 5, null, 15, null, 25];
  let log = new ClaudeLog({ sessionId: "m1", cwd: "/w" }).prompt("Write the files.");
  times.forEach((_, i) => {
    const path = `/w/f${i}.txt`;
    log = log
      .call(`t${i}`, "Write", { file_path: path, content: `${i}\n` })
      .result(`t${i}`, writeResult(path, `${i}\n`, null));
  });
  const session = parseClaudeCodeTranscript({ text: log.text(), file: "m1.jsonl" }, new DiagnosticSink("test"))!;
  session.tool_calls.forEach((c, i) => {
    c.result_timestamp = times[i] === null ? null : at(times[i]!);
    c.timestamp = c.result_timestamp;
  });
  const commits = [10, 20].map((m) => ({ moment: T0 + m * 60_000 }) as GroupCommit);
  const member = memberFromSession(session, commits, { session_id: "m1", checkpoints: [], entire: [], touched: [] });
  // none → before any timed call: the first commit (0); 5 < 10 → 0; none → with 5 → 0; 15 → 1; none → with 15 → 1;
  // 25 is after both commits → 2 (no commit takes it: the state after the last call).
  assert.deepEqual(
    member.parts![0].calls.map((c) => c.firstCommit),
    [0, 0, 0, 1, 1, 2],
  );
  assert.equal(member.session_id, "m1");
  assert.equal(member.problem, null);
});
