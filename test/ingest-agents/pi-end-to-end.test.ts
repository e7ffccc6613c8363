import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { TestRepo } from "../helpers/git-repo";
import { checkpointFolder, oneSessionCheckpoint } from "../helpers/entire-folder";
import { G4, GREET_COST_USD, GREET_SESSION_ID, greetSession } from "./pi-greet-session";

/*
 * END TO END: the hand-worked Pi session (pi-greet-session.ts) in a real git repository, once through an
 * Entire checkpoint and once as a folder of Pi sessions with --repo.
 *
 * Repository: "initial" (11:00) holds README.md = "readme". The session (11:00:00–11:11:22) writes greet.py,
 * edits it, fails one edit, adds farewell() on a branch the person abandons (the file keeps it), then renames
 * greet → hello on the new branch: G4, 7 lines. The person commits at 12:00 greet.py = "# greeting helpers" +
 * G4 and README.md + "run: python3 greet.py".
 *
 * metrics.md §4, by hand:
 *   agent_lines_produced   write 4 + tc2 1 (line 2 rewritten) + tc5 3 (farewell, abandoned branch) + tc7 2 = 10
 *                          (tc3 failed: not replayed)
 *   agent_lines_final      all 7 lines of G4 are the agent's (line 3's blank is tc1's, line 6's tc5's)      = 7
 *   total_committed_lines  greet.py is new: 8 added lines; README.md: 1 added line (Myers base → commit)    = 9
 *   agent_lines_survived   G4's 7 lines are in the commit unchanged                                          = 7
 *   human_lines            "# greeting helpers" (inserted after the agent's final state) + the README line   = 2
 *   outside_lines          no pre-image in Pi's log, nothing changed between agent edits                     = 0
 *   invariant              7 + 2 + 0 = 9 ✓;  numstat_additions: git counts 8 + 1                            = 9
 *   code_survival_rate 100·7/7 = 100; coding_efficiency 100·7/10 = 70; agent_authored_pct 100·7/9 = 77.78…;
 *   coding_mode collaborative (0 < 77.78 < 99); unreplayable_calls 0; outside_changes 0.
 * Were the abandoned branch's edit (tc5) left out of the replay, farewell's 3 lines would not be the agent's.
 */
const EXPECTED_UNIT = { produced: 10, final: 7, survived: 7, human: 2, outside: 0, total: 9, numstat: 9 };

function unitNumbers(u: {
  agent_lines_produced: number | null;
  agent_lines_final: number | null;
  agent_lines_survived: number | null;
  human_lines: number | null;
  outside_lines: number | null;
  total_committed_lines: number | null;
  numstat_additions: number | null;
}) {
  return {
    produced: u.agent_lines_produced,
    final: u.agent_lines_final,
    survived: u.agent_lines_survived,
    human: u.human_lines,
    outside: u.outside_lines,
    total: u.total_committed_lines,
    numstat: u.numstat_additions,
  };
}

function greetRepo(): { repo: TestRepo; commitFiles: Record<string, string> } {
  const repo = new TestRepo("sce-pi-");
  repo.commit("initial", { "README.md": "readme\n" });
  return {
    repo,
    commitFiles: { "greet.py": `# greeting helpers\n${G4}`, "README.md": "readme\nrun: python3 greet.py\n" },
  };
}

