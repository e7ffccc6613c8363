import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { attributeUnit, readTranscriptByContent } from "../../src/analyze";
import { DiagnosticSink } from "../../src/model";
import { corpusPath, sharedCorpusPath, sharedCorpusSkip } from "../helpers/corpus";

const CORPUS = corpusPath();
const CHANGELOG = join(CORPUS, "entire", "entireio-cli-changelog");
const read = (p: string) => readFileSync(join(CHANGELOG, p), "utf8");

async function replayChangelog(checkpoint: string, commit: string, parent: string | null) {
  const sink = new DiagnosticSink("test");
  const meta = JSON.parse(read(`${checkpoint}/0/metadata.json`));
  const outcome = readTranscriptByContent(
    readFileSync(join(CHANGELOG, checkpoint, "0", "full.jsonl")),
    "full.jsonl",
    meta.agent,
    sink,
  );
  assert.ok(outcome.ok);
  const counts = await attributeUnit(
    outcome.session,
    meta.checkpoint_transcript_start ?? meta.transcript_lines_at_start ?? 0,
    {
      changed: [{ path: "CHANGELOG.md", binary: false }],
      readBase: async (p) => (p === "CHANGELOG.md" ? parent : null),
      readCommit: async (p) => (p === "CHANGELOG.md" ? read(`commits/${commit}/CHANGELOG.commit.md`) : null),
      exists: (p) => p === "CHANGELOG.md",
    },
    sink,
  );
  return { counts, entire: meta.initial_attribution };
}

test("real CHANGELOG Edit session (entireio/cli a6b9dfed) replayed on the real file states", async () => {
  // The agent's one Edit replaces the "## [0.4.3]" heading by a 25-line block that
  // ends with that heading: 24 inserted lines (the file goes from 37 to 61 lines).
  // Before committing, the person rewrote that block: final → commit deletes 7
  // agent lines (line 12, lines 16–19, 25, 29) and inserts 4 (one rewording of
  // line 12, two lines for the four of 16–19, one new "Agent settings.json" line).
  // git adds 21 lines (37 → 58, one block after line 7): 21 − 4 = 17 are the
  // agent's lines kept verbatim, 4 are the person's.
  const { counts, entire } = await replayChangelog(
    "5d/755497c182",
    "a6b9dfed",
    read("commits/a6b9dfed/CHANGELOG.parent.md"),
  );
  assert.deepEqual(
    [
      counts.agent_lines_produced,
      counts.agent_lines_final,
      counts.agent_lines_survived,
      counts.human_lines,
      counts.outside_lines,
      counts.total_committed_lines,
    ],
    [24, 24, 17, 4, 0, 21],
  );
  assert.equal(counts.unreplayable_calls, 0);
  assert.equal(counts.outside_changes, 0); // the Edit's originalFile is the parent's file, byte for byte
  // Beside Entire's count-based estimate: 18 agent of 22 (81.8 %); ours 17 of 21 (81.0 %).
  assert.deepEqual([entire.agent_lines, entire.total_committed], [18, 22]);
});

test("real CHANGELOG Write session (entireio/cli 11e74530) replayed on the real file states", async () => {
  // The session creates CHANGELOG.md with one Write of 37 lines, committed unchanged
  // (the file did not exist at the parent): 37 produced, final, survived and committed.
  const { counts, entire } = await replayChangelog("60/61721bc409", "11e74530", null);
  assert.deepEqual(
    [
      counts.agent_lines_produced,
      counts.agent_lines_final,
      counts.agent_lines_survived,
      counts.human_lines,
      counts.outside_lines,
      counts.total_committed_lines,
    ],
    [37, 37, 37, 0, 0, 37],
  );
  assert.deepEqual([entire.agent_lines, entire.total_committed, entire.agent_percentage], [37, 37, 100]);
});

/** Every transcript under `root` (by extension; Entire's metadata.json excluded), read by content: how many each adapter read. */
function readEveryTranscript(root: string): Map<string, number> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(jsonl|json|traj)$/.test(name) && !name.endsWith("metadata.json")) files.push(p);
    }
  };
  walk(root);
  assert.ok(files.length > 0, `no transcript under ${root}`);
  const outcomes = new Map<string, number>();
  for (const file of files) {
    const sink = new DiagnosticSink("corpus", file);
    const outcome = readTranscriptByContent(readFileSync(file), file, null, sink);
    const key = outcome.ok ? outcome.session.source : "not-read";
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    // Anything not read says why, in a diagnostic or the outcome's message.
    if (!outcome.ok) assert.ok(outcome.message.length > 0);
  }
  return outcomes;
}

test("every transcript among the sample files is read by content without a crash", () => {
  const outcomes = readEveryTranscript(CORPUS);
  // Claude Code transcripts: c6/0, c6/1, the two CHANGELOG sessions and the 1.0.51 excerpt.
  assert.equal(outcomes.get("claude-code"), 5);
  // The other agents' transcripts, read by their own adapters: the Gemini document ab/2b9748b105, the two OpenCode
  // exports of 01/25fb057a68.
  assert.equal(outcomes.get("gemini"), 1);
  assert.equal(outcomes.get("opencode"), 2);
  // Not transcripts: the SWE-bench reports (4), the SWE-agent trajectories and predictions (3).
  assert.equal(outcomes.get("not-read"), 7);
});

test("the Codex rollout of the shared corpus is read by its own adapter", { skip: sharedCorpusSkip }, () => {
  // c3/b191fe1158 (fc's is not duplicated in the corpus).
  assert.deepEqual([...readEveryTranscript(sharedCorpusPath("entire", "entireio-external-agents"))], [["codex", 1]]);
});
