/**
 * `analyze` writes the calls, prompts, per-file counts and line runs from a spool on disk (src/model/row-spool.ts),
 * filled as the work delivers them, instead of from rows kept in memory. The tables must not change: the CLI's
 * files (on 2 worker threads) against the library's rows kept in memory (inline) and written by the same writers,
 * byte for byte, for every input kind in one run (their order across inputs kept), a resumed session whose job
 * runs again (its place in the spool replaced), `--lines` and Parquet.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { rowsForOutput } from "../../src/model";
import { ensureSampleCorpus } from "../../src/sample";
import { writeParquetTables, writeTables } from "../../src/tables";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { writeResumedSessions } from "../helpers/resumed-sessions";
import { writeFixture } from "../swechat/fixture";

test("the tables written from the spool are byte for byte those of the rows kept in memory (every input kind, resumed session, --lines, Parquet)", async () => {
  const sample = await ensureSampleCorpus();
  // B's job runs again without A's calls: its place in the spool is replaced.
  const { repo: resumed, logs } = writeResumedSessions("sce-spool-resume-");
  const repo = resumed.dir;
  // Two more sessions, each alone in its group, whose groups come in the other order than their files: c's commit
  // (h.txt) is made after d's (k.txt). Their line runs wait in the spool until the group order is known.
  resumed.commit("add k", { "k.txt": "k1\nk2\nk3\n" });
  resumed.commit("add h", { "h.txt": "h1\n" });
  for (const [id, file, text] of [
    ["sess-c", "h.txt", "h1\n"],
    ["sess-d", "k.txt", "k1\nk2\nk3\n"],
  ]) {
    const log = new ClaudeLog({ sessionId: id, cwd: repo })
      .prompt(`write ${file}`)
      .call(`toolu_${id}`, "Write", { file_path: join(repo, file), content: text })
      .result(`toolu_${id}`, writeResult(join(repo, file), text, null));
    writeFileSync(join(logs, `${id}.jsonl`), log.text());
  }
  const exports = mkdtempSync(join(tmpdir(), "sce-spool-exports-"));
  mkdirSync(join(exports, "specstory"));
  for (const name of readdirSync("test/fixtures/specstory"))
    writeFileSync(join(exports, "specstory", name), readFileSync(join("test/fixtures/specstory", name)));
  const inputs = [sample.repoDir, logs, writeFixture(), exports, sample.claudeProjectsDir].map((p) => resolve(p));

  const spooled = mkdtempSync(join(tmpdir(), "sce-spooled-"));
  const cli = spawnSync(
    process.execPath,
    ["bin/swe-chat-eval.js", "analyze", ...inputs, "--repo", repo, "--lines", "--format", "parquet"].concat([
      "--threads",
      "2",
      "--quiet",
      "--out",
      spooled,
    ]),
    { encoding: "utf8" },
  );
  assert.equal(cli.status, 0, cli.stderr);

  const result = await analyze({ inputs, repo, lines: true, threads: 1 });
  const rows = rowsForOutput(result.rows, "masked");
  const kept = mkdtempSync(join(tmpdir(), "sce-in-memory-"));
  await writeTables(kept, rows, { inputs: result.inputs, seed: 1 }, "masked");
  await writeParquetTables(kept, rows, "masked");

  // The run read every kind, and what the spool holds is not trivial.
  assert.deepEqual(
    result.inputs.map((i) => i.kind),
    ["entire-repository", "transcripts", "swechat-dataset", "exports", "transcripts"],
  );
  for (const table of ["tool_calls", "prompts", "unit_files", "line_ranges"] as const)
    assert.ok((rows[table]?.length ?? 0) > 0, `${table} has rows`);
  assert.deepEqual(
    rows.tool_calls.filter((c) => c.session_id === "sess-b").map((c) => c.file),
    ["g.txt"],
    "the resumed session's calls are its own only",
  );

  // The groups' line runs come in group order, d's (k.txt, the earlier commit) before c's.
  const groupRuns = rows.line_ranges!.filter((r) => r.session_id === "sess-c" || r.session_id === "sess-d");
  assert.ok(groupRuns.length > 0);
  const last = groupRuns.map((r) => r.session_id).lastIndexOf("sess-d");
  assert.ok(last < groupRuns.map((r) => r.session_id).lastIndexOf("sess-c"), "d's group before c's");

  const written = readdirSync(spooled).filter((f) => f !== "summary.json");
  assert.deepEqual(written.sort(), readdirSync(kept).sort(), "the same files, and no spool file left behind");
  for (const file of written)
    assert.ok(readFileSync(join(spooled, file)).equals(readFileSync(join(kept, file))), `${file} byte for byte`);
});
