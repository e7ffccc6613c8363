/**
 * A unit's `model` when its own copy of the transcript cannot be read (a blob
 * missing from a partial clone): the session's model, from its longest
 * readable copy, not Entire's metadata label, whose `[1m]` context suffix no
 * API record carries. Real git repository, real blob deleted.
 */
import assert from "node:assert/strict";
import { rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";

const S1 = "aaaaaaaa-1111-2222-3333-444444444444";
const S2 = "bbbbbbbb-1111-2222-3333-444444444444";

function folder(
  id: string,
  index: number,
  sessionId: string,
  transcript: string,
  start: number,
): Record<string, string> {
  const f = `${id.slice(0, 2)}/${id.slice(2)}`;
  return {
    [`${f}/${index}/metadata.json`]: JSON.stringify({
      checkpoint_id: id,
      session_id: sessionId,
      agent: "Claude Code",
      model: "claude-opus-4-6[1m]",
      created_at: "2026-03-02T12:00:00Z",
      checkpoint_transcript_start: start,
    }),
    [`${f}/${index}/full.jsonl`]: transcript,
  };
}
const summary = (id: string, n: number) => ({
  [`${id.slice(0, 2)}/${id.slice(2)}/metadata.json`]: JSON.stringify({
    checkpoint_id: id,
    strategy: "manual-commit",
    sessions: Array.from({ length: n }, (_, i) => ({
      metadata: `/${id.slice(0, 2)}/${id.slice(2)}/${i}/metadata.json`,
    })),
  }),
});

test("a unit whose transcript blob is missing takes its session's model; a session with no readable copy keeps Entire's label without [1m]", async () => {
  const repo = new TestRepo("sce-unit-model-");
  try {
    // S1 writes a.txt (checkpoint 1), then b.txt (checkpoint 2, whose copy is the whole session); S2 writes c.txt.
    const cwd = "/home/u/proj";
    const log1 = new ClaudeLog({ sessionId: S1, cwd })
      .prompt("a")
      .call("t1", "Write", { file_path: `${cwd}/a.txt`, content: "a\n" })
      .result("t1", writeResult(`${cwd}/a.txt`, "a\n", null));
    const first = log1.text();
    const whole = log1
      .prompt("b")
      .call("t2", "Write", { file_path: `${cwd}/b.txt`, content: "b\n" })
      .result("t2", writeResult(`${cwd}/b.txt`, "b\n", null))
      .text();
    const other = new ClaudeLog({ sessionId: S2, cwd })
      .prompt("c")
      .call("t3", "Write", { file_path: `${cwd}/c.txt`, content: "c\n" })
      .result("t3", writeResult(`${cwd}/c.txt`, "c\n", null))
      .text();
    repo.commit("initial", { "README.md": "readme\n" });
    const c1 = repo.commit("Add a\n\nEntire-Checkpoint: a00000000001", { "a.txt": "a\n" });
    const c2 = repo.commit("Add b and c\n\nEntire-Checkpoint: b00000000002", { "b.txt": "b\n", "c.txt": "c\n" });
    repo.checkpointsBranch({
      ...summary("a00000000001", 1),
      ...folder("a00000000001", 0, S1, first, 0),
      ...summary("b00000000002", 2),
      ...folder("b00000000002", 0, S1, whole, first.trimEnd().split("\n").length),
      ...folder("b00000000002", 1, S2, other, 0),
    });
    // Lose the first copy of S1 and the only copy of S2, as a partial clone would.
    for (const path of ["a0/0000000001/0/full.jsonl", "b0/0000000002/1/full.jsonl"]) {
      const blob = repo.git("rev-parse", `refs/heads/entire/checkpoints/v1:${path}`).trim();
      unlinkSync(join(repo.dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    }

    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    const unit = (sha: string, session: string) =>
      rows.units.find((u) => u.commit_sha === sha && u.session_id === session)!;
    // S1's readable copy (checkpoint 2) names claude-sonnet-4-5-20250929 (ClaudeLog's model): the unit of
    // checkpoint 1, whose copy is gone, takes it too, not the label "claude-opus-4-6[1m]".
    assert.equal(unit(c2, S1).model, "claude-sonnet-4-5-20250929");
    assert.equal(unit(c1, S1).model, "claude-sonnet-4-5-20250929");
    assert.ok(
      rows.diagnostics.some((d) => d.code === "transcript-missing" && d.session_id === S1),
      "the missing copy is reported",
    );
    // S2 has no readable copy at all: Entire's label, as the API names the model.
    assert.equal(unit(c2, S2).model, "claude-opus-4-6");
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
});
