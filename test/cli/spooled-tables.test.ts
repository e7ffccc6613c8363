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
import { writeResumedSessions } from "../helpers/resumed-sessions";
import { writeFixture } from "../swechat/fixture";

test("the tables written from the spool are byte for byte those of the rows kept in memory (every input kind, resumed session, --lines, Parquet)", async () => {
  const sample = await ensureSampleCorpus();
  // B's job runs again without A's calls: its place in the spool is replaced.
  const { repo: resumed, logs } = writeResumedSessions("sce-spool-resume-");
  const repo = resumed.dir;
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

  const written = readdirSync(spooled).filter((f) => f !== "summary.json");
  assert.deepEqual(written.sort(), readdirSync(kept).sort(), "the same files, and no spool file left behind");
  for (const file of written)
    assert.ok(readFileSync(join(spooled, file)).equals(readFileSync(join(kept, file))), `${file} byte for byte`);
});
