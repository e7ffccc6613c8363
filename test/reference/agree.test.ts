/**
 * The reference implementation (test/reference/) against `swe-chat-eval analyze`, run as a user runs
 * it (the CLI in a subprocess), on the bundled sample corpus and on the dev mirror of
 * entireio/external-agents (skipped where that mirror is absent, e.g. in CI).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ensureSampleCorpus } from "../../src/index";
import {
  type Comparison,
  type ProductUnit,
  SESSION_COLUMNS,
  type SessionComparison,
  compareSessions,
  compareUnits,
  formatComparison,
  formatSessionComparison,
} from "./compare";
import { ENTIRE_COLUMNS } from "./entire-attribution";
import {
  DERIVED_COLUMNS,
  IDENTITY_COLUMNS,
  NUMBER_COLUMNS,
  type ReferenceUnit,
  deriveRates,
  runReference,
} from "./reference";
import { runReferenceSessions } from "./sessions";
import { EXTERNAL_AGENTS_MIRROR } from "../helpers/corpus";
import { compareGroups, formatGroupComparison, runReferenceGroups, singleGroupDiffs } from "./groups";

const MIRROR = EXTERNAL_AGENTS_MIRROR;

interface ProductTables {
  units: ProductUnit[];
  sessions: ProductUnit[];
  groups: ProductUnit[];
}

/** `swe-chat-eval analyze [REPO] --out <tmp> --quiet` in a subprocess; its units.json and sessions.json rows. */
function runCli(inputs: string[]): ProductTables {
  const out = mkdtempSync(join(tmpdir(), "ref-agree-"));
  try {
    const cli = resolve(process.cwd(), "bin/swe-chat-eval.js");
    const r = spawnSync(process.execPath, [cli, "analyze", ...inputs, "--out", out, "--quiet"], { encoding: "utf8" });
    assert.equal(r.status, 0, `analyze failed: ${r.stderr}`);
    const read = (name: string) => JSON.parse(readFileSync(join(out, name), "utf8")) as ProductUnit[];
    return { units: read("units.json"), sessions: read("sessions.json"), groups: read("group_units.json") };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

let mirrorTables: ProductTables | null = null;
const mirrorProduct = (): ProductUnit[] => (mirrorTables ??= runCli([MIRROR])).units;
const mirrorSessions = (): ProductUnit[] => (mirrorTables ??= runCli([MIRROR])).sessions;
let sampleTables: ProductTables | null = null;
const sampleProduct = (): ProductTables => (sampleTables ??= runCli([]));

/** metrics.md §4 invariants, on the reference's own numbers. */
function assertInvariants(units: ReferenceUnit[]): void {
  for (const u of units) {
    if (u.agent_lines_survived === null) continue;
    const k = `${u.session_id} ${u.commit_sha}`;
    assert.equal(
      u.total_committed_lines,
      u.agent_lines_survived + u.human_lines! + u.outside_lines!,
      `${k}: total = survived + human + outside`,
    );
    assert.ok(u.agent_lines_survived <= u.agent_lines_final!, `${k}: survived <= final`);
    assert.ok(u.agent_lines_survived <= u.agent_lines_produced!, `${k}: survived <= produced`);
    assert.ok(u.agent_lines_survived <= u.total_committed_lines!, `${k}: survived <= total`);
    for (const rate of [u.code_survival_rate, u.coding_efficiency, u.agent_authored_pct]) {
      assert.ok(rate === null || (rate >= 0 && rate <= 100), `${k}: rates within [0, 100]`);
    }
    // §4: numstat can exceed the Myers count (git's diff is not always minimal), by a few lines.
    if (u.numstat_additions !== null)
      assert.ok(u.numstat_additions >= u.total_committed_lines! - 5, `${k}: numstat near total`);
  }
}

/** "session8" → "column: [reference, product]" for every session disagreement. */
function sessionDiffTable(c: SessionComparison): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of c.diffs)
    (out[d.key.slice(0, 8)] ??= []).push(`${d.column}: [${String(d.reference)}, ${String(d.product)}]`);
  return out;
}

