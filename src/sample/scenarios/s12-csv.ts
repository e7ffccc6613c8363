import type { SampleBuilder } from "../builder/sample-builder";
import { text, thinking } from "../claude-code/message";
import { MAYA, OPUS, ROOT, SONNET } from "../project/constants";
import { CSV_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";
import type { Json } from "../text";

// Scenario 12: one session, two checkpoints. The second checkpoint's
// full.jsonl holds the whole transcript, `checkpoint_transcript_start`
// says where its part begins. Also: /model switch, a manual /compact
// (compact_boundary + isCompactSummary), the final /exit.
// Both units are `multi-checkpoint-session`.
//
// Part 1 (C13, slice [0, n1)): Write src/csv.ts (+9), Edit src/index.ts
// (+1, toCsv export). Maya commits only csv.ts. Produced 10, final 10,
// survived 9, total 9.
// Part 2 (C14, slice [n1, end)): base is C13, whose index.ts lacks the
// toCsv line. Edit csv.ts (+3, header option). Edit index.ts: its
// originalFile has the toCsv line the replay (from base) does not:
// outside_changes 1, that line `outside`; then +1 agent (truncate export).
// Produced 4, final 4, survived 4, outside 1, total 5.
export function s12Csv(b: SampleBuilder): void {
  const s = b.session({
    key: "s12-csv",
    scenarios: [12],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.20",
    branch: "main",
    slug: "lucid-rowing-badger",
    model: SONNET,
    start: "2026-01-26T09:30:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "Add toCsv(rows) in src/csv.ts: quote fields that contain commas, quotes or newlines (RFC 4180 style, CRLF between records) and export it from the index.";
  t.prompt(p1);
  t.assistant(
    [
      thinking("Quote only when needed; double embedded quotes; CRLF separators per RFC 4180."),
      text("Writing the module."),
    ],
    [tools.write("src/csv.ts", CSV_TS)],
  );
  t.assistant([], [tools.read("src/index.ts")]);
  t.assistant(
    [],
    [
      tools.edit(
        "src/index.ts",
        'export { formatTable, type Row } from "./table";',
        'export { formatTable, type Row } from "./table";\nexport { toCsv } from "./csv";',
      ),
    ],
  );
  t.assistant([text("`toCsv` is in `src/csv.ts` and exported from the index.")]);
  t.stop();
  const n1 = t.length;
  // Maya stages and commits only the new module.
  const c13 = b.commit({
    name: "C13",
    subject: "Add toCsv",
    checkpoint: checkpointId("s12a"),
    author: MAYA,
    atMs: t.clock.ms + 180_000,
    paths: ["src/csv.ts"],
    scenarios: [12],
    note: "first checkpoint of the session; index.ts left unstaged",
  });
  t.wait(3 * 3600);
  t.command("model", "opus", "Set model to opus (claude-opus-4-6)");
  t.model = OPUS;
  t.compact(
    "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked for a CSV serializer. I created src/csv.ts with toCsv(rows), quoting fields that contain commas, quotes, CR or LF and doubling embedded quotes, joined with CRLF. I exported it from src/index.ts.\n\nSummary:\n1. Primary Request and Intent: add toCsv in src/csv.ts and export it from the index.\n2. Files and Code Sections: src/csv.ts (new), src/index.ts (one export line added).\n3. Pending Tasks: none.\n4. Current Work: the task is complete; the user has committed src/csv.ts.",
  );
  const p2 =
    "Give toCsv an optional header row (written first when given). And truncate is missing from the index, export it too.";
  t.prompt(p2);
  s.prompts = 2;
  t.assistant([], [tools.read("src/csv.ts")]);
  t.assistant(
    [text("Adding the optional header.")],
    [
      tools.edit(
        "src/csv.ts",
        'export function toCsv(rows: readonly (readonly string[])[]): string {\n  return rows.map((row) => row.map(quote).join(",")).join("\\r\\n");',
        'export function toCsv(rows: readonly (readonly string[])[], header?: readonly string[]): string {\n  const all = header ? [header, ...rows] : rows;\n  return all.map((row) => row.map(quote).join(",")).join("\\r\\n");',
      ),
    ],
  );
  t.assistant([], [tools.read("src/index.ts")]);
  t.assistant(
    [text("Exporting truncate next to toCsv.")],
    [
      tools.edit(
        "src/index.ts",
        'export { toCsv } from "./csv";',
        'export { toCsv } from "./csv";\nexport { truncate } from "./truncate";',
      ),
    ],
  );
  t.assistant([
    text("`toCsv(rows, header)` writes the header first when given; `truncate` is exported from `src/index.ts`."),
  ]);
  t.stop();
  const n2 = t.length;
  const c14 = b.commit({
    name: "C14",
    subject: "toCsv: optional header; export truncate and toCsv",
    checkpoint: checkpointId("s12b"),
    author: MAYA,
    atMs: t.clock.ms + 240_000,
    paths: ["src/csv.ts", "src/index.ts"],
    scenarios: [12],
    note: "second checkpoint of the same session, slice from checkpoint_transcript_start",
  });
  t.wait(400);
  t.command("exit", "", "Goodbye!");
  const ea = { agent_lines: 9, human_added: 0, human_modified: 0, human_removed: 1, total_committed: 9 };
  const eb = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
  // Entire condenses at each commit: the first full.jsonl ends at the first commit.
  b.checkpoint(c13.checkpoint_id as string, c13, [
    {
      session: s,
      start: 0,
      end: n1,
      filesTouched: ["src/csv.ts", "src/index.ts"],
      attribution: ea,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.4.0",
      withModel: true,
    },
  ]);
  const compactSummary = t.records.find((r) => r.isCompactSummary === true) as Json;
  const summaryText = (compactSummary.message as Json).content as string;
  b.checkpoint(c14.checkpoint_id as string, c14, [
    {
      session: s,
      start: n1,
      end: n2,
      filesTouched: ["src/csv.ts", "src/index.ts"],
      attribution: eb,
      promptTexts: [summaryText, p2],
      turns: 1,
      cliVersion: "0.4.0",
      withModel: true,
    },
  ]);
  b.unit({
    scenario: 12,
    session: s,
    commit: "C13",
    ambiguity: "multi-checkpoint-session",
    agent_lines_produced: 10,
    agent_lines_final: 10,
    agent_lines_survived: 9,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 9,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire: ea,
    why: "first checkpoint: Write +9 committed, index.ts Edit +1 left unstaged",
  });
  b.unit({
    scenario: 12,
    session: s,
    commit: "C14",
    ambiguity: "multi-checkpoint-session",
    agent_lines_produced: 4,
    agent_lines_final: 4,
    agent_lines_survived: 4,
    human_lines: 0,
    outside_lines: 1,
    total_committed_lines: 5,
    outside_changes: 1,
    unreplayable_calls: 0,
    entire: eb,
    why: "second checkpoint's slice starts at checkpoint_transcript_start; the earlier unstaged agent line shows up as outside",
  });
}
