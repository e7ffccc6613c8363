/**
 * Entire's compact `transcript.jsonl` as a stand-in for a raw `full.jsonl`
 * that cannot be read, in a REAL repository (`git init` in a temp folder)
 * with a v1 checkpoints branch. Newer Entire CLIs store both files in a
 * session folder; the raw one may be in a format no adapter reads (Cursor,
 * Copilot CLI, Factory Droid…) or its blob may be absent from a partial
 * clone. The compact one is then read, sliced at `compact_transcript_start`.
 *
 * Hand-worked, per metrics.md §4 (every session starts at line 0 of its file):
 *
 * - commit A adds src/three.txt = "one\ntwo\nthree\n", checkpoint CP_CURSOR.
 *   Its full.jsonl is Cursor's own log (not a format we read); the compact
 *   transcript holds one Write of those 3 lines. Produced 3, final 3, the
 *   commit adds the 3 lines unchanged: survived 3, human 0, total 3.
 * - commit B adds src/two.txt = "a\nb\nc\n", checkpoint CP_PARTIAL. Its
 *   full.jsonl (Claude Code) is listed but its blob is gone; the compact
 *   transcript Writes "a\nb\n". Produced 2, final 2; the person added "c":
 *   survived 2, human 1, total 3.
 * - commit C adds src/one.txt = "x\n", checkpoint CP_BOTH: a readable
 *   Claude Code full.jsonl that Writes "x\n" and a compact transcript that
 *   says nothing of it. The raw one is read (produced 1, survived 1), with
 *   checkpoint_transcript_start 0, not compact_transcript_start 7.
 * - commit D adds src/none.txt, checkpoint CP_NEITHER: the raw transcript
 *   unreadable and the compact one too: no counts, transcript-unreadable.
 * - commits E and F: one session in two checkpoints, neither with a slice
 *   start; E's copy is read raw (4 records), F's from its compact transcript
 *   (3 lines). A start is inferred only from an earlier copy of the same
 *   kind: 3 compact lines say nothing about where E's raw part starts.
 */