/** "session8 commit8" → "column: [reference, product]" for every disagreement. */
function diffTable(c: Comparison): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const d of c.diffs) {
    const [session, commit] = d.key.split(" ");
    const key = `${session.slice(0, 8)} ${commit.slice(0, 8)}`;
    (out[key] ??= []).push(`${d.column}: [${String(d.reference)}, ${String(d.product)}]`);
  }
  return out;
}

test("sample corpus: every unit's numbers agree between the reference and `swe-chat-eval analyze`", async (t) => {
  const corpus = await ensureSampleCorpus();
  // unitModel "slice": a unit's model is its checkpoint slice's (the product's reading; metrics.md §6 defines only a session's).
  const reference = runReference(corpus.repoDir, { unitModel: "slice", multiSessionCommit: true });
  assertInvariants(reference.units);
  // The CLI with no INPUT runs on the same bundled corpus (repository plus Claude projects folder).
  const comparison = compareUnits(reference.units, sampleProduct().units);
  t.diagnostic(formatComparison(comparison));
  // 15 units: 14 checkpoints on main, one of which (scenario 7) holds two session folders.
  assert.equal(comparison.referenceUnits, 15);
  assert.deepEqual(comparison.onlyReference, []);
  assert.deepEqual(comparison.onlyProduct, []);
  assert.deepEqual(diffTable(comparison), {});
  // The derived columns were compared in all 15 units, and each rate is the count ratio (§4).
  for (const col of [...DERIVED_COLUMNS, ...IDENTITY_COLUMNS, ...ENTIRE_COLUMNS])
    assert.equal(comparison.perColumn[col].agree, 15, col);
  // Not vacuous: every unit has Entire's record, and one session (c193b75f) used two models, its commit's slice the other one.
  assert.ok(
    reference.units.every(
      (u) => u.entire_agent_lines !== null && u.entire_total_committed !== null && u.entire_agent_percentage !== null,
    ),
  );
  // With the session's model (the default reading), that unit is the only difference.
  const bySession = compareUnits(runReference(corpus.repoDir).units, sampleProduct().units);
  assert.deepEqual(diffTable(bySession), {
    "c193b75f bba75cd5": ["model: [claude-opus-4-6, claude-sonnet-4-5-20250929]"],
  });
  for (const u of reference.units)
    if (u.agent_lines_survived !== null)
      assert.deepEqual(deriveRates(u), {
        code_survival_rate: u.code_survival_rate,
        coding_efficiency: u.coding_efficiency,
        agent_authored_pct: u.agent_authored_pct,
        coding_mode: u.coding_mode,
      });
});

test("sample corpus: every session's effort (§5) agrees between the reference and `swe-chat-eval analyze`", async (t) => {
  const corpus = await ensureSampleCorpus();
  // modelsWithMain: `models` lists the session's model too, first (the product's reading of §6).
  const sessions = runReferenceSessions(corpus.repoDir, { modelsWithMain: true });
  const comparison = compareSessions(sessions, sampleProduct().sessions);
  t.diagnostic(formatSessionComparison(comparison));
  // 13 Claude Code sessions in the checkpoints (scenario 7's checkpoint holds two; some sessions span two checkpoints).
  assert.equal(comparison.referenceSessions, 13);
  assert.deepEqual([comparison.onlyReference, comparison.onlyProduct], [[], []]);
  assert.deepEqual(sessionDiffTable(comparison), {});
  for (const col of SESSION_COLUMNS) assert.equal(comparison.perColumn[col].agree, 13, col);
  // The 14th session folder (scenario with no full.jsonl) has no transcript: no sessions row on either side.
  assert.deepEqual(
    sessions.filter((s) => s.format === "missing").map((s) => s.session_id.slice(0, 8)),
    ["2a2b21f7"],
  );
  // Not vacuous: every readable session has API calls, a price and prompts.
  for (const s of sessions.filter((x) => x.format !== "missing"))
    assert.ok(s.api_calls > 0 && s.cost_usd !== null && s.cost_usd > 0 && s.prompts > 0, s.session_id);
  // The call counts are not all zero: 7+2+5+2+6+2+3+4+3+2+5+7+4 = 52 calls, 3+1+3+1+3+1+2+1+2+2+2+4+3 = 28 edit calls, 2 failed (f866641e).
  const readable = sessions.filter((x) => x.format !== "missing");
  assert.deepEqual(
    ["tool_calls", "edit_calls", "failed_edit_calls"].map((k) =>
      readable.reduce((a, x) => a + (x[k as "tool_calls"] as number), 0),
    ),
    [52, 28, 2],
  );
  // The literal reading ("the others are kept in `models`") differs in `models` only, in every session.
  const literal = compareSessions(runReferenceSessions(corpus.repoDir), sampleProduct().sessions);
  assert.deepEqual(
    Object.entries(literal.perColumn)
      .filter(([, v]) => v.disagree > 0)
      .map(([k, v]) => [k, v.disagree]),
    [["models", 13]],
  );
});

