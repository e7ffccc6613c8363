/**
 * The SWE-chat paper's figures (src/tables/swechat-paper) on a SWE-chat-shaped fixture whose labels are known: five
 * sessions with Entire's agent %, persona and success; their units; prompts with the dataset's intent and pushback;
 * tool calls; every expected value worked by hand in the comments.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { GroupUnitRow, PromptRow, SessionRow, ToolCallRow, UnitRow } from "../../src/model";
import {
  clarificationShare,
  effortByMode,
  entirePercentBySession,
  intentShares,
  lowestVibeShare,
  modeShares,
  percentHistogram,
  personaShares,
  pooledSurvival,
  pushbackShares,
  replayPercentBySession,
  rollingModes,
  sessionSuccess,
  shareOf,
  toolCategoryShares,
  vibeOverCollaborative,
} from "../../src/tables";

const unit = (
  session: string,
  sha: string,
  final: number,
  survived: number,
  committed: number,
  ambiguity: UnitRow["ambiguity"] = null,
): UnitRow => ({
  session_id: session,
  commit_sha: sha,
  checkpoint_id: null,
  repo: "o/r",
  agent: "Claude Code",
  model: null,
  method: "patch-match",
  ambiguity,
  agent_lines_produced: final,
  agent_lines_final: final,
  agent_lines_survived: survived,
  human_lines: committed - survived,
  outside_lines: 0,
  total_committed_lines: committed,
  numstat_additions: committed,
  code_survival_rate: null,
  coding_efficiency: null,
  agent_authored_pct: null,
  coding_mode: null,
  unreplayable_calls: 0,
  outside_changes: 0,
  entire_agent_lines: null,
  entire_total_committed: null,
  entire_agent_percentage: null,
});
const session = (
  id: string,
  started: string,
  entirePct: number | null,
  persona: SessionRow["user_persona"],
  success: number | null,
  tokens: number,
  cost: number,
): SessionRow => ({
  session_id: id,
  source: "swechat",
  agent: "Claude Code",
  model: null,
  models: "",
  repo: "o/r",
  branch: null,
  started_at: started,
  ended_at: null,
  duration_s: null,
  active_s: null,
  prompts: 1,
  length_bin: "1",
  tool_calls: 0,
  edit_calls: 0,
  failed_edit_calls: 0,
  input_tokens: tokens,
  output_tokens: 0,
  cache_creation_tokens: 0,
  cache_read_tokens: 0,
  api_calls: 1,
  cost_usd: cost,
  user_persona: persona,
  session_success: success,
  entire_agent_percentage: entirePct,
});

// Entire's %: A 100, B 99.5, C 40, D 0, E none.
const SESSIONS = [
  session("A", "2026-02-01T10:00:00Z", 100, "Expert Nitpicker", 90, 3000, 3),
  session("B", "2026-02-02T10:00:00Z", 99.5, "Vague Requester", 50, 1000, 1),
  session("C", "2026-02-03T10:00:00Z", 40, "Expert Nitpicker", 49, 1000, 1),
  session("D", "2026-02-20T10:00:00Z", 0, "Other", null, 500, 0.5),
  session("E", "2026-02-21T10:00:00Z", null, null, 100, 0, 0),
];
// Our replay: A 10 of 10 (final 10), B 9 of 10 (final 12), C 5 of 20 (final 5), D one ambiguous unit (left out), E 0 of 5.
const UNITS = [
  unit("A", "a1", 10, 10, 10),
  unit("B", "b1", 12, 9, 10),
  unit("C", "c1", 5, 5, 20),
  unit("D", "d1", 3, 3, 3, "merge-commit"),
  unit("E", "e1", 0, 0, 5),
];

test("coding modes by session, from Entire's % and from our replay, and the histograms", () => {
  // Entire: A, B vibe (≥ 99), C collaborative, D human-only (= 0); E has none → n 4: vibe 50 %, human-only 25 %.
  const entire = modeShares(entirePercentBySession(SESSIONS));
  assert.equal(entire.n, 4);
  assert.deepEqual(
    entire.rows.map((r) => [r.label, r.count, r.share]),
    [
      ["human-only", 1, 25],
      ["collaborative", 1, 25],
      ["vibe", 2, 50],
    ],
  );
  // Replay: A 100 (vibe), B 90 (collaborative), C 25 (collaborative), E 0 (human-only); D's only unit is ambiguous.
  const replay = replayPercentBySession(UNITS);
  assert.deepEqual(
    [...replay],
    [
      ["A", 100],
      ["B", 90],
      ["C", 25],
      ["E", 0],
    ],
  );
  assert.deepEqual(
    modeShares(replay).rows.map((r) => r.count),
    [1, 2, 1],
  );
  // Bins of 10: 0 → [0,10), 25 → [20,30), 90 → [90,100], 100 → [90,100] (the last bin is closed).
  const bins = percentHistogram(replay.values(), 10);
  assert.deepEqual(
    bins.filter((b) => b.count > 0).map((b) => [b.bin_start, b.count]),
    [
      [0, 1],
      [20, 1],
      [90, 2],
    ],
  );
});

test("survival, strict and with groups", () => {
  // Headline units A, B, C, E: Σ survived 10 + 9 + 5 + 0 = 24 over Σ final 10 + 12 + 5 + 0 = 27 → 88.89 %.
  const strict = pooledSurvival(UNITS);
  assert.deepEqual([strict.num, strict.den, strict.n], [24, 27, 4]);
  assert.equal(strict.value!.toFixed(2), "88.89");
  // A group row for D (attributable as a group): its 3 of 3 join → 27 / 30 = 90 %.
  const group: GroupUnitRow = {
    ...UNITS[3],
    ambiguity: null,
    other_session_lines: 0,
    group_id: "g1",
    group_commits: 1,
    group_sessions: 1,
    concurrent_calls: 0,
    branch_switches: 0,
  };
  assert.equal(pooledSurvival([...UNITS.filter((u) => u.session_id !== "D"), group]).value, 90);
});

test("tokens and dollars per committed line by mode, and vibe over collaborative", () => {
  // By our replay's modes: vibe = A (3000 tokens, $3, 10 lines) → 300 tokens and $0.3 per line;
  // collaborative = B + C (2000 tokens, $2, 10 + 20 lines) → 66.67 and $0.0667; human-only = E: 0 tokens over 5 lines.
  const effort = effortByMode(UNITS, SESSIONS, replayPercentBySession(UNITS));
  assert.deepEqual(
    effort.map((e) => [e.mode, e.sessions, e.lines]),
    [
      ["human-only", 1, 5],
      ["collaborative", 2, 30],
      ["vibe", 1, 10],
    ],
  );
  assert.equal(effort[2].tokens_per_line, 300);
  // 300 / (2000 / 30) = 4.5, for tokens and for dollars alike.
  assert.equal(vibeOverCollaborative(effort, "tokens_per_line")!.toFixed(6), "4.500000");
  assert.equal(vibeOverCollaborative(effort, "dollars_per_line")!.toFixed(6), "4.500000");
});

test("the 14-day rolling vibe share and the rolling mean and median agent %, on dated sessions", () => {
  const dated = [
    { at: "2026-02-01T10:00:00Z", pct: 100 },
    { at: "2026-02-02T23:59:59Z", pct: 99.5 },
    { at: "2026-02-03T00:00:00Z", pct: 40 },
    { at: "2026-02-20T08:00:00Z", pct: 0 },
  ];
  const points = rollingModes(dated, 14);
  // One point per day from 02-01 to 02-20 whose window (the 14 days ending that day) holds a session:
  // 02-01 … 02-16 (02-16's window is 02-03 … 02-16) and 02-20; 02-17 … 02-19 hold none.
  assert.deepEqual(
    points.map((p) => p.day),
    [...Array.from({ length: 16 }, (_, i) => `2026-02-${String(i + 1).padStart(2, "0")}`), "2026-02-20"],
  );
  const at = (d: string) => points.find((p) => p.day === d)!;
  // 02-03: 100, 99.5, 40 → vibe 2/3; mean 79.83; median 99.5.
  assert.deepEqual(
    [
      at("2026-02-03").sessions,
      at("2026-02-03").vibe_share.toFixed(2),
      at("2026-02-03").mean_pct.toFixed(2),
      at("2026-02-03").median_pct,
    ],
    [3, "66.67", "79.83", 99.5],
  );
  // 02-15: the window is 02-02 … 02-15 (02-01 dropped): 99.5, 40 → vibe 50 %, median 69.75.
  assert.deepEqual(
    [at("2026-02-15").sessions, at("2026-02-15").vibe_share, at("2026-02-15").median_pct],
    [2, 50, 69.75],
  );
  // 02-16: only 02-03's session (40) → vibe 0; 02-20: only 0 → human-only 100 %.
  assert.deepEqual([at("2026-02-16").vibe_share, at("2026-02-20").human_only_share], [0, 100]);
  // The February low is 0 % (02-16), the first day it is reached.
  assert.equal(lowestVibeShare(points, "2026-02")!.day, "2026-02-16");
});

test("tool calls by category, prompt intents, pushback, clarification", () => {
  const call = (category: string): ToolCallRow => ({
    session_id: "A",
    seq: 0,
    tool: "x",
    category,
    file: null,
    success: true,
    lines_added: null,
    lines_removed: null,
    timestamp: null,
  });
  const tools = toolCategoryShares(["read", "read", "bash:build", "git/gh", "nonsense"].map(call));
  // "nonsense" is no category of Table 5: 4 calls counted; read 2 → 50 %.
  assert.deepEqual([tools.n, shareOf(tools, "read"), shareOf(tools, "git/gh"), shareOf(tools, "web")], [4, 50, 25, 0]);

  const prompt = (
    index: number,
    text: string,
    intent: PromptRow["prompt_intent"],
    pushback: PromptRow["prompt_pushback"],
    clarification: boolean | null,
  ): PromptRow => ({
    session_id: "A",
    index,
    timestamp: null,
    text,
    prompt_intent: intent,
    prompt_pushback: pushback,
    agent_clarification: clarification,
  });
  const prompts = [
    prompt(0, "how does the cache work?", "understand", "non_pushback", true),
    prompt(1, "no, that's wrong", "understand", "correction", false),
    prompt(2, "please revert it", "git", "rejection", false),
    prompt(3, "add a flag", "create new code", "non_pushback", null),
    prompt(4, "it still fails", null, null, null),
  ];
  // Intents over the 4 labelled prompts: understand 2 → 50 %.
  assert.deepEqual([intentShares(prompts).n, shareOf(intentShares(prompts), "understand")], [4, 50]);
  // Dataset: 2 of 4 labelled prompts push back → 50 %; rules on all 5 texts: correction, rejection, failure → 60 %.
  const dataset = pushbackShares(prompts, "dataset");
  assert.deepEqual(
    [dataset.n, dataset.pushback, dataset.kinds.find((k) => k.label === "correction")!.share],
    [4, 50, 25],
  );
  assert.deepEqual([pushbackShares(prompts, "rules").n, pushbackShares(prompts, "rules").pushback], [5, 60]);
  // Clarification known for 3 prompts, 1 asks → 33.3 %.
  const c = clarificationShare(prompts);
  assert.deepEqual([c.n, c.count, c.share!.toFixed(1)], [3, 1, "33.3"]);
});

test("personas (also among vibe sessions) and session success", () => {
  // Personas of the 4 sessions that have one: Expert Nitpicker 2 → 50 %.
  assert.equal(shareOf(personaShares(SESSIONS), "Expert Nitpicker"), 50);
  // Among Entire's vibe sessions (A, B): 1 of 2 nitpickers → 50 %.
  const vibe = new Set(["A", "B"]);
  assert.deepEqual(
    personaShares(SESSIONS, (s) => vibe.has(s.session_id)).rows.map((r) => r.count),
    [1, 1, 0, 0],
  );
  // Scores 90, 50, 49, 100 (D has none): ≥ 50 for 3 of 4 → 75 %; 49 falls in [40, 50), 100 in the last bin.
  const s = sessionSuccess(SESSIONS);
  assert.deepEqual([s.n, s.atLeast50], [4, 75]);
  assert.deepEqual(
    s.bins.filter((b) => b.count > 0).map((b) => [b.bin_start, b.count]),
    [
      [40, 1],
      [50, 1],
      [90, 2],
    ],
  );
});
