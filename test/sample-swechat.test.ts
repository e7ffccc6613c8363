/**
 * The sample's SWE-chat-shaped tables (src/sample/swe-chat): the SWE-chat path reads every session that has a
 * transcript, with the hand-given labels of src/sample/swe-chat/labels.ts, and its units agree with the Entire path's
 * expected ones where the method is the same replay.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeSwechatDataset } from "../src/analyze/analyze-swechat";
import type { AnalysisRows } from "../src/model";
import { ensureSampleCorpus } from "../src/sample";
import { SAMPLE_LABELS } from "../src/sample/swe-chat/labels";

test("sample SWE-chat tables: sessions, prompts and labels as written", async () => {
  const corpus = await ensureSampleCorpus();
  const out: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  assert.equal(await analyzeSwechatDataset(corpus.sweChatDir, { idleLimitS: 300, threads: 1 }, out), true);
  // 14 sessions, one without a transcript (s10-lost): no conversation rows, dropped as SWE-chat drops it.
  assert.equal(corpus.sessions.length, 14);
  assert.equal(out.sessions.length, 13);
  assert.ok(out.diagnostics.some((d) => d.code === "swechat-session-without-rows"));
  assert.ok(!out.diagnostics.some((d) => d.code === "swechat-label-unknown"));
  for (const s of corpus.sessions) {
    const labels = SAMPLE_LABELS[s.key];
    const row = out.sessions.find((r) => r.session_id === s.entire_session_id);
    if (s.transcript === null) {
      assert.equal(row, undefined);
      continue;
    }
    assert.deepEqual([row?.user_persona, row?.session_success], [labels.persona, Number(labels.success)], s.key);
    const prompts = (out.prompts ?? [])
      .filter((p) => p.session_id === s.entire_session_id)
      .sort((a, b) => a.index - b.index);
    assert.deepEqual(
      prompts.map((p) => [p.prompt_intent, p.prompt_pushback]),
      labels.prompts,
      s.key,
    );
  }
  // Entire's agent_percentage is the session's last checkpoint's initial_attribution: s05 (1 of 20 lines) → 5 %.
  const s05 = corpus.sessions.find((s) => s.key === "s05-subagent")!;
  assert.equal(out.sessions.find((r) => r.session_id === s05.entire_session_id)?.entire_agent_percentage, 5);
  // Our replay of the same session gives the unit's hand-worked numbers (20 of 20 lines survive).
  const unit = out.units.find((u) => u.session_id === s05.entire_session_id)!;
  const expected = corpus.expected.find((e) => e.session_key === "s05-subagent")!;
  assert.deepEqual(
    [unit.agent_lines_survived, unit.total_committed_lines],
    [expected.agent_lines_survived, expected.total_committed_lines],
  );
});
