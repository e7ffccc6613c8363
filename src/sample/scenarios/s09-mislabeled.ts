import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { MAYA, ROOT, SONNET } from "../project/constants";
import { checkpointId } from "../seeded/ids";

// Scenario 9: Entire labels the session "Gemini CLI" but the transcript is
// Claude Code JSONL (a real Entire bug): the format is read by content.
//
// By hand: one Edit appends formatDuration (+7). Produced, final,
// survived 7, total 7.
export function s09Mislabeled(b: SampleBuilder): void {
  const s = b.session({
    key: "s09-mislabeled",
    scenarios: [9],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.11",
    branch: "main",
    slug: "crisp-echoing-walrus",
    model: SONNET,
    start: "2026-01-20T13:45:00Z",
    agentLabel: "Gemini CLI",
  });
  const { t, tools } = s;
  t.sessionStart();
  s.prompts = 1;
  const p1 =
    "add formatDuration(ms), the inverse of parseDuration: use the biggest unit that divides the value exactly";
  t.prompt(p1);
  t.assistant([], [tools.read("src/duration.ts")]);
  t.assistant(
    [text("FACTORS already has every unit; I'll pick the largest one that divides evenly.")],
    [
      tools.edit(
        "src/duration.ts",
        "  return Number(match[1]) * FACTORS[match[2]];\n}",
        '  return Number(match[1]) * FACTORS[match[2]];\n}\n\n/** Formats milliseconds with the largest unit that divides them exactly. */\nexport function formatDuration(ms: number): string {\n  const units = Object.entries(FACTORS).sort((a, b) => b[1] - a[1]);\n  const [name, factor] = units.find(([, f]) => ms % f === 0) ?? ["ms", 1];\n  return `${ms / factor}${name}`;\n}',
      ),
    ],
  );
  t.assistant([
    text('Added `formatDuration`: `formatDuration(5_400_000)` is "90m", `formatDuration(172_800_000)` is "2d".'),
  ]);
  t.stop();
  const c10 = b.commit({
    name: "C10",
    subject: "Add formatDuration",
    checkpoint: checkpointId("s09"),
    author: MAYA,
    atMs: after(s, 190),
    paths: ["src/duration.ts"],
    scenarios: [9],
    note: "metadata says Gemini CLI, transcript is Claude Code",
  });
  const entire = { agent_lines: 7, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 7 };
  b.checkpoint(c10.checkpoint_id as string, c10, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/duration.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.3.13",
    },
  ]);
  b.unit({
    scenario: 9,
    session: s,
    commit: "C10",
    ambiguity: null,
    agent_lines_produced: 7,
    agent_lines_final: 7,
    agent_lines_survived: 7,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 7,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "label Gemini CLI, content Claude Code JSONL; one Edit +7",
  });
}
