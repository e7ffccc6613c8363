/**
 * One SWE-chat session whose analysis fails unexpectedly (here: its commit
 * patch cannot be read from the spool) gives one error diagnostic naming the
 * session and its units, and no partial rows; the run goes on.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzeSwechatSession, type SwechatRows } from "../../src/analyze/swechat-job";
import type { PatchReader } from "../../src/ingest/swechat";

test("a session that fails inside its analysis is one diagnostic, with no partial rows", async () => {
  const out: SwechatRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  const brokenSpool = {
    read: () => {
      throw new Error("spool file truncated");
    },
  } as unknown as PatchReader;
  await analyzeSwechatSession(
    {
      session_id: "s-9",
      repo: "o/r",
      agent: "Claude Code",
      branch: null,
      transcript: null,
      transcript_start: 0,
      canonical_checkpoint: null,
      entire: null,
      files_touched: [],
      units: [
        {
          commit_sha: "0123456789abcdef0123456789abcdef01234567",
          checkpoint_pk: "pk",
          checkpoint_id: "c0ffee000001",
          ambiguity: { ambiguity: null, ambiguity_reasons: [] },
          numstat_additions: 3,
          patch: { offset: 0, length: 10 } as never,
          copies: 0,
        },
      ],
    },
    [],
    brokenSpool,
    300,
    out,
  );
  // The session row was built before the failure; it is not kept (all of the session or none of it).
  assert.deepEqual([out.units.length, out.sessions.length, out.tool_calls.length], [0, 0, 0]);
  assert.deepEqual(
    out.diagnostics.map((d) => [d.code, d.severity, d.session_id]),
    [["swechat-session-failed", "error", "s-9"]],
  );
  assert.match(out.diagnostics[0].message, /spool file truncated.*1 unit\(s\).*commits 01234567/);
});
