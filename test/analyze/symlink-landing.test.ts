/**
 * Where an edit of a symbolic link lands when the plain "write through the link" reading is wrong, in real
 * repositories (`git init` in a temp folder). Found by the session-6 adversarial round; each case failed before
 * (the edit was replayed on the base's link target whatever the commit or the pre-image said).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/index";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";
import { claudeCheckpoint, oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { CodexLog, usage } from "../ingest-agents/codex-log";
import { compareUnits } from "../reference/compare";
import { runReference } from "../reference/reference";

const ROOT = "/home/u/proj";

type Unit = Awaited<ReturnType<typeof analyze>>["rows"]["units"][number];
const counts = (u: Unit) => [
  u.agent_lines_produced,
  u.agent_lines_final,
  u.agent_lines_survived,
  u.human_lines,
  u.outside_lines,
  u.total_committed_lines,
  u.outside_changes,
  u.unreplayable_calls,
];

/**
 * A fresh repository: `build` makes its commits and returns the checkpoint files of `cp`. The independent
 * reference (test/reference, `followSymlinks`) must agree on every unit column.
 */
async function run(cp: string, build: (repo: TestRepo) => Record<string, string>) {
  const repo = new TestRepo("sce-link-landing-");
  try {
    repo.checkpointsBranch(build(repo));
    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    const unit = rows.units.find((u) => u.checkpoint_id === cp);
    assert.ok(unit, JSON.stringify(rows.diagnostics.map((d) => d.code)));
    const reference = runReference(repo.dir, {
      inferSliceStart: true,
      unitModel: "slice",
      multiSessionCommit: true,
      followSymlinks: true,
    });
    const comparison = compareUnits(reference.units, rows.units as never);
    assert.deepEqual([comparison.diffs, comparison.onlyReference.length, comparison.onlyProduct.length], [[], 0, 0]);
    return { unit, rows };
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
}

test("the commit holds CLAUDE.md as a file of its own (the tool replaced the link): the edit lands on CLAUDE.md", async () => {
  // Base: AGENTS.md = "# Rules\na\n", CLAUDE.md → AGENTS.md. The agent's Edit of CLAUDE.md (a → a\nb) read
  // "# Rules\na\n" through the link; the commit has CLAUDE.md as a regular file "# Rules\na\nb\n" and AGENTS.md
  // unchanged. Replay on CLAUDE.md: its base is the link's text "AGENTS.md" (1 line); the pre-image differs
  // (1 outside change: "# Rules" and "a" are outside lines); b is the agent's: produced 1, final 1. At the
  // commit (git: +3 −1 on CLAUDE.md): b survives (1), "# Rules" and "a" are outside (2), total 3.
  const cp = "b11000000001";
  const session = "5e550000-0000-4000-8000-0000000000a1";
  const { unit } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "# Rules\na\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    rmSync(join(repo.dir, "CLAUDE.md"));
    repo.commit(`Rules\n\nEntire-Checkpoint: ${cp}`, { "CLAUDE.md": "# Rules\na\nb\n" });
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: ROOT })
        .prompt("add rule b")
        .call("toolu_a", "Edit", { file_path: `${ROOT}/CLAUDE.md`, old_string: "a", new_string: "a\nb" })
        .result("toolu_a", editResult(`${ROOT}/CLAUDE.md`, "# Rules\na\n", "a", "a\nb"))
        .text(),
    );
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 0, 2, 3, 1, 0]);
});

test("a link retargeted in the unit's commit: the agent's pre-image tells which target it wrote", async () => {
  // Base: CLAUDE.md → AGENTS.md ("a\n"), RULES.md = "r\n". The agent runs `ln -sfn RULES.md CLAUDE.md`, then
  // edits CLAUDE.md (r → r\ns; originalFile "r\n", RULES.md's text). Commit: CLAUDE.md → RULES.md, RULES.md =
  // "r\ns\n". Replay on RULES.md (its base text is the pre-image): s is the agent's (produced 1, final 1,
  // survived 1); the link's new blob "RULES.md" is 1 committed human line (git: +1 −1); total 2, no outside change.
  const cp = "b11000000002";
  const session = "5e550000-0000-4000-8000-0000000000a2";
  const { unit, rows } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "a\n", "RULES.md": "r\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    rmSync(join(repo.dir, "CLAUDE.md"));
    symlinkSync("RULES.md", join(repo.dir, "CLAUDE.md"));
    repo.commit(`Rules\n\nEntire-Checkpoint: ${cp}`, { "RULES.md": "r\ns\n" });
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: ROOT })
        .prompt("point CLAUDE.md at RULES.md and add s")
        .call("toolu_b", "Bash", { command: "ln -sfn RULES.md CLAUDE.md" })
        .result("toolu_b", { stdout: "", stderr: "", interrupted: false })
        .call("toolu_e", "Edit", { file_path: `${ROOT}/CLAUDE.md`, old_string: "r", new_string: "r\ns" })
        .result("toolu_e", editResult(`${ROOT}/CLAUDE.md`, "r\n", "r", "r\ns"))
        .text(),
    );
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 1, 0, 2, 0, 0]);
  assert.match(rows.diagnostics.find((d) => d.code === "edit-through-symlink")!.message, /replayed on RULES\.md/);
});

