/**
 * Entire "checkpoints v2" storage, on REAL git repositories built in a
 * temporary folder with plumbing (hash-object / update-index / write-tree /
 * commit-tree / update-ref), as test/ingest/entire.test.ts does:
 * `refs/entire/checkpoints/v2/main` (sharded metadata + compact transcripts)
 * and `refs/entire/checkpoints/v2/full/{current,<13 digits>}` (raw
 * transcripts). No real v2 sample exists; the layout follows the brief.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { analyze } from "../../src/index";
import { DiagnosticSink, type Diagnostic } from "../../src/model";
import { isEntireRepository, readEntireRepository, type EntireRepository } from "../../src/ingest/entire";
import { findEntireRefs, hasEntireCheckpoints } from "../../src/ingest/entire/paths";
import { ClaudeLog, writeResult } from "../helpers/claude-log";
import { GitSandbox } from "../helpers/git-sandbox";

const T0 = 1_772_445_600; // 2026-03-02T10:00:00Z
const V2_MAIN = "refs/entire/checkpoints/v2/main";
const V2_CURRENT = "refs/entire/checkpoints/v2/full/current";
const V2_GEN = (n: number) => `refs/entire/checkpoints/v2/full/${String(n).padStart(13, "0")}`;

/** One temporary git repository with fixed identities and a clock one minute per git call. */
class Fixture {
  readonly root: string;
  readonly dir: string;
  private readonly box: GitSandbox;
  constructor() {
    this.root = mkdtempSync(join(tmpdir(), "sce-entire-v2-"));
    this.box = new GitSandbox(this.root, T0);
    this.dir = join(this.root, "work");
    mkdirSync(this.dir);
    this.git(["init", "-q"]);
  }
  git(args: string[], input?: string, extraEnv: Record<string, string> = {}): string {
    return this.box.git(this.dir, args, input, extraEnv);
  }
  /** A commit of the work tree with `files` written and added. */
  commit(message: string, files: Record<string, string>): string {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), content);
      this.git(["add", path]);
    }
    this.git(["commit", "-q", "-m", message]);
    return this.git(["rev-parse", "HEAD"]).trim();
  }
  /** Points `ref` at a parentless commit whose tree is exactly `files`; returns the commit. */
  ref(ref: string, files: Record<string, string>, message = "Checkpoint"): string {
    const index = join(this.root, `index-${Math.random().toString(36).slice(2)}`);
    const lines = Object.entries(files).map(([path, content]) => `100644 blob ${this.blob(content)}\t${path}`);
    this.git(["update-index", "--add", "--index-info"], lines.join("\n") + "\n", { GIT_INDEX_FILE: index });
    const tree = this.git(["write-tree"], undefined, { GIT_INDEX_FILE: index }).trim();
    rmSync(index, { force: true });
    const commit = this.git(["commit-tree", tree, "-m", message], "").trim();
    this.git(["update-ref", ref, commit]);
    return commit;
  }
  blob(content: string): string {
    return this.git(["hash-object", "-w", "--stdin"], content).trim();
  }
  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// One checkpoint, one session, one commit.
//
// The session (Claude Code 2.x) Writes src/three.txt, a new file of 3 lines
// ("one", "two", "three"), and the person commits it unchanged with the
// trailer `Entire-Checkpoint: 0a1b2c3d4e5f`. By metrics.md: produced 3 (one
// Write creating 3 lines), final 3 (nothing edits them again), the committed
// diff adds 3 lines (new file), all 3 are the agent's → survived 3, human 0,
// outside 0, total 3.

const CP1 = "0a1b2c3d4e5f";
const CP2 = "1b2c3d4e5f60";
const CP3 = "2c3d4e5f6071";
const SESSION = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const ROOT = "/home/u/proj";
const THREE = "one\ntwo\nthree\n";
const folder = (id: string) => `${id.slice(0, 2)}/${id.slice(2)}`;

function transcript(sessionId = SESSION): string {
  return new ClaudeLog({ sessionId, cwd: ROOT })
    .prompt("add a file with three lines")
    .call("toolu_1", "Write", { file_path: `${ROOT}/src/three.txt`, content: THREE })
    .result("toolu_1", writeResult(`${ROOT}/src/three.txt`, THREE, null))
    .text();
}

