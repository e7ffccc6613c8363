import assert from "node:assert/strict";
import { rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyzeSwechatDataset } from "../../src/analyze/analyze-swechat";
import type { AnalysisRows } from "../../src/tables";
import { C1, C2, C3A, C3B, C4, S1, S2, S3, S4, T0, writeFixture } from "./fixture";

/**
 * The fixture (fixture.ts): six tables with every real column, conversations
 * in two neutrally named shards of 4-row groups, rows shuffled.
 *
 * S1 (conversation rows only; spread over both shards and 5 row groups):
 *   turns 0 prompt, 1 response, 2 Write greet.py "def hi(): / return 'hi'", 3 result,
 *   4 Edit "return 'hi'" → "return 'hello'", 5 result (and an identical copy of row 5: same turn_id),
 *   6 Bash "pytest -q", 7 result cut at 10 KB, 8 Edit (old text absent), 9 `<tool_use_error>` result,
 *   10 prompt "thanks", 11 Bash without command (bash_category git), 12 result. Turns 10 s apart.
 *   Commit C1 adds greet.py: def hi(): / return 'hello' / (blank) / print(hi()), and README "# App": 5 lines.
 *   patch-match: Write on an unknown file → 2 produced; Edit on the known text −1 +1 → produced 3;
 *   agent lines left: def hi():, return 'hello' (final 2), both among the added lines (survived 2);
 *   blank, print, # App are human (3). 2/3 = 66.67 % efficiency, 2/5 = 40 % authored: collaborative.
 *   Tokens: rows 1 and 2 are one response (same segment, same input and cache counts): 10 in,
 *   max(20, 25) = 25 out, 100 cache write; then 12/30/0/120, 5/7/0/130, 6/8/0/140 → 4 calls,
 *   33 in, 70 out, 100 write, 390 read. Opus 4.6 at $5 / $25 / $6.25 / $0.50 per Mtok:
 *   (33·5 + 70·25 + 100·6.25 + 390·0.5) / 1e6 = (165 + 1750 + 625 + 195) / 1e6 = $0.002735.
 * S2 (raw transcript with NUL bytes on line 1, which wins over its rows): Edit lib.py with
 *   originalFile "x = 1 / y = 2", "y = 2" → "y = 3 / z = 4". Commit C2: −y = 2 +y = 3 +z = 5.
 *   pre-image-replay: base = the pre-image; produced 2; final 2; committed y = 3 (agent), z = 5 (human).
 * S3 (raw transcript with two records on one line): Write new.py "a / b" (create). Checkpoint with
 *   commits C3a (new.py +a +b, hour 1), C3b (docs.md +doc, hour 2) and C3c (C3a's patch again, hour 3:
 *   a copy, counted once) → two units, both `multi-commit-checkpoint`. C3a: 2 of 2 agent (vibe);
 *   C3b: docs.md never touched, 1 human line, new.py only in final (human-only).
 * S4 (no sessions row): Write util.py "u = 1", no result row (counted as applied); commit C4 adds it.
 * S5 (dayhaysoos/nimbus): left out. S6 (sessions row, no conversation rows): dropped.
 * Claude-log transcripts: one record every 5 s; each call is one API call of 10 in, 40 out, 100 write,
 * 1000 read at Sonnet 4.5 prices (3 / 15 / 3.75 / 0.30): (30 + 600 + 375 + 300) / 1e6 = $0.001305.
 */

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function analyzeFixture(options: { threads?: number; maxBufferedRows?: number } = {}): Promise<AnalysisRows> {
  const dir = writeFixture();
  dirs.push(dir);
  const out: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  assert.equal(await analyzeSwechatDataset(dir, { idleLimitS: 300, threads: 1, ...options }, out), true);
  for (const d of out.diagnostics) if (d.file?.startsWith(dir)) d.file = "<dataset>";
  return out;
}

const unit = (
  session_id: string,
  commit_sha: string,
  method: string,
  ambiguity: string | null,
  c: number[],
  rates: (number | null)[],
  mode: string,
  entire: (number | null)[],
  model: string,
) => ({
  session_id,
  commit_sha,
  checkpoint_id: session_id.slice(0, 2).repeat(6),
  repo: "acme/app",
  agent: "Claude Code",
  model,
  method,
  ambiguity,
  agent_lines_produced: c[0],
  agent_lines_final: c[1],
  agent_lines_survived: c[2],
  human_lines: c[3],
  outside_lines: c[4],
  total_committed_lines: c[5],
  numstat_additions: c[6],
  code_survival_rate: rates[0],
  coding_efficiency: rates[1],
  agent_authored_pct: rates[2],
  coding_mode: mode,
  unreplayable_calls: 0,
  outside_changes: 0,
  entire_agent_lines: entire[0],
  entire_total_committed: entire[1],
  entire_agent_percentage: entire[2],
});
const OPUS = "claude-opus-4-6";
const SONNET = "claude-sonnet-4-5-20250929";