test("Git for Windows without symlinks: the agent edited the link's own text, so the edit lands on the link", async () => {
  // CLAUDE.md → AGENTS.md is checked out as a text file "AGENTS.md" (core.symlinks=false); the agent's Edit
  // turns it into "AGENTS.md\nAlso read RULES.md" (originalFile "AGENTS.md", the link's text), and git commits it
  // back as the link's blob (mode 120000 kept). Replay on CLAUDE.md: the pre-image equals its base text (no
  // outside change); "Also read RULES.md" is the agent's (produced 1); at the commit it survives (1); the line
  // "AGENTS.md" only gains a newline, the same line by metrics.md §2: total 1 (git's numstat says 2).
  const cp = "b11000000003";
  const session = "5e550000-0000-4000-8000-0000000000a3";
  const { unit } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "a\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
      cwd: repo.dir,
      input: "AGENTS.md\nAlso read RULES.md",
      encoding: "utf8",
    }).trim();
    repo.git("update-index", "--cacheinfo", `120000,${blob},CLAUDE.md`);
    repo.git("commit", "-q", "-m", `Note\n\nEntire-Checkpoint: ${cp}`);
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: ROOT })
        .prompt("mention RULES.md in CLAUDE.md")
        .call("toolu_w", "Edit", {
          file_path: `${ROOT}/CLAUDE.md`,
          old_string: "AGENTS.md",
          new_string: "AGENTS.md\nAlso read RULES.md",
        })
        .result("toolu_w", editResult(`${ROOT}/CLAUDE.md`, "AGENTS.md", "AGENTS.md", "AGENTS.md\nAlso read RULES.md"))
        .text(),
    );
  });
  assert.deepEqual([...counts(unit), unit.numstat_additions], [1, 1, 1, 0, 0, 1, 0, 0, 2]);
});

test("Codex deletes a link: the link goes, the file it names stays", async () => {
  // Base: AGENTS.md = "a\n", CLAUDE.md → AGENTS.md. apply_patch 1: `*** Delete File: CLAUDE.md` (remove_file
  // removes the link); apply_patch 2 adds b to AGENTS.md. Commit: CLAUDE.md gone, AGENTS.md = "a\nb\n".
  // Before, the delete was replayed on AGENTS.md, so the second patch no longer applied (unreplayable 1, b human).
  // Now: b is the agent's (produced 1, final 1, survived 1), total 1. The delete's logged content ("a\n") was read
  // through the link, so it is no pre-image of the link's own text: no outside change.
  const cp = "b11000000004";
  const session = "019dbcc1-0000-7000-8000-0000000000a4";
  const { unit } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "a\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    repo.git("rm", "-q", "CLAUDE.md");
    repo.commit(`Drop the link, add b\n\nEntire-Checkpoint: ${cp}`, { "AGENTS.md": "a\nb\n" });
    const t = new CodexLog({ id: session, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
      .meta()
      .turn()
      .prompt("remove the CLAUDE.md link and add b to AGENTS.md")
      .patch("call_d", `*** Begin Patch\n*** Delete File: ${ROOT}/CLAUDE.md\n*** End Patch\n`, {
        [`${ROOT}/CLAUDE.md`]: { type: "delete", content: "a\n" },
      })
      .patch("call_u", `*** Begin Patch\n*** Update File: ${ROOT}/AGENTS.md\n@@\n a\n+b\n*** End Patch\n`, {
        [`${ROOT}/AGENTS.md`]: { type: "update", unified_diff: "@@ -1 +1,2 @@\n a\n+b\n", move_path: null },
      })
      .tokens(usage(100, 0, 10, 0))
      .text();
    return oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: session, agent: "Codex" }), {
      "full.jsonl": t,
    });
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 0, 0, 1, 0, 0]);
});