test("an Entire checkpoint whose full.jsonl is a Pi session: read as Pi, every unit count of metrics.md §4", async () => {
  const { repo, commitFiles } = greetRepo();
  const id = "9f3a1c2b7d4e";
  const sha = repo.commit(`Add greet.py\n\nEntire-Checkpoint: ${id}`, commitFiles);
  // Entire's own figures, carried beside ours. Its Pi agent sums tokens on the active branch only, the all-zero
  // error message included as a call (transcript.go CalculateTokens): input 1200+50+40+30+70+25+15 = 1,430,
  // output 300+120+90+20+160+40+30 = 760, cache read 16,150, cache write 3,250, 8 calls.
  const metadata = {
    checkpoint_id: id,
    session_id: GREET_SESSION_ID,
    agent: "Pi",
    created_at: "2026-03-02T11:12:00Z",
    initial_attribution: {
      agent_lines: 7,
      human_added: 2,
      human_modified: 0,
      human_removed: 0,
      total_committed: 9,
      agent_percentage: 77.8,
    },
    token_usage: {
      input_tokens: 1430,
      cache_creation_tokens: 3250,
      cache_read_tokens: 16150,
      output_tokens: 760,
      api_call_count: 8,
    },
  };
  // The session ran in the user's checkout, a path this machine does not have: the root is inferred from the cwd.
  repo.checkpointsBranch(
    oneSessionCheckpoint(id, JSON.stringify(metadata), { "full.jsonl": greetSession("/home/dev/greet-proj") }),
  );

  const { rows, readAnything } = await analyze({ inputs: [repo.dir], threads: 1 });
  assert.equal(readAnything, true);
  assert.equal(
    rows.diagnostics.filter((d) => d.code === "transcript-unreadable" || d.code === "agent-label-mismatch").length,
    0,
  );
  assert.equal(rows.units.length, 1);
  const u = rows.units[0];
  assert.deepEqual(
    [u.session_id, u.commit_sha, u.checkpoint_id, u.agent, u.model, u.method, u.ambiguity],
    [GREET_SESSION_ID, sha, id, "Pi", "claude-sonnet-4-6", "git-replay", null],
  );
  assert.deepEqual(unitNumbers(u), EXPECTED_UNIT);
  assert.deepEqual(
    [u.code_survival_rate, u.coding_efficiency, u.coding_mode, u.unreplayable_calls, u.outside_changes],
    [100, 70, "collaborative", 0, 0],
  );
  assert.ok(Math.abs(u.agent_authored_pct! - 700 / 9) < 1e-9);
  assert.deepEqual([u.entire_agent_lines, u.entire_total_committed, u.entire_agent_percentage], [7, 9, 77.8]);

  // The session row: 3 prompts (one on the abandoned branch), 6 calls, 5 edit calls (1 failed), 9 API calls.
  assert.equal(rows.sessions.length, 1);
  const s = rows.sessions[0];
  assert.deepEqual(
    [s.source, s.agent, s.prompts, s.tool_calls, s.edit_calls, s.failed_edit_calls, s.api_calls],
    ["pi", "Pi", 3, 6, 5, 1, 9],
  );
  assert.deepEqual(
    [s.input_tokens, s.output_tokens, s.cache_creation_tokens, s.cache_read_tokens, s.duration_s, s.active_s],
    [1510, 920, 3550, 21850, 682, 622],
  );
  assert.ok(Math.abs(s.cost_usd! - GREET_COST_USD) < 1e-12);

  // Our slice (the whole file: no earlier checkpoint) beside Entire's active-branch counts.
  const cs = rows.checkpoint_sessions?.find((r) => r.checkpoint_id === id);
  assert.deepEqual(
    [
      cs?.agent,
      cs?.slice_input_tokens,
      cs?.slice_output_tokens,
      cs?.slice_api_calls,
      cs?.entire_input_tokens,
      cs?.entire_output_tokens,
      cs?.entire_api_calls,
    ],
    ["Pi", 1510, 920, 9, 1430, 760, 8],
  );
  // Tool-call rows carry repo-relative paths, whichever way the agent named the file.
  assert.deepEqual(
    rows.tool_calls.map((c) => c.file),
    ["greet.py", "greet.py", "greet.py", "greet.py", "greet.py", null],
  );
  assert.ok(rows.diagnostics.some((d) => d.code === "pi-branched" && d.session_id === GREET_SESSION_ID));
  assert.equal(checkpointFolder(id), "9f/3a1c2b7d4e");
});

test("a folder of Pi sessions with --repo (the CLI, as a user runs it): found by content, linked by time, same unit", () => {
  const { repo, commitFiles } = greetRepo();
  const sessions = mkdtempSync(join(tmpdir(), "sce-pi-sessions-"));
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(sessions, rel)), { recursive: true });
    writeFileSync(join(sessions, rel), text);
  };
  const encoded = `--${repo.dir.replace(/^\//, "").replace(/[/\\:]/g, "-")}--`;
  put(`${encoded}/2026-03-02T11-00-00-000Z_${GREET_SESSION_ID}.jsonl`, greetSession(repo.dir));
  // A Factory Droid session beside it: not Pi, reported and skipped.
  put(
    "droid/s.jsonl",
    JSON.stringify({ type: "session_start", id: "d", version: 2, cwd: repo.dir }) +
      "\n" +
      JSON.stringify({
        type: "message",
        id: "m",
        timestamp: "t",
        message: { role: "user", content: [{ type: "text", text: "hi" }] },
      }) +
      "\n",
  );
  // Committed at 12:00, after the first edit (11:00:40) and within 12 h of the last record: linked.
  const sha = repo.commit("Add greet.py", commitFiles);

  const out = mkdtempSync(join(tmpdir(), "sce-pi-out-"));
  const run = spawnSync(
    process.execPath,
    ["bin/swe-chat-eval.js", "analyze", sessions, "--repo", repo.dir, "--out", out, "--quiet"],
    { encoding: "utf8" },
  );
  assert.equal(run.status, 0, run.stderr);
  const units = JSON.parse(readFileSync(join(out, "units.json"), "utf8"));
  assert.equal(units.length, 1);
  const u = units[0];
  assert.deepEqual(
    [u.session_id, u.commit_sha, u.checkpoint_id, u.agent, u.model, u.method, u.ambiguity],
    [GREET_SESSION_ID, sha, null, "Pi", "claude-sonnet-4-6", "git-replay", null],
  );
  assert.deepEqual(unitNumbers(u), EXPECTED_UNIT);
  assert.deepEqual(
    [u.code_survival_rate, u.coding_efficiency, u.coding_mode, u.unreplayable_calls, u.outside_changes],
    [100, 70, "collaborative", 0, 0],
  );
  const sessionsRows = JSON.parse(readFileSync(join(out, "sessions.json"), "utf8"));
  assert.deepEqual(
    sessionsRows.map((s: { source: string; prompts: number; api_calls: number }) => [s.source, s.prompts, s.api_calls]),
    [["pi", 3, 9]],
  );
  const diagnostics = JSON.parse(readFileSync(join(out, "diagnostics.json"), "utf8")) as {
    code: string;
    file: string | null;
  }[];
  assert.ok(diagnostics.some((d) => d.code === "not-a-transcript" && d.file?.endsWith("droid/s.jsonl")));
});