// Job order: S2 (whole in shard a, group 2), S4 (shard b, group 1), S3 (shard b, group 3); S1 when its last piece arrives.
const EXPECTED_UNITS = [
  unit(S2, C2, "pre-image-replay", null, [2, 2, 1, 1, 0, 2, 2], [50, 50, 50], "collaborative", [1, 2, 50], SONNET),
  unit(S4, C4, "patch-match", null, [1, 1, 1, 0, 0, 1, 1], [100, 100, 100], "vibe", [null, null, null], OPUS),
  unit(
    S3,
    C3A,
    "pre-image-replay",
    "multi-commit-checkpoint",
    [2, 2, 2, 0, 0, 2, 2],
    [100, 100, 100],
    "vibe",
    [2, 3, 200 / 3],
    SONNET,
  ),
  unit(
    S3,
    C3B,
    "pre-image-replay",
    "multi-commit-checkpoint",
    [2, 2, 0, 1, 0, 1, 1],
    [0, 0, 0],
    "human-only",
    [2, 3, 200 / 3],
    SONNET,
  ),
  unit(S1, C1, "patch-match", null, [3, 2, 2, 3, 0, 5, 5], [100, 200 / 3, 40], "collaborative", [2, 5, 40], OPUS),
];

const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const session = (
  id: string,
  model: string,
  branch: string | null,
  start: string,
  end: string,
  dur: number,
  prompts: number,
  calls: number[],
  tokens: number[],
  cost: number,
  labels: [string | null, number | null, number | null] = [null, null, null],
) => ({
  session_id: id,
  source: "swechat",
  agent: "Claude Code",
  model,
  models: model,
  repo: "acme/app",
  branch,
  started_at: start,
  ended_at: end,
  duration_s: dur,
  active_s: dur,
  prompts,
  length_bin: String(prompts),
  tool_calls: calls[0],
  edit_calls: calls[1],
  failed_edit_calls: calls[2],
  input_tokens: tokens[0],
  output_tokens: tokens[1],
  cache_creation_tokens: tokens[2],
  cache_read_tokens: tokens[3],
  api_calls: tokens[4],
  cost_usd: cost,
  // The sessions row's labels: no persona in this fixture, session_success "95" read as 95, Entire's agent_percentage as stored.
  user_persona: labels[0],
  session_success: labels[1],
  entire_agent_percentage: labels[2],
});
// The Claude-log clock starts at 2026-03-02T10:00:00Z and ticks 5 s per record: S2 records at +5…+20 s, S3 at +25…+40 s.
const EXPECTED_SESSIONS = [
  session(
    S2,
    SONNET,
    "main",
    "2026-03-02T10:00:05.000Z",
    "2026-03-02T10:00:20.000Z",
    15,
    1,
    [1, 1, 0],
    [10, 40, 100, 1000, 1],
    0.001305,
    [null, 95, 50],
  ),
  session(S4, OPUS, null, iso(3000), iso(3010), 10, 1, [1, 1, 0], [1, 2, 0, 0, 1], (1 * 5 + 2 * 25) / 1e6),
  session(
    S3,
    SONNET,
    "main",
    "2026-03-02T10:00:25.000Z",
    "2026-03-02T10:00:40.000Z",
    15,
    1,
    [1, 1, 0],
    [10, 40, 100, 1000, 1],
    0.001305,
    [null, 70, 200 / 3],
  ),
  // S1: 5 calls; Write, Edit and the failed Edit change files (3), 1 failed.
  session(S1, OPUS, "feature/greet", iso(0), iso(120), 120, 2, [5, 3, 1], [33, 70, 100, 390, 4], 0.002735, [
    null,
    80,
    40,
  ]),
];

const call = (
  session_id: string,
  seq: number,
  tool: string,
  category: string,
  file: string | null,
  success: boolean | null,
  added: number | null,
  removed: number | null,
  at: string,
) => ({ session_id, seq, tool, category, file, success, lines_added: added, lines_removed: removed, timestamp: at });
const EXPECTED_CALLS = [
  call(S2, 0, "Edit", "edit", "lib.py", true, 2, 1, "2026-03-02T10:00:15.000Z"),
  call(S4, 0, "Write", "write", "util.py", null, null, null, iso(3010)),
  call(S3, 0, "Write", "write", "new.py", true, 2, 0, "2026-03-02T10:00:35.000Z"),
  call(S1, 0, "Write", "write", "greet.py", true, 2, 0, iso(20)),
  call(S1, 1, "Edit", "edit", "greet.py", true, 1, 1, iso(40)),
  // "pytest" is in none of SWE-chat's command sets → bash; the 10 KB result reads as a success.
  call(S1, 2, "Bash", "bash", null, true, null, null, iso(60)),
  call(S1, 3, "Edit", "edit", "greet.py", false, null, null, iso(80)),
  // No command, bash_category "git" → git/gh (swechat.py).
  call(S1, 4, "Bash", "git/gh", null, true, null, null, iso(110)),
];

