/**
 * SWE-agent trajectories go through the worker pool (src/analyze/swe-agent-job.ts), their session ids claimed on
 * the main thread in file order. On 2 threads the tables must be those of an inline run, row for row: the second
 * copy of a trajectory renamed `#2` in every table and diagnostic (what the reader said before it knew the id
 * included), a truncated file an error row in its place, a SpecStory file between them read in its turn.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";

const P = "/testbed/pkg/a.py";
/** A v0-layout trajectory that creates pkg/a.py (2 lines) then edits one line, submitting the result. */
const trajectory = (n: number) =>
  JSON.stringify({
    environment: "main",
    trajectory: [
      // Not an object: a `swe-agent-bad-step` warning, said before the reader knows the session's id.
      7,
      {
        action: `str_replace_editor create ${P} --file_text 'x = ${n}\ny = 2\n'`,
        observation: `File created successfully at: ${P}`,
        state: { working_dir: "/testbed" },
      },
      { action: "submit", observation: "", state: {} },
    ],
    history: [{ role: "user", content: `ISSUE:\nMake x ${n}.\n\nINSTRUCTIONS:\n…` }],
    info: {
      exit_status: "submitted",
      submission: `diff --git a/pkg/a.py b/pkg/a.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/a.py\n@@ -0,0 +1,2 @@\n+x = ${n}\n+y = 2\n`,
      model_stats: { instance_cost: 0.5, tokens_sent: 100, tokens_received: 10, api_calls: 2 },
    },
  });

test("trajectories on 2 worker threads give the inline run's tables, duplicate ids renamed alike", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-traj-workers-"));
  for (let i = 0; i < 20; i++) {
    mkdirSync(join(dir, `run${String(i).padStart(2, "0")}`));
    // run03 repeats run02's instance: its session becomes demo__repo-2#2.
    const instance = i === 3 ? 2 : i;
    writeFileSync(join(dir, `run${String(i).padStart(2, "0")}`, `demo__repo-${instance}.traj`), trajectory(i));
  }
  writeFileSync(join(dir, "run05", "cut.traj"), trajectory(99).slice(0, 200));
  const specstory = "test/fixtures/specstory/getspecstory__2026-01-28_13-10-29Z-take-a-look-at.claude-code.md";
  writeFileSync(join(dir, "run07", "notes.md"), readFileSync(specstory));

  const inline = await analyze({ inputs: [dir], threads: 1 });
  const pooled = await analyze({ inputs: [dir], threads: 2 });
  assert.deepEqual(pooled.rows, inline.rows);

  const rows = pooled.rows;
  assert.equal(rows.units.length, 20);
  const renamed = "demo__repo-2#2";
  assert.deepEqual(
    rows.sessions.filter((s) => s.session_id.startsWith("demo__repo-2")).map((s) => s.session_id),
    ["demo__repo-2", renamed],
  );
  for (const table of ["units", "tool_calls", "prompts", "unit_files"] as const)
    assert.ok(
      rows[table]!.some((r) => r.session_id === renamed),
      `${table} holds the renamed session`,
    );
  // Every diagnostic of a read trajectory names its session, the renamed copy's the new id.
  const badSteps = rows.diagnostics.filter((d) => d.code === "swe-agent-bad-step");
  assert.equal(badSteps.length, 20);
  assert.equal(badSteps.find((d) => d.file?.includes("run03"))?.session_id, renamed);
  assert.equal(badSteps.find((d) => d.file?.includes("run02"))?.session_id, "demo__repo-2");
  assert.ok(badSteps.every((d) => d.session_id !== null));
  const warning = rows.diagnostics.find((d) => d.code === "duplicate-session-id");
  assert.equal(warning?.session_id, renamed);
  assert.ok(rows.diagnostics.some((d) => d.file?.endsWith("cut.traj") && d.severity === "error"));
  assert.ok(
    rows.sessions.some((s) => s.agent !== "swe-agent"),
    "the SpecStory session is read too",
  );
});
