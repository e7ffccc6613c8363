/**
 * File text as git stores it, in a real repository (`git init` in a temp folder) with an Entire checkpoint.
 * A UTF-8 BOM is part of the file's text: Claude Code's pre-images keep it, so the base read from git must
 * keep it too (found by the session-5 adversarial round: a stripped BOM made every edit of such a file an
 * outside change).
 *
 * Base: notes.txt = BOM + "a\nb\n". The agent's Edit b → B (originalFile = the same BOM text). Commit:
 * BOM + "a\nB\n". Replay: the pre-image equals the base, so no outside change; "B" is the agent's:
 * produced 1, final 1; the commit adds 1 line ("B"): survived 1, human 0, total 1.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";
import { claudeCheckpoint, oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const SESSION = "b0b00000-0000-4000-8000-000000000001";
const CP = "f10000000001";
const BOM = "\uFEFF";

const repo = new TestRepo("sce-file-text-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

test("a file with a BOM: the base keeps it, so the agent's pre-image matches and no outside change is seen", async () => {
  repo.commit("base", { "notes.txt": `${BOM}a\nb\n` });
  const sha = repo.commit(`Edit notes\n\nEntire-Checkpoint: ${CP}`, { "notes.txt": `${BOM}a\nB\n` });
  const transcript = new ClaudeLog({ sessionId: SESSION, cwd: ROOT })
    .prompt("capitalise b")
    .call("toolu_e", "Edit", { file_path: `${ROOT}/notes.txt`, old_string: "b", new_string: "B" })
    .result("toolu_e", editResult(`${ROOT}/notes.txt`, `${BOM}a\nb\n`, "b", "B"))
    .text();
  repo.checkpointsBranch(
    oneSessionCheckpoint(CP, JSON.stringify({ checkpoint_id: CP, session_id: SESSION, agent: "Claude Code" }), {
      "full.jsonl": transcript,
    }),
  );
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  const u = rows.units.find((x) => x.checkpoint_id === CP)!;
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(
    [
      u.ambiguity,
      u.agent_lines_produced,
      u.agent_lines_final,
      u.agent_lines_survived,
      u.human_lines,
      u.outside_lines,
      u.total_committed_lines,
      u.outside_changes,
    ],
    [null, 1, 1, 1, 0, 0, 1, 0],
  );
  assert.equal(rows.diagnostics.filter((d) => d.code === "outside-change").length, 0);
});

test("a Git LFS pointer in the commit: git's lines are counted (the pointer's), and a note says why the agent's work is not there", async () => {
  // The agent Writes data.csv (2 lines); the commit stores it through Git LFS: a 3-line pointer. Counted as git counts
  // it: produced 2, final 2, survived 0; the pointer's 3 lines are human, total 3; one git-lfs-pointer note.
  const cp = "f10000000002";
  const session = "b0b00000-0000-4000-8000-000000000002";
  const pointer =
    "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12\n";
  const sha = repo.commit(`Add data\n\nEntire-Checkpoint: ${cp}`, { "data.csv": pointer });
  const transcript = new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt("write the data")
    .call("toolu_d", "Write", { file_path: `${ROOT}/data.csv`, content: "a,b\n1,2\n" })
    .result("toolu_d", {
      type: "create",
      filePath: `${ROOT}/data.csv`,
      content: "a,b\n1,2\n",
      structuredPatch: [],
      originalFile: null,
    })
    .text();
  repo.checkpointsBranch(
    oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: session, agent: "Claude Code" }), {
      "full.jsonl": transcript,
    }),
  );
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  const u = rows.units.find((x) => x.checkpoint_id === cp)!;
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(
    [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
    [2, 2, 0, 3, 3],
  );
  const notes = rows.diagnostics.filter((d) => d.code === "git-lfs-pointer");
  assert.deepEqual(
    notes.map((d) => [d.severity, d.session_id]),
    [["info", session]],
  );
  assert.match(notes[0].message, /data\.csv is a Git LFS pointer in the commit/);
});

test("file names that are not UTF-8, or hold a newline, are read by blob id: the unit stays readable", async () => {
  // The person's part of the commit adds `caf\xE9.txt` (Latin-1 bytes, "x\ny\n") and `new\nline.txt` ("z\n");
  // the agent Writes kept.txt ("k\n"). Neither odd name can be put in a `rev:path` spec for `git cat-file`, which
  // is how blobs were read before, so the unit was called commit-unreadable ("missing from this clone").
  // Counts: kept.txt's line is the agent's and committed as written (survived 1); x, y and z are human (3); total 4.
  const cp = "f10000000003";
  const session = "b0b00000-0000-4000-8000-000000000003";
  writeFileSync(Buffer.from(`${repo.dir}/caf\xE9.txt`, "latin1"), "x\ny\n");
  writeFileSync(join(repo.dir, "new\nline.txt"), "z\n");
  const sha = repo.commit(`Odd names\n\nEntire-Checkpoint: ${cp}`, { "kept.txt": "k\n" });
  const transcript = new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt("write kept")
    .call("toolu_k", "Write", { file_path: `${ROOT}/kept.txt`, content: "k\n" })
    .result("toolu_k", writeResult(`${ROOT}/kept.txt`, "k\n", null))
    .text();
  repo.checkpointsBranch(claudeCheckpoint(cp, session, transcript));
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  const u = rows.units.find((x) => x.checkpoint_id === cp)!;
  assert.equal(u.commit_sha, sha);
  assert.deepEqual([u.ambiguity, u.agent_lines_survived, u.human_lines, u.total_committed_lines], [null, 1, 3, 4]);
  assert.equal(rows.diagnostics.filter((d) => d.session_id === session && d.code === "commit-unreadable").length, 0);
});
