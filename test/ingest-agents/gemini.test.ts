import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { attributeUnit, toSessionRow } from "../../src/analyze";
import { sumUsage } from "../../src/effort";
import { parseGeminiSession } from "../../src/ingest/gemini";
import { DiagnosticSink, type Session } from "../../src/model";
import { corpusPath } from "../helpers/corpus";

const AB = corpusPath("entire", "entireio-cli", "ab", "2b9748b105", "0", "full.jsonl");

function parse(text: string | Uint8Array, file = "session.json"): { session: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("gemini", file);
  const session = parseGeminiSession({ text, file }, sink);
  assert.ok(session, `not parsed: ${sink.rows.map((r) => r.code).join(", ")}`);
  return { session, sink };
}
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

describe("the real Gemini CLI session ab/2b9748b105 (entireio/cli, Gemini CLI 0.23, gemini-2.5-flash)", () => {
  /*
   * Counted with Python over the document (a pretty-printed JSON object named full.jsonl):
   * 13 messages (1 user, 11 gemini, 1 info); 9 tool calls, all status "success": write_file ×1,
   * run_shell_command ×6, read_file ×2; the 11 gemini messages all carry tokens (message 7's are all 0):
   * Σ input 131,375, cached 113,854, output 717, thoughts 1,095, tool 0, and every total = input + output +
   * thoughts + tool. Normalised: input 131,375 − 113,854 + 0 = 17,521; output 717 + 1,095 = 1,812.
   * The write_file names the relative "docs/blue.md"; its result names the absolute path, so the project
   * root is /Users/peytonmontei/Documents/entire/devenv/entireio/cli, whose sha256 is the session's projectHash.
   */
  test("prompts, tool calls, the one write, tokens, the project root", () => {
    const { session, sink } = parse(readFileSync(AB), AB);
    assert.equal(session.session_id, "f7633853-6663-4dbb-bbf4-6159afa29df8");
    assert.equal(session.source, "gemini");
    assert.equal(session.record_count, 13);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [[1, "run an agent that creates a color file inside docs, choose your color"]],
    );
    const names = new Map<string, number>();
    for (const c of session.tool_calls) names.set(c.name, (names.get(c.name) ?? 0) + 1);
    assert.deepEqual(Object.fromEntries(names), { write_file: 1, run_shell_command: 6, read_file: 2 });
    assert.ok(session.tool_calls.every((c) => c.success === true && c.result_record === c.record));
    const write = session.tool_calls.filter((c) => c.file_edits.length > 0);
    assert.equal(write.length, 1);
    assert.deepEqual(
      [
        write[0].file_edits[0].path,
        write[0].file_edits[0].kind,
        write[0].file_edits[0].pre_image,
        write[0].file_edits[0].post_image?.length,
      ],
      ["docs/blue.md", "write", "", 309],
    );
    const u = sumUsage(session.api_calls);
    assert.deepEqual(
      [u.api_calls, u.input_tokens, u.cache_read_tokens, u.output_tokens, u.reasoning_tokens],
      [11, 17521, 113854, 1812, 1095],
    );
    assert.ok(session.api_calls.every((c) => c.model === "gemini-2.5-flash"));
    assert.deepEqual(session.cwds, ["/Users/peytonmontei/Documents/entire/devenv/entireio/cli"]);
    assert.equal(
      createHash("sha256").update(session.cwds[0]).digest("hex"),
      JSON.parse(readFileSync(AB, "utf8")).projectHash,
    );
    assert.ok(!codes(sink).includes("gemini-project-root-hash-mismatch"));
    assert.equal(sink.rows.find((r) => r.code === "gemini-zero-tokens")?.record, 7);
    const row = toSessionRow(session, { repo: null, idleLimitS: 300 }, new DiagnosticSink("t"));
    assert.deepEqual(
      [row.prompts, row.tool_calls, row.edit_calls, row.failed_edit_calls, row.api_calls],
      [1, 9, 1, 0, 11],
    );
  });

  /*
   * The commit this session is linked to (15d697e8) changed only docs/color.md, through `echo >>` in a shell
   * command (formats.md §4). With a commit that adds a 35-line docs/color.md, replay sees the agent's write
   * of docs/blue.md (3 lines: "# Blue", "", the paragraph without a final newline) and nothing in color.md:
   * produced 3, final 3, survived 0, human 35.
   */
  test("its edits are shell-only where the commit is concerned: no agent line survives", async () => {
    const { session } = parse(readFileSync(AB), AB);
    const color = Array.from({ length: 35 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "docs/color.md", binary: false }],
        readBase: async () => null,
        readCommit: async (p) => (p === "docs/color.md" ? color : null),
        exists: (p) => p === "docs/color.md" || p === "docs/blue.md",
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_final, a.agent_lines_survived, a.human_lines, a.total_committed_lines],
      [3, 3, 0, 35, 35],
    );
  });
});

