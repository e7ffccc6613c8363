/**
 * A resumed Claude Code session copies its history into a new file
 * (formats.md §2.6): the same tool uses and API calls appear in two
 * transcripts. Hand-worked, in a real repository: session A Writes f.txt
 * (2 lines), committed at 11:00; the resumed session B starts with A's
 * records (same `toolu_`/`msg_` ids), then Writes g.txt (1 line), committed
 * at 12:00. Counted once, A is linked to the f.txt commit only (produced 2,
 * survived 2) and B to the g.txt commit only (produced 1, survived 1); both
 * units are unambiguous. Counted twice, the f.txt commit would be linked to
 * both sessions (multi-session-commit) and B would span two commits.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { writeResumedSessions } from "../helpers/resumed-sessions";

test("calls a resumed session repeats from an earlier file are counted in the earlier file only", async () => {
  const { repo, logs, fCommit, gCommit } = writeResumedSessions("sce-resume-");
  try {
    const { rows } = await analyze({ inputs: [logs], repo: repo.dir, threads: 1 });
    const units = rows.units
      .map((u) => [u.session_id, u.commit_sha, u.ambiguity, u.agent_lines_produced, u.agent_lines_survived])
      .sort();
    assert.deepEqual(
      units,
      [
        ["sess-a", fCommit, null, 2, 2],
        ["sess-b", gCommit, null, 1, 1],
      ].sort(),
    );
    const note = rows.diagnostics.filter((d) => d.code === "repeated-across-files");
    assert.equal(note.length, 1);
    assert.equal(note[0].session_id, "sess-b");
    assert.match(note[0].message, /^1 tool call\(s\) and 1 API call\(s\) are also in .*sess-a\.jsonl/);
    // The tables agree: B's tool calls and tokens are its own only.
    assert.deepEqual(
      rows.tool_calls.filter((c) => c.session_id === "sess-b").map((c) => c.file),
      ["g.txt"],
    );
    assert.equal(rows.sessions.find((s) => s.session_id === "sess-b")!.api_calls, 1);
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
});
