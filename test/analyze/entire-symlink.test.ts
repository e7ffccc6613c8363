/**
 * Symbolic links in the repository (git mode 120000), in real repositories (`git init` in a temp folder, links
 * made with `ln -s`). Many repositories keep `CLAUDE.md` as a link to `AGENTS.md`. Claude Code's Edit reads and
 * writes through the link, so the agent's text lands in `AGENTS.md`, while the link's own blob (the text
 * `AGENTS.md`) never changes. Before, the edit was replayed on the link's blob: one spurious outside change, and
 * the agent's line counted as human at `AGENTS.md`.
 */
import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";
import { claudeCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";

const repo = new TestRepo("sce-symlink-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

/** Stores the transcript as checkpoint `cp`'s only session, runs `analyze` on the repository, and returns the rows and the unit. */
async function analyzeCheckpoint(cp: string, session: string, transcript: string) {
  repo.checkpointsBranch(claudeCheckpoint(cp, session, transcript));
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  return { rows, unit: rows.units.find((x) => x.checkpoint_id === cp)! };
}

function counts(u: {
  ambiguity: string | null;
  agent_lines_produced: number | null;
  agent_lines_final: number | null;
  agent_lines_survived: number | null;
  human_lines: number | null;
  total_committed_lines: number | null;
  outside_changes: number | null;
}) {
  return [
    u.ambiguity,
    u.agent_lines_produced,
    u.agent_lines_final,
    u.agent_lines_survived,
    u.human_lines,
    u.total_committed_lines,
    u.outside_changes,
  ];
}

test("an Edit of CLAUDE.md, a link to AGENTS.md, is replayed on AGENTS.md", async () => {
  // Base: AGENTS.md = "# Rules\na\n", CLAUDE.md → AGENTS.md. The agent edits CLAUDE.md: "a" → "a\nb" (its
  // originalFile is AGENTS.md's text, read through the link). A person then adds "c". Commit: AGENTS.md =
  // "# Rules\na\nb\nc\n" (numstat: 2 added); CLAUDE.md unchanged.
  // Replay on AGENTS.md: the pre-image equals the base (no outside change); "b" is the agent's: produced 1, final 1.
  // At the commit: "b" survives (1), "c" is human (1), total 2.
  const cp = "a11000000001";
  const session = "5e550000-0000-4000-8000-000000000001";
  repo.write({ "AGENTS.md": "# Rules\na\n" });
  symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
  repo.commit("base");
  const sha = repo.commit(`Rules\n\nEntire-Checkpoint: ${cp}`, { "AGENTS.md": "# Rules\na\nb\nc\n" });
  const transcript = new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt("add rule b")
    .call("toolu_l", "Edit", { file_path: `${ROOT}/CLAUDE.md`, old_string: "a", new_string: "a\nb" })
    .result("toolu_l", editResult(`${ROOT}/CLAUDE.md`, "# Rules\na\n", "a", "a\nb"))
    .text();
  const { rows, unit: u } = await analyzeCheckpoint(cp, session, transcript);
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(counts(u), [null, 1, 1, 1, 1, 2, 0]);
  const notes = rows.diagnostics.filter((d) => d.session_id === session && d.code === "edit-through-symlink");
  assert.deepEqual(
    notes.map((d) => d.severity),
    ["info"],
  );
  assert.match(
    notes[0].message,
    /CLAUDE\.md is a symbolic link in the repository: edits through it are replayed on AGENTS\.md/,
  );
  assert.equal(rows.diagnostics.filter((d) => d.session_id === session && d.code === "outside-change").length, 0);
  const files = rows
    .unit_files!.filter((f) => f.commit_sha === sha)
    .map((f) => [f.path, f.agent_lines_survived, f.human_lines]);
  assert.deepEqual(files, [["AGENTS.md", 1, 1]]);
});

test("a Write under a folder link (.claude/skills → ../.agents/skills) lands in the folder it names", async () => {
  // Base: .agents/skills/x.md = "one\n", .claude/skills → ../.agents/skills. The agent Writes
  // .claude/skills/x.md = "one\ntwo\n" (an update; originalFile "one\n"). Commit: .agents/skills/x.md =
  // "one\ntwo\n". Replay on .agents/skills/x.md: "two" is the agent's (produced 1, final 1); it is committed as
  // written: survived 1, human 0, total 1.
  const cp = "a11000000002";
  const session = "5e550000-0000-4000-8000-000000000002";
  repo.write({ ".agents/skills/x.md": "one\n" });
  mkdirSync(join(repo.dir, ".claude"), { recursive: true });
  symlinkSync("../.agents/skills", join(repo.dir, ".claude", "skills"));
  repo.commit("skills");
  const sha = repo.commit(`Skill\n\nEntire-Checkpoint: ${cp}`, { ".agents/skills/x.md": "one\ntwo\n" });
  const transcript = new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt("extend the skill")
    .call("toolu_w", "Write", { file_path: `${ROOT}/.claude/skills/x.md`, content: "one\ntwo\n" })
    .result("toolu_w", writeResult(`${ROOT}/.claude/skills/x.md`, "one\ntwo\n", "one\n"))
    .text();
  const { rows, unit: u } = await analyzeCheckpoint(cp, session, transcript);
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(counts(u), [null, 1, 1, 1, 0, 1, 0]);
  const notes = rows.diagnostics.filter((d) => d.session_id === session && d.code === "edit-through-symlink");
  assert.match(
    notes[0].message,
    /\.claude\/skills\/x\.md passes through a symbolic link in the repository: edits through it are replayed on \.agents\/skills\/x\.md/,
  );
});

test("a link that leads out of the repository: the edit through it is ignored and counted as outside", async () => {
  // shared.md → ../outside.md (above the root). The agent edits shared.md and also writes kept.txt ("k\n"),
  // which is committed. The edit through the link is not replayed (a path-outside-repo note); kept.txt: produced 1,
  // survived 1, total 1.
  const cp = "a11000000003";
  const session = "5e550000-0000-4000-8000-000000000003";
  symlinkSync("../outside.md", join(repo.dir, "shared.md"));
  repo.commit("shared link");
  const sha = repo.commit(`Kept\n\nEntire-Checkpoint: ${cp}`, { "kept.txt": "k\n" });
  const transcript = new ClaudeLog({ sessionId: session, cwd: ROOT })
    .prompt("edit shared and write kept")
    .call("toolu_s", "Edit", { file_path: `${ROOT}/shared.md`, old_string: "x", new_string: "y" })
    .result("toolu_s", editResult(`${ROOT}/shared.md`, "x\n", "x", "y"))
    .call("toolu_k", "Write", { file_path: `${ROOT}/kept.txt`, content: "k\n" })
    .result("toolu_k", writeResult(`${ROOT}/kept.txt`, "k\n", null))
    .text();
  const { rows, unit: u } = await analyzeCheckpoint(cp, session, transcript);
  assert.equal(u.commit_sha, sha);
  assert.deepEqual(counts(u), [null, 1, 1, 1, 0, 1, 0]);
  const codes = rows.diagnostics
    .filter((d) => d.session_id === session && d.code !== "unit-counted")
    .map((d) => d.code);
  assert.ok(codes.includes("edit-through-symlink"), codes.join(","));
  assert.ok(codes.includes("path-outside-repo"), codes.join(","));
});

test("Claude Code logs + --repo: an Edit through CLAUDE.md is replayed on AGENTS.md there too", async () => {
  // The same case as the first test, on the transcripts path (no Entire): produced 1, survived 1, human 1, total 2.
  const plain = new TestRepo("sce-symlink-logs-");
  const logs = `${plain.dir}-logs`;
  try {
    plain.write({ "AGENTS.md": "# Rules\na\n" });
    symlinkSync("AGENTS.md", join(plain.dir, "CLAUDE.md"));
    plain.commit("base");
    const sha = plain.commit("rules", { "AGENTS.md": "# Rules\na\nb\nc\n" });
    mkdirSync(logs);
    const log = new ClaudeLog({ sessionId: "link-logs", cwd: plain.dir })
      .prompt("add rule b")
      .call("toolu_l", "Edit", { file_path: join(plain.dir, "CLAUDE.md"), old_string: "a", new_string: "a\nb" })
      .result("toolu_l", editResult(join(plain.dir, "CLAUDE.md"), "# Rules\na\n", "a", "a\nb"))
      .text();
    writeFileSync(join(logs, "s.jsonl"), log);
    const { rows } = await analyze({ inputs: [logs], repo: plain.dir, threads: 1 });
    const u = rows.units.find((x) => x.commit_sha === sha)!;
    assert.ok(u, JSON.stringify(rows.diagnostics.map((d) => d.code)));
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_survived, u.human_lines, u.total_committed_lines, u.outside_changes],
      [1, 1, 1, 2, 0],
    );
  } finally {
    rmSync(plain.dir, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
  }
});
