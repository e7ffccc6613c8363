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
  // Entire's recorded token_usage sits beside our count over the same slice (main transcript only):
  // the sample's metadata was written by Entire's rule (max output per message id), so they agree;
  // the folder without a transcript has Entire's numbers and no slice.
  const cps = rows.checkpoint_sessions ?? [];
  assert.equal(cps.length, 15);
  for (const r of cps) {
    if (r.slice_output_tokens === null) {
      assert.equal(r.checkpoint_id, sample.expected.find((e) => e.ambiguity === "transcript-missing")!.checkpoint_id);
      continue;
    }
    assert.deepEqual(
      [
        r.slice_input_tokens,
        r.slice_output_tokens,
        r.slice_cache_creation_tokens,
        r.slice_cache_read_tokens,
        r.slice_api_calls,
      ],
      [
        r.entire_input_tokens,
        r.entire_output_tokens,
        r.entire_cache_creation_tokens,
        r.entire_cache_read_tokens,
        r.entire_api_calls,
      ],
      `${r.checkpoint_id}/${r.session_index}`,
    );
  }
  // Every excluded unit is explained by a diagnostic or its ambiguity reason.
  assert.ok(rows.diagnostics.some((d) => d.code === "transcript-missing"));
  assert.ok(
    rows.diagnostics.some((d) => d.code === "agent-label-mismatch"),
    "the Gemini-labelled Claude transcript is noticed",
  );
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
  // Each ambiguous unit has exactly one unit-excluded row, written by the linker with every reason that applies.
  const ambiguous = rows.units.filter((u) => u.ambiguity !== null);
  assert.ok(ambiguous.length > 0, "the sample's sessions span several commits");
  for (const u of ambiguous) {
    const mine = rows.diagnostics.filter(
      (d) =>
        d.code === "unit-excluded" &&
        d.session_id === u.session_id &&
        d.message.includes(`commit ${u.commit_sha.slice(0, 12)}`),
    );
    assert.equal(mine.length, 1, `${u.session_id} ${u.commit_sha}`);
    assert.match(mine[0].message, new RegExp(`left out of headline numbers: ${u.ambiguity} \\(`));
    assert.notEqual(mine[0].source, "analyze", "written where the reasons are known, not by the catch-all");
  }
  // Every reason that applies is named: the links, counted again from the units table.
  const count = (key: (u: (typeof rows.units)[number]) => string) => {
    const m = new Map<string, number>();
    for (const u of rows.units) m.set(key(u), (m.get(key(u)) ?? 0) + 1);
    return m;
  };
  const perSession = count((u) => u.session_id);
  const perCommit = count((u) => u.commit_sha);
  for (const u of ambiguous) {
    const message = rows.diagnostics.find(
      (d) =>
        d.code === "unit-excluded" &&
        d.session_id === u.session_id &&
        d.message.includes(`commit ${u.commit_sha.slice(0, 12)}`),
    )!.message;
    if (perSession.get(u.session_id)! > 1) assert.match(message, /multi-commit-session \(/);
    if (perCommit.get(u.commit_sha)! > 1) assert.match(message, /multi-session-commit \(/);
  }
});

test("--repo given as the repository's .git folder gives the same units (the repository is named after its folder, not '.git')", async () => {
  const sample = await corpus;
  const byRoot = await analyze({ inputs: [sample.claudeProjectsDir], repo: sample.repoDir });
  const byGitDir = await analyze({ inputs: [sample.claudeProjectsDir], repo: join(sample.repoDir, ".git") });
  assert.ok(byRoot.rows.units.length > 0);
  assert.deepEqual(byGitDir.rows.units, byRoot.rows.units);
  assert.ok(byGitDir.rows.units.every((u) => u.repo !== "" && u.repo === byRoot.rows.units[0].repo));
});

test("worker threads give the same tables as the inline run", async () => {
  const sample = await corpus;
  process.env.SWE_CHAT_EVAL_ROOT = process.cwd();
  const inline = await analyze({ inputs: [sample.repoDir], threads: 1 });
  const workers = await analyze({ inputs: [sample.repoDir], threads: 2 });
  assert.deepEqual(workers.rows, inline.rows);
});

test("with no memory for parsed checkpoint copies (each read again when needed) the tables are the same", async () => {
  // Each checkpoint stores the whole session so far; past a byte budget the copies are not kept
  // but parsed again, quietly: no diagnostic or checkpoint_sessions row may be doubled or lost.
  const sample = await corpus;
  const kept = await analyze({ inputs: [sample.repoDir], threads: 1 });
  const reread = await analyze({ inputs: [sample.repoDir], threads: 1, parsedCopiesBudgetBytes: 0 });
  assert.deepEqual(reread.rows, kept.rows);
});