test("sample corpus: the reference reproduces the generator's hand-worked numbers (an independent check of the reference itself)", async () => {
  const corpus = await ensureSampleCorpus();
  const reference = runReference(corpus.repoDir);
  assert.equal(reference.unlinked_session_folders, 0);
  assert.equal(reference.units.length, corpus.expected.length);
  for (const e of corpus.expected) {
    const u = reference.units.find((r) => r.session_id === e.session_id && r.commit_sha === e.commit_sha);
    assert.ok(u, `no reference unit for scenario ${e.scenario} (${e.session_key})`);
    assert.equal(u.checkpoint_id, e.checkpoint_id);
    // Entire's own numbers, as the generator wrote them into the session folder's metadata.json.
    assert.deepEqual(
      [u.entire_agent_lines, u.entire_total_committed],
      [e.entire_agent_lines, e.entire_total_committed],
      `scenario ${e.scenario} entire_*`,
    );
    assert.deepEqual(u.ambiguity_reasons, e.ambiguity_reasons, `scenario ${e.scenario} reasons`);
    for (const col of NUMBER_COLUMNS) assert.equal(u[col], e[col], `scenario ${e.scenario} (${e.session_key}) ${col}`);
  }
});

/**
 * Every disagreement on the dev mirror with the default (whole-transcript) reading, and why
 * (README.md of this folder): each session folder here has neither `checkpoint_transcript_start`
 * nor `transcript_lines_at_start`, where metrics.md is silent. The reference then uses the whole
 * transcript; the product starts after the longest earlier copy of the session's transcript (a
 * `transcript-start-inferred` diagnostic says so). With `inferSliceStart` they agree everywhere.
 *
 * Fixed after this list was first drawn (kept here as the record): Codex `patch_apply_end` hunks
 * are placed at their `@@` line (was: first context match; units 019dbcda c7f9a67b and
 * 019dc116 d238a384), `unreplayable_calls` counts calls, not (call, file) pairs (019da9bd
 * ff753214), and the line diff is jsdiff on the whole arrays, not between the common prefix and
 * suffix (six units where the two keep different equal lines).
 */
const SLICE_DISAGREEMENTS: Record<string, string[]> = {
  // The rates and the coding mode differ only because their counts do (same slice question).
  "012dbfb0 147335ea": [
    "agent_lines_produced: [732, 0]",
    "agent_lines_final: [704, 0]",
    "agent_lines_survived: [680, 0]",
    "human_lines: [1992, 2672]",
    "unreplayable_calls: [3, 0]",
    "outside_changes: [1, 0]",
    "code_survival_rate: [96.5909090909091, null]",
    "coding_efficiency: [92.89617486338798, null]",
    "agent_authored_pct: [25.449101796407184, 0]",
    "coding_mode: [collaborative, human-only]",
  ],
  "019da9bd 6dae5c9b": [
    "agent_lines_produced: [264, 225]",
    "agent_lines_final: [229, 221]",
    "unreplayable_calls: [18, 0]",
    "code_survival_rate: [96.5065502183406, 100]",
    "coding_efficiency: [83.71212121212122, 98.22222222222223]",
  ],
  "019da9bd 9f1163c7": [
    "agent_lines_produced: [72, 10]",
    "agent_lines_final: [57, 10]",
    "unreplayable_calls: [12, 0]",
    "code_survival_rate: [17.54385964912281, 100]",
    "coding_efficiency: [13.88888888888889, 100]",
  ],
  "130c7a5b 14ed796b": [
    "agent_lines_produced: [51, 0]",
    "agent_lines_final: [51, 0]",
    "outside_changes: [5, 0]",
    "code_survival_rate: [0, null]",
    "coding_efficiency: [0, null]",
  ],
};

