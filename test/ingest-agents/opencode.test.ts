import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { attributeUnit, toSessionRow } from "../../src/analyze";
import { sumUsage } from "../../src/effort";
import { findOpenCodeSessions, parseOpenCodeSession, readOpenCodeSession } from "../../src/ingest/opencode";
import { DiagnosticSink, type Session } from "../../src/model";
import { corpusPath } from "../helpers/corpus";

const NIVALIS = corpusPath("entire", "nivalis-studio-biome-config", "01", "25fb057a68");

function parse(document: unknown, file = "export.json"): { session: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("opencode", file);
  const session = parseOpenCodeSession({ text: JSON.stringify(document, null, 2), file }, sink);
  assert.ok(session, `not parsed: ${sink.rows.map((r) => r.code).join(", ")}`);
  return { session, sink };
}
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

describe("the real OpenCode 1.3.13 exports of checkpoint 01/25fb057a68 (nivalis-studio/biome-config)", () => {
  /*
   * Counted with Python over the two documents. Neither holds a write or edit part (the exports Entire stored
   * stop before the editing turns), so these check prompts, tools and tokens; the edit handling is checked on
   * hand-built parts below.
   * Session 0 (kimi-k2.5): 5 messages, 1 user (one text part), 4 assistant with 6 tool parts (glob ×2,
   * read ×4, all completed); tokens input 21,428 + 319 + 1,571 + 4,505 = 27,823, cache.read 256 + 21,504 +
   * 21,760 + 23,296 = 66,816, output 66 + 90 + 106 + 571 = 833, reasoning 0.
   * Session 1 (gpt-5.3-codex): 5 messages, 2 user (the first has a file part and two synthetic text parts),
   * 3 assistant, 1 tool part (skill); input 22,855 + 982 + 2,339 = 26,176, cache.read 0 + 23,040 + 22,016 =
   * 45,056, output 387 + 1,805 + 589 = 2,781, reasoning 365 + 1,116 + 348 = 1,829. Each total equals
   * input + output + cache.read (23,242 = 22,855 + 387), so reasoning is inside output.
   * Both equal Entire's token_usage in the folders' metadata.json.
   */
  for (const [index, expected] of [
    [
      "0",
      {
        id: "ses_29bf628e8ffelXBwsq5WbmcROn",
        prompts: 1,
        tools: { glob: 2, read: 4 },
        api: 4,
        input: 27823,
        read: 66816,
        output: 833,
        reasoning: 0,
        model: "kimi-k2.5",
      },
    ],
    [
      "1",
      {
        id: "ses_29e1f1c97ffesfT1llQ2jmcQIv",
        prompts: 2,
        tools: { skill: 1 },
        api: 3,
        input: 26176,
        read: 45056,
        output: 2781,
        reasoning: 1829,
        model: "gpt-5.3-codex",
      },
    ],
  ] as const) {
    test(`session ${index}: prompts, tool parts, tokens (equal to Entire's recorded usage)`, () => {
      const file = join(NIVALIS, index, "full.jsonl");
      const sink = new DiagnosticSink("opencode", file);
      const session = parseOpenCodeSession({ text: readFileSync(file), file }, sink);
      assert.ok(session);
      assert.equal(session.session_id, expected.id);
      assert.equal(session.agent_version, "1.3.13");
      assert.deepEqual(session.cwds, ["/Users/pnodet/git/nivalis/biome-config"]);
      assert.equal(session.record_count, 5);
      assert.equal(session.turns.length, expected.prompts);
      const names: Record<string, number> = {};
      for (const c of session.tool_calls) names[c.name] = (names[c.name] ?? 0) + 1;
      assert.deepEqual(names, expected.tools);
      assert.ok(session.tool_calls.every((c) => c.success === true && c.file_edits.length === 0));
      const u = sumUsage(session.api_calls);
      assert.deepEqual(
        [
          u.api_calls,
          u.input_tokens,
          u.cache_read_tokens,
          u.output_tokens,
          u.reasoning_tokens,
          u.cache_creation_tokens,
        ],
        [expected.api, expected.input, expected.read, expected.output, expected.reasoning, 0],
      );
      assert.ok(session.api_calls.every((c) => c.model === expected.model));
      const entire = JSON.parse(readFileSync(join(NIVALIS, index, "metadata.json"), "utf8")).token_usage;
      assert.deepEqual(
        [entire.input_tokens, entire.cache_read_tokens, entire.output_tokens, entire.api_call_count],
        [u.input_tokens, u.cache_read_tokens, u.output_tokens, u.api_calls],
      );
      if (index === "1") {
        assert.equal(
          session.turns[0].text.startsWith("Let's review @.github/workflows/biome-insights-artifact.yaml"),
          true,
        );
        assert.ok(codes(sink).includes("opencode-synthetic-text"));
      }
    });
  }
});