/** Entire's compact transcript: its own format; only its presence and bytes matter here. */
const COMPACT = `{"v":1,"role":"user","text":"add a file"}\n{"v":1,"role":"assistant","text":"ok"}\n{"v":1,"role":"tool","name":"Write"}\n`;

function sessionMeta(id: string, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    cli_version: "0.6.0",
    checkpoint_id: id,
    session_id: SESSION,
    strategy: "manual-commit",
    created_at: "2026-03-02T10:05:00Z",
    branch: "main",
    files_touched: ["src/three.txt"],
    agent: "Claude Code",
    checkpoint_transcript_start: 0,
    compact_transcript_start: 2,
    ...more,
  });
}

/** A checkpoint folder as v2/main holds it: metadata, prompt, hashes, the compact transcript; never full.jsonl. */
function v2MainFolder(
  id: string,
  opts: { compact?: boolean; meta?: Record<string, unknown> } = {},
): Record<string, string> {
  const f = folder(id);
  const files: Record<string, string> = {
    [`${f}/metadata.json`]: JSON.stringify({
      checkpoint_id: id,
      strategy: "manual-commit",
      sessions: [{ metadata: `/${f}/0/metadata.json`, transcript: `/${f}/0/transcript.jsonl` }],
    }),
    [`${f}/0/metadata.json`]: sessionMeta(id, opts.meta),
    [`${f}/0/prompt.txt`]: "add a file with three lines\n",
    [`${f}/0/content_hash.txt`]: "sha256:00\n",
  };
  if (opts.compact !== false) {
    files[`${f}/0/transcript.jsonl`] = COMPACT;
    files[`${f}/0/transcript_hash.txt`] = "sha256:11\n";
  }
  return files;
}

/** The code history: a base commit, then the commit carrying the trailers. */
function codeHistory(fx: Fixture, ids: string[]): string {
  fx.commit("initial", { "README.md": "readme\n" });
  return fx.commit(`Add three\n\n${ids.map((id) => `Entire-Checkpoint: ${id}`).join("\n")}`, {
    "src/three.txt": THREE,
  });
}

const codes = (rows: readonly Diagnostic[], code: string) => rows.filter((d) => d.code === code);

describe("checkpoints v2: refs", () => {
  test("findEntireRefs recognises v2/main and the full generations; other v2 names are malformed", () => {
    const ref = (name: string) => ({ name, sha: "1".repeat(40), type: "commit", peeled: null, peeledType: null });
    const found = findEntireRefs([
      ref("refs/entire/checkpoints/v2/full/0000000000001"),
      ref("refs/entire/checkpoints/v2/full/0000000000010"),
      ref("refs/entire/checkpoints/v2/full/0000000000002"),
      ref("refs/entire/checkpoints/v2/full/current"),
      ref("refs/entire/checkpoints/v2/full/latest"),
      ref("refs/entire/checkpoints/v2/main"),
      ref("refs/entire/checkpoints/v2/other"),
      // a (lower-case) ULID whose last two characters are "v2" is a per-checkpoint ref, not v2 storage
      ref("refs/entire/checkpoints/v2/01kvbjcwya4yw6j5m9gp6557v2"),
    ]);
    assert.equal(found.v2Main?.name, V2_MAIN);
    // current first, then archived generations newest (largest number) first: 10, 2, 1
    assert.deepEqual(
      found.v2Full.map((f) => f.generation),
      ["current", "0000000000010", "0000000000002", "0000000000001"],
    );
    assert.deepEqual(
      found.malformed.map((r) => r.name),
      ["refs/entire/checkpoints/v2/full/latest", "refs/entire/checkpoints/v2/other"],
    );
    assert.deepEqual(
      found.checkpointRefs.map((r) => [r.checkpoint_id, r.shard_ok]),
      [["01kvbjcwya4yw6j5m9gp6557v2", true]],
    );
    assert.deepEqual(found.branches, []);
    assert.equal(hasEntireCheckpoints(found), true);
  });

  test("v2/main alone makes an Entire repository; full refs alone do not", () => {
    const ref = (name: string) => ({ name, sha: "1".repeat(40), type: "commit", peeled: null, peeledType: null });
    assert.equal(hasEntireCheckpoints(findEntireRefs([ref(V2_MAIN)])), true);
    assert.equal(
      hasEntireCheckpoints(findEntireRefs([ref(V2_CURRENT), ref(V2_GEN(1))])),
      false,
      "raw transcripts without metadata: nothing to read",
    );
  });
});