test("a session started in a subfolder that edits only through a folder link above it finds the root", async () => {
  // cwd pkg/; the agent Writes .claude/skills/x.md ("one\ntwo\n", originalFile "one\n"), and .claude/skills →
  // ../.agents/skills. The path exists in no tree, but the file it leads to does: the root is the repository's,
  // not pkg/ (before: "outside the repository", and two human lines). Commit: .agents/skills/x.md =
  // "one\ntwo\n": "two" is the agent's and survives (1), total 1.
  const cp = "b11000000005";
  const session = "5e550000-0000-4000-8000-0000000000a5";
  const { unit } = await run(cp, (repo) => {
    repo.write({ ".agents/skills/x.md": "one\n", "pkg/index.js": "1\n" });
    mkdirSync(join(repo.dir, ".claude"), { recursive: true });
    symlinkSync("../.agents/skills", join(repo.dir, ".claude", "skills"));
    repo.commit("base");
    repo.commit(`Skill\n\nEntire-Checkpoint: ${cp}`, { ".agents/skills/x.md": "one\ntwo\n" });
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: `${ROOT}/pkg` })
        .prompt("extend the skill")
        .call("toolu_x", "Write", { file_path: `${ROOT}/.claude/skills/x.md`, content: "one\ntwo\n" })
        .result("toolu_x", writeResult(`${ROOT}/.claude/skills/x.md`, "one\ntwo\n", "one\n"))
        .text(),
    );
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 0, 0, 1, 0, 0]);
});

test("two file names that are not UTF-8 stay two files (read losslessly from git)", async () => {
  // The commit adds \xff.txt (1 line) and \xfe.txt (3 lines); the agent Writes kept.txt ("k\n"). Decoded lossily,
  // both odd names were "\uFFFD.txt", one file of 3 lines. Now: kept.txt survives (1); 4 human lines; total 5.
  const cp = "b11000000006";
  const session = "5e550000-0000-4000-8000-0000000000a6";
  const { unit, rows } = await run(cp, (repo) => {
    repo.commit("base", { "README.md": "r\n" });
    writeFileSync(Buffer.from(`${repo.dir}/\xff.txt`, "latin1"), "x\n");
    writeFileSync(Buffer.from(`${repo.dir}/\xfe.txt`, "latin1"), "p\nq\nr\n");
    repo.commit(`Odd names\n\nEntire-Checkpoint: ${cp}`, { "kept.txt": "k\n" });
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: ROOT })
        .prompt("write kept")
        .call("toolu_k", "Write", { file_path: `${ROOT}/kept.txt`, content: "k\n" })
        .result("toolu_k", writeResult(`${ROOT}/kept.txt`, "k\n", null))
        .text(),
    );
  });
  assert.deepEqual(
    [unit.agent_lines_survived, unit.human_lines, unit.total_committed_lines, unit.numstat_additions],
    [1, 4, 5, 5],
  );
  // Their names, as git quotes them (core.quotePath): each byte above 0x7F as an octal escape.
  assert.deepEqual(
    rows.unit_files!.filter((f) => f.commit_sha === unit.commit_sha).map((f) => [f.path, f.total_committed_lines]),
    [
      ["\\376.txt", 3],
      ["\\377.txt", 1],
      ["kept.txt", 1],
    ],
  );
});

test("Codex deletes a link: the content it logs was read through the link, so it is no outside change", async () => {
  // Base: AGENTS.md = "a\nb\n", CLAUDE.md → AGENTS.md. `*** Delete File: CLAUDE.md` logs "a\nb\n" (AGENTS.md's text,
  // read through the link) as the deleted content; then the agent adds x to AGENTS.md. Commit: the link gone,
  // AGENTS.md = "a\nb\nx\n". Nothing but the agent changed anything: outside changes 0 (before: 1, the logged
  // content against the link's own text "AGENTS.md"). x is the agent's: produced 1, survived 1, total 1.
  const cp = "b11000000007";
  const session = "019dbcc1-0000-7000-8000-0000000000a7";
  const { unit } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "a\nb\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    repo.git("rm", "-q", "CLAUDE.md");
    repo.commit(`Drop the link, add x\n\nEntire-Checkpoint: ${cp}`, { "AGENTS.md": "a\nb\nx\n" });
    const t = new CodexLog({ id: session, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
      .meta()
      .turn()
      .prompt("drop the link, add x")
      .patch("call_d", `*** Begin Patch\n*** Delete File: ${ROOT}/CLAUDE.md\n*** End Patch\n`, {
        [`${ROOT}/CLAUDE.md`]: { type: "delete", content: "a\nb\n" },
      })
      .patch("call_u", `*** Begin Patch\n*** Update File: ${ROOT}/AGENTS.md\n@@\n a\n b\n+x\n*** End Patch\n`, {
        [`${ROOT}/AGENTS.md`]: { type: "update", unified_diff: "@@ -1,2 +1,3 @@\n a\n b\n+x\n", move_path: null },
      })
      .tokens(usage(100, 0, 10, 0))
      .text();
    return oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: session, agent: "Codex" }), {
      "full.jsonl": t,
    });
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 0, 0, 1, 0, 0]);
});

