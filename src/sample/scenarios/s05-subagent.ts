import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { HAIKU, MAYA, OPUS, ROOT } from "../project/constants";
import { SLUGIFY_TEST_TS } from "../project/files";
import { checkpointId } from "../seeded/ids";

// Scenario 5: a sub-agent (Task, haiku) writes and edits a test file; its
// calls exist only as `agent_progress` records in the main transcript (and
// in subagents/agent-<id>.jsonl). The main agent edits package.json.
//
// By hand: sub-agent Write test/slugify.test.ts (+15), sub-agent Edit
// appends a 4-line test (+4), main Edit of the test script (+1).
// Produced 20, final 20, survived 20, total 20.
// Entire only saw package.json as touched (sub-agent calls are nested), so
// it counts the test file as human: agent 1 of 20.
export function s05Subagent(b: SampleBuilder): void {
  const ws = b.ws;
  const s = b.session({
    key: "s05-subagent",
    scenarios: [5],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.6",
    branch: "main",
    slug: "velvet-roaming-compass",
    model: OPUS,
    start: "2026-01-14T15:30:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  const p1 =
    "Add node:test tests for slugify. Hand the test writing to a subagent on haiku, it's simple enough, and make `npm test` run them.";
  t.prompt(p1);
  s.prompts = 1;
  t.assistant(
    [text("I'll delegate the tests to a haiku subagent and fix up the npm script myself.")],
    [
      t.task(
        {
          description: "Write slugify tests",
          prompt:
            "Write node:test unit tests for src/slugify.ts in test/slugify.test.ts. Cover lowercasing, accents and punctuation, trimming of dashes and maxLength. Use node:assert/strict. Run them with `npx tsx --test` and fix anything that fails.",
          model: HAIKU,
          modelAlias: "haiku",
        },
        ws,
        ROOT,
        (sub, st) => {
          sub.assistant([text("Reading the implementation.")], [st.read("src/slugify.ts")]);
          sub.assistant([], [st.write("test/slugify.test.ts", SLUGIFY_TEST_TS)]);
          sub.assistant(
            [],
            [
              st.bash(
                "npx tsx --test test/slugify.test.ts",
                "Run the slugify tests",
                "\u2714 lowercases and joins words with dashes (0.71ms)\n\u2714 strips accents and punctuation (0.14ms)\n\u2714 trims dashes at both ends (0.09ms)\n\u2139 tests 3\n\u2139 pass 3\n\u2139 fail 0",
              ),
            ],
          );
          sub.assistant(
            [text("maxLength is not covered yet; adding a case.")],
            [
              st.edit(
                "test/slugify.test.ts",
                '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");\n});',
                '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");\n});\n\ntest("cuts at maxLength without a trailing dash", () => {\n  assert.equal(slugify("one two three", 7), "one-two");\n});',
              ),
            ],
          );
          sub.assistant(
            [],
            [
              st.bash(
                "npx tsx --test test/slugify.test.ts",
                "Run the slugify tests again",
                "\u2714 lowercases and joins words with dashes (0.68ms)\n\u2714 strips accents and punctuation (0.15ms)\n\u2714 trims dashes at both ends (0.08ms)\n\u2714 cuts at maxLength without a trailing dash (0.07ms)\n\u2139 tests 4\n\u2139 pass 4\n\u2139 fail 0",
              ),
            ],
          );
          const summary =
            "Created test/slugify.test.ts with 4 node:test cases (lowercasing, accents and punctuation, trimming dashes, maxLength). All 4 pass with `npx tsx --test test/slugify.test.ts`.";
          sub.assistant([text(summary)]);
          return summary;
        },
      ),
    ],
  );
  t.assistant(
    [text("Tests are in. Pointing `npm test` at them.")],
    [tools.edit("package.json", '    "test": "node --test"', '    "test": "node --import tsx --test test/*.test.ts"')],
  );
  t.assistant([
    text(
      "The subagent added `test/slugify.test.ts` (4 cases, all passing) and `npm test` now runs `test/*.test.ts` through tsx. You'll want `tsx` in devDependencies if it isn't installed globally.",
    ),
  ]);
  t.stop();
  const c6 = b.commit({
    name: "C6",
    subject: "Test slugify",
    checkpoint: checkpointId("s05"),
    author: MAYA,
    atMs: after(s, 420),
    paths: ["package.json", "test/slugify.test.ts"],
    scenarios: [5],
    note: "sub-agent edits via agent_progress",
  });
  const entire = { agent_lines: 1, human_added: 19, human_modified: 0, human_removed: 0, total_committed: 20 };
  b.checkpoint(c6.checkpoint_id as string, c6, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["package.json"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.3.13",
    },
  ]);
  b.unit({
    scenario: 5,
    session: s,
    commit: "C6",
    ambiguity: null,
    agent_lines_produced: 20,
    agent_lines_final: 20,
    agent_lines_survived: 20,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 20,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "sub-agent Write +15 and Edit +4 (agent_progress), main Edit +1",
  });
}