import assert from "node:assert/strict";
import { rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { analyze } from "../../src/index";
import type { Diagnostic, UnitRow } from "../../src/model";
import { checkpointFolder as folder, claudeWriteTranscript, oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const CP_CURSOR = "c0000000000a";
const CP_PARTIAL = "c0000000000b";
const CP_BOTH = "c0000000000c";
const CP_NEITHER = "c0000000000d";
const CP_MULTI_RAW = "c0000000000e";
const CP_MULTI_COMPACT = "c0000000000f";

/** Entire's compact lines (the format of src/ingest/entire-compact/README.md): a prompt, then one Write with its inlined result. */
function compactWrite(agent: string, path: string, content: string): string {
  const head = { v: 1, agent, cli_version: "0.60.0" };
  return (
    [
      { ...head, type: "user", ts: "2026-03-02T11:00:00.000Z", content: [{ id: "prompt-1", text: `create ${path}` }] },
      {
        ...head,
        type: "assistant",
        ts: "2026-03-02T11:00:05.000Z",
        id: "msg_1",
        input_tokens: 100,
        output_tokens: 50,
        content: [
          { type: "text", text: "Writing it." },
          {
            type: "tool_use",
            id: "call_1",
            name: "Write",
            input: { file_path: `${ROOT}/${path}`, content },
            result: { output: "File created successfully", status: "success" },
          },
        ],
      },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n"
  );
}

/** Cursor's own agent log: JSON lines of a shape no adapter here reads. */
const CURSOR_LOG = `{"role":"user","message":{"content":[{"type":"text","text":"create src/three.txt"}]}}\n{"role":"assistant","message":{"content":[{"type":"text","text":"done"}]}}\n`;

const claudeWrite = (sessionId: string, path: string, content: string) =>
  claudeWriteTranscript(sessionId, ROOT, path, content);

function checkpoint(
  id: string,
  session: string,
  agent: string,
  files: { full?: string; compact?: string },
  starts: { checkpoint_transcript_start: number; compact_transcript_start: number },
): Record<string, string> {
  const transcripts: Record<string, string> = {};
  if (files.full !== undefined) transcripts["full.jsonl"] = files.full;
  if (files.compact !== undefined) transcripts["transcript.jsonl"] = files.compact;
  return oneSessionCheckpoint(
    id,
    JSON.stringify({ checkpoint_id: id, session_id: session, agent, created_at: "2026-03-02T11:01:00Z", ...starts }),
    transcripts,
  );
}

describe("Entire: the compact transcript stands in for a raw one that cannot be read", () => {
  const repo = new TestRepo("sce-compact-fallback-");
  const sha: Record<string, string> = {};
  let units: UnitRow[] = [];
  let diagnostics: Diagnostic[] = [];
  const unit = (id: string) => units.find((u) => u.checkpoint_id === id)!;
  const about = (id: string, code: string) => diagnostics.filter((d) => d.code === code && d.message.includes(id));

  before(async () => {
    repo.commit("initial", { "README.md": "readme\n" });
    sha.A = repo.commit(`Add three\n\nEntire-Checkpoint: ${CP_CURSOR}`, { "src/three.txt": "one\ntwo\nthree\n" });
    sha.B = repo.commit(`Add two\n\nEntire-Checkpoint: ${CP_PARTIAL}`, { "src/two.txt": "a\nb\nc\n" });
    sha.C = repo.commit(`Add one\n\nEntire-Checkpoint: ${CP_BOTH}`, { "src/one.txt": "x\n" });
    sha.D = repo.commit(`Add none\n\nEntire-Checkpoint: ${CP_NEITHER}`, { "src/none.txt": "n\n" });
    sha.E = repo.commit(`Add e\n\nEntire-Checkpoint: ${CP_MULTI_RAW}`, { "src/e.txt": "e\n" });
    sha.F = repo.commit(`Add f\n\nEntire-Checkpoint: ${CP_MULTI_COMPACT}`, { "src/f.txt": "f\n" });
    const zero = { checkpoint_transcript_start: 0, compact_transcript_start: 0 };
    repo.checkpointsBranch({
      ...checkpoint(
        CP_CURSOR,
        "s-cursor",
        "Cursor",
        { full: CURSOR_LOG, compact: compactWrite("cursor", "src/three.txt", "one\ntwo\nthree\n") },
        zero,
      ),
      ...checkpoint(
        CP_PARTIAL,
        "s-partial",
        "Claude Code",
        {
          full: claudeWrite("s-partial", "src/two.txt", "a\nb\n"),
          compact: compactWrite("claude-code", "src/two.txt", "a\nb\n"),
        },
        zero,
      ),
      ...checkpoint(
        CP_BOTH,
        "s-both",
        "Claude Code",
        {
          full: claudeWrite("s-both", "src/one.txt", "x\n"),
          compact: `{"v":1,"agent":"claude-code","type":"user","ts":"2026-03-02T11:00:00.000Z","content":[{"text":"hi"}]}\n`,
        },
        { checkpoint_transcript_start: 0, compact_transcript_start: 7 },
      ),
      ...checkpoint(CP_NEITHER, "s-neither", "Cursor", { full: CURSOR_LOG, compact: "not json at all\n" }, zero),
      ...checkpoint(CP_MULTI_RAW, "s-multi", "Claude Code", { full: claudeWrite("s-multi", "src/e.txt", "e\n") }, zero),
      ...checkpoint(
        CP_MULTI_COMPACT,
        "s-multi",
        "Cursor",
        {
          full: CURSOR_LOG,
          compact:
            compactWrite("cursor", "src/f.txt", "f\n") +
            `{"v":1,"agent":"cursor","type":"user","ts":"2026-03-02T11:02:00.000Z","content":[{"text":"thanks"}]}\n`,
        },
        zero,
      ),
    });
    // A partial clone: the raw transcript of CP_PARTIAL is listed on the branch but its blob is absent.
    const blob = repo.git("rev-parse", `refs/heads/entire/checkpoints/v1:${folder(CP_PARTIAL)}/0/full.jsonl`).trim();
    unlinkSync(join(repo.dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    const result = await analyze({ inputs: [repo.dir], threads: 1 });
    units = result.rows.units;
    diagnostics = result.rows.diagnostics;
  });
  after(() => rmSync(repo.dir, { recursive: true, force: true }));

  const counts = (u: UnitRow) => [
    u.agent_lines_produced,
    u.agent_lines_final,
    u.agent_lines_survived,
    u.human_lines,
    u.outside_lines,
    u.total_committed_lines,
  ];

  test("a raw transcript in a format no adapter reads: the compact one gives the unit its counts, and says so", () => {
    const u = unit(CP_CURSOR);
    assert.deepEqual([u.commit_sha, u.ambiguity, u.method, u.agent], [sha.A, null, "git-replay", "Cursor"]);
    assert.deepEqual(counts(u), [3, 3, 3, 0, 0, 3]);
    const fallback = about(CP_CURSOR, "entire-compact-fallback");
    assert.equal(fallback.length, 1);
    assert.equal(fallback[0].severity, "info");
    assert.match(
      fallback[0].message,
      /format not recognised from its content \(labelled "Cursor"\); Entire's compact transcript\.jsonl is read instead \(its slice from line 1/,
    );
    assert.equal(about(CP_CURSOR, "transcript-unreadable").length, 0, "read after all: not an error");
  });

  test("a raw transcript whose blob is absent from the clone: the compact one is read", () => {
    const u = unit(CP_PARTIAL);
    assert.deepEqual([u.commit_sha, u.ambiguity, u.agent], [sha.B, null, "Claude Code"]);
    assert.deepEqual(counts(u), [2, 2, 2, 1, 0, 3]);
    assert.match(
      about(CP_PARTIAL, "entire-compact-fallback")[0].message,
      /the raw transcript is absent from this clone/,
    );
    assert.equal(about(CP_PARTIAL, "entire-transcript-blob-missing").length, 1, "the missing blob is still reported");
    assert.equal(diagnostics.filter((d) => d.code === "transcript-missing").length, 0);
  });

  test("a readable raw transcript is read, with its own slice start; the compact one is not used", () => {
    const u = unit(CP_BOTH);
    assert.deepEqual(counts(u), [1, 1, 1, 0, 0, 1]);
    assert.equal(about(CP_BOTH, "entire-compact-fallback").length, 0);
  });

  test("neither readable: no counts, one error naming both reasons, and the unit is explained", () => {
    const u = unit(CP_NEITHER);
    assert.deepEqual(counts(u), [null, null, null, null, null, null]);
    assert.equal(u.ambiguity, "transcript-unreadable");
    const errors = diagnostics.filter((d) => d.code === "transcript-unreadable" && d.session_id === "s-neither");
    assert.equal(errors.length, 1);
    assert.match(
      errors[0].message,
      /format not recognised from its content \(labelled "Cursor"\); the compact transcript\.jsonl could not be read either/,
    );
  });

  test("a slice start is inferred only from an earlier copy of the same kind", () => {
    assert.equal(
      diagnostics.filter((d) => d.code === "transcript-start-inferred" && d.session_id === "s-multi").length,
      0,
    );
    assert.equal(about(CP_MULTI_COMPACT, "entire-compact-fallback").length, 1);
    // Each copy replays its own Write: E's raw part from line 1, F's compact part from line 1.
    assert.deepEqual([unit(CP_MULTI_RAW).agent_lines_produced, unit(CP_MULTI_COMPACT).agent_lines_produced], [1, 1]);
  });
});
