import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { MAYA, ROOT, SONNET } from "../project/constants";
import { TRUNCATE_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";

// Scenario 10: the transcript is missing from the checkpoint (the session
// folder keeps metadata.json, prompt.txt and content_hash.txt; full.jsonl
// is gone) and from the projects folder: `transcript-missing`.
//
// The session did write src/truncate.ts (6 lines, Entire says 6 agent
// lines), but nothing can be replayed: the agent columns are null here
// (an engine may report 0 agent / 6 human instead); total 6 from git.
export function s10Lost(b: SampleBuilder): void {
  const s = b.session({
    key: "s10-lost",
    scenarios: [10],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.12",
    branch: "main",
    slug: "hollow-sifting-pebble",
    model: SONNET,
    start: "2026-01-21T16:05:00Z",
    lost: true,
  });
  const { t, tools } = s;
  t.sessionStart();
  s.prompts = 1;
  const p1 = "add truncate(text, max) that ends with an ellipsis when it cuts";
  t.prompt(p1);
  t.assistant([text("A single helper, in its own module.")], [tools.write("src/truncate.ts", TRUNCATE_TS)]);
  t.assistant([
    text(
      "Added `src/truncate.ts`; it trims trailing spaces before adding the ellipsis so the result never ends in a space.",
    ),
  ]);
  t.stop();
  const c11 = b.commit({
    name: "C11",
    subject: "Add truncate helper",
    checkpoint: checkpointId("s10"),
    author: MAYA,
    atMs: after(s, 150),
    paths: ["src/truncate.ts"],
    scenarios: [10],
    note: "its checkpoint has no full.jsonl",
  });
  const entire = { agent_lines: 6, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 6 };
  b.checkpoint(c11.checkpoint_id as string, c11, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/truncate.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.4.0",
    },
  ]);
  b.unit({
    scenario: 10,
    session: s,
    commit: "C11",
    ambiguity: "transcript-missing",
    agent_lines_produced: null,
    agent_lines_final: null,
    agent_lines_survived: null,
    human_lines: null,
    outside_lines: null,
    total_committed_lines: null,
    outside_changes: null,
    unreplayable_calls: null,
    entire,
    why: "session folder without full.jsonl; Entire's own count (6 agent lines) is still there",
  });
}
