import type { Diagnostic, SessionRow, ToolCallRow, UnitRow } from "../../src/model";
import type { AnalysisRows } from "../../src/tables";

/**
 * A small, hand-made analysis: 8 sessions, 9 units (7 unambiguous), 12 tool
 * calls. Every figure the chart tests assert is worked out from these rows
 * in the test's comments.
 *
 * | unit | session | model | repo | produced | final | survived | committed | authored % | mode |
 * |---|---|---|---|---|---|---|---|---|---|
 * | u1 | s1 | opus   | acme/web | 10 | 10 | 10 | 10 | 100  | vibe |
 * | u2 | s2 | opus   | acme/web | 20 | 16 |  8 | 16 | 50   | collaborative |
 * | u3 | s3 | sonnet | acme/api |  5 |  5 |  0 | 12 | 0    | human-only |
 * | u4 | s4 | sonnet | acme/web | 30 | 25 | 25 | 25 | 100  | vibe |
 * | u5 | s4 | sonnet | acme/web | 10 | 10 |  9 | 10 | 90   | collaborative |
 * | u6 | s5 | opus   | acme/web | ambiguous: multi-session-checkpoint |
 * | u7 | s6 | –      | acme/web | ambiguous: transcript-missing (no counts, no session row) |
 * | u8 | s7 | –      | acme/api |  8 |  8 |  8 |  8 | 100  | vibe |
 * | u9 | s8 | haiku  | other/x  |  4 |  4 |  2 |  4 | 50   | collaborative |
 */
const OPUS = "claude-opus-4-6";
const SONNET = "claude-sonnet-4-5-20250929";
const HAIKU = "claude-haiku-4-5-20251001";

function unit(
  id: string,
  session: string,
  model: string | null,
  repo: string,
  c: [number, number, number, number] | null,
  ambiguity: UnitRow["ambiguity"] = null,
): UnitRow {
  const [produced, final, survived, committed] = c ?? [null, null, null, null];
  const pct = (n: number | null, d: number | null) => (n === null || d === null || d === 0 ? null : (100 * n) / d);
  const authored = pct(survived, committed);
  return {
    session_id: session,
    commit_sha: id.padEnd(40, "0"),
    checkpoint_id: `cp${id}`,
    repo,
    agent: session === "s8" ? "Codex" : "Claude Code",
    model,
    method: c ? "git-replay" : null,
    ambiguity,
    agent_lines_produced: produced,
    agent_lines_final: final,
    agent_lines_survived: survived,
    human_lines: c ? committed! - survived! : null,
    outside_lines: c ? 0 : null,
    total_committed_lines: committed,
    numstat_additions: committed,
    code_survival_rate: pct(survived, final),
    coding_efficiency: pct(survived, produced),
    agent_authored_pct: authored,
    coding_mode: authored === null ? null : authored === 0 ? "human-only" : authored >= 99 ? "vibe" : "collaborative",
    unreplayable_calls: c ? 0 : null,
    outside_changes: c ? 0 : null,
    entire_agent_lines: null,
    entire_total_committed: null,
    entire_agent_percentage: null,
  };
}

/** Session k has 1000·k tokens (100·k in, 200·k out, 300·k cache write, 400·k cache read), cost 0.2·k US$, active 20·k s. */
function session(
  k: number,
  model: string | null,
  repo: string,
  prompts: number,
  bin: string,
  day: string,
  agent = "Claude Code",
): SessionRow {
  return {
    session_id: `s${k}`,
    source: agent === "Codex" ? "codex" : "claude-code",
    agent,
    model,
    models: model ?? "",
    repo,
    branch: "main",
    started_at: `${day}T09:00:00.000Z`,
    ended_at: `${day}T09:30:00.000Z`,
    duration_s: 1800,
    active_s: 20 * k,
    prompts,
    length_bin: bin,
    tool_calls: 2,
    edit_calls: 1,
    failed_edit_calls: 0,
    input_tokens: 100 * k,
    output_tokens: 200 * k,
    cache_creation_tokens: 300 * k,
    cache_read_tokens: 400 * k,
    api_calls: k,
    cost_usd: Math.round(20 * k) / 100,
  };
}

