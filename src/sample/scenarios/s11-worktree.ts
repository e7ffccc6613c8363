import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text } from "../claude-code/message";
import { MAYA, OPUS, WORKTREE } from "../project/constants";
import { checkpointId } from "../seeded/ids";

// Scenario 11: a session in a worktree (/home/dev/sample-app/.worktrees/2,
// branch feature/slug-options, fast-forwarded into main) with one
// `userModified: true` edit: the person rewrote the proposal in the IDE.
//
// By hand: Edit 1 changes the signature (+1 agent). Edit 2 replaces 3
// lines with the person's 4 lines (userModified: +4 human, not agent).
// Produced 1, final 1, survived 1, human 4, total 5.
// Entire cannot tell: 5 agent lines.
export function s11Worktree(b: SampleBuilder): void {
  const s = b.session({
    key: "s11-worktree",
    scenarios: [11],
    cwd: WORKTREE,
    root: WORKTREE,
    version: "2.1.14",
    branch: "feature/slug-options",
    slug: "bold-knitting-sparrow",
    model: OPUS,
    start: "2026-01-22T10:20:00Z",
    worktree: "2",
  });
  const { t, tools } = s;
  t.sessionStart();
  s.prompts = 1;
  const p1 = 'slugify: let callers pick the separator (default "-")';
  t.prompt(p1);
  t.assistant([], [tools.read("src/slugify.ts")]);
  t.assistant(
    [text("Adding a `separator` parameter after `maxLength` so existing calls keep working.")],
    [
      tools.edit(
        "src/slugify.ts",
        "export function slugify(text: string, maxLength = 80): string {",
        'export function slugify(text: string, maxLength = 80, separator = "-"): string {',
      ),
    ],
  );
  t.assistant(
    [text("Now using it in the pipeline.")],
    [
      tools.edit(
        "src/slugify.ts",
        '    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-+|-+$/g, "");\n  return slug.slice(0, maxLength).replace(/-+$/, "");',
        "    .replace(/[^a-z0-9]+/g, separator)\n    .split(separator)\n    .filter(Boolean)\n    .join(separator);\n  return slug.slice(0, maxLength).split(separator).filter(Boolean).join(separator);",
        {
          userText:
            '    .replace(/[^a-z0-9]+/g, " ")\n    .trim()\n    .replaceAll(" ", separator);\n  return slug.slice(0, maxLength).replace(/[^a-z0-9]+$/, "");',
        },
      ),
    ],
  );
  t.assistant([
    text(
      "I see you adjusted the pipeline to go through spaces and `trim()` instead; that reads better. The separator is now configurable.",
    ),
  ]);
  t.stop();
  const c12 = b.commit({
    name: "C12",
    subject: "slugify: configurable separator",
    checkpoint: checkpointId("s11"),
    author: MAYA,
    atMs: after(s, 330),
    paths: ["src/slugify.ts"],
    scenarios: [11],
    note: "made in the worktree on feature/slug-options, fast-forwarded into main",
  });
  b.branchFrom("feature/slug-options", "main");
  const entire = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
  b.checkpoint(c12.checkpoint_id as string, c12, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/slugify.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.4.0",
      withModel: true,
    },
  ]);
  b.unit({
    scenario: 11,
    session: s,
    commit: "C12",
    ambiguity: null,
    agent_lines_produced: 1,
    agent_lines_final: 1,
    agent_lines_survived: 1,
    human_lines: 4,
    outside_lines: 0,
    total_committed_lines: 5,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "userModified edit: the 4 inserted lines are the person's; one normal Edit +1",
  });
}
