import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TABLE_NAMES } from "../../src/model";
import { ensureSampleCorpus } from "../../src/sample";
import { writeFixture } from "../swechat/fixture";

const cli = (args: string[]) => spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8" });
const json = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, `${name}.json`), "utf8")) as Record<string, unknown>[];
/** Rows as a multiset: the order of shards put together is the shards' order, not one run's. */
const bag = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r, Object.keys(r).sort())).sort();

/**
 * Three shards of an input, put together by summarize, against one run of the same input: every table row for
 * row, and the headline figures (summary.json, printed and written) to the last digit. Each shard holds a
 * proper part of the rows (the work was split, not repeated), and no row is in two shards.
 */
async function checkShards(label: string, input: string[]): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), `sce-shards-${label}-`));
  const one = join(root, "one");
  const whole = cli(["analyze", ...input, "--out", one]);
  assert.equal(whole.status, 0, whole.stderr);
  const shards = [1, 2, 3].map((k) => join(root, `shard-${k}`));
  for (const [i, dir] of shards.entries()) {
    const run = cli(["analyze", ...input, "--shard", `${i + 1}/3`, "--out", dir, "--format", "parquet", "--quiet"]);
    assert.equal(run.status, 0, run.stderr);
  }
  const together = join(root, "together");
  const summarized = cli(["summarize", ...shards, "--out", together]);
  assert.equal(summarized.status, 0, summarized.stderr);

  for (const name of TABLE_NAMES) {
    const expected = json(one, name);
    assert.deepEqual(bag(json(together, name)), bag(expected), `${label}: ${name} row for row`);
    const sizes = shards.map((d) => json(d, name).length);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      expected.length,
      `${label}: ${name} rows in exactly one shard`,
    );
  }
  const units = shards.map((d) => json(d, "sessions").length);
  assert.ok(
    units.filter((n) => n > 0).length >= 2,
    `${label}: the sessions are spread over shards (${units.join(", ")})`,
  );
  assert.deepEqual(
    JSON.parse(readFileSync(join(together, "summary.json"), "utf8")),
    JSON.parse(readFileSync(join(one, "summary.json"), "utf8")),
    `${label}: headline figures`,
  );
  // The printed summary is the same too, but for the folder it names.
  const printed = (s: string) => s.replace(/tables written to .*/, "");
  assert.equal(printed(summarized.stdout), printed(whole.stdout), `${label}: printed summary`);
}

test("3 shards + summarize equal one run: an Entire repository (the bundled sample; groups stay whole)", async () => {
  const sample = await ensureSampleCorpus();
  await checkShards("entire", [sample.repoDir]);
});

test("3 shards + summarize equal one run: a folder of transcripts with --repo (the sample's Claude Code folder)", async () => {
  const sample = await ensureSampleCorpus();
  await checkShards("transcripts", [sample.claudeProjectsDir, "--repo", sample.repoDir]);
});

test("3 shards + summarize equal one run: a SWE-chat-shaped dataset", async () => {
  await checkShards("swechat", [writeFixture()]);
});

test("summarize names a missing or repeated shard; --shard rejects what is not K/N", () => {
  const root = mkdtempSync(join(tmpdir(), "sce-shards-bad-"));
  for (const k of [1, 1])
    assert.equal(cli(["analyze", "--shard", `${k}/3`, "--out", join(root, `s${k}`), "--quiet"]).status, 0);
  const run = cli(["summarize", join(root, "s1"), join(root, "s1"), "--out", join(root, "t"), "--quiet"]);
  assert.equal(run.status, 0, run.stderr);
  const codes = json(join(root, "t"), "diagnostics")
    .filter((d) => d.source === "summarize")
    .map((d) => `${d.code}: ${String(d.message).slice(0, 9)}`);
  assert.deepEqual(codes.sort(), ["shard-missing: shard 2/3", "shard-missing: shard 3/3", "shard-repeated: shard 1/3"]);
  for (const bad of ["0/3", "4/3", "1/0", "a/b", "2"])
    assert.equal(cli(["analyze", "--shard", bad, "--out", join(root, "x")]).status, 2, bad);
});
