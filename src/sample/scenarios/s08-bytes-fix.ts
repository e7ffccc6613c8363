import type { SampleBuilder } from "../builder/sample-builder";
import { after } from "../builder/session-handle";
import { text, thinking } from "../claude-code/message";
import { MAYA, ROOT, SONNET, TOM } from "../project/constants";
import { at } from "../seeded/clock";
import { checkpointId } from "../seeded/ids";

// Scenario 8: a fix on main, cherry-picked by Tom onto release/0.1 the
// next day. Same `git patch-id --stable`, same trailer: one commit
// (the earliest committer time, C9 on main), not multi-commit-checkpoint.
//
// By hand: two Edits of src/bytes.ts, +1 and +3. Produced 4, final 4,
// survived 4, total 4.
export function s08BytesFix(b: SampleBuilder): void {
  const ws = b.ws;
  const bytesBeforeFix = b.committedFile("main", "src/bytes.ts");
  const s = b.session({
    key: "s08-bytes-fix",
    scenarios: [8],
    cwd: ROOT,
    root: ROOT,
    version: "2.1.10",
    branch: "main",
    slug: "steady-mapping-finch",
    model: SONNET,
    start: "2026-01-19T11:11:00Z",
  });
  const { t, tools } = s;
  t.sessionStart();
  s.prompts = 1;
  const p1 =
    'formatBytes(512) prints "512.0 B" - plain bytes should never have a decimal. Also negative sizes loop forever... no wait, they just print "-512.0 B". Make both sane.';
  t.prompt(p1);
  t.assistant([], [tools.read("src/bytes.ts")]);
  t.assistant(
    [
      thinking("Work on the absolute value, reattach the sign at the end; bytes unit gets integer formatting."),
      text("Two small changes: divide the absolute value, and only use a decimal above plain bytes."),
    ],
    [tools.edit("src/bytes.ts", "  let value = n;", "  let value = Math.abs(n);")],
  );
  t.assistant(
    [],
    [
      tools.edit(
        "src/bytes.ts",
        "  return `${value.toFixed(1)} ${UNITS[unit]}`;",
        '  const sign = n < 0 ? "-" : "";\n  const digits = unit === 0 ? String(value) : value.toFixed(1);\n  return `${sign}${digits} ${UNITS[unit]}`;',
      ),
    ],
  );
  t.assistant([
    text(
      '`formatBytes(512)` now gives "512 B", and `formatBytes(-2048)` gives "-2.0 KB" (the loop runs on the absolute value, the sign is added back).',
    ),
  ]);
  t.stop();
  const c9 = b.commit({
    name: "C9",
    subject: "formatBytes: no decimals for bytes, keep the sign",
    checkpoint: checkpointId("s08"),
    author: MAYA,
    atMs: after(s, 260),
    paths: ["src/bytes.ts"],
    scenarios: [8],
    note: "cherry-picked later onto release/0.1 (C9r)",
  });
  const entire = { agent_lines: 4, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 4 };
  b.checkpoint(c9.checkpoint_id as string, c9, [
    {
      session: s,
      start: 0,
      end: t.length,
      filesTouched: ["src/bytes.ts"],
      attribution: entire,
      promptTexts: [p1],
      turns: 1,
      cliVersion: "0.3.13",
    },
  ]);
  // The cherry-pick: same change on release/0.1 (whose bytes.ts equals C9's parent's), same message.
  const fixed = ws.text("src/bytes.ts");
  if (b.committedFile("release/0.1", "src/bytes.ts") !== bytesBeforeFix)
    throw new Error("sample: release/0.1 diverged, the cherry-pick would not be a copy");
  const copy = b.commit({
    name: "C9r",
    branch: "release/0.1",
    subject: c9.subject,
    checkpoint: c9.checkpoint_id as string,
    author: MAYA,
    authorMs: c9.author_time * 1000,
    committer: TOM,
    atMs: at("2026-01-20T08:31:12Z"),
    paths: ["src/bytes.ts"],
    contents: new Map([["src/bytes.ts", fixed]]),
    scenarios: [8],
    note: "cherry-pick of C9 (same patch id, same trailer)",
  });
  copy.copy_of = "C9";
  b.unit({
    scenario: 8,
    session: s,
    commit: "C9",
    ambiguity: null,
    agent_lines_produced: 4,
    agent_lines_final: 4,
    agent_lines_survived: 4,
    human_lines: 0,
    outside_lines: 0,
    total_committed_lines: 4,
    outside_changes: 0,
    unreplayable_calls: 0,
    entire,
    why: "checkpoint on C9 and its cherry-pick C9r: same patch id, counted once (C9, earliest committer time)",
  });
}
