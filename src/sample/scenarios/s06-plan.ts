import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text, thinking } from "../claude-code/message";
import { HOME, MAYA, OPUS, ROOT } from "../project/constants";
import { BENCH_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";
import { L } from "../text";

// Scenario 6: plan mode writes ~/.claude/plans/<slug>.md (outside the
// repo: ignored), the agent creates a scratch benchmark that is never
// committed, and edits src/table.ts. The session runs in the `src/`
// sub-folder (cwd /home/dev/sample-app/src, its own project folder).
//
// By hand: Edit replaces 1 line of table.ts with 3 (+3); Write
// scripts/bench-table.ts (+9), not committed; the plan file does not
// count. Produced 12, final 12, survived 3, total 3.
export function s06Plan(b: SampleBuilder): void {
  const cwd = `${ROOT}/src`;
  const s = b.session({
    key: "s06-plan",
    scenarios: [6],
    cwd,
    root: ROOT,
    version: "2.1.7",
    branch: "main",
    slug: "patient-drifting-quill",
    model: OPUS,
    start: "2026-01-15T10:00:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "Plan first: formatTable should right-align columns that are all numbers (header excluded). I'd also like a quick benchmark script I can run locally - don't commit that one.";
  t.prompt(p1, { permissionMode: "plan" });
  t.assistant([text("Let me read the current implementation.")], [tools.read("src/table.ts")]);
  const plan = L(
    "# Right-align numeric columns in formatTable",
    "",
    "1. In `formatTable`, mark a column numeric when every body cell matches `^-?\\d+(\\.\\d+)?$`.",
    "2. Pad numeric cells with `padStart`, others with `padEnd`; keep `trimEnd()` per line.",
    "3. Leave the header row and the dashed rule as they are.",
    "4. Add `scripts/bench-table.ts` (10k rows, 20 runs) for local timing; not committed.",
  );
  t.assistant(
    [
      thinking("Detect numeric columns from body rows only; alignment per column; rule stays dashes."),
      text("Here is the plan."),
    ],
    [tools.write(`${HOME}/.claude/plans/patient-drifting-quill.md`, plan)],
  );
  t.assistant([], [tools.exitPlanMode(plan)]);
  t.assistant(
    [text("Implementing the alignment.")],
    [
      tools.edit(
        "src/table.ts",
        "  const pad = (row: Row) => row.map((cell, i) => cell.padEnd(widths[i])).join(gap).trimEnd();",
        '  const numeric = widths.map((_, i) => rows.slice(1).every((row) => /^-?\\d+(?:\\.\\d+)?$/.test(row[i] ?? "")));\n  const align = (cell: string, i: number) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));\n  const pad = (row: Row) => row.map(align).join(gap).trimEnd();',
      ),
    ],
  );
  t.assistant([text("And the local benchmark.")], [tools.write("scripts/bench-table.ts", BENCH_TS)]);
  t.assistant([
    text(
      "Numeric columns are right-aligned now. `scripts/bench-table.ts` is in place but not staged; run it with `npx tsx scripts/bench-table.ts`.",
    ),
  ]);
  t.stop();
  t.wait(70);
  const p2 = "run the bench once so I see the numbers";
  t.prompt(p2);
  s.prompts = 2;
  t.assistant(
    [],
    [
      tools.bash(
        "npx tsx ../scripts/bench-table.ts",
        "Run the formatTable benchmark",
        "formatTable: 4.81 ms per 10k rows",
      ),
    ],
  );
  t.assistant([text("About 4.8 ms per call for 10k rows.")]);
  t.stop();
  const c7 = b.commit({
    name: "C7",
    subject: "formatTable: right-align numeric columns",
    checkpoint: checkpointId("s06"),
    author: MAYA,
    atMs: after(s, 380),
    paths: ["src/table.ts"],
    scenarios: [6],
    note: "plan file outside the repo, scratch file never committed, sub-folder cwd",
  });
  const entire = { agent_lines: 3, human_added: 0, human_modified: 0, human_removed: 9, total_committed: 3 };
  b.checkpoint(c7.checkpoint_id as string, c7, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["scripts/bench-table.ts", "src/table.ts"],
      attribution: entire,
      promptTexts: [p1, p2],
      turns: 2,
      cliVersion: "0.3.13",
    },
  ]);
  b.unit({
    scenario: 6,
    session: s,
    commit: "C7",
    ambiguity: null,
    agent_lines_produced: 12,
    agent_lines_final: 12,
    agent_lines_survived: 3,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 3,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "Edit +3 committed; scratch Write +9 never committed; plan file outside the repo ignored",
  });
}
