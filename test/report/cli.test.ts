/** `swe-chat-eval report` as a user runs it: on the bundled sample corpus, twice, and with bad flags. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { TABLE_NAMES } from "../../src/model";

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8", env: { ...process.env, ...env } });

test("report on the sample corpus: tables, one index.html, session pages, SVG and PNG figures; a rerun is byte-identical", () => {
  const sample = { SWE_CHAT_EVAL_SAMPLE_DIR: join(mkdtempSync(join(tmpdir(), "sce-report-sample-")), "corpus") };
  const a = mkdtempSync(join(tmpdir(), "sce-report-a-"));
  const b = mkdtempSync(join(tmpdir(), "sce-report-b-"));
  const first = cli(["report", "--out", a, "--png"], sample);
  assert.equal(first.status, 0, first.stderr);
  // The sample corpus has 15 units over 14 session ids (13 with a transcript): one page each, plus the index of all sessions.
  assert.match(first.stdout, /report: .*index\.html \(20 figure files, 14 session pages\)/);
  for (const name of TABLE_NAMES.filter((n) => n !== "checkpoint_sessions"))
    assert.ok(existsSync(join(a, `${name}.csv`)), name);
  assert.equal(readdirSync(join(a, "figures")).filter((f) => f.endsWith(".svg")).length, 10);
  assert.equal(readdirSync(join(a, "figures")).filter((f) => f.endsWith(".png")).length, 10);
  // 14 pages, the index of all sessions and their shared style sheet.
  assert.equal(readdirSync(join(a, "sessions")).length, 16);
  assert.ok(existsSync(join(a, "sessions", "style.css")));
  const png = readFileSync(join(a, "figures", "ratios-by-model.png"));
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], "a PNG file");

  const second = cli(["report", "--out", b, "--png", "--quiet"], sample);
  assert.equal(second.status, 0, second.stderr);
  assert.equal(second.stdout, "");
  for (const rel of [
    "index.html",
    "sessions/index.html",
    "figures/agent-authored-histogram.svg",
    "figures/ratios-by-model.png",
  ]) {
    assert.ok(readFileSync(join(a, rel)).equals(readFileSync(join(b, rel))), `${rel} differs between two runs`);
  }
});

/** The headline as the CLI summary prints it: per ratio strict and with-groups pooled value and interval; the coverage. */
function printedHeadline(stdout: string): { ratios: string[][]; coverage: string[] } {
  const ratios = ["code survival rate", "coding efficiency", "agent-authored"].map((label) => {
    const m = new RegExp(
      `^  ${label} +([\\d.]+) % \\[([\\d.]+), ([\\d.]+)\\] +([\\d.]+) % \\[([\\d.]+), ([\\d.]+)\\]$`,
      "m",
    ).exec(stdout);
    assert.ok(m, `${label} not printed:\n${stdout}`);
    return m.slice(1);
  });
  const cover = /^ {2}units covered +(\d+ of \d+ \(\d+ %\)) +(\d+ of \d+ \(\d+ %\))$/m.exec(stdout);
  assert.ok(cover, `coverage not printed:\n${stdout}`);
  return { ratios, coverage: cover.slice(1) };
}

/** The same figures as index.html's headline section holds them, in the order of its rows. */
function reportHeadline(html: string): { ratios: string[][]; coverage: string[] } {
  const section = html.slice(
    html.indexOf('<section id="headline">'),
    html.indexOf("</section>", html.indexOf('<section id="headline">')),
  );
  const ratios = [...section.matchAll(/<div class="figure-row">([\s\S]*?)<\/div>/g)].map(([, row]) => {
    const m =
      /class="big">([\d.]+) %<\/span> <span class="ci">95 % CI \[([\d.]+), ([\d.]+)\]<\/span>[\s\S]*?with groups <strong>([\d.]+) %<\/strong> <span class="ci">95 % CI \[([\d.]+), ([\d.]+)\]/.exec(
        row,
      );
    assert.ok(m, row);
    return m.slice(1);
  });
  const cover = /cover (\d+ of \d+ \(\d+ %\)) units; with groups [^<]*? they cover (\d+ of \d+ \(\d+ %\))/.exec(
    section,
  );
  assert.ok(cover, section);
  return { ratios, coverage: cover.slice(1) };
}