describe("hand-worked Gemini sessions", () => {
  const root = "/home/u/proj";
  const hash = createHash("sha256").update(root).digest("hex");
  const replace = {
    id: "replace-1",
    name: "replace",
    args: { file_path: "README.md", old_string: "old", new_string: "new\nmore", expected_replacements: 1 },
    status: "success",
    timestamp: "2026-03-02T10:00:03.000Z",
    resultDisplay: {
      fileDiff: "@@ -2 +2,2 @@\n-old\n+new\n+more\n",
      fileName: "README.md",
      filePath: `${root}/README.md`,
      originalContent: "title\nold\n",
      newContent: "title\nnew\nmore\n",
      diffStat: { model_added_lines: 2, model_removed_lines: 1, user_added_lines: 0, user_removed_lines: 0 },
    },
    result: [
      {
        functionResponse: {
          id: "replace-1",
          name: "replace",
          response: { output: `Successfully modified file: ${root}/README.md (1 replacements).` },
        },
      },
    ],
  };
  const m2 = {
    id: "m2",
    timestamp: "2026-03-02T10:00:02.000Z",
    type: "gemini",
    content: "",
    model: "gemini-2.5-pro",
    toolCalls: [replace],
  };
  const lines = [
    {
      sessionId: "g1",
      projectHash: hash,
      startTime: "2026-03-02T10:00:00.000Z",
      lastUpdated: "2026-03-02T10:00:00.000Z",
      kind: "main",
    },
    { id: "m1", timestamp: "2026-03-02T10:00:01.000Z", type: "user", content: [{ text: "edit the readme" }] },
    m2,
    // The same message again, now with its tokens: it replaces the first version in place.
    { ...m2, tokens: { input: 1000, output: 50, cached: 600, thoughts: 20, tool: 5, total: 1075 } },
    { id: "m3", timestamp: "2026-03-02T10:00:04.000Z", type: "user", content: "oops" },
    { $rewindTo: "m3" },
    // An id used again after a rewind is a new message at the end.
    { id: "m3", timestamp: "2026-03-02T10:00:04.500Z", type: "info", content: "rewound" },
    {
      id: "m4",
      timestamp: "2026-03-02T10:00:05.000Z",
      type: "gemini",
      content: "",
      model: "gemini-2.5-pro",
      tokens: { input: 1200, output: 10, cached: 1000, thoughts: 0, tool: 0, total: 1210 },
      toolCalls: [
        {
          id: "write_file-2",
          name: "write_file",
          args: { file_path: `${root}/NOTES.md`, content: "n\n" },
          status: "error",
          timestamp: "2026-03-02T10:00:06.000Z",
          result: [{ functionResponse: { response: { error: "permission denied" } } }],
        },
      ],
    },
    { id: "m5", timestamp: "2026-03-02T10:00:07.000Z", type: "user", content: [{ text: "thanks" }] },
    { $set: { summary: "edited the readme", lastUpdated: "2026-03-02T10:00:07.000Z" } },
  ];

  /*
   * The log form: after the update of m2, the rewind to m3 and m3's id used again (an info message), the
   * messages are m1, m2, m3 (info), m4, m5 (records 1–5). Prompts: m1 and m5. Calls: replace-1 (success,
   * record 2) with the FileDiff's exact images; write_file-2 (status error, record 4) failed, no edit. API calls: m2 (input 1000 − 600 + tool 5 = 405,
   * cached 600, output 50 + thoughts 20 = 70) and m4 (200, 1000, 10). The root comes from the FileDiff's
   * filePath and matches the projectHash.
   * Replay: "title\nold\n" → "title\nnew\nmore\n" is Myers −1 +2: produced 2; the commit equals it: survived 2 of 2.
   */
  test("the JSONL log form: updates, rewind, metadata, a FileDiff edit and a failed write", async () => {
    const { session, sink } = parse(
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
      "session-2026-03-02T10-00-g1.jsonl",
    );
    assert.equal(session.record_count, 5);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [
        [1, "edit the readme"],
        [5, "thanks"],
      ],
    );
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.record, c.success, c.file_edits.length, c.error]),
      [
        ["replace-1", 2, true, 1, null],
        ["write_file-2", 4, false, 0, "permission denied"],
      ],
    );
    const e = session.tool_calls[0].file_edits[0];
    assert.deepEqual(
      [e.kind, e.pre_image, e.post_image, e.user_modified],
      ["edit", "title\nold\n", "title\nnew\nmore\n", false],
    );
    assert.deepEqual(
      session.api_calls.map((c) => [
        c.record,
        c.usage.input_tokens,
        c.usage.cache_read_tokens,
        c.usage.output_tokens,
        c.usage.reasoning_tokens,
      ]),
      [
        [2, 405, 600, 70, 20],
        [4, 200, 1000, 10, 0],
      ],
    );
    assert.deepEqual(session.cwds, [root]);
    assert.ok(codes(sink).includes("gemini-rewind"));
    assert.ok(codes(sink).includes("gemini-message-updated"));
    assert.ok(!codes(sink).includes("gemini-project-root-hash-mismatch"));
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "README.md", binary: false }],
        readBase: async () => "title\nold\n",
        readCommit: async () => "title\nnew\nmore\n",
        exists: (p) => p === "README.md",
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_survived, a.total_committed_lines, a.outside_changes],
      [2, 2, 2, 0],
    );
  });

  /*
   * Without a FileDiff (older versions), a replace is re-applied as a string edit; a modified_by_user flag makes
   * the inserted text the person's. A relative path with no absolute path anywhere: the root is unknown,
   * relative paths are taken from the repository root (warning).
   * Replay: base "a\nb\n": the person-modified replace b → c gives a human line; commit "a\nc\n": human 1, agent 0.
   */
  test("a document without FileDiffs: string edits, modified_by_user, unknown root", async () => {
    const doc = {
      sessionId: "g2",
      projectHash: "0".repeat(64),
      startTime: "2026-03-02T10:00:00.000Z",
      lastUpdated: "2026-03-02T10:00:09.000Z",
      messages: [
        { id: "u1", timestamp: "2026-03-02T10:00:01.000Z", type: "user", content: "change b" },
        {
          id: "g1",
          timestamp: "2026-03-02T10:00:02.000Z",
          type: "gemini",
          content: "",
          tokens: { input: 10, output: 1, cached: 0, total: 11 },
          toolCalls: [
            {
              id: "r1",
              name: "replace",
              args: { file_path: "x.txt", old_string: "b", new_string: "c", modified_by_user: true },
              status: "success",
              result: [{ functionResponse: { response: { output: "ok" } } }],
            },
          ],
        },
      ],
    };
    const { session, sink } = parse(JSON.stringify(doc, null, 2));
    const e = session.tool_calls[0].file_edits[0];
    assert.deepEqual(
      [e.kind, e.edits, e.user_modified],
      ["edit", [{ old_string: "b", new_string: "c", replace_all: false }], true],
    );
    assert.ok(codes(sink).includes("gemini-project-root-unknown"));
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "x.txt", binary: false }],
        readBase: async () => "a\nb\n",
        readCommit: async () => "a\nc\n",
        exists: (p) => p === "x.txt",
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_survived, a.human_lines, a.total_committed_lines],
      [0, 0, 1, 1],
    );
  });

  test("bad input becomes a diagnostic", () => {
    const sink = new DiagnosticSink("gemini");
    assert.equal(parseGeminiSession({ text: '{"messages": [', file: "broken.json" }, sink), null);
    assert.ok(codes(sink).includes("gemini-no-session"));
  });
});