describe("hand-built OpenCode parts", () => {
  const dir = "/w/p";
  const sid = "ses_test0000000000000000001";
  // Part ids sort in creation order, as OpenCode's do (the storage reader orders parts by id).
  let partSeq = 10;
  const tool = (
    id: string,
    name: string,
    status: string,
    input: unknown,
    metadata: unknown = {},
    extra: Record<string, unknown> = {},
  ) => ({
    id: `prt_${++partSeq}_${id}`,
    type: "tool",
    tool: name,
    callID: `call_${id}`,
    state: {
      status,
      input,
      output: status === "completed" ? "ok" : undefined,
      metadata,
      time: { start: 1772445601000, end: 1772445602000 },
      ...extra,
    },
  });
  const doc = {
    info: {
      id: sid,
      projectID: "p1",
      directory: dir,
      title: "t",
      version: "1.2.0",
      time: { created: 1772445600000, updated: 1772445700000 },
    },
    messages: [
      {
        info: { id: "msg_01", sessionID: sid, role: "user", time: { created: 1772445600000 } },
        parts: [
          { id: "prt_u1", type: "text", text: "add a helper" },
          { id: "prt_u2", type: "text", text: "Called the Read tool…", synthetic: true },
        ],
      },
      {
        info: {
          id: "msg_02",
          sessionID: sid,
          role: "assistant",
          modelID: "claude-sonnet-4-5",
          time: { created: 1772445601000, completed: 1772445610000 },
          tokens: { input: 100, output: 50, reasoning: 0, cache: { read: 1000, write: 200 }, total: 1350 },
          path: { cwd: dir, root: dir },
        },
        parts: [
          { id: "prt_00_s1", type: "step-start" },
          tool(
            "e1",
            "edit",
            "completed",
            { filePath: `${dir}/src/a.ts`, oldString: "a", newString: "b" },
            {
              diff: "trimmed",
              filediff: {
                file: `${dir}/src/a.ts`,
                before: "const a = 1\n",
                after: "const b = 1\n",
                additions: 1,
                deletions: 1,
              },
            },
          ),
          tool("w1", "write", "completed", { filePath: `${dir}/src/new.ts`, content: "x\ny\n" }, { exists: false }),
          {
            id: "prt_99_f1",
            type: "step-finish",
            tokens: { input: 100, output: 50, reasoning: 0, cache: { read: 1000, write: 200 }, total: 1350 },
          },
        ],
      },
      {
        info: {
          id: "msg_03",
          sessionID: sid,
          role: "assistant",
          modelID: "claude-sonnet-4-5",
          time: { created: 1772445611000, completed: 1772445620000 },
          tokens: { input: 10, output: 20, reasoning: 5, cache: { read: 0, write: 0 }, total: 35 },
        },
        parts: [
          tool(
            "e2",
            "edit",
            "error",
            { filePath: `${dir}/src/a.ts`, oldString: "nothing", newString: "x" },
            {},
            { error: "oldString not found in content" },
          ),
          tool(
            "e3",
            "edit",
            "completed",
            { filePath: `${dir}/src/new.ts`, oldString: "y\n", newString: "y\nz\n" },
            { diff: "Index: …", filediff: { file: `${dir}/src/new.ts`, patch: "@@ …", additions: 1, deletions: 0 } },
          ),
          tool("b1", "bash", "completed", { command: "npm test" }),
        ],
      },
      {
        info: { id: "msg_04", sessionID: sid, role: "user", time: { created: 1772445621000 } },
        parts: [{ id: "prt_c1", type: "compaction", auto: true }],
      },
    ],
  };

  /*
   * Prompts: message 1 only (its synthetic part is left out; message 4 is a compaction request).
   * Tool calls: e1 (edit, filediff before/after: exact images), w1 (write, exists false: pre-image ""),
   * e2 (error: failed, no edit), e3 (edit without before/after: the string edit), b1 (bash).
   * API calls: message 2 through its step-finish (input 100, cache read 1,000, cache write 200, output 50);
   * message 3 by its message tokens, whose total 35 = 10 + 20 + 5 counts reasoning beside output: output 25.
   * Replay on the base (a.ts "const a = 1\n", new.ts absent): e1 −1 +1 (produced 1), w1 +2 (3), e3 inserts "z" (4).
   * The commit equals the final state: committed 1 + 3 = 4 lines, all agent.
   */
  test("edit (with and without filediff images), write, a failed edit, tokens with reasoning beside output", async () => {
    const { session, sink } = parse(doc);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [[1, "add a helper"]],
    );
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.name, c.success, c.file_edits.length]),
      [
        ["call_e1", "edit", true, 1],
        ["call_w1", "write", true, 1],
        ["call_e2", "edit", false, 0],
        ["call_e3", "edit", true, 1],
        ["call_b1", "bash", true, 0],
      ],
    );
    assert.equal(session.tool_calls[2].error, "oldString not found in content");
    assert.deepEqual(session.tool_calls[0].file_edits[0].pre_image, "const a = 1\n");
    assert.deepEqual(session.tool_calls[1].file_edits[0].pre_image, "");
    assert.deepEqual(session.tool_calls[3].file_edits[0].edits, [
      { old_string: "y\n", new_string: "y\nz\n", replace_all: false },
    ]);
    assert.deepEqual(
      session.api_calls.map((c) => [
        c.record,
        c.usage.input_tokens,
        c.usage.cache_read_tokens,
        c.usage.cache_creation_tokens,
        c.usage.output_tokens,
        c.usage.reasoning_tokens,
      ]),
      [
        [2, 100, 1000, 200, 50, 0],
        [3, 10, 0, 0, 25, 5],
      ],
    );
    for (const code of ["opencode-compaction", "opencode-reasoning-added", "opencode-synthetic-text"])
      assert.ok(codes(sink).includes(code), code);
    const row = toSessionRow(session, { repo: null, idleLimitS: 300 }, new DiagnosticSink("t"));
    assert.deepEqual(
      [row.prompts, row.tool_calls, row.edit_calls, row.failed_edit_calls, row.api_calls],
      [1, 5, 4, 1, 2],
    );

    const base: Record<string, string | null> = { "src/a.ts": "const a = 1\n", "src/new.ts": null };
    const commit: Record<string, string> = { "src/a.ts": "const b = 1\n", "src/new.ts": "x\ny\nz\n" };
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [
          { path: "src/a.ts", binary: false },
          { path: "src/new.ts", binary: false },
        ],
        readBase: async (p) => base[p] ?? null,
        readCommit: async (p) => commit[p] ?? null,
        exists: (p) => p in commit,
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [
        a.agent_lines_produced,
        a.agent_lines_final,
        a.agent_lines_survived,
        a.human_lines,
        a.total_committed_lines,
        a.unreplayable_calls,
      ],
      [4, 4, 4, 0, 4, 0],
    );
  });

  /*
   * The same session written the way OpenCode stores it (storage/session/<projectID>/<id>.json,
   * message/<id>/<messageID>.json, part/<messageID>/<partID>.json) reads to the same session.
   */
  test("the storage folder layout reads to the same session as the export", () => {
    const root = join(mkdtempSync(join(tmpdir(), "sce-opencode-")), "storage");
    const put = (rel: string, value: unknown) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), JSON.stringify(value, null, 2));
    };
    put(`session/p1/${sid}.json`, doc.info);
    for (const m of doc.messages) {
      put(`message/${sid}/${m.info.id}.json`, m.info);
      for (const p of m.parts) put(`part/${m.info.id}/${p.id}.json`, { ...p, messageID: m.info.id, sessionID: sid });
    }
    put("project/p1.json", { id: "p1", worktree: dir });
    const found = findOpenCodeSessions(join(root, ".."));
    assert.equal(found.length, 1);
    assert.equal(found[0].kind, "storage");
    const sink = new DiagnosticSink("opencode");
    const fromStorage = readOpenCodeSession(found[0], sink);
    const { session: fromExport } = parse(doc);
    assert.ok(fromStorage);
    assert.deepEqual({ ...fromStorage, transcript: null }, { ...fromExport, transcript: null });
  });

  /*
   * apply_patch (OpenCode's patch tool for GPT models): `metadata.files[].before/after` where logged; without them
   * the patch text (Codex's grammar) with paths relative to the session directory.
   */
  test("apply_patch parts: file images where logged, else the patch text", () => {
    const withFiles = tool(
      "p1",
      "apply_patch",
      "completed",
      { patchText: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = 1\n+const b = 1\n*** End Patch" },
      { files: [{ filePath: `${dir}/src/a.ts`, type: "update", before: "const a = 1\n", after: "const b = 1\n" }] },
    );
    const textOnly = tool(
      "p2",
      "apply_patch",
      "completed",
      {
        patchText:
          "*** Begin Patch\n*** Add File: src/c.ts\n+c\n*** Update File: src/a.ts\n@@\n-const b = 1\n+const c = 1\n*** End Patch",
      },
      { diff: "trimmed" },
    );
    const d = {
      info: doc.info,
      messages: [doc.messages[0], { info: doc.messages[2].info, parts: [withFiles, textOnly] }],
    };
    const { session } = parse(d);
    assert.deepEqual(
      session.tool_calls.map((c) => c.file_edits.map((e) => [e.path, e.kind, e.pre_image, e.post_image, e.patch])),
      [
        [[`${dir}/src/a.ts`, "write", "const a = 1\n", "const b = 1\n", null]],
        [
          [`${dir}/src/c.ts`, "write", null, "c\n", null],
          [`${dir}/src/a.ts`, "patch", null, null, "@@\n-const b = 1\n+const c = 1"],
        ],
      ],
    );
  });

  test("bad input becomes a diagnostic", () => {
    const sink = new DiagnosticSink("opencode");
    assert.equal(parseOpenCodeSession({ text: '{"info": {}, "messages": 3}', file: "x.json" }, sink), null);
    assert.ok(codes(sink).includes("opencode-not-an-export"));
    const sink2 = new DiagnosticSink("opencode");
    assert.equal(parseOpenCodeSession({ text: '{"info"', file: "y.json" }, sink2), null);
    assert.ok(codes(sink2).includes("opencode-invalid-json"));
  });
});
