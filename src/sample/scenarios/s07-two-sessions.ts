import type { SampleBuilder } from "../builder/sample-builder";
import { text } from "../claude-code/message";
import { HAIKU, MAYA, OPUS, ROOT } from "../project/constants";
import { checkpointId } from "../seeded/ids";

// Scenario 7: two sessions in one checkpoint (ambiguous:
// multi-session-checkpoint). Opus documents usage in README.md while a
// haiku session in another terminal edits package.json.
//
// By hand: README Edit +7 (blank, "## Usage", blank, 4 more lines after
// the last old line); package.json Edit +2. The commit adds 9 lines.
// Unit (G1): produced 7, final 7, survived 7; package.json lines are in a
// file G1 never touched, so human 2; total 9.
// Unit (G2): produced 2, final 2, survived 2, human 7, total 9.
export function s07TwoSessions(b: SampleBuilder): void {
  const g1 = b.session({
    key: "s07a-readme",
    scenarios: [7],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.9",
    branch: "main",
    slug: "gentle-weaving-kestrel",
    model: OPUS,
    start: "2026-01-16T09:02:00Z",
  });
  const g2 = b.session({
    key: "s07b-package",
    scenarios: [7],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.9",
    branch: "main",
    slug: "sunny-tracing-marmot",
    model: HAIKU,
    start: "2026-01-16T09:06:30Z",
  });
  {
    const { t, tools } = g1;
    t.sessionStart();
    g1.prompts = 1;
    t.prompt("Add a short Usage section to the README showing formatBytes and slugify.");
    t.assistant([], [tools.read("README.md")]);
    t.assistant(
      [text("Adding a Usage section after Install.")],
      [
        tools.edit(
          "README.md",
          "    npm install sample-app\n",
          '    npm install sample-app\n\n## Usage\n\n    import { formatBytes, slugify } from "sample-app";\n\n    formatBytes(1536); // "1.5 KB"\n    slugify("Hello, World"); // "hello-world"\n',
        ),
      ],
    );
    t.assistant([text("The README now has a Usage section with one example per helper.")]);
    t.stop();
  }
  {
    const { t, tools } = g2;
    t.sessionStart();
    g2.prompts = 1;
    t.prompt("package.json: add the types entry and limit the published files to dist");
    t.assistant([], [tools.read("package.json")]);
    t.assistant(
      [],
      [
        tools.edit(
          "package.json",
          '  "main": "dist/index.js",',
          '  "main": "dist/index.js",\n  "types": "dist/index.d.ts",\n  "files": ["dist"],',
        ),
      ],
    );
    t.assistant([text('Added `"types": "dist/index.d.ts"` and `"files": ["dist"]`.')]);
    t.stop();
  }
  const end = Math.max(g1.t.clock.ms, g2.t.clock.ms);
  const c8 = b.commit({
    name: "C8",
    subject: "Document usage; publish only dist",
    checkpoint: checkpointId("s07"),
    author: MAYA,
    atMs: end + 300_000,
    paths: ["README.md", "package.json"],
    scenarios: [7],
    note: "one checkpoint, two sessions",
  });
  const e1 = { agent_lines: 7, human_added: 2, human_modified: 0, human_removed: 0, total_committed: 9 };
  const e2 = { agent_lines: 2, human_added: 7, human_modified: 0, human_removed: 0, total_committed: 9 };
  b.checkpoint(c8.checkpoint_id as string, c8, [
    {
      session: g1,
      start: 0,
      end: g1.t.length,
      filesTouched: ["README.md"],
      attribution: e1,
      promptTexts: ["Add a short Usage section to the README showing formatBytes and slugify."],
      turns: 1,
      cliVersion: "0.3.13",
    },
    {
      session: g2,
      start: 0,
      end: g2.t.length,
      filesTouched: ["package.json"],
      attribution: e2,
      promptTexts: ["package.json: add the types entry and limit the published files to dist"],
      turns: 1,
      cliVersion: "0.3.13",
    },
  ]);
  b.unit({
    scenario: 7,
    session: g1,
    commit: "C8",
    ambiguity: "multi-session-checkpoint",
    agent_lines_produced: 7,
    agent_lines_final: 7,
    agent_lines_survived: 7,
    human_lines: 2,
    outside_lines: 0,
    total_committed_lines: 9,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire: e1,
    why: "checkpoint with two session folders; the other session's lines count as human here",
  });
  b.unit({
    scenario: 7,
    session: g2,
    commit: "C8",
    ambiguity: "multi-session-checkpoint",
    agent_lines_produced: 2,
    agent_lines_final: 2,
    agent_lines_survived: 2,
    human_lines: 7,
    outside_lines: 0,
    total_committed_lines: 9,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire: e2,
    why: "checkpoint with two session folders; the other session's lines count as human here",
  });
}