test("every unit left out of headline numbers has one unit-excluded diagnostic that names it and all its reasons", async () => {
  // The sample has 15 units; the ambiguous ones (scenario 7: two sessions in one checkpoint, the
  // multi-checkpoint session, the merge, the missing transcript, …) each get exactly one row, and
  // the unambiguous ones none.
  const sample = await corpus;
  const { rows } = await analyze({ inputs: [sample.repoDir], threads: 1 });
  const excluded = rows.diagnostics.filter((d) => d.code === "unit-excluded");
  const ambiguous = rows.units.filter((u) => u.ambiguity !== null);
  assert.ok(ambiguous.length >= 3, "the sample has ambiguous units");
  assert.equal(excluded.length, ambiguous.length);
  for (const u of ambiguous) {
    const mine = excluded.filter(
      (d) => d.session_id === u.session_id && d.message.includes(`commit ${u.commit_sha.slice(0, 12)}`),
    );
    assert.equal(mine.length, 1, `${u.session_id} ${u.commit_sha}`);
    assert.ok(mine[0].message.includes(`left out of headline numbers: ${u.ambiguity} (`), mine[0].message);
    const expected = sample.expected.find((e) => e.session_id === u.session_id && e.commit_sha === u.commit_sha);
    for (const reason of expected?.ambiguity_reasons ?? [])
      assert.ok(mine[0].message.includes(reason), `${reason} in ${mine[0].message}`);
  }
});

/**
 * `line_ranges` (issue 19) on the bundled sample: for every replayed unit the runs per owner add up to its
 * counts (agent = survived, human, outside), and for every attributable group unit, the lines another member
 * wrote (owner = that session's id) add up to `other_session_lines`. Scenario 7 by hand (two sessions, one
 * commit): the README's 7 added lines are the opus session's, package.json's 2 the haiku session's; so in
 * the group, each session sees the other's lines under the other's id.
 */
test("line_ranges on the bundled sample add up to every unit's and group unit's counts", async () => {
  const sample = await corpus;
  const { rows } = await analyze({ inputs: [sample.repoDir], lines: true });
  const ranges = rows.line_ranges ?? [];
  const sum = (pick: (r: (typeof ranges)[number]) => boolean) =>
    ranges.filter(pick).reduce((n, r) => n + r.end_line - r.start_line + 1, 0);
  let checked = 0;
  for (const u of rows.units) {
    if (u.method !== "git-replay" || u.agent_lines_survived === null) continue;
    const mine = (r: (typeof ranges)[number]) =>
      r.group_id === null && r.session_id === u.session_id && r.commit_sha === u.commit_sha;
    assert.deepEqual(
      [
        sum((r) => mine(r) && r.owner === "agent"),
        sum((r) => mine(r) && r.owner === "human"),
        sum((r) => mine(r) && r.owner === "outside"),
      ],
      [u.agent_lines_survived, u.human_lines, u.outside_lines],
      `unit ${u.session_id} @ ${u.commit_sha.slice(0, 8)}`,
    );
    checked++;
  }
  assert.ok(checked >= 10, `${checked} units checked`);
  let groups = 0;
  for (const g of rows.group_units ?? []) {
    if (g.agent_lines_survived === null) continue;
    const mine = (r: (typeof ranges)[number]) => r.group_id === g.group_id && r.session_id === g.session_id;
    const other = (r: (typeof ranges)[number]) =>
      mine(r) && r.owner !== "agent" && r.owner !== "human" && r.owner !== "outside";
    assert.deepEqual(
      [
        sum((r) => mine(r) && r.owner === "agent"),
        sum(other),
        sum((r) => mine(r) && r.owner === "human"),
        sum((r) => mine(r) && r.owner === "outside"),
      ],
      [g.agent_lines_survived, g.other_session_lines, g.human_lines, g.outside_lines],
      `group ${g.group_id} session ${g.session_id}`,
    );
    groups++;
  }
  assert.ok(groups >= 10, `${groups} group units checked`);

  const s7 = sample.expected.filter((e) => e.scenario === 7);
  const opus = s7.find((e) => e.session_key === "s07a-readme")!;
  const haiku = s7.find((e) => e.session_key === "s07b-package")!;
  const inGroup = ranges.filter(
    (r) => r.group_id !== null && r.commit_sha === opus.commit_sha && r.session_id === opus.session_id,
  );
  assert.deepEqual(
    inGroup.map((r) => [r.file, r.end_line - r.start_line + 1, r.owner]).sort(),
    [
      ["README.md", 7, "agent"],
      ["package.json", 2, haiku.session_id],
    ].sort(),
  );
});
