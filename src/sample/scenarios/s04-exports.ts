import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { MAYA, OPUS, ROOT } from "../project/constants";
import { checkpointId } from "../seeded/ids";
import { L } from "../text";

// Scenario 4: a failed Edit (string not found: is_error, string
// toolUseResult), a rejected Write and the `[Request interrupted by user
// for tool use]` marker. Neither failed call is replayed.
//
// By hand: only the second Edit of src/index.ts succeeds (+2 export
// lines). The rejected src/cli.ts never exists. Produced 2, final 2,
// survived 2, total 2.
export function s04Exports(b: SampleBuilder): void {
  const s = b.session({
    key: "s04-exports",
    scenarios: [4],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.6",
    branch: "main",
    slug: "amber-leaning-otter",
    model: OPUS,
    start: "2026-01-13T09:15:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "export slugify and formatTable from the index, and add a tiny CLI in src/cli.ts that prints formatBytes(argv[2])";
  t.prompt(p1);
  t.assistant(
    [text("I'll add the exports first.")],
    [
      tools.editNotFound(
        "src/index.ts",
        'export { formatBytes } from "./bytes";',
        'export { formatBytes } from "./bytes";\nexport { slugify } from "./slugify";',
      ),
    ],
  );
  t.assistant([text("The index changed since I last saw it. Reading it again.")], [tools.read("src/index.ts")]);
  t.assistant(
    [],
    [
      tools.edit(
        "src/index.ts",
        'export { parseDuration } from "./duration";',
        'export { parseDuration } from "./duration";\nexport { slugify } from "./slugify";\nexport { formatTable, type Row } from "./table";',
      ),
    ],
  );
  t.assistant(
    [text("Now the CLI entry point.")],
    [
      tools.writeRejected(
        "src/cli.ts",
        L(
          "#!/usr/bin/env node",
          'import { formatBytes } from "./bytes";',
          "",
          "const n = Number(process.argv[2]);",
          "if (Number.isNaN(n)) {",
          '  console.error("usage: sample-app <bytes>");',
          "  process.exit(2);",
          "}",
          "console.log(formatBytes(n));",
        ),
      ),
    ],
  );
  t.interrupted(true);
  t.wait(20);
  const p2 = "no CLI for now, just the exports";
  t.prompt(p2);
  s.prompts = 2;
  t.assistant([
    text("Understood, no CLI. `src/index.ts` now also exports `slugify`, `formatTable` and the `Row` type."),
  ]);
  t.stop();
  const c5 = b.commit({
    name: "C5",
    subject: "Export slugify and formatTable",
    checkpoint: checkpointId("s04"),
    author: MAYA,
    atMs: after(s, 150),
    paths: ["src/index.ts"],
    scenarios: [4],
    note: "failed Edit and rejected Write are not replayed",
  });
  const entire = { agent_lines: 2, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 2 };
  b.checkpoint(c5.checkpoint_id as string, c5, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/index.ts"],
      attribution: entire,
      promptTexts: [p1, p2],
      turns: 2,
      cliVersion: "0.3.12",
    },
  ]);
  b.unit({
    scenario: 4,
    session: s,
    commit: "C5",
    ambiguity: null,
    agent_lines_produced: 2,
    agent_lines_final: 2,
    agent_lines_survived: 2,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 2,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "failed Edit (not found) and rejected Write skipped; one successful Edit +2",
  });
}