describe("checkpoints v2: (a) a v2-only repository", () => {
  const fx = new Fixture();
  const log = transcript();
  const work = codeHistory(fx, [CP1]);
  const mainCommit = fx.ref(V2_MAIN, v2MainFolder(CP1));
  const fullCommit = fx.ref(V2_CURRENT, {
    "generation.json": `{"generation":"current"}\n`,
    [`${folder(CP1)}/0/full.jsonl`]: log,
  });
  after(() => fx.close());

  test("readEntireRepository reads the checkpoint from v2/main and its transcript from v2/full/current", async () => {
    assert.equal(await isEntireRepository(fx.dir), true);
    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(fx.dir, sink);
    assert.ok(er);
    try {
      assert.deepEqual(
        er.checkpoints.map((c) => c.checkpoint_id),
        [CP1],
      );
      const source = er.sources.get(CP1)!;
      assert.deepEqual(
        [source.backend, source.ref, source.commit, source.root],
        ["v2", V2_MAIN, mainCommit, `${folder(CP1)}/`],
      );
      assert.deepEqual(source.sessions[0].transcript, {
        kind: "full",
        file: "0/full.jsonl",
        parts: [`${fullCommit}:${folder(CP1)}/0/full.jsonl`],
        blob_missing: false,
        ref: V2_CURRENT,
      });
      const s = er.checkpoints[0].sessions[0];
      // full.jsonl → checkpoint_transcript_start (0), not compact_transcript_start (2)
      assert.deepEqual(
        [s.session_id, s.transcript_path, s.transcript_start, s.agent_label],
        [SESSION, `${folder(CP1)}/0/full.jsonl`, 0, "Claude Code"],
      );
      assert.equal(Buffer.from((await er.readTranscript(CP1, 0))!).toString("utf8"), log);
      assert.deepEqual(
        er.commits.map((c) => [c.sha, c.checkpoint_ids]),
        [[work, [CP1]]],
      );

      assert.deepEqual(codes(sink.rows, "entire-ref-malformed"), []);
      assert.deepEqual(
        codes(sink.rows, "entire-transcript-compact-only"),
        [],
        "the raw transcript was found: the compact one is not used",
      );
      const read = codes(sink.rows, "entire-v2-read");
      assert.equal(read.length, 1);
      assert.equal(read[0].severity, "info");
      // 1 folder on v2/main, not in v1 → "1 only there"; its transcript came from current → 1 of the 1 full refs
      assert.equal(
        read[0].message,
        `1 checkpoint(s) in ${V2_MAIN} (1 only there, read from it); raw transcripts from 1 of 1 full generation(s)`,
      );
      // nothing else is worth a warning here
      assert.deepEqual(
        sink.rows.filter((d) => d.severity !== "info").map((d) => d.code),
        [],
      );
    } finally {
      await er.close();
    }
  });

  test("end to end: analyze gives one unit with the hand-worked counts", async () => {
    const { rows, readAnything } = await analyze({ inputs: [fx.dir] });
    assert.equal(readAnything, true);
    assert.equal(rows.units.length, 1);
    const u = rows.units[0];
    assert.deepEqual(
      [u.commit_sha, u.checkpoint_id, u.session_id, u.ambiguity, u.method],
      [work, CP1, SESSION, null, "git-replay"],
    );
    // see the block comment above: produced 3, final 3, survived 3, human 0, outside 0, total 3, numstat +3
    assert.deepEqual(
      [
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.outside_lines,
        u.total_committed_lines,
        u.numstat_additions,
      ],
      [3, 3, 3, 0, 0, 3, 3],
    );
    assert.equal(rows.sessions.length, 1);
    assert.equal(codes(rows.diagnostics, "entire-ref-malformed").length, 0);
    assert.equal(codes(rows.diagnostics, "entire-v2-read").length, 1);
  });

  test("a raw transcript whose blob is absent from the clone is flagged, as in v1", async () => {
    // Runs last on this fixture: it deletes the loose object of full.jsonl.
    const blob = fx.git(["rev-parse", `${fullCommit}:${folder(CP1)}/0/full.jsonl`]).trim();
    unlinkSync(join(fx.dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(fx.dir, sink);
    assert.ok(er);
    try {
      const t = er.sources.get(CP1)!.sessions[0].transcript!;
      assert.deepEqual([t.kind, t.ref, t.blob_missing], ["full", V2_CURRENT, true]);
      assert.equal(er.checkpoints[0].sessions[0].transcript_path, null);
      assert.equal(await er.readTranscript(CP1, 0), null);
      const flagged = codes(sink.rows, "entire-transcript-blob-missing");
      assert.equal(flagged.length, 1);
      assert.equal(flagged[0].file, `${V2_CURRENT}:${folder(CP1)}/0/full.jsonl`);
      assert.equal(codes(sink.rows, "entire-v2-transcript-pruned").length, 0, "listed but absent is not pruned");
    } finally {
      await er.close();
    }
  });
});

describe("checkpoints v2: (b) the raw transcript only in archived generations", () => {
  const fx = new Fixture();
  const log = transcript();
  const lines = log.slice(0, -1).split("\n"); // 4 records: the prompt, the Write call streamed as 2 records, its result
  // Entire's JSONL split: parts cut at line boundaries, last "\n" of a part trimmed, joined back with "\n".
  const part0 = lines.slice(0, 2).join("\n");
  const part1 = lines.slice(2).join("\n") + "\n";
  const work = codeHistory(fx, [CP1]);
  fx.ref(V2_MAIN, v2MainFolder(CP1));
  // current: only generation.json and another checkpoint's transcript
  fx.ref(V2_CURRENT, { "generation.json": "{}\n", [`${folder(CP2)}/0/full.jsonl`]: "{}\n" });
  // generation 2 (newer) holds the split transcript; generation 1 (older) a different text that must not be read
  const gen2 = fx.ref(V2_GEN(2), {
    "generation.json": "{}\n",
    [`${folder(CP1)}/0/full.jsonl`]: part0,
    [`${folder(CP1)}/0/full.jsonl.001`]: part1,
  });
  fx.ref(V2_GEN(1), { "generation.json": "{}\n", [`${folder(CP1)}/0/full.jsonl`]: "older generation\n" });
  after(() => fx.close());

  test("the newest generation that has it is read, parts in order, with one ls-tree per full ref", async () => {
    assert.ok(lines.length >= 3, "the transcript has enough lines to split");
    // A `git` shim first on PATH logs every invocation (as test/ingest/entire.test.ts does).
    const realGit = execFileSync("sh", ["-c", "command -v git"]).toString().trim();
    const shimDir = join(fx.root, "shim");
    mkdirSync(shimDir);
    const logFile = join(shimDir, "calls.log");
    writeFileSync(join(shimDir, "git"), `#!/bin/sh\necho "$*" >> "${logFile}"\nexec "${realGit}" "$@"\n`, {
      mode: 0o755,
    });
    const savedPath = process.env.PATH;
    process.env.PATH = `${shimDir}:${savedPath}`;
    const sink = new DiagnosticSink("entire");
    let er: EntireRepository | null = null;
    try {
      er = await readEntireRepository(fx.dir, sink);
    } finally {
      process.env.PATH = savedPath;
    }
    assert.ok(er);
    try {
      const t = er.sources.get(CP1)!.sessions[0].transcript!;
      assert.deepEqual(t, {
        kind: "full",
        file: "0/full.jsonl",
        parts: [`${gen2}:${folder(CP1)}/0/full.jsonl`, `${gen2}:${folder(CP1)}/0/full.jsonl.001`],
        blob_missing: false,
        ref: V2_GEN(2),
      });
      assert.equal(
        Buffer.from((await er.readTranscript(CP1, 0))!).toString("utf8"),
        log,
        "part0 + \\n + part1 is the whole log",
      );
      // CP2's transcript in current belongs to no checkpoint: 1 generation used of the 3 listed
      assert.equal(
        codes(sink.rows, "entire-v2-read")[0].message,
        `1 checkpoint(s) in ${V2_MAIN} (1 only there, read from it); raw transcripts from 1 of 3 full generation(s)`,
      );
      assert.equal(codes(sink.rows, "entire-v2-transcript-pruned").length, 0);
    } finally {
      await er.close();
    }
    const lsTree = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .filter((c) => / ls-tree /.test(c));
    // v2/main once, then current, generation 2 and generation 1 once each: 4
    assert.equal(lsTree.length, 4, lsTree.join("\n"));
  });

  test("end to end: the same unit counts from the joined parts", async () => {
    const { rows } = await analyze({ inputs: [fx.dir] });
    assert.equal(rows.units.length, 1);
    const u = rows.units[0];
    assert.equal(u.commit_sha, work);
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
      [3, 3, 3, 0, 3],
    );
  });
});

describe("checkpoints v2: (c) raw transcript pruned everywhere", () => {
  const fx = new Fixture();
  codeHistory(fx, [CP1, CP2]);
  // CP1 keeps its compact transcript on v2/main; CP2 has none either.
  const mainCommit = fx.ref(V2_MAIN, { ...v2MainFolder(CP1), ...v2MainFolder(CP2, { compact: false }) });
  fx.ref(V2_CURRENT, { "generation.json": "{}\n" });
  after(() => fx.close());

  test("falls back to the compact transcript.jsonl on v2/main and says why", async () => {
    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(fx.dir, sink);
    assert.ok(er);
    try {
      const t = er.sources.get(CP1)!.sessions[0].transcript!;
      assert.deepEqual(t, {
        kind: "compact",
        file: "0/transcript.jsonl",
        parts: [`${mainCommit}:${folder(CP1)}/0/transcript.jsonl`],
        blob_missing: false,
        ref: V2_MAIN,
      });
      const s = er.checkpoints.find((c) => c.checkpoint_id === CP1)!.sessions[0];
      // compact transcript → compact_transcript_start (2), not checkpoint_transcript_start (0)
      assert.deepEqual([s.transcript_path, s.transcript_start], [`${folder(CP1)}/0/transcript.jsonl`, 2]);
      assert.equal(Buffer.from((await er.readTranscript(CP1, 0))!).toString("utf8"), COMPACT);

      const pruned = codes(sink.rows, "entire-v2-transcript-pruned");
      assert.equal(pruned.length, 1, "CP1 only: CP2 has nothing to fall back to");
      assert.equal(pruned[0].severity, "info");
      assert.match(pruned[0].message, /not found in any v2 full generation \(pruned by retention or not fetched\)/);
      assert.equal(pruned[0].file, `${V2_MAIN}:${folder(CP1)}/0/transcript.jsonl`);
      assert.equal(codes(sink.rows, "entire-transcript-compact-only").length, 0, "one row per fact");

      // CP2: no raw transcript anywhere, no compact one: missing (the folder still counts)
      assert.equal(er.sources.get(CP2)!.sessions[0].transcript, null);
      assert.equal(er.checkpoints.find((c) => c.checkpoint_id === CP2)!.sessions[0].transcript_path, null);
      const missing = codes(sink.rows, "entire-transcript-missing");
      assert.equal(missing.length, 1);
      assert.match(missing[0].message, /no full\.jsonl in any v2 full generation and no transcript\.jsonl/);

      // 2 folders, both only on v2/main; no transcript came from the one full generation
      assert.equal(
        codes(sink.rows, "entire-v2-read")[0].message,
        `2 checkpoint(s) in ${V2_MAIN} (2 only there, read from it); raw transcripts from 0 of 1 full generation(s)`,
      );
    } finally {
      await er.close();
    }
  });
});

describe("checkpoints v2: (d) dual write, v1 and v2", () => {
  const fx = new Fixture();
  const log = transcript();
  codeHistory(fx, [CP1, CP2, CP3]);
  const v1Folder = (id: string) => {
    const files = v2MainFolder(id);
    files[`${folder(id)}/0/full.jsonl`] = log;
    return files;
  };
  // CP1: same metadata in v1 and v2. CP2: v2's session metadata names another agent. CP3: v2 only.
  fx.ref("refs/heads/entire/checkpoints/v1", { ...v1Folder(CP1), ...v1Folder(CP2) });
  fx.ref(V2_MAIN, { ...v2MainFolder(CP1), ...v2MainFolder(CP2, { meta: { agent: "Codex" } }), ...v2MainFolder(CP3) });
  fx.ref(V2_CURRENT, {
    "generation.json": "{}\n",
    [`${folder(CP1)}/0/full.jsonl`]: log,
    [`${folder(CP2)}/0/full.jsonl`]: log,
    [`${folder(CP3)}/0/full.jsonl`]: log,
  });
  after(() => fx.close());

  test("a checkpoint in both is read once, from v1; only different metadata is reported", async () => {
    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(fx.dir, sink);
    assert.ok(er);
    try {
      assert.deepEqual(
        er.checkpoints.map((c) => c.checkpoint_id),
        [CP1, CP2, CP3],
      );
      const v1 = "refs/heads/entire/checkpoints/v1";
      assert.deepEqual(
        [CP1, CP2, CP3].map((id) => [er.sources.get(id)!.backend, er.sources.get(id)!.ref]),
        [
          ["branch", v1],
          ["branch", v1],
          ["v2", V2_MAIN],
        ],
      );
      // CP1's transcript is v1's inline full.jsonl; CP3's comes from the full ref
      assert.equal(er.sources.get(CP1)!.sessions[0].transcript!.ref, v1);
      assert.equal(er.sources.get(CP3)!.sessions[0].transcript!.ref, V2_CURRENT);
      assert.equal(
        er.checkpoints.find((c) => c.checkpoint_id === CP2)!.sessions[0].agent_label,
        "Claude Code",
        "v1's copy wins",
      );

      const dup = codes(sink.rows, "entire-checkpoint-duplicate");
      assert.equal(
        dup.length,
        1,
        "CP1's expected copy (no full.jsonl on v2/main) is not a duplicate; CP2's other metadata is",
      );
      assert.match(
        dup[0].message,
        new RegExp(`^checkpoint ${CP2} is in ${v1} and in ${V2_MAIN} with other metadata \\(0/metadata\\.json\\)`),
      );
      // 3 folders on v2/main; CP3 only there; its transcript from current, the only full ref
      assert.equal(
        codes(sink.rows, "entire-v2-read")[0].message,
        `3 checkpoint(s) in ${V2_MAIN} (1 only there, read from it); raw transcripts from 1 of 1 full generation(s)`,
      );
    } finally {
      await er.close();
    }
  });

  test("when every v2 checkpoint is also in v1, the full refs are not needed", async () => {
    const fx2 = new Fixture();
    try {
      codeHistory(fx2, [CP1]);
      fx2.ref("refs/heads/entire/checkpoints/v1", v1Folder(CP1));
      fx2.ref(V2_MAIN, v2MainFolder(CP1));
      fx2.ref(V2_CURRENT, { [`${folder(CP1)}/0/full.jsonl`]: log });
      const sink = new DiagnosticSink("entire");
      const er = await readEntireRepository(fx2.dir, sink);
      assert.ok(er);
      try {
        assert.equal(er.sources.get(CP1)!.backend, "branch");
        assert.equal(codes(sink.rows, "entire-checkpoint-duplicate").length, 0);
        assert.equal(
          codes(sink.rows, "entire-v2-read")[0].message,
          `1 checkpoint(s) in ${V2_MAIN} (none read from it: every one is also in v1 or its own ref)`,
        );
      } finally {
        await er.close();
      }
      // one unit, from v1, with the same hand-worked counts as (a)
      const { rows } = await analyze({ inputs: [fx2.dir] });
      assert.equal(rows.units.length, 1);
      assert.deepEqual(
        [rows.units[0].agent_lines_produced, rows.units[0].agent_lines_survived, rows.units[0].total_committed_lines],
        [3, 3, 3],
      );
    } finally {
      fx2.close();
    }
  });
});

describe("checkpoints v2: (e) a stray ref under v2/", () => {
  const fx = new Fixture();
  codeHistory(fx, [CP1]);
  const mainCommit = fx.ref(V2_MAIN, v2MainFolder(CP1));
  fx.ref(V2_CURRENT, { [`${folder(CP1)}/0/full.jsonl`]: transcript() });
  fx.git(["update-ref", "refs/entire/checkpoints/v2/other", mainCommit]);
  after(() => fx.close());

  test("refs/entire/checkpoints/v2/other is malformed; the rest is read", async () => {
    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(fx.dir, sink);
    assert.ok(er);
    try {
      const bad = codes(sink.rows, "entire-ref-malformed");
      assert.deepEqual(
        bad.map((d) => [d.severity, d.file]),
        [["warning", "refs/entire/checkpoints/v2/other"]],
      );
      assert.deepEqual(
        er.checkpoints.map((c) => c.checkpoint_id),
        [CP1],
      );
      assert.equal(er.sources.get(CP1)!.sessions[0].transcript!.ref, V2_CURRENT);
    } finally {
      await er.close();
    }
  });
});