function call(
  session: string,
  seq: number,
  tool: string,
  category: string,
  file: string | null,
  success: boolean | null,
  added: number | null = null,
): ToolCallRow {
  return {
    session_id: session,
    seq,
    tool,
    category,
    file,
    success,
    lines_added: added,
    lines_removed: added === null ? null : 0,
    timestamp: `2026-01-01T09:0${seq}:00.000Z`,
  };
}

export function chartFixture(): AnalysisRows {
  const units = [
    unit("a1", "s1", OPUS, "acme/web", [10, 10, 10, 10]),
    unit("a2", "s2", OPUS, "acme/web", [20, 16, 8, 16]),
    unit("a3", "s3", SONNET, "acme/api", [5, 5, 0, 12]),
    unit("a4", "s4", SONNET, "acme/web", [30, 25, 25, 25]),
    unit("a5", "s4", SONNET, "acme/web", [10, 10, 9, 10]),
    unit("a6", "s5", OPUS, "acme/web", [3, 3, 3, 3], "multi-session-checkpoint"),
    unit("a7", "s6", null, "acme/web", null, "transcript-missing"),
    unit("a8", "s7", null, "acme/api", [8, 8, 8, 8]),
    unit("a9", "s8", HAIKU, "other/x", [4, 4, 2, 4]),
  ];
  const sessions = [
    session(1, OPUS, "acme/web", 1, "1", "2026-01-01"),
    session(2, OPUS, "acme/web", 3, "3", "2026-01-03"),
    session(3, SONNET, "acme/api", 1, "1", "2026-01-05"),
    session(4, SONNET, "acme/web", 7, "6-10", "2026-01-10"),
    session(5, OPUS, "acme/web", 2, "2", "2026-01-12"),
    session(7, null, "acme/api", 12, "11+", "2026-01-20"),
    session(8, HAIKU, "other/x", 2, "2", "2026-01-20", "Codex"),
  ];
  const tool_calls = [
    call("s1", 0, "Read", "read", "src/a.ts", true),
    call("s1", 1, "Edit", "edit", "src/a.ts", true, 10),
    call("s2", 0, "Read", "read", "src/b.ts", true),
    call("s2", 1, "Edit", "edit", "src/b.ts", false),
    call("s2", 2, "Edit", "edit", "src/b.ts", true, 20),
    call("s3", 0, "Bash", "bash:build", null, true),
    call("s3", 1, "Write", "edit", "src/c.ts", true, 5),
    call("s4", 0, "Grep", "grep", null, true),
    call("s4", 1, "Read", "read", "src/d.ts", true),
    call("s4", 2, "Edit", "edit", "src/d.ts", true, 30),
    call("s7", 0, "Bash", "bash:build", null, true),
    call("s8", 0, "Read", "read", "x.py", true),
  ];
  const diagnostics: Diagnostic[] = [
    {
      source: "entire",
      session_id: "s6",
      file: null,
      record: null,
      severity: "warning",
      code: "transcript-missing",
      message: "checkpoint cpa7 session 0: no transcript stored",
    },
    {
      source: "claude-code",
      session_id: "s1",
      file: "s1.jsonl",
      record: 3,
      severity: "info",
      code: "claude-meta-record",
      message: "1 isMeta user record(s) not counted as prompts",
    },
    {
      source: "claude-code",
      session_id: "s2",
      file: "s2.jsonl",
      record: 4,
      severity: "info",
      code: "claude-meta-record",
      message: "2 isMeta user record(s) not counted as prompts",
    },
  ];
  return { units, sessions, tool_calls, diagnostics };
}