/**
 * The unit `model` reading (metrics.md §6 defines a session's model only) no longer differs here:
 * the two units whose own session folder has no transcript (7c6c3177 082575d2, 7e8b8b3f 73b7e4ac)
 * used to get Entire's metadata label from the product ("claude-opus-4-6[1m]", or none) where the
 * reference takes the session's model; the product now also takes the session's model (its longest
 * readable copy) there, and strips the label's `[1m]`.
 */
const MODEL_DISAGREEMENTS: Record<string, string[]> = {};

test("dev mirror (entireio/external-agents): every unit agrees; the whole-transcript reading differs only where no slice start is stored", {
  skip: !existsSync(MIRROR),
}, async (t) => {
  const product = mirrorProduct();
  const literal = runReference(MIRROR);
  assertInvariants(literal.units);
  const byDefault = compareUnits(literal.units, product);
  t.diagnostic(formatComparison(byDefault));
  assert.equal(byDefault.referenceUnits, 55);
  assert.deepEqual([byDefault.onlyReference, byDefault.onlyProduct], [[], []]);
  for (const col of [
    "checkpoint_id",
    "ambiguity",
    "total_committed_lines",
    "outside_lines",
    "numstat_additions",
  ] as const) {
    assert.equal(byDefault.perColumn[col].disagree, 0, col);
  }
  assert.deepEqual(diffTable(byDefault), { ...SLICE_DISAGREEMENTS, ...MODEL_DISAGREEMENTS });

  // With the product's reading of the slice start, only the unit model reading differs.
  const inferred = compareUnits(runReference(MIRROR, { inferSliceStart: true }).units, product);
  assert.deepEqual(diffTable(inferred), MODEL_DISAGREEMENTS);
  // With both of the product's readings, all 55 units agree in every column (the 21 compared).
  const both = compareUnits(
    runReference(MIRROR, { inferSliceStart: true, unitModel: "slice", multiSessionCommit: true }).units,
    product,
  );
  t.diagnostic(formatComparison(both));
  assert.deepEqual(diffTable(both), {});
  for (const col of [...IDENTITY_COLUMNS, ...ENTIRE_COLUMNS]) assert.equal(both.perColumn[col].agree, 55, col);
  // Entire's record: 52 of 55 units have one (3 session folders lack initial_attribution); metric_version 2
  // percentages are not agent_lines / total_committed (019dc116 1ff0d0c8: 6 / 8, recorded 73.33…).
  assert.equal(both.perColumn.entire_agent_lines.agree, 55);
});

test("dev mirror: the unambiguous units agree one by one", { skip: !existsSync(MIRROR) }, () => {
  const product = mirrorProduct();
  const reference = runReference(MIRROR);
  const unambiguous = reference.units
    .filter((u) => u.ambiguity === null)
    .map((u) => `${u.session_id.slice(0, 8)} ${u.commit_sha.slice(0, 8)}`)
    .sort();
  // 6 of 55 units are unambiguous (most checkpoints hold several sessions, most sessions several checkpoints).
  assert.deepEqual(
    unambiguous,
    [
      "3c72c25c 18f5b34a",
      "4606c3cc 7233826b",
      "ac25b691 bc926e4a",
      "b8ca6978 aff6836a",
      "f5a2606b d29659bc",
      "019dbcda c7f9a67b",
    ].sort(),
  );
  // Of the new columns only `model` can differ, and none of the two units above is unambiguous.
  assert.deepEqual(
    diffTable(
      compareUnits(
        reference.units.filter((u) => u.ambiguity === null),
        product,
      ),
    ),
    {},
  );
});

