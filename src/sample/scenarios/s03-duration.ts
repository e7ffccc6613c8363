import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text, thinking } from "../claude-code/message";
import { MAYA, ROOT, SONNET } from "../project/constants";
import { checkpointId } from "../seeded/ids";

// Scenario 3: a shell command (prettier) changes the file between two
// agent edits; the third Edit's `originalFile` shows it. Also an API
// failure: `system/api_error` retries and a `<synthetic>` assistant
// record, then the person types "continue".
//
// By hand (src/duration.ts, base = C0):
//   Edit 1: +2 agent (`d:` and `w:` in FACTORS).
//   Edit 2: the regex line, +1 agent (it keeps the old trailing space).
//   Bash `npx prettier --write`: strips that trailing space (the agent's
//     line) and turns the single-quoted error line (base) into double
//     quotes. No structured record.
//   Edit 3: `originalFile` differs from the replayed state by those 2 lines:
//     outside_changes 1, the 2 new lines are `outside`; then +1 agent (doc
//     comment).
// Produced 2+1+1 = 4. Final agent lines: d, w, doc = 3 (the regex line is
// now outside). Committed (base→commit adds 5): d, w, doc (agent 3), the
// regex and error lines (outside 2). Human 0. Total 5.
// Entire counts all 5 as agent (it diffs snapshots of files the agent touched).
export function s03Duration(b: SampleBuilder): void {
  const ws = b.ws;
  const s = b.session({
    key: "s03-duration",
    scenarios: [3],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.5",
    branch: "main",
    slug: "quiet-sorting-heron",
    model: SONNET,
    start: "2026-01-12T14:20:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    'parseDuration should also accept days and weeks ("2d", "1w"). Run prettier on the file when you\'re done, it never went through it.';
  t.prompt(p1);
  t.assistant([text("Let me read the parser first.")], [tools.read("src/duration.ts")]);
  t.assistant(
    [
      thinking("Add d and w to FACTORS, then extend the regex alternation. Keep everything else."),
      text("Adding the two units to the factor table."),
    ],
    [tools.edit("src/duration.ts", "  h: 3_600_000,\n};", "  h: 3_600_000,\n  d: 86_400_000,\n  w: 604_800_000,\n};")],
  );
  t.assistant(
    [text("Now the pattern.")],
    [
      tools.edit(
        "src/duration.ts",
        "  const match = /^(\\d+)(ms|s|m|h)$/.exec(text.trim()); ",
        "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim()); ",
      ),
    ],
  );
  t.assistant(
    [text("Running prettier on it as asked.")],
    [
      tools.bash(
        "npx prettier --write src/duration.ts",
        "Format duration.ts with prettier",
        "src/duration.ts 41ms",
        () => {
          ws.change(
            "src/duration.ts",
            "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim()); ",
            "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim());",
          );
          ws.change(
            "src/duration.ts",
            "  if (!match) throw new Error('bad duration: ' + text);",
            '  if (!match) throw new Error("bad duration: " + text);',
          );
        },
      ),
    ],
  );
  t.apiFailure(529, "overloaded_error", "Overloaded", 2);
  t.stop();
  t.wait(95);
  const p2 = "continue";
  t.prompt(p2);
  s.prompts = 2;
  t.assistant(
    [text("Prettier reformatted two lines. One last touch: a doc comment with examples.")],
    [
      tools.edit(
        "src/duration.ts",
        "export function parseDuration(text: string): number {",
        '/** Parses "90s", "15m", "2d"\u2026 into milliseconds. */\nexport function parseDuration(text: string): number {',
      ),
    ],
  );
  t.assistant([
    text(
      "Done: `d` (days) and `w` (weeks) are accepted, the file is prettier-formatted (it dropped a trailing space and switched the error message to double quotes), and `parseDuration` has a short doc comment.",
    ),
  ]);
  t.stop();
  const c4 = b.commit({
    name: "C4",
    subject: "parseDuration: accept days and weeks",
    checkpoint: checkpointId("s03"),
    author: MAYA,
    atMs: after(s, 310),
    paths: ["src/duration.ts"],
    scenarios: [3],
    note: "formatter run through Bash between agent edits",
  });
  const entire = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
  b.checkpoint(c4.checkpoint_id as string, c4, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/duration.ts"],
      attribution: entire,
      promptTexts: [p1, p2],
      turns: 2,
      cliVersion: "0.3.12",
    },
  ]);
  b.unit({
    scenario: 3,
    session: s,
    commit: "C4",
    ambiguity: null,
    agent_lines_produced: 4,
    agent_lines_final: 3,
    agent_lines_survived: 3,
    human_lines: 0,
    outside_lines: 2,
    total_committed_lines: 5,
    outside_changes: 1,
    unreplayable_calls: 0,
    entire,
    why: "Bash (prettier) rewrote an agent line and a base line between edits: seen at the next originalFile",
  });
}