test("a link blob holding several lines is a file (Git for Windows checked the link out as text, then it was edited)", async () => {
  // CLAUDE.md keeps mode 120000 but its blob is "// rules\nx\n": no file system stores such a target. Codex adds y;
  // the commit stores "// rules\nx\ny\n" (mode 120000). Followed as a link, the target starts with "/" (absolute):
  // the edit was "outside the repository" and y human. As a file: y is the agent's (produced 1, survived 1), total 1.
  const cp = "b11000000008";
  const session = "019dbcc1-0000-7000-8000-0000000000a8";
  const { unit } = await run(cp, (repo) => {
    const asLink = (text: string) => {
      const blob = execFileSync("git", ["hash-object", "-w", "--stdin"], {
        cwd: repo.dir,
        input: text,
        encoding: "utf8",
      }).trim();
      repo.git("update-index", "--add", "--cacheinfo", `120000,${blob},CLAUDE.md`);
    };
    repo.write({ "AGENTS.md": "a\n" });
    repo.git("add", "AGENTS.md");
    asLink("// rules\nx\n");
    repo.git("commit", "-q", "-m", "base");
    asLink("// rules\nx\ny\n");
    repo.git("commit", "-q", "-m", `y\n\nEntire-Checkpoint: ${cp}`);
    const t = new CodexLog({ id: session, cwd: ROOT, start: "2026-03-02T10:30:00.000Z" })
      .meta()
      .turn()
      .prompt("add y")
      .patch("call_y", `*** Begin Patch\n*** Update File: ${ROOT}/CLAUDE.md\n@@\n // rules\n x\n+y\n*** End Patch\n`, {
        [`${ROOT}/CLAUDE.md`]: {
          type: "update",
          unified_diff: "@@ -1,2 +1,3 @@\n // rules\n x\n+y\n",
          move_path: null,
        },
      })
      .tokens(usage(100, 0, 10, 0))
      .text();
    return oneSessionCheckpoint(cp, JSON.stringify({ checkpoint_id: cp, session_id: session, agent: "Codex" }), {
      "full.jsonl": t,
    });
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 0, 0, 1, 0, 0]);
});

test("a retargeted link on a CRLF checkout: the pre-image matches its file line endings aside", async () => {
  // Base: AGENTS.md = "a\nb\n", RULES.md = "r\n", CLAUDE.md → AGENTS.md. Claude (Git for Windows, autocrlf) edits
  // CLAUDE.md b → b\r\nc; its originalFile is the CRLF text "a\r\nb\r\n". Later the person retargets the link to
  // RULES.md. Commit: AGENTS.md = "a\nb\nc\n", CLAUDE.md → RULES.md. The pre-image is AGENTS.md's text once CRLF
  // is read as LF, so the edit lands there: c is the agent's (produced 1, survived 1); the link's new blob
  // "RULES.md" is 1 human line; total 2; no outside change (before: landed on RULES.md, survived 0, 1 outside change).
  const cp = "b11000000009";
  const session = "5e550000-0000-4000-8000-0000000000a9";
  const { unit } = await run(cp, (repo) => {
    repo.write({ "AGENTS.md": "a\nb\n", "RULES.md": "r\n" });
    symlinkSync("AGENTS.md", join(repo.dir, "CLAUDE.md"));
    repo.commit("base");
    rmSync(join(repo.dir, "CLAUDE.md"));
    symlinkSync("RULES.md", join(repo.dir, "CLAUDE.md"));
    repo.commit(`c\n\nEntire-Checkpoint: ${cp}`, { "AGENTS.md": "a\nb\nc\n" });
    return claudeCheckpoint(
      cp,
      session,
      new ClaudeLog({ sessionId: session, cwd: ROOT })
        .prompt("add c")
        .call("toolu_c", "Edit", { file_path: `${ROOT}/CLAUDE.md`, old_string: "b", new_string: "b\r\nc" })
        .result("toolu_c", editResult(`${ROOT}/CLAUDE.md`, "a\r\nb\r\n", "b", "b\r\nc"))
        .text(),
    );
  });
  assert.deepEqual(counts(unit), [1, 1, 1, 1, 0, 2, 0, 0]);
});