test("dev mirror: every session's effort (§5) agrees: 35 Claude Code and Codex sessions, longest stored transcript each", {
  skip: !existsSync(MIRROR),
}, (t) => {
  const sessions = runReferenceSessions(MIRROR, { modelsWithMain: true });
  const comparison = compareSessions(sessions, mirrorSessions());
  t.diagnostic(formatSessionComparison(comparison));
  assert.equal(comparison.referenceSessions, 35);
  assert.deepEqual([comparison.onlyReference, comparison.onlyProduct], [[], []]);
  assert.deepEqual(sessionDiffTable(comparison), {});
  // 31 Claude Code sessions, 4 Codex sessions; all priced (opus-4-6/4-7, haiku-4-5, gpt-5.4/5.5).
  assert.deepEqual(
    [sessions.filter((s) => s.format === "claude-code").length, sessions.filter((s) => s.format === "codex").length],
    [31, 4],
  );
  assert.ok(sessions.every((s) => s.cost_usd !== null && s.api_calls > 0 && s.prompts > 0));
  // Calls: 2,280 tool calls, 246 edit calls, 7 failed (3 Codex, 4 Claude Code), none without a result.
  const total = (k: "tool_calls" | "edit_calls" | "failed_edit_calls" | "unresolved_edit_calls") =>
    sessions.reduce((a, s) => a + s[k], 0);
  assert.deepEqual(
    [total("tool_calls"), total("edit_calls"), total("failed_edit_calls"), total("unresolved_edit_calls")],
    [2280, 246, 7, 0],
  );
  // 14 sessions use two models; the literal reading of §6 ("the others") differs in `models` only, in all 35.
  assert.equal(sessions.filter((s) => s.models.includes(";")).length, 14);
  const literal = compareSessions(runReferenceSessions(MIRROR), mirrorSessions());
  assert.deepEqual(
    Object.entries(literal.perColumn)
      .filter(([, v]) => v.disagree > 0)
      .map(([k, v]) => [k, v.disagree]),
    [["models", 35]],
  );
  // git's numstat exceeds the Myers count in some units (§4: "git's diff is not always minimal").
  const units = runReference(MIRROR, { inferSliceStart: true }).units;
  assert.ok(
    units.some(
      (u) =>
        u.numstat_additions !== null &&
        u.total_committed_lines !== null &&
        u.numstat_additions > u.total_committed_lines,
    ),
  );
});

/** metrics.md §1b on one corpus: the reference's groups agree with the product's in every column, and groups of one session and one commit repeat their strict units (on both sides). */
function assertGroupsAgree(repo: string, product: ProductTables, inferSliceStart: boolean): void {
  const reference = runReferenceGroups(repo, { inferSliceStart });
  const c = compareGroups(reference, product.groups);
  assert.deepEqual(
    [c.onlyReference, c.onlyProduct, c.diffs],
    [[], [], []],
    formatGroupComparison(reference, product.groups, c),
  );
  assert.deepEqual(
    singleGroupDiffs(product.groups, product.units),
    [],
    "product: one-session one-commit groups are their units",
  );
  const units = runReference(repo, { inferSliceStart, multiSessionCommit: true }).units as unknown as ProductUnit[];
  assert.deepEqual(
    singleGroupDiffs(reference as unknown as ProductUnit[], units),
    [],
    "reference: one-session one-commit groups are its units",
  );
}

test("sample corpus: groups (§1b) agree between the reference and the product; one-session one-commit groups are their strict units", async () => {
  const corpus = await ensureSampleCorpus();
  assertGroupsAgree(corpus.repoDir, sampleProduct(), true);
  // The sample's groups are mostly strict units: 13 groups, 12 of one session and one commit.
  assert.ok(sampleProduct().groups.filter((g) => g.group_commits === 1 && g.group_sessions === 1).length >= 10);
});

test("dev mirror: groups (§1b) agree between the reference and the product", {
  skip: !existsSync(MIRROR) && "no dev mirror",
}, () => {
  mirrorProduct();
  assertGroupsAgree(MIRROR, mirrorTables!, true);
});
