/**
 * A checkpoint's part of a session's transcript runs from its start to the end of its own stored
 * copy (metrics.md §3; Entire counts its token_usage over the same lines). When Entire rewrote the
 * earlier checkpoints' copies with the whole session ("Finalize transcript"; 3 sessions of the
 * development repository), the parts overlap and an edit counts in several units. The rule is kept,
 * the overlap is reported. Found by the session-5 adversarial round.
 *
 * One session, two checkpoints, in a real repository (`git init` in a temp folder):
 * - commit A adds a.txt = "a1\na2\n" (checkpoint CP1); commit B adds b.txt = "b1\n" (CP2).
 * - The transcript: Write a.txt "a1\na2\n" (create), then Write b.txt "b1\n" (create). 1 prompt +
 *   2 × (2 assistant records + 1 result) = 7 records; the first Write ends at record 4.
 *
 * Finalized copies (both folders hold all 7 records, no start):
 * - CP1 on commit A: the whole transcript. Produced 2 + 1 = 3; final 3 (a.txt 2, b.txt 1); commit A
 *   adds a.txt's 2 lines, both agent: survived 2, human 0, total 2.
 * - CP2 on commit B: the whole transcript again, on base A where a.txt already holds "a1\na2\n". The
 *   create's empty pre-image differs from that: 1 outside change (no line inserted by it). Produced 3,
 *   final 3; commit B adds b.txt's 1 line: survived 1, total 1.
 *   Both units are multi-checkpoint-session; one `entire-slices-overlap` warning names lines 1–7.
 *
 * Copies cut at each checkpoint (CP1 holds records 1–4; CP2 all 7, start inferred after line 4):
 * - CP1: produced 2, final 2, survived 2, total 2. CP2: produced 1, final 1, survived 1, total 1.
 *   No overlap, no warning.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, test } from "node:test";
import { analyze } from "../../src/index";
import type { Diagnostic, UnitRow } from "../../src/model";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const SESSION = "5e550000-0000-4000-8000-000000000001";
const CP1 = "d10000000001";
const CP2 = "d10000000002";

function transcriptRecords(): string[] {
  return new ClaudeLog({ sessionId: SESSION, cwd: ROOT })
    .prompt("create a.txt and b.txt")
    .call("toolu_a", "Write", { file_path: `${ROOT}/a.txt`, content: "a1\na2\n" })
    .result("toolu_a", writeResult(`${ROOT}/a.txt`, "a1\na2\n", null))
    .call("toolu_b", "Write", { file_path: `${ROOT}/b.txt`, content: "b1\n" })
    .result("toolu_b", writeResult(`${ROOT}/b.txt`, "b1\n", null)).lines;
}

async function run(copies: {
  cp1: string[];
  cp2: string[];
}): Promise<{ units: UnitRow[]; diagnostics: Diagnostic[]; dir: string }> {
  const repo = new TestRepo("sce-slices-overlap-");
  repo.commit("initial", { "README.md": "readme\n" });
  repo.commit(`Add a\n\nEntire-Checkpoint: ${CP1}`, { "a.txt": "a1\na2\n" });
  repo.commit(`Add b\n\nEntire-Checkpoint: ${CP2}`, { "b.txt": "b1\n" });
  const meta = (id: string) =>
    JSON.stringify({
      checkpoint_id: id,
      session_id: SESSION,
      agent: "Claude Code",
      created_at: "2026-03-02T11:01:00Z",
    });
  repo.checkpointsBranch({
    ...oneSessionCheckpoint(CP1, meta(CP1), { "full.jsonl": copies.cp1.join("\n") + "\n" }),
    ...oneSessionCheckpoint(CP2, meta(CP2), { "full.jsonl": copies.cp2.join("\n") + "\n" }),
  });
  const result = await analyze({ inputs: [repo.dir], threads: 1 });
  return { units: result.rows.units, diagnostics: result.rows.diagnostics, dir: repo.dir };
}

const counts = (u: UnitRow) => [
  u.agent_lines_produced,
  u.agent_lines_final,
  u.agent_lines_survived,
  u.human_lines,
  u.outside_lines,
  u.total_committed_lines,
  u.outside_changes,
];

describe("Entire: checkpoints whose parts of one transcript overlap", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test("finalized copies (each folder holds the whole session): the rule of §3 is kept and the overlap is reported", async () => {
    const all = transcriptRecords();
    assert.equal(all.length, 7);
    const { units, diagnostics, dir } = await run({ cp1: all, cp2: all });
    dirs.push(dir);
    const unit = (id: string) => units.find((u) => u.checkpoint_id === id)!;
    assert.deepEqual(counts(unit(CP1)), [3, 3, 2, 0, 0, 2, 0]);
    assert.deepEqual(counts(unit(CP2)), [3, 3, 1, 0, 0, 1, 1]);
    assert.deepEqual(
      units.map((u) => u.ambiguity),
      ["multi-checkpoint-session", "multi-checkpoint-session"],
    );
    const overlap = diagnostics.filter((d) => d.code === "entire-slices-overlap");
    assert.equal(overlap.length, 1);
    assert.equal(overlap[0].severity, "warning");
    assert.equal(overlap[0].session_id, SESSION);
    assert.match(overlap[0].message, new RegExp(`${CP1} and ${CP2} share lines 1–7`));
  });

  test("copies cut at each checkpoint: the parts follow each other, and nothing is reported", async () => {
    const all = transcriptRecords();
    const { units, diagnostics, dir } = await run({ cp1: all.slice(0, 4), cp2: all });
    dirs.push(dir);
    const unit = (id: string) => units.find((u) => u.checkpoint_id === id)!;
    assert.deepEqual(counts(unit(CP1)), [2, 2, 2, 0, 0, 2, 0]);
    assert.deepEqual(counts(unit(CP2)), [1, 1, 1, 0, 0, 1, 0]);
    assert.equal(diagnostics.filter((d) => d.code === "entire-slices-overlap").length, 0);
    assert.equal(diagnostics.filter((d) => d.code === "transcript-start-inferred").length, 1);
  });
});
