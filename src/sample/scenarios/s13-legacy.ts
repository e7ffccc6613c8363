import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { MAYA, ROOT, SONNET_4 } from "../project/constants";
import { checkpointId } from "../seeded/ids";

// Scenario 13 (legacy): Claude Code 1.0.x transcript, early Entire metadata
// (date-prefixed session id, no agent label, `transcript_lines_at_start`),
// a MultiEdit with `originalFileContents`, an inline sidechain (Task).
//
// By hand: MultiEdit on bytes.ts changes the UNITS line (+1) and appends
// parseBytes after formatBytes (+7: blank, signature, 4 body lines, "}"),
// so +8; the Edit on index.ts changes line 1 (+1). Produced 9, all of it
// committed unchanged: final 9, survived 9, total 9, human 0, outside 0.
export function s13Legacy(b: SampleBuilder): void {
  const ws = b.ws;
  const s = b.session({
    key: "s13-legacy",
    scenarios: [13],
    cwd: ROOT,
    root: ROOT,
    version: "1.0.128",
    branch: "main",
    slug: null,
    model: SONNET_4,
    start: "2026-01-06T13:02:11Z",
    style: "1.0",
    ttl: "5m",
    agentLabel: null,
    entireDatePrefix: "2026-01-06",
  });
  const { t, tools } = s;
  const p1 =
    'add a parseBytes function next to formatBytes that accepts strings like "1.5 MB" and export it from the index';
  t.prompt(p1);
  s.prompts = 1;
  t.assistant([text("I'll start by reading the current bytes helper.")], [tools.read("src/bytes.ts")]);
  t.assistant(
    [text("Before changing the units list, let me check who else relies on it.")],
    [
      t.task(
        {
          description: "Find formatBytes callers",
          prompt:
            "List every file in this repository that imports or calls formatBytes or uses the UNITS constant from src/bytes.ts. Report paths only.",
          model: SONNET_4,
          modelAlias: "sonnet",
        },
        ws,
        ROOT,
        (sub, st) => {
          sub.assistant(
            [text("Searching for formatBytes and UNITS.")],
            [st.grep("formatBytes|UNITS", ["src/bytes.ts", "src/index.ts"])],
          );
          const answer =
            "formatBytes is defined in src/bytes.ts and re-exported from src/index.ts. UNITS is only used inside src/bytes.ts.";
          sub.assistant([text(answer)]);
          return answer;
        },
      ),
    ],
  );
  t.assistant(
    [text("Only bytes.ts uses UNITS, so I can extend it safely. I'll add PB and the parser in one go.")],
    [
      tools.multiEdit("src/bytes.ts", [
        {
          old_string: 'const UNITS = ["B", "KB", "MB", "GB", "TB"];',
          new_string: 'const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];',
        },
        {
          old_string: "  return `${value.toFixed(1)} ${UNITS[unit]}`;\n}",
          new_string:
            "  return `${value.toFixed(1)} ${UNITS[unit]}`;\n}\n\nexport function parseBytes(text: string): number {\n  const match = /^(\\d+(?:\\.\\d+)?)\\s*([KMGTP]?B)$/i.exec(text.trim());\n  if (!match) throw new Error(`bad size: ${text}`);\n  const unit = UNITS.indexOf(match[2].toUpperCase());\n  return Math.round(Number(match[1]) * 1024 ** unit);\n}",
        },
      ]),
    ],
  );
  t.assistant(
    [],
    [
      tools.edit(
        "src/index.ts",
        'export { formatBytes } from "./bytes";',
        'export { formatBytes, parseBytes } from "./bytes";',
      ),
    ],
  );
  t.assistant([
    text(
      'Added `parseBytes` to src/bytes.ts (case-insensitive units, decimals allowed, so "1.5 MB" gives 1572864) and exported it from src/index.ts. I also added PB to the units so both functions cover the same range.',
    ),
  ]);
  const c1 = b.commit({
    name: "C1",
    subject: "Add parseBytes",
    checkpoint: checkpointId("s13"),
    author: MAYA,
    atMs: after(s, 240),
    paths: ["src/bytes.ts", "src/index.ts"],
    scenarios: [13],
    note: "legacy 1.0.x session; Entire metadata of the early format",
  });
  const entire = { agent_lines: 9, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 9 };
  b.checkpoint(c1.checkpoint_id as string, c1, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/bytes.ts", "src/index.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: null,
      legacy: true,
    },
  ]);
  b.unit({
    scenario: 13,
    session: s,
    commit: "C1",
    ambiguity: null,
    agent_lines_produced: 9,
    agent_lines_final: 9,
    agent_lines_survived: 9,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 9,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "1.0.x MultiEdit (+8) and Edit (+1), committed unchanged; date-prefixed Entire session id is the same session",
  });
}
