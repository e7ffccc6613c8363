import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text, thinking } from "../claude-code/message";
import { MAYA, OPUS, ROOT } from "../project/constants";
import { TABLE_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";

// Scenario 2: Write, then the agent Edits part of its own file
// (self-overwrite), then the person edits 2 lines before committing.
//
// By hand: Write creates src/table.ts, 20 lines (+20). The Edit replaces
// its 4 lines 16–19 with 5 new lines, none equal to an old one (+5, -4):
// produced 25, final 21 agent lines. Maya then changes 2 agent lines (the
// signature gets `gap = "  "`, the pad line uses `gap`): 2 agent lines
// lost, 2 human lines. The commit adds the whole 21-line file: survived 19,
// human 2, outside 0, total 21.
// Entire: base→shadow adds 21, shadow→head removes 2 and adds 2
// (human_modified 2), agent_lines = 21 - 2 = 19 of 21.
export function s02Table(b: SampleBuilder): void {
  const ws = b.ws;
  const s = b.session({
    key: "s02-table",
    scenarios: [2],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.2",
    branch: "main",
    slug: "brisk-folding-abacus",
    model: OPUS,
    start: "2026-01-09T10:05:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "I need a formatTable(rows) helper that renders an array of string arrays as an aligned plain-text table, with a dashed separator under the header row. Put it in src/table.ts.";
  t.prompt(p1);
  t.assistant(
    [
      thinking(
        "Compute column widths in one pass, pad each cell, insert a rule after the header. Two spaces between columns.",
      ),
      text("I'll write it as a standalone module."),
    ],
    [tools.write("src/table.ts", TABLE_TS)],
  );
  t.assistant([
    text(
      "Created `src/table.ts` with `formatTable(rows)` and a `Row` type. Widths come from the longest cell per column; the header separator uses dashes of the same width.",
    ),
  ]);
  t.stop();
  t.wait(260);
  const p2 = "trailing spaces on the last column look bad in diffs and tests - can you trim each rendered line?";
  t.prompt(p2);
  s.prompts = 2;
  t.assistant(
    [text("Good point. I'll pad through one helper that trims the end, and use it for the rule too.")],
    [
      tools.edit(
        "src/table.ts",
        '  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  "));\n  const rule = widths.map((w) => "-".repeat(w)).join("  ");\n  lines.splice(1, 0, rule);\n  return lines.join("\\n");',
        '  const pad = (row: Row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();\n  const body = rows.map(pad);\n  const rule = pad(widths.map((w) => "-".repeat(w)));\n  body.splice(1, 0, rule);\n  return body.join("\\n");',
      ),
    ],
  );
  t.assistant([text("Every line, including the separator, now goes through `pad`, which trims trailing spaces.")]);
  t.stop();
  t.command("exit", "", "See ya!");
  // Maya makes the gap configurable by hand before committing (2 lines).
  ws.change(
    "src/table.ts",
    "export function formatTable(rows: Row[]): string {",
    'export function formatTable(rows: Row[], gap = "  "): string {',
  );
  ws.change("src/table.ts", '.join("  ").trimEnd();', ".join(gap).trimEnd();");
  const c3 = b.commit({
    name: "C3",
    subject: "Add formatTable for aligned plain-text output",
    checkpoint: checkpointId("s02"),
    author: MAYA,
    atMs: after(s, 540),
    paths: ["src/table.ts"],
    scenarios: [2],
    note: "self-overwrite by the agent, then 2 lines changed by hand",
  });
  const entire = { agent_lines: 19, human_added: 0, human_modified: 2, human_removed: 0, total_committed: 21 };
  b.checkpoint(c3.checkpoint_id as string, c3, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/table.ts"],
      attribution: entire,
      promptTexts: [p1, p2],
      turns: 2,
      cliVersion: "0.3.12",
    },
  ]);
  b.unit({
    scenario: 2,
    session: s,
    commit: "C3",
    ambiguity: null,
    agent_lines_produced: 25,
    agent_lines_final: 21,
    agent_lines_survived: 19,
    human_lines: 2,
    outside_lines: 0,
    total_committed_lines: 21,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "Write +20, self Edit +5/-4, person changes 2 agent lines before the commit",
  });
}
