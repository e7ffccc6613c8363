/**
 * The per-session job of an Entire repository never stops the run: an
 * exception inside it (here forced by a unit whose checkpoint session is
 * missing, which no reader produces) becomes one error diagnostic that names
 * every unit left out, instead of a rejected analysis or a silent loss.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runEntireSessionJob } from "../../src/analyze/entire-session-job";
import type { CandidateUnit } from "../../src/ingest/entire";
import { TestRepo } from "../helpers/git-repo";

test("an internal error in one session's job is a diagnostic naming its units", async () => {
  const repo = new TestRepo("sce-session-job-");
  try {
    const sha = repo.commit("Add a\n\nEntire-Checkpoint: a00000000001", { "a.txt": "a\n" });
    const broken = {
      checkpoint_id: "a00000000001",
      commit_sha: sha,
      session_id: "s-1",
      session: undefined,
    } as unknown as CandidateUnit;
    const out = await runEntireSessionJob({
      gitDir: join(repo.dir, ".git"),
      repo: "r",
      idleLimitS: 300,
      sessionId: "s-1",
      folders: [],
      units: [broken],
    });
    assert.deepEqual(out.units, []);
    assert.deepEqual(
      out.diagnostics.map((d) => [d.code, d.severity, d.session_id]),
      [["entire-session-failed", "error", "s-1"]],
    );
    assert.match(
      out.diagnostics[0].message,
      new RegExp(`internal error .*1 unit\\(s\\).*a00000000001@${sha.slice(0, 8)}`),
    );
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
});
