import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text, thinking } from "../claude-code/message";
import { MAYA, ROOT, SONNET } from "../project/constants";
import { SLUGIFY_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";

// Scenario 1: the agent Writes a new file; the human commits it unchanged.
// Also: streamed records, a Glob/Read/Bash, the /exit command with its
// isMeta caveat.
//
// By hand: Write create of src/slugify.ts, 12 lines, all agent. The commit
// adds exactly that file: produced 12, final 12, survived 12, total 12.
export function s01Slugify(b: SampleBuilder): void {
  const s = b.session({
    key: "s01-slugify",
    scenarios: [1],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.1",
    branch: "main",
    slug: "tidy-humming-lantern",
    model: SONNET,
    start: "2026-01-08T09:41:07Z",
    ttl: "5m",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "Add a slugify(text) helper in src/slugify.ts: lowercase, strip accents, collapse everything that isn't a-z or 0-9 into single dashes and trim dashes at both ends. Keep an optional max length. Don't wire it into the index yet.";
  t.prompt(p1);
  s.prompts = 1;
  t.assistant(
    [
      thinking(
        "Small single-purpose modules under src/. Check one for conventions (named exports, no default export) before writing.",
      ),
      text("Let me look at how the existing helpers are laid out."),
    ],
    [tools.glob("src/**/*.ts", "src/", ".ts")],
  );
  t.assistant([], [tools.read("src/bytes.ts")]);
  t.assistant(
    [text("Named exports, no dependencies. I'll follow the same style.")],
    [tools.write("src/slugify.ts", SLUGIFY_TS)],
  );
  t.assistant([], [tools.bash("npx tsc --noEmit -p .", "Type-check the project", "")]);
  t.assistant([
    text(
      "Added `src/slugify.ts`:\n\n- NFKD-normalises and drops combining marks, so accents disappear\n- lowercases, turns every run of other characters into one dash, trims dashes\n- `maxLength` (default 80) cuts the slug without leaving a trailing dash\n\nIt type-checks; I left `src/index.ts` alone as you asked.",
    ),
  ]);
  t.stop();
  t.command("exit", "", "Bye!");
  const c2 = b.commit({
    name: "C2",
    subject: "Add slugify helper",
    checkpoint: checkpointId("s01"),
    author: MAYA,
    atMs: after(s, 200),
    paths: ["src/slugify.ts"],
    scenarios: [1],
    note: "agent-written file committed unchanged",
  });
  const entire = { agent_lines: 12, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 12 };
  b.checkpoint(c2.checkpoint_id as string, c2, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/slugify.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.3.12",
    },
  ]);
  b.unit({
    scenario: 1,
    session: s,
    commit: "C2",
    ambiguity: null,
    agent_lines_produced: 12,
    agent_lines_final: 12,
    agent_lines_survived: 12,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 12,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "Write create, 12 lines, committed unchanged",
  });
}
