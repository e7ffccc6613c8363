/**
 * Gemini CLI sessions in Entire repositories: product bugs found by differential fuzzing against the
 * independent reference (test/reference/README.md, "Gemini"), each with hand-worked unit numbers, run
 * through `swe-chat-eval analyze` on a real git repository as a user runs it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import {
  GEMINI_ROOT,
  geminiDocument,
  geminiMessage,
  replaceCall,
  userMessage,
  writeFileCall,
} from "../reference/gemini-session";
import { buildRepo, type RepoSpec } from "../reference/repo-fixture";

type Row = Record<string, unknown>;

function analyze(spec: RepoSpec): { units: Row[]; diagnostics: Row[] } {
  const { repo, cleanup } = buildRepo(spec);
  const out = mkdtempSync(join(tmpdir(), "gemini-fuzz-"));
  try {
    const r = spawnSync(
      process.execPath,
      [resolve(process.cwd(), "bin/swe-chat-eval.js"), "analyze", repo, "--out", out, "--quiet"],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const read = (name: string) => JSON.parse(readFileSync(join(out, name), "utf8")) as Row[];
    return { units: read("units.json"), diagnostics: read("diagnostics.json") };
  } finally {
    rmSync(out, { recursive: true, force: true });
    cleanup();
  }
}

const counts = (u: Row) =>
  [
    "agent_lines_produced",
    "agent_lines_final",
    "agent_lines_survived",
    "human_lines",
    "outside_lines",
    "total_committed_lines",
    "unreplayable_calls",
    "outside_changes",
  ].map((k) => u[k]);
const SID = "7b2e0c1d-0000-4000-8000-0000000000";

test("a relative path whose root the results do not name: the root is the folder that hashes to projectHash, and absolute paths stay in the repository", () => {
  // replace with an empty old_string creates rel.txt (a relative path); its result text "Created new file: <abs> with
  // provided content." is not the write_file wording. The other call writes an absolute path under the same root.
  const transcript = geminiDocument(`${SID}01`, [
    userMessage("u0", 0, "make them"),
    geminiMessage("g1", 5, {
      model: "gemini-2.5-flash",
      tokens: { input: 100, output: 10, cached: 0 },
      toolCalls: [
        replaceCall("replace-1", "rel.txt", "", "r1\nr2\n", {
          at: 6,
          output: `Created new file: ${GEMINI_ROOT}/rel.txt with provided content.`,
        }),
        writeFileCall("write_file-2", `${GEMINI_ROOT}/a.txt`, "a\nb\n", {
          at: 7,
          output: `Successfully overwrote file: ${GEMINI_ROOT}/a.txt.`,
        }),
      ],
    }),
  ]);
  const { units, diagnostics } = analyze({
    base: { "a.txt": "a\n" },
    commits: [{ files: { "rel.txt": "r1\nr2\n", "a.txt": "a\nb\n" }, checkpoints: ["d1e2f3a4b5c6"] }],
    checkpoints: {
      d1e2f3a4b5c6: [
        { sessionId: `${SID}01`, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } },
      ],
    },
  });
  // rel.txt: created (pre-image ""), 2 lines inserted; a.txt: [a] → [a, b], 1 inserted. produced 3 = final 3.
  // The commit adds r1, r2 and b: all three the agent's. Before the fix the root was the placeholder
  // /gemini-project-root and a.txt (absolute) was "outside the repository": produced 2, survived 2, human 1.
  assert.deepEqual(counts(units[0]), [3, 3, 3, 0, 0, 3, 0, 0]);
  assert.ok(!diagnostics.some((d) => d.code === "path-outside-repo" || d.code === "gemini-project-root-unknown"));
});

test("replace with an empty old_string (it creates the file) on a path the unit's base already holds: empty pre-image, not unreplayable", () => {
  // The agent created r.txt; the person committed it in a commit without a trailer; the checkpoint's commit is the
  // next one. gemini-cli's edit.ts succeeds with an empty old_string only when the file does not exist, so the call's
  // pre-image is "" (as a Write create in metrics.md §3.1), whatever its result text says.
  const transcript = geminiDocument(`${SID}02`, [
    userMessage("u0", 0, "make them"),
    geminiMessage("g1", 5, {
      model: "gemini-2.5-flash",
      tokens: { input: 100, output: 10, cached: 0 },
      toolCalls: [
        replaceCall("replace-1", `${GEMINI_ROOT}/r.txt`, "", "r1\n", {
          at: 6,
          output: `Created new file: ${GEMINI_ROOT}/r.txt with provided content.`,
        }),
        writeFileCall("write_file-2", `${GEMINI_ROOT}/a.txt`, "a\nb\n", {
          at: 7,
          output: `Successfully overwrote file: ${GEMINI_ROOT}/a.txt.`,
        }),
      ],
    }),
  ]);
  const { units } = analyze({
    base: { "a.txt": "a\n" },
    commits: [
      { files: { "r.txt": "r1\n" }, checkpoints: [] },
      { files: { "a.txt": "a\nb\n" }, checkpoints: ["e1e2f3a4b5c6"] },
    ],
    checkpoints: {
      e1e2f3a4b5c6: [
        { sessionId: `${SID}02`, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } },
      ],
    },
  });
  // r.txt at the base is [r1]; the pre-image "" differs: 1 outside change (nothing inserted), then [] → [r1]: 1 agent line.
  // a.txt: 1 agent line. produced 2 = final 2. The commit changes only a.txt: b, the agent's. Before the fix the
  // replace was a string edit of "" on a non-empty file: unreplayable 1, produced 1, final 1, outside changes 0.
  assert.deepEqual(counts(units[0]), [2, 2, 1, 0, 0, 1, 0, 1]);
});

// String edits were applied literally first, and an old_string starting with "\n" matched right after a CRLF file's
// "\r". gemini-cli's edit.ts turns CRLF into LF before it looks for old_string, and writes the LF result; the replay
// (src/replay/apply-edit.ts) now matches such an edit in LF space.
test("replace on a CRLF file with an old_string that starts with a newline: matched after LF normalisation, as gemini-cli does", () => {
  const transcript = geminiDocument(`${SID}03`, [
    userMessage("u0", 0, "join them"),
    geminiMessage("g1", 5, {
      model: "gemini-2.5-flash",
      tokens: { input: 100, output: 10, cached: 0 },
      toolCalls: [
        replaceCall("replace-1", `${GEMINI_ROOT}/b.md`, "\nold", "new", {
          at: 6,
          output: `Successfully modified file: ${GEMINI_ROOT}/b.md (1 replacements).`,
        }),
      ],
    }),
  ]);
  const { units } = analyze({
    base: { "b.md": "top\r\nold\r\n" },
    commits: [{ files: { "b.md": "topnew\n" }, checkpoints: ["f1e2f3a4b5c6"] }],
    checkpoints: {
      f1e2f3a4b5c6: [
        { sessionId: `${SID}03`, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } },
      ],
    },
  });
  // Gemini reads "top\nold\n" and writes "topnew\n": [top, old] → [topnew], 1 agent line, committed as is.
  // Before the fix the product wrote "top\rnew\r\n": its line "top\rnew" was not the committed "topnew": human 1, survived 0.
  assert.deepEqual(counts(units[0]), [1, 1, 1, 0, 0, 1, 0, 0]);
});

// Reported to the lead, not fixed here (the cause is in src/analyze/entire-session-job.ts): a Gemini checkpoint without
// a slice start (or 0) takes its start from any other copy of the session with fewer messages, whatever their content;
// for the other formats the copy must be a strict byte prefix. A later copy made shorter by a rewind then cuts an
// earlier checkpoint's own calls out of its slice.
test("an earlier checkpoint's start is not inferred from a later, shorter (rewound) copy of the session", {
  todo: "start inferred from a copy that is not a prefix",
}, () => {
  const w = (id: string, at: number, path: string) =>
    geminiMessage(id, at, {
      model: "gemini-2.5-flash",
      tokens: { input: 10, output: 1, cached: 0 },
      toolCalls: [
        writeFileCall(`write_file-${id}`, `${GEMINI_ROOT}/${path}`, `${path}\n`, {
          at: at + 1,
          output: `Successfully created and wrote to new file: ${GEMINI_ROOT}/${path}.`,
        }),
      ],
    });
  // Copy 1 (commit 1): [u0, g1 writes x, i2]. Copy 2 (commit 2), after `/rewind` to u0: [s0, g5 writes y].
  const copy1 = geminiDocument(`${SID}04`, [
    userMessage("u0", 0, "x please"),
    w("g1", 5, "x"),
    { id: "i2", timestamp: "2026-01-01T10:30:09.000Z", type: "info", content: "update available" },
  ]);
  const copy2 = geminiDocument(`${SID}04`, [userMessage("s0", 20, "y instead"), w("g5", 25, "y")]);
  const { units } = analyze({
    base: {},
    commits: [
      { files: { x: "x\n" }, checkpoints: ["a9e2f3a4b5c6"] },
      { files: { y: "y\n" }, checkpoints: ["b9e2f3a4b5c6"] },
    ],
    checkpoints: {
      a9e2f3a4b5c6: [
        { sessionId: `${SID}04`, agent: "Gemini CLI", transcript: copy1, meta: { checkpoint_transcript_start: 0 } },
      ],
      b9e2f3a4b5c6: [
        { sessionId: `${SID}04`, agent: "Gemini CLI", transcript: copy2, meta: { checkpoint_transcript_start: 0 } },
      ],
    },
  });
  const first = units.find((u) => u.checkpoint_id === "a9e2f3a4b5c6")!;
  // Copy 1's slice is all of it (no copy is a prefix of it): g1 writes x, 1 line, committed. The product today starts
  // copy 1's slice at 2 (copy 2's message count): g1 is cut out, x's line is human.
  assert.deepEqual(counts(first), [1, 1, 1, 0, 0, 1, 0, 0]);
});

// Claude Code's Edit with an empty new_string also deletes the newline after old_string (test/reference/README.md);
// gemini-cli's `replace` is a literal replacement (`safeLiteralReplace`): the newline stays, an empty line remains.
// (Checked while investigating a fuzzing disagreement that turned out to be the expected_replacements reading.)
test("replace with an empty new_string leaves the line's newline (gemini-cli replaces literally)", () => {
  const transcript = geminiDocument(`${SID}05`, [
    userMessage("u0", 0, "drop b"),
    geminiMessage("g1", 5, {
      model: "gemini-2.5-flash",
      tokens: { input: 100, output: 10, cached: 0 },
      toolCalls: [
        replaceCall("replace-1", `${GEMINI_ROOT}/f.txt`, "b", "", {
          at: 6,
          output: `Successfully modified file: ${GEMINI_ROOT}/f.txt (1 replacements).`,
        }),
      ],
    }),
  ]);
  const { units } = analyze({
    base: { "f.txt": "a\nb\nc\n" },
    commits: [{ files: { "f.txt": "a\n\nc\n" }, checkpoints: ["c9e2f3a4b5c6"] }],
    checkpoints: {
      c9e2f3a4b5c6: [
        { sessionId: `${SID}05`, agent: "Gemini CLI", transcript, meta: { checkpoint_transcript_start: 0 } },
      ],
    },
  });
  // Gemini writes "a\n\nc\n": [a, b, c] → [a, "", c], the empty line the agent's; committed as is: 1 agent line.
  // With Claude Code's rule it would be "a\nc\n": produced 0, the committed empty line human.
  assert.deepEqual(counts(units[0]), [1, 1, 1, 0, 0, 1, 0, 0]);
});