test("`npm run report` prints the path of index.html and the headline it holds, strict and with groups", () => {
  const sample = { SWE_CHAT_EVAL_SAMPLE_DIR: join(mkdtempSync(join(tmpdir(), "sce-report-sample-")), "corpus") };
  const out = join(mkdtempSync(join(tmpdir(), "sce-report-npm-")), "sample-report");
  // package.json's script, with the output folder moved out of the working copy.
  const script = JSON.parse(readFileSync("package.json", "utf8")).scripts.report as string;
  assert.equal(script, "node bin/swe-chat-eval.js report --out reports/sample-report");
  const run = cli(["report", "--out", out], sample);
  assert.equal(run.status, 0, run.stderr);
  const path = /^report: (\S+index\.html) \(/m.exec(run.stdout)?.[1];
  assert.equal(path, join(out, "index.html"));
  assert.ok(existsSync(path));
  const printed = printedHeadline(run.stdout);
  // Three ratios, six numbers each; the sample's groups cover more units than the strict figures (14 and 10 of 15).
  assert.equal(printed.ratios.length, 3);
  assert.deepEqual(printed.coverage, ["10 of 15 (67 %)", "14 of 15 (93 %)"]);
  assert.deepEqual(reportHeadline(readFileSync(path, "utf8")), printed);
  // The README pastes this run: every line it shows (its "..." aside, the path made relative) is printed as shown.
  const readme = readFileSync("README.md", "utf8");
  const pasted = /`npm run report` prints[\s\S]*?```\n([\s\S]*?)```/
    .exec(readme)?.[1]
    .split("\n")
    .filter((l) => l !== "" && l.trim() !== "...");
  assert.ok(pasted && pasted.length > 8, "README.md pastes what npm run report prints");
  const printedLines = run.stdout.replaceAll(out, "reports/sample-report").split("\n");
  for (const line of pasted)
    assert.ok(printedLines.includes(line), `README.md shows a line the run does not print: ${line}`);
});

test("report: usage errors exit 2; --timestamp prints the time", () => {
  assert.equal(cli(["report", "--top", "0"]).status, 2);
  assert.equal(cli(["report", "--seed", "x"]).status, 2);
  assert.equal(cli(["report", "--no-such-flag"]).status, 2);
  const out = mkdtempSync(join(tmpdir(), "sce-report-missing-"));
  const missing = cli(["report", join(tmpdir(), `sce-none-${process.pid}`), "--out", out, "--quiet", "--timestamp"]);
  // Nothing could be read: exit 1, but the report still says so (and when it was made).
  assert.equal(missing.status, 1);
  const html = readFileSync(join(out, "index.html"), "utf8");
  assert.match(html, /input-missing/);
  assert.match(html, /Generated by swe-chat-eval [0-9.]+ on \d{4}-\d\d-\d\dT/);
});

test("report --no-lines: an empty line_ranges table, and session pages say the blame view was not gathered", () => {
  const out = mkdtempSync(join(tmpdir(), "sce-report-nolines-"));
  const run = cli(["report", "--out", out, "--quiet", "--no-lines"]);
  assert.equal(run.status, 0, run.stderr);
  // Every table is written, as by analyze without --lines: line_ranges holds its header only.
  const header = (dir: string) => readFileSync(join(dir, "line_ranges.csv"), "utf8").trimEnd().split("\n");
  assert.equal(header(out).length, 1);
  assert.ok(existsSync(join(out, "units.csv")));
  const page = readdirSync(join(out, "sessions")).find((f) => f !== "index.html" && f.endsWith(".html"))!;
  const html = readFileSync(join(out, "sessions", page), "utf8");
  assert.match(html, /Line owners were not gathered/);
  assert.doesNotMatch(html, /<table class="blame">/);
  // Without the flag the same page has its blame table (the default gathers lines).
  const full = mkdtempSync(join(tmpdir(), "sce-report-lines-"));
  assert.equal(cli(["report", "--out", full, "--quiet"]).status, 0);
  assert.ok(header(full).length > 50, "the sample's committed lines as runs (62 on this sample)");
});
