import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { analyze } from "../../src/analyze";
import { generateSampleCorpus } from "../../src/sample/generate";

const corpus = generateSampleCorpus(mkdtempSync(join(tmpdir(), "sce-sample-")));

test("analyze on the bundled sample corpus gives every unit's hand-worked counts", async () => {
  const sample = await corpus;
  const { rows, readAnything } = await analyze({ inputs: [sample.repoDir] });
  assert.equal(readAnything, true);
  const key = (sha: string, session: string) => `${sha} ${session}`;
  const got = new Map(rows.units.map((u) => [key(u.commit_sha, u.session_id), u]));
  assert.equal(rows.units.length, sample.expected.length, "one unit per expected (session, commit)");
  for (const e of sample.expected) {
    const u = got.get(key(e.commit_sha, e.session_id));
    assert.ok(u, `scenario ${e.scenario}: no unit for ${e.commit} ${e.session_key}`);
    assert.deepEqual(
      {
        ambiguity: u.ambiguity,
        produced: u.agent_lines_produced,
        final: u.agent_lines_final,
        survived: u.agent_lines_survived,
        human: u.human_lines,
        outside: u.outside_lines,
        committed: u.total_committed_lines,
        outside_changes: u.outside_changes,
        unreplayable: u.unreplayable_calls,
        entire: [u.entire_agent_lines, u.entire_total_committed],
      },
      {
        ambiguity: e.ambiguity,
        produced: e.agent_lines_produced,
        final: e.agent_lines_final,
        survived: e.agent_lines_survived,
        human: e.human_lines,
        outside: e.outside_lines,
        committed: e.total_committed_lines,
        outside_changes: e.outside_changes,
        unreplayable: e.unreplayable_calls,
        entire: [e.entire_agent_lines, e.entire_total_committed],
      },
      `scenario ${e.scenario} (${e.commit}, ${e.session_key}): ${e.why}`,
    );
  }
  // Every excluded unit is explained by a diagnostic or its ambiguity reason.
  assert.ok(rows.diagnostics.some((d) => d.code === "transcript-missing"));
  assert.ok(rows.diagnostics.some((d) => d.code === "agent-label-mismatch"), "the Gemini-labelled Claude transcript is noticed");
});

test("analyze on the sample's Claude Code projects folder with --repo links sessions by time and files", async () => {
  const sample = await corpus;
  const { rows } = await analyze({ inputs: [sample.claudeProjectsDir], repo: sample.repoDir });
  assert.equal(rows.sessions.length, sample.sessions.filter((s) => s.transcript !== null).length);
  assert.ok(rows.units.length > 0);
  for (const u of rows.units) {
    if (u.total_committed_lines === null) continue;
    assert.equal(u.total_committed_lines, u.agent_lines_survived! + u.human_lines! + u.outside_lines!);
  }
});