const EXPECTED_CODES = [
  "swechat-repo-excluded",
  "swechat-session-without-rows",
  "swechat-session-row-missing",
  "jsonl-nul-bytes",
  "patch-match-unknown-outcome",
  "jsonl-concatenated-objects",
  "swechat-commit-copies",
  // The two ambiguous units of that session, each explained where it is attributed (the one unit pipeline).
  "unit-excluded",
  "unit-excluded",
  "swechat-duplicate-turn",
  // One for the group of two commits (metrics.md §1b), after the sessions: the tables hold patches, not file states
  // (groups.test.ts); the three groups of one session and one commit take their strict units' numbers.
  "group-commit-unreadable",
];

const approx = (rows: readonly Record<string, unknown>[]) =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(9)) : v]),
    ),
  );

test("SWE-chat fixture: the four tables, inline", async () => {
  const out = await analyzeFixture();
  assert.deepEqual(approx(out.units), approx(EXPECTED_UNITS));
  assert.deepEqual(approx(out.sessions), approx(EXPECTED_SESSIONS));
  assert.deepEqual(out.tool_calls, EXPECTED_CALLS);
  assert.deepEqual(
    out.diagnostics.map((d) => d.code),
    EXPECTED_CODES,
  );
  const byCode = Object.fromEntries(out.diagnostics.map((d) => [d.code, d]));
  assert.match(byCode["swechat-repo-excluded"].message, /^1 session\(s\) \(2 rows\) of dayhaysoos\/nimbus/);
  assert.match(byCode["swechat-duplicate-turn"].message, /1 identical copies dropped/);
  assert.equal(byCode["jsonl-nul-bytes"].session_id, S2);
  // Groups: S3 with C3a and C3b (C3c a copy), first by its commits' moment (hour 1, sha 3a… before c1…): not
  // attributable from the tables alone; then S1, S2 and S4 with one commit each: their strict units' numbers.
  assert.deepEqual(
    (out.group_units ?? []).map((g) => [
      g.session_id,
      g.commit_sha,
      g.group_commits,
      g.ambiguity,
      g.agent_lines_survived,
    ]),
    [
      [S3, C3B, 2, "group-commit-unreadable", null],
      ...[S1, S2, S4].map((s) => {
        const unit = out.units.find((u) => u.session_id === s && u.ambiguity === null)!;
        return [s, unit.commit_sha, 1, null, unit.agent_lines_survived];
      }),
    ],
  );
});

test("SWE-chat fixture: the same tables from two worker threads and with S1 deferred to the last pass", async () => {
  const inline = await analyzeFixture();
  const threaded = await analyzeFixture({ threads: 2 });
  assert.deepEqual(threaded, inline);
  // S1 has 14 rows; a buffer of 5 rows cannot hold it, so it is gathered by re-reading its jobs.
  const deferred = await analyzeFixture({ maxBufferedRows: 5 });
  assert.deepEqual(deferred.units, inline.units);
  assert.deepEqual(deferred.sessions, inline.sessions);
  assert.deepEqual(deferred.tool_calls, inline.tool_calls);
  assert.deepEqual(
    deferred.diagnostics.map((d) => d.code),
    [...EXPECTED_CODES.slice(0, 3), "swechat-sessions-deferred", ...EXPECTED_CODES.slice(3)],
  );
});

test("SWE-chat: nimbus kept when asked; a folder without SWE-chat tables is not a dataset", async () => {
  const dir = writeFixture();
  dirs.push(dir);
  const out: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  await analyzeSwechatDataset(dir, { idleLimitS: 300, threads: 1, excludeRepos: [] }, out);
  // S5 has two prompt rows and no commit of its own checkpoint in the commits table except C5 (util.py +u = 1, no edits): a unit, all human.
  const s5 = out.sessions.find((s) => s.session_id.startsWith("5555"));
  assert.equal(s5?.prompts, 2);
  assert.deepEqual(
    out.units
      .filter((u) => u.session_id.startsWith("5555"))
      .map((u) => [u.agent_lines_survived, u.human_lines, u.coding_mode]),
    [[0, 1, "human-only"]],
  );

  const empty = mkdtempSync(join(tmpdir(), "not-swechat-"));
  dirs.push(empty);
  writeFileSync(join(empty, "x.parquet"), "not parquet at all");
  assert.equal(
    await analyzeSwechatDataset(
      empty,
      { idleLimitS: 300 },
      { units: [], sessions: [], tool_calls: [], diagnostics: [] },
    ),
    false,
  );
});
