/**
 * An Entire repository as a damaged or odd clone leaves it (a REAL
 * repository, `git init` in a temp folder): each fault is reported where it
 * is, and the rest of the analysis goes on. Found by running `analyze` on
 * mutated copies of the development repository.
 *
 * - commit A adds a.txt ("a1\na2\n"), checkpoint CP_PAST: its Claude Code
 *   transcript Writes those 2 lines, but its metadata (with a byte-order
 *   mark) says the checkpoint's part starts after line 999, and the
 *   transcript has 4 lines. Replaying nothing would make both committed
 *   lines human; the unit is not attributed (counts null) and is excluded.
 * - commit B adds b.txt ("b1\n"), checkpoint CP_GAP: full.jsonl plus
 *   full.jsonl.002 with no .001: read, with a warning about the gap.
 * - a branch naming an object the clone does not have (`ghost`), and the
 *   object of an early commit deleted: both reported; units still formed
 *   from what can be walked.
 */
import assert from "node:assert/strict";
import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { analyze } from "../../src/index";
import type { Diagnostic, UnitRow } from "../../src/model";
import { claudeWriteTranscript, oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const CP_PAST = "d0000000000a";
const CP_GAP = "d0000000000b";

const claudeWrite = (sessionId: string, path: string, content: string) =>
  claudeWriteTranscript(sessionId, ROOT, path, content);

describe("Entire: a damaged clone", () => {
  const repo = new TestRepo("sce-entire-damaged-");
  const sha: Record<string, string> = {};
  let units: UnitRow[] = [];
  let diagnostics: Diagnostic[] = [];
  let exitOk = false;
  const codes = (code: string) => diagnostics.filter((d) => d.code === code);

  before(async () => {
    repo.commit("initial", { "README.md": "readme\n" });
    sha.early = repo.commit("early work", { "notes.txt": "n\n" });
    sha.A = repo.commit(`Add a\n\nEntire-Checkpoint: ${CP_PAST}`, { "a.txt": "a1\na2\n" });
    sha.B = repo.commit(`Add b\n\nEntire-Checkpoint: ${CP_GAP}`, { "b.txt": "b1\n" });
    const log = claudeWrite("s-past", "a.txt", "a1\na2\n");
    assert.equal(log.trimEnd().split("\n").length, 4, "the transcript has 4 lines");
    // The second transcript split in three parts with the middle one missing: Entire cuts parts at line ends and
    // trims the last newline; the first two lines here, the rest in .002.
    const gapLines = claudeWrite("s-gap", "b.txt", "b1\n").trimEnd().split("\n");
    repo.checkpointsBranch({
      ...oneSessionCheckpoint(
        CP_PAST,
        "\uFEFF" +
          JSON.stringify({
            checkpoint_id: CP_PAST,
            session_id: "s-past",
            agent: "Claude Code",
            checkpoint_transcript_start: 999,
          }),
        { "full.jsonl": log },
      ),
      ...oneSessionCheckpoint(
        CP_GAP,
        JSON.stringify({
          checkpoint_id: CP_GAP,
          session_id: "s-gap",
          agent: "Claude Code",
          checkpoint_transcript_start: 0,
        }),
        {
          "full.jsonl": gapLines.slice(0, 2).join("\n"),
          "full.jsonl.002": gapLines.slice(2).join("\n"),
        },
      ),
    });
    // A branch naming an object this clone never had, and an early commit's object gone.
    writeFileSync(join(repo.dir, ".git", "refs", "heads", "ghost"), "1234567890123456789012345678901234567890\n");
    unlinkSync(join(repo.dir, ".git", "objects", sha.early.slice(0, 2), sha.early.slice(2)));
    const result = await analyze({ inputs: [repo.dir], threads: 1 });
    exitOk = result.readAnything;
    units = result.rows.units;
    diagnostics = result.rows.diagnostics;
  });
  after(() => rmSync(repo.dir, { recursive: true, force: true }));

  test("a ref to an absent object and an absent commit are reported; the repository is still read", () => {
    assert.equal(exitOk, true);
    assert.equal(codes("git-ref-object-missing").length, 1);
    assert.match(
      codes("git-ref-object-missing")[0].message,
      /refs\/heads\/ghost points at 123456789012, which is absent/,
    );
    const incomplete = codes("git-history-incomplete");
    assert.equal(incomplete.length, 1);
    assert.equal(incomplete[0].severity, "error");
    assert.equal(codes("entire-checkpoints-not-fetched").length, 0);
    // git shows a commit only after reading its parents: A's parent is the deleted commit, so A is not reached, and
    // its checkpoint is on no commit (explained by the error above); B is reached.
    assert.deepEqual(
      units.map((u) => [u.checkpoint_id, u.commit_sha]),
      [[CP_GAP, sha.B]],
    );
  });

  test("a slice start past the end of the transcript: not attributed, excluded, and said (a BOM in metadata.json is fine)", async () => {
    // The same repository without the damage above, so that commit A is reached.
    const clean = new TestRepo("sce-entire-past-");
    try {
      clean.commit("initial", { "README.md": "readme\n" });
      const a = clean.commit(`Add a\n\nEntire-Checkpoint: ${CP_PAST}`, { "a.txt": "a1\na2\n" });
      clean.checkpointsBranch(
        oneSessionCheckpoint(
          CP_PAST,
          "\uFEFF" +
            JSON.stringify({
              checkpoint_id: CP_PAST,
              session_id: "s-past",
              agent: "Claude Code",
              checkpoint_transcript_start: 999,
            }),
          {
            "full.jsonl": claudeWrite("s-past", "a.txt", "a1\na2\n"),
          },
        ),
      );
      const { rows } = await analyze({ inputs: [clean.dir], threads: 1 });
      const u = rows.units.find((x) => x.checkpoint_id === CP_PAST)!;
      assert.equal(u.commit_sha, a);
      assert.equal(u.ambiguity, "transcript-unreadable");
      assert.deepEqual(
        [u.agent_lines_produced, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
        [null, null, null, null],
      );
      const past = rows.diagnostics.filter((d) => d.code === "transcript-start-past-end");
      assert.equal(past.length, 1);
      assert.match(past[0].message, /starts after record 999, but the stored transcript has 4/);
      assert.equal(
        rows.diagnostics.filter((d) => d.code === "entire-metadata-invalid").length,
        0,
        "the byte-order mark is not an error",
      );
      assert.equal(rows.diagnostics.filter((d) => d.code === "unit-excluded" && d.message.includes(CP_PAST)).length, 1);
    } finally {
      rmSync(clean.dir, { recursive: true, force: true });
    }
  });

  test("transcript parts with a gap: read as stored, with a warning naming the missing part", () => {
    const gap = codes("entire-transcript-part-missing");
    assert.equal(gap.length, 1);
    assert.match(gap[0].message, /full\.jsonl\.001 missing between the stored parts/);
    const u = units.find((x) => x.checkpoint_id === CP_GAP)!;
    // The Write is in the .002 part: b.txt's one line is the agent's and survives.
    assert.deepEqual([u.agent_lines_produced, u.agent_lines_survived, u.total_committed_lines], [1, 1, 1]);
  });
});
