import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TABLE_COLUMNS, TABLE_NAMES } from "../../src/model";

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8", env: { ...process.env, ...env } });

test("analyze with no input runs on the bundled sample corpus and writes the four tables with the contract's columns", () => {
  const out = mkdtempSync(join(tmpdir(), "sce-cli-"));
  const sampleDir = mkdtempSync(join(tmpdir(), "sce-cli-sample-"));
  const run = cli(["analyze", "--out", out], { SWE_CHAT_EVAL_SAMPLE_DIR: join(sampleDir, "corpus") });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /bundled sample corpus/);
  assert.match(run.stdout, /code survival rate/);
  for (const name of TABLE_NAMES) {
    const header = readFileSync(join(out, `${name}.csv`), "utf8").split("\n")[0];
    assert.equal(header, (TABLE_COLUMNS[name] as readonly string[]).join(","), name);
    const json = JSON.parse(readFileSync(join(out, `${name}.json`), "utf8"));
    assert.ok(Array.isArray(json));
    if (json.length > 0) assert.deepEqual(Object.keys(json[0]), TABLE_COLUMNS[name]);
  }
  const units = JSON.parse(readFileSync(join(out, "units.json"), "utf8"));
  assert.equal(units.length, 15);
  // Not a terminal: no progress bar escape codes in the output.
  assert.doesNotMatch(run.stderr + run.stdout, /\u001b\[/);
});

test("exit codes: 2 for a usage error, 1 when nothing could be read", () => {
  assert.equal(cli(["analyze", "--no-such-flag"]).status, 2);
  assert.equal(cli(["frobnicate"]).status, 2);
  const out = mkdtempSync(join(tmpdir(), "sce-cli-"));
  const nothing = cli(["analyze", join(tmpdir(), "sce-missing-" + process.pid), "--out", out, "--quiet"]);
  assert.equal(nothing.status, 1);
  assert.equal(nothing.stdout, "");
});

test("an output folder that cannot be written: exit 2 and one line naming it, no stack trace", () => {
  const root = mkdtempSync(join(tmpdir(), "sce-cli-out-"));
  const input = join(root, "logs");
  mkdirSync(input);
  writeFileSync(
    join(input, "s.jsonl"),
    `{"type":"user","sessionId":"s","timestamp":"2026-03-02T10:00:00Z","message":{"role":"user","content":"hi"}}\n`,
  );
  // A file where the output folder should be, and a folder where a table file should be.
  const aFile = join(root, "a-file");
  writeFileSync(aFile, "");
  const blocked = join(root, "blocked");
  mkdirSync(join(blocked, "units.csv"), { recursive: true });
  for (const [out, why] of [
    [aFile, /EEXIST.*a-file/],
    [blocked, /EISDIR.*units\.csv/],
  ] as const) {
    const run = cli(["analyze", input, "--out", out, "--quiet"]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, why);
    assert.doesNotMatch(run.stderr, /\n\s+at /, "no stack trace");
    assert.equal(run.stderr.trim().split("\n").length, 1);
  }
});
