import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { TestRepo } from "../helpers/git-repo";

/** A projects folder full of the bad inputs of the issue: every one becomes a diagnostics row; the good session is still read. */
test("bad transcripts become diagnostics rows; the run goes on and nothing is silently dropped", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-bad-"));
  const project = join(dir, "-home-u-proj");
  mkdirSync(project, { recursive: true });
  const good = new ClaudeLog({ sessionId: "aaaaaaaa-0000-0000-0000-000000000001", cwd: "/home/u/proj" })
    .prompt("write it")
    .call("toolu_a", "Write", { file_path: "/home/u/proj/a.txt", content: "a\n" })
    .result("toolu_a", writeResult("/home/u/proj/a.txt", "a\n", null))
    .text();
  const lines = good.trimEnd().split("\n");
  writeFileSync(join(project, "aaaaaaaa-0000-0000-0000-000000000001.jsonl"), good);
  // Session n: the same records under its own session id and its own tool-use and message ids (the same ids in
  // two files would be a resumed session's copied history, counted once).
  const variant = (n: number) =>
    lines.map((l) =>
      l
        .replace(/aaaaaaaa-0000-0000-0000-000000000001/g, `aaaaaaaa-0000-0000-0000-00000000000${n}`)
        .replace(/toolu_a/g, `toolu_a${n}`),
    );
  // Truncated last line.
  const truncated = variant(2);
  writeFileSync(
    join(project, "aaaaaaaa-0000-0000-0000-000000000002.jsonl"),
    truncated.join("\n") + "\n" + truncated[1].slice(0, 40),
  );
  // NUL bytes inside a line, and two objects on one line.
  const nul = variant(3);
  writeFileSync(
    join(project, "aaaaaaaa-0000-0000-0000-000000000003.jsonl"),
    [nul[0] + "\u0000\u0000", nul[1] + nul[2], ...nul.slice(3)].join("\n") + "\n",
  );
  // CRLF line endings.
  writeFileSync(join(project, "aaaaaaaa-0000-0000-0000-000000000004.jsonl"), variant(4).join("\r\n") + "\r\n");
  // A pretty-printed JSON document named .jsonl (a Claude Code record spread over lines: no format reads it), and a binary file named .jsonl.
  // (A pretty-printed `{sessionId, messages: [{type: "user"}]}` would be a Gemini CLI session document, read by content.)
  writeFileSync(join(project, "pretty.jsonl"), JSON.stringify(JSON.parse(lines[0]), null, 2));
  writeFileSync(join(project, "binary.jsonl"), Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10]));

  const { rows } = await analyze({ inputs: [project] });
  const codes = new Set(rows.diagnostics.map((d) => d.code));
  for (const code of ["jsonl-truncated", "jsonl-nul-bytes", "jsonl-concatenated-objects", "no-repository"])
    assert.ok(codes.has(code), `missing ${code} in ${[...codes].join(", ")}`);
  // The four Claude sessions are all read (the damaged lines are repaired or reported, not fatal).
  assert.deepEqual(
    rows.sessions.map((s) => s.session_id).sort(),
    [1, 2, 3, 4].map((n) => `aaaaaaaa-0000-0000-0000-00000000000${n}`),
  );
  // The two files that are not Claude Code transcripts are named in diagnostics.
  const files = rows.diagnostics.map((d) => `${d.file ?? ""} ${d.message}`).join("\n");
  assert.match(files, /pretty\.jsonl/);
  assert.equal(
    rows.diagnostics.find((d) => d.file?.endsWith("pretty.jsonl"))?.code,
    "jsonl-pretty-printed",
    "said for what it is",
  );
  assert.match(files, /binary\.jsonl/);
  // Each session's Write is there once, with its repo-less path kept as logged.
  assert.equal(rows.tool_calls.filter((c) => c.tool === "Write").length, 4);
});

test("an input that does not exist or is not recognised is a diagnostic and exit status 'nothing read'", async () => {
  const missing = join(tmpdir(), "sce-does-not-exist-" + process.pid);
  const { rows, readAnything } = await analyze({ inputs: [missing] });
  assert.equal(readAnything, false);
  assert.deepEqual(
    rows.diagnostics.map((d) => d.code),
    ["input-missing"],
  );
});

test("a clone without Entire's refs: commits carry Entire-Checkpoint trailers but no checkpoint data is there; the diagnostic says how to fetch it", async () => {
  // Two commits with a trailer, one without; no entire/checkpoints/v1 branch and no refs/entire/* (what `git clone` leaves of a v2-only repository).
  const repo = new TestRepo("sce-no-checkpoints-");
  try {
    repo.commit("initial", { "README.md": "readme\n" });
    repo.commit("Add a\n\nEntire-Checkpoint: a1b2c3d4e5f6", { "a.txt": "a\n" });
    repo.commit("Add b\n\nEntire-Checkpoint: 0f1e2d3c4b5a", { "b.txt": "b\n" });
    const { rows, readAnything } = await analyze({ inputs: [repo.dir] });
    assert.equal(readAnything, false);
    assert.deepEqual(
      rows.diagnostics.map((d) => d.code),
      ["entire-checkpoints-not-fetched"],
    );
    assert.match(
      rows.diagnostics[0].message,
      /2 commit\(s\) carry Entire-Checkpoint trailers.*git fetch origin .*refs\/entire\/\*:refs\/entire\/\*/,
    );

    // Without trailers the same repository is simply not recognised.
    const plain = new TestRepo("sce-plain-repo-");
    try {
      plain.commit("initial", { "README.md": "readme\n" });
      const other = await analyze({ inputs: [plain.dir] });
      assert.deepEqual(
        other.rows.diagnostics.map((d) => d.code),
        ["input-unrecognised"],
      );
      assert.doesNotMatch(other.rows.diagnostics[0].message, /inside the git repository/);
      // A folder inside a work tree (a common slip: `analyze repo/src`) is named as such, with the path to use.
      plain.commit("src", { "src/a.txt": "a\n" });
      const inner = await analyze({ inputs: [join(plain.dir, "src")] });
      assert.deepEqual(
        inner.rows.diagnostics.map((d) => d.code),
        ["input-unrecognised"],
      );
      assert.match(
        inner.rows.diagnostics[0].message,
        new RegExp(`it is a folder inside the git repository ${realpathSync(plain.dir)}: analyze that path instead`),
      );
    } finally {
      rmSync(plain.dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
});
