import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parseGitAiNote } from "../../src/ingest/git-ai/notes";
import { agentTraceRecordSchema } from "../../src/model";
import { generateSampleCorpus } from "../../src/sample/generate";
import { corpusPath } from "../helpers/corpus";

const cli = (args: string[]) => spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8" });
const corpus = generateSampleCorpus(mkdtempSync(join(tmpdir(), "sce-export-")));

/**
 * Scenario 7 of the sample by hand: one commit, two sessions; the README's 7 added lines are the opus session's
 * (one Edit), package.json's 2 the haiku session's. Its group was replayed, so the commit is exported with both.
 */
test("export agent-trace: one record per attributable commit, valid against the specification's schema", async () => {
  const sample = await corpus;
  const out = mkdtempSync(join(tmpdir(), "sce-export-out-"));
  const run = cli(["export", "agent-trace", sample.repoDir, "--out", out, "--quiet"]);
  assert.equal(run.status, 0, run.stderr);
  const records = readFileSync(join(out, "agent-trace.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.ok(records.length >= 10, `${records.length} records`);
  for (const r of records)
    assert.ok(
      agentTraceRecordSchema.safeParse(r).success,
      JSON.stringify(agentTraceRecordSchema.safeParse(r).error?.issues),
    );
  assert.equal(new Set(records.map((r) => r.vcs.revision)).size, records.length, "one record per commit");
  const s7 = sample.expected.find((e) => e.session_key === "s07a-readme")!;
  const rec = records.find((r) => r.vcs.revision === s7.commit_sha);
  const lines = (path: string) =>
    rec.files
      .find((f: { path: string }) => f.path === path)
      .conversations.flatMap((c: { ranges: { start_line: number; end_line: number }[] }) => c.ranges)
      .reduce((n: number, x: { start_line: number; end_line: number }) => n + x.end_line - x.start_line + 1, 0);
  assert.deepEqual([lines("README.md"), lines("package.json")], [7, 2]);
  assert.equal(rec.metadata["swe-chat-eval"].sessions.length, 2);
});

test("export git-ai --write-notes: notes under refs/notes/ai-replayed read back with git notes show; refs/notes/ai refused", async () => {
  const sample = await corpus;
  const out = mkdtempSync(join(tmpdir(), "sce-export-out-"));
  const refused = cli([
    "export",
    "git-ai",
    sample.repoDir,
    "--out",
    out,
    "--write-notes",
    "--notes-ref",
    "refs/notes/ai",
    "--quiet",
  ]);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /git-ai's own notes ref/);
  const run = cli(["export", "git-ai", sample.repoDir, "--out", out, "--write-notes", "--quiet"]);
  assert.equal(run.status, 0, run.stderr);
  const files = readdirSync(join(out, "git-ai"));
  assert.ok(files.length >= 10);
  for (const f of files) {
    const sha = f.replace(/\.txt$/, "");
    const written = parseGitAiNote(readFileSync(join(out, "git-ai", f), "utf8"));
    const shown = parseGitAiNote(
      execFileSync("git", ["-C", sample.repoDir, "notes", "--ref", "refs/notes/ai-replayed", "show", sha], {
        encoding: "utf8",
      }),
    );
    assert.ok(written.ok && shown.ok);
    assert.deepEqual(shown.attestations, written.attestations);
    assert.equal(shown.metadata.base_commit_sha, sha);
    assert.equal(shown.metadata.schema_version, "authorship/3.0.0");
  }
  const s7 = sample.expected.find((e) => e.session_key === "s07a-readme")!;
  const note = parseGitAiNote(
    execFileSync("git", ["-C", sample.repoDir, "notes", "--ref", "ai-replayed", "show", s7.commit_sha], {
      encoding: "utf8",
    }),
  );
  assert.ok(note.ok);
  const count = (file: string) =>
    note.attestations
      .filter((a) => a.file === file)
      .flatMap((a) => a.ranges)
      .reduce((n, [a, b]) => n + b - a + 1, 0);
  assert.deepEqual([count("README.md"), count("package.json")], [7, 2]);
  assert.equal(Object.keys(note.metadata.sessions ?? {}).length, 2);
  // git-ai's own ref stays untouched.
  assert.equal(
    spawnSync("git", ["-C", sample.repoDir, "notes", "--ref", "refs/notes/ai", "list"], {
      encoding: "utf8",
    }).stdout.trim(),
    "",
  );
});

test("the git-ai reader reads every real note of the corpus", () => {
  const dir = corpusPath("git-ai");
  const notes = readdirSync(dir).filter((f) => f.startsWith("refs-notes-ai__"));
  assert.ok(notes.length >= 3);
  for (const f of notes) {
    const note = parseGitAiNote(readFileSync(join(dir, f), "utf8"));
    assert.ok(note.ok, `${f}: ${note.ok ? "" : note.reason}`);
    assert.ok(note.attestations.length > 0);
    assert.equal(note.metadata.base_commit_sha, f.replace(/^refs-notes-ai__|\.txt$/g, ""));
  }
});
