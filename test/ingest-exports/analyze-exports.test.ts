import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { analyzeExportFile } from "../../src/analyze/analyze-exports";
import { detectTranscriptFormat } from "../../src/ingest/detect";
import { detectExportFormat, findExportFiles } from "../../src/ingest/detect-export";
import { sessionRowSchema, toolCallRowSchema, unitRowSchema } from "../../src/model";
import type { AnalysisRows } from "../../src/tables";
import { CLAUDE_SESSION } from "./dataclaw-sample";
import { corpusPath } from "../helpers/corpus";

const SHARED = corpusPath() + "/";
const tmp = mkdtempSync(join(tmpdir(), "exports-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const empty = (): AnalysisRows => ({ units: [], sessions: [], tool_calls: [], diagnostics: [] });
async function run(path: string, commitPatch: string | null = null): Promise<{ ok: boolean; out: AnalysisRows }> {
  const out = empty();
  const ok = await analyzeExportFile(path, { idleLimitS: 300, commitPatch }, out);
  for (const r of out.units) assert.ok(unitRowSchema.safeParse(r).success, JSON.stringify(r));
  for (const r of out.sessions) assert.ok(sessionRowSchema.safeParse(r).success, JSON.stringify(r));
  for (const r of out.tool_calls) assert.ok(toolCallRowSchema.safeParse(r).success, JSON.stringify(r));
  return { ok, out };
}
const codes = (out: AnalysisRows) => out.diagnostics.map((d) => d.code);

describe("detection by content over the whole corpus", () => {
  test("exactly the 3 SpecStory files and the 2 trajectories are claimed; every other sample is not", () => {
    const found = findExportFiles(SHARED).map((f) => [f.file.slice(SHARED.length), f.format]);
    assert.deepEqual(found, [
      ["specstory/getspecstory__2025-06-30_12-46-48Z-fix-unknown-field-error.cursor.md", "specstory"],
      ["specstory/getspecstory__2026-01-28_13-10-29Z-take-a-look-at.claude-code.md", "specstory"],
      ["specstory/getspecstory__2026-02-20_16-33-05Z-start-with-docs-git.codex.md", "specstory"],
      ["swe-agent/marshmallow-code__marshmallow-1867.function_calling_replace.traj", "swe-agent"],
      ["swe-agent/pydicom__pydicom-1458.v0-default.traj", "swe-agent"],
    ]);
  });

  test("the transcript detector does not claim these formats either (the two never overlap)", () => {
    assert.equal(
      detectTranscriptFormat(readFileSync(SHARED + "swe-agent/pydicom__pydicom-1458.v0-default.traj")),
      "unknown",
    );
    assert.equal(detectTranscriptFormat(JSON.stringify(CLAUDE_SESSION) + "\n"), "unknown");
    assert.equal(detectExportFormat(readFileSync(SHARED + "claude-code/happy-cli__400429ba.excerpt.jsonl")), "unknown");
    assert.equal(detectExportFormat(readFileSync(SHARED + "swe-agent/all_preds.jsonl")), "unknown");
  });
});

describe("SWE-agent folder → tables", async () => {
  const { ok, out } = await run(SHARED + "swe-agent");

  test("two sessions with the run's own totals: model_stats tokens, API calls and recorded cost", () => {
    assert.equal(ok, true);
    const rows = out.sessions.map((s) => [
      s.session_id,
      s.source,
      s.model,
      s.repo,
      s.prompts,
      s.tool_calls,
      s.edit_calls,
      s.failed_edit_calls,
      s.input_tokens,
      s.output_tokens,
      s.api_calls,
      s.cost_usd,
    ]);
    assert.deepEqual(rows, [
      [
        "marshmallow-code__marshmallow-1867",
        "swe-agent",
        "gpt-4o",
        "marshmallow-code/marshmallow",
        1,
        11,
        4,
        1,
        0,
        0,
        11,
        0,
      ],
      ["pydicom__pydicom-1458", "swe-agent", null, "pydicom/pydicom", 1, 12, 6, 3, 122612, 1369, 12, 1.26719],
    ]);
  });

  test("one patch-match unit per trajectory against info.submission", () => {
    const units = out.units.map((u) => [
      u.session_id,
      u.commit_sha,
      u.repo,
      u.method,
      u.ambiguity,
      u.agent_lines_produced,
      u.agent_lines_final,
      u.agent_lines_survived,
      u.human_lines,
      u.total_committed_lines,
      u.numstat_additions,
      u.coding_mode,
    ]);
    assert.deepEqual(units, [
      [
        "marshmallow-code__marshmallow-1867",
        "submission",
        "marshmallow-code/marshmallow",
        "patch-match",
        null,
        12,
        12,
        2,
        0,
        2,
        2,
        "vibe",
      ],
      ["pydicom__pydicom-1458", "submission", "pydicom/pydicom", "patch-match", null, 21, 21, 3, 0, 3, 3, "vibe"],
    ]);
    assert.equal(codes(out).filter((c) => c === "attribution-patch-match").length, 2);
  });

  test("tool-call rows: SWE-agent commands in SWE-chat's categories, files repo-relative", () => {
    const pydicom = out.tool_calls.filter((r) => r.session_id === "pydicom__pydicom-1458");
    assert.deepEqual(
      pydicom.map((r) => r.category),
      [
        "write",
        "edit",
        "bash:build",
        "glob",
        "read",
        "edit",
        "edit",
        "edit",
        "edit",
        "bash:build",
        "bash:file",
        "other",
      ],
    );
    assert.deepEqual(pydicom[8].file, "pydicom/pixel_data_handlers/numpy_handler.py");
    assert.deepEqual([pydicom[8].lines_added, pydicom[8].lines_removed], [3, 2]);
    assert.deepEqual(
      pydicom.slice(5, 8).map((r) => [r.success, r.lines_added]),
      [
        [false, null],
        [false, null],
        [false, null],
      ],
    );
  });

  test("a folder of Claude Code transcripts is not an export folder: false, nothing added", async () => {
    const r = await run(SHARED + "claude-code");
    assert.equal(r.ok, false);
    assert.deepEqual(r.out, empty());
  });

  test("two copies of one trajectory and a truncated one: ids kept unique, the truncated file an error row", async () => {
    // The v0 layout: <run>/<instance_id>.traj, one folder per run.
    const dir = join(tmp, "runs");
    for (const run of ["run1", "run2", "run3"]) mkdirSync(join(dir, run), { recursive: true });
    const src = SHARED + "swe-agent/pydicom__pydicom-1458.v0-default.traj";
    copyFileSync(src, join(dir, "run1", "pydicom__pydicom-1458.traj"));
    copyFileSync(src, join(dir, "run2", "pydicom__pydicom-1458.traj"));
    writeFileSync(join(dir, "run3", "c.traj"), readFileSync(src).subarray(0, 5000));
    const r = await run(dir);
    assert.equal(r.ok, true);
    assert.deepEqual(
      r.out.sessions.map((s) => s.session_id),
      ["pydicom__pydicom-1458", "pydicom__pydicom-1458#2"],
    );
    assert.ok(codes(r.out).includes("duplicate-session-id"));
    const cut = r.out.diagnostics.find((d) => d.code === "swe-agent-truncated");
    assert.ok(cut && cut.severity === "error" && cut.file?.endsWith("c.traj"));
    assert.deepEqual(
      r.out.units.map((u) => [u.session_id, u.repo]),
      [
        ["pydicom__pydicom-1458", "pydicom/pydicom"],
        ["pydicom__pydicom-1458#2", "pydicom/pydicom"],
      ],
    );
  });
});

describe("DataClaw export → tables", () => {
  const file = join(tmp, "conversations.jsonl");
  writeFileSync(file, JSON.stringify(CLAUDE_SESSION) + "\n");
  // A `git show` of the commit: the agent's a, B, B2, c and one line `d` the person added.
  const patch = join(tmp, "commit.patch");
  writeFileSync(
    patch,
    "commit 0123456789abcdef0123456789abcdef01234567\nAuthor: x\n\n    msg\n\ndiff --git a/src/app.py b/src/app.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/app.py\n@@ -0,0 +1,5 @@\n+a\n+B\n+B2\n+c\n+d\n",
  );

  test("without a commit patch: the session and its calls, no unit, and rows that say why and which method", async () => {
    const { ok, out } = await run(file);
    assert.equal(ok, true);
    assert.equal(out.units.length, 0);
    const s = out.sessions[0];
    assert.deepEqual(
      [
        s.session_id,
        s.source,
        s.agent,
        s.model,
        s.repo,
        s.prompts,
        s.tool_calls,
        s.edit_calls,
        s.failed_edit_calls,
        s.input_tokens,
        s.output_tokens,
        s.api_calls,
        s.cost_usd,
      ],
      ["c1", "dataclaw", "Claude Code", "claude-opus-4-6", "my-project", 2, 4, 3, 1, 50000, 3000, 0, null],
    );
    assert.equal(s.duration_s, 300);
    for (const c of ["dataclaw-patch-match-only", "dataclaw-no-commit-patch", "dataclaw-usage-totals"])
      assert.ok(codes(out).includes(c), c);
  });

  test("with a commit patch: one patch-match unit, sha from the patch header", async () => {
    const { out } = await run(file, patch);
    assert.equal(out.units.length, 1);
    const u = out.units[0];
    // produced 5 (Write 3 + Edit 2), final 4 (a, B, B2, c), survived 4 of 5 committed, `d` human.
    assert.deepEqual(
      [
        u.commit_sha,
        u.method,
        u.ambiguity,
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.total_committed_lines,
        u.code_survival_rate,
        u.coding_efficiency,
        u.agent_authored_pct,
        u.coding_mode,
      ],
      ["0123456789abcdef0123456789abcdef01234567", "patch-match", null, 5, 4, 4, 1, 5, 100, 80, 80, "collaborative"],
    );
  });
});

describe("SpecStory exports → tables", () => {
  const cursor = readFileSync(
    SHARED + "specstory/getspecstory__2025-06-30_12-46-48Z-fix-unknown-field-error.cursor.md",
    "utf8",
  );
  const dir = join(tmp, "history");
  mkdirSync(dir);
  // The same session exported twice as its title changed: the later file has one more agent turn.
  writeFileSync(join(dir, "2025-06-30_12-46-48Z.md"), cursor);
  writeFileSync(
    join(dir, "2025-06-30_12-46-48Z-fix-unknown-field-error.md"),
    cursor + "\n_**Agent (claude-4-sonnet)**_\n\nDone.\n",
  );
  copyFileSync(
    SHARED + "specstory/getspecstory__2026-01-28_13-10-29Z-take-a-look-at.claude-code.md",
    join(dir, "claude.md"),
  );
  const patch = join(tmp, "cursor.patch");
  writeFileSync(
    patch,
    'diff --git a/pkg/cloud/sync.go b/pkg/cloud/sync.go\n--- a/pkg/cloud/sync.go\n+++ b/pkg/cloud/sync.go\n@@ -43,4 +43,6 @@\n \tClientName    string `json:"clientName"`\n \tClientVersion string `json:"clientVersion"`\n+\tAgentName     string `json:"agentName"`\n+\tExtra         string\n \tDeviceID      string `json:"deviceId"`\n }\n',
  );

  test("duplicate exports of one session: the longer kept; Claude Code export: prompts, no attribution", async () => {
    const { ok, out } = await run(dir);
    assert.equal(ok, true);
    assert.deepEqual(
      out.sessions.map((s) => [s.session_id, s.agent, s.model, s.prompts, s.tool_calls, s.api_calls, s.cost_usd]),
      [
        ["7648a3a8-cec0-45cc-a87c-6ad5a39677a2", "Cursor", "claude-4-sonnet", 1, 2, 0, null],
        ["3c887384-88d4-4b43-b3de-b109170c7946", "Claude Code", "claude-opus-4-5-20251101", 8, 31, 0, null],
      ],
    );
    const dup = out.diagnostics.find((d) => d.code === "specstory-duplicate-session");
    assert.ok(dup?.file?.endsWith("2025-06-30_12-46-48Z.md"));
    assert.equal(out.units.length, 0);
    assert.ok(codes(out).includes("specstory-no-attribution"));
    assert.ok(codes(out).includes("specstory-no-commit-patch"));
    // search_replace is not in the shared categories: SpecStory's data-tool-type "write" makes it an edit.
    assert.equal(out.tool_calls.find((r) => r.tool === "search_replace")?.category, "edit");
  });

  test("the Cursor diff matched against a commit: its one added line survives, the other is human", async () => {
    const { out } = await run(dir, patch);
    assert.equal(out.units.length, 1);
    const u = out.units[0];
    assert.deepEqual(
      [
        u.session_id,
        u.method,
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.total_committed_lines,
        u.agent_authored_pct,
      ],
      ["7648a3a8-cec0-45cc-a87c-6ad5a39677a2", "patch-match", 1, 1, 1, 1, 2, 50],
    );
  });
});
