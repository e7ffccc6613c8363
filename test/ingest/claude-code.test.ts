import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { DiagnosticSink, sessionSchema, type Session, type ToolCall } from "../../src/model";
import {
  applyClaudeEdits,
  claudeProjectDirName,
  findClaudeCodeTranscripts,
  parseClaudeCodeTranscript,
  readClaudeCodeTranscript,
} from "../../src/ingest/claude-code";
import { corpusPath } from "../helpers/corpus";

const CORPUS = corpusPath() + "/";
const EXCERPT = "claude-code/happy-cli__400429ba.excerpt.jsonl";
const CHANGELOG_EDIT = "entire/entireio-cli-changelog/5d/755497c182/0/full.jsonl";
const CHANGELOG_WRITE = "entire/entireio-cli-changelog/60/61721bc409/0/full.jsonl";
const C6_0 = "entire/entireio-cli/c6/39a44ea03d/0/full.jsonl";
const C6_1 = "entire/entireio-cli/c6/39a44ea03d/1/full.jsonl";

function parseReal(path: string): { s: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("claude-code");
  const s = parseClaudeCodeTranscript({ text: readFileSync(CORPUS + path), file: path }, sink);
  assert.ok(s, `${path} parses`);
  const valid = sessionSchema.safeParse(s);
  assert.ok(valid.success, `${path} conforms to the Session schema: ${valid.success ? "" : valid.error.message}`);
  return { s, sink };
}

const sum = (
  s: Session,
  k: "input_tokens" | "output_tokens" | "cache_creation_tokens" | "cache_creation_1h_tokens" | "cache_read_tokens",
) => s.api_calls.reduce((a, c) => a + c.usage[k], 0);
const call = (s: Session, id: string): ToolCall => {
  const c = s.tool_calls.find((x) => x.id === id);
  assert.ok(c, `tool call ${id}`);
  return c;
};
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);
const EDIT_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__acp__Write", "mcp__acp__Edit"]);

// ---------------------------------------------------------------------------
// Real data. Every expected number below was counted with jq / a python
// one-off over the file (json.loads per line), not with this parser.
// ---------------------------------------------------------------------------

describe("Claude Code 1.0.51 (happy-cli excerpt, 16 lines)", () => {
  const { s, sink } = parseReal(EXCERPT);

  test("envelope: id, version, cwd, no branch (1.0.51 has no gitBranch), 16 records all timestamped", () => {
    assert.equal(s.session_id, "400429ba-c1e1-4ef5-a7ec-fe40608df53b");
    assert.equal(s.agent_version, "1.0.51");
    assert.equal(s.agent, "Claude Code");
    assert.equal(s.source, "claude-code");
    assert.equal(s.branch, null);
    assert.deepEqual(s.cwds, ["/Users/kirilldubovitskiy/projects/handy-cli"]);
    assert.equal(s.record_count, 16);
    assert.equal(s.record_times.length, 16);
    assert.equal(s.record_times[0], Date.parse("2025-07-13T04:17:43.476Z")); // line 1
    assert.equal(s.record_times[15], Date.parse("2025-07-13T04:45:37.955Z")); // line 16
  });

  test("one real prompt (line 1); the sidechain prompt on line 7 is not one", () => {
    assert.equal(s.turns.length, 1);
    assert.equal(s.turns[0].record, 1);
    assert.match(s.turns[0].text, /^implement what is requested in CLAUDE\.md/);
    assert.ok(codes(sink).includes("claude-sidechain-prompt"));
  });

  test("6 tool calls: Read, Task, Write, Edit, Edit (failed), MultiEdit; Task has no result in the excerpt", () => {
    assert.deepEqual(
      s.tool_calls.map((c) => [c.name, c.record, c.result_record, c.success]),
      [
        ["Read", 3, 4, true],
        ["Task", 6, null, null],
        ["Write", 9, 10, true],
        ["Edit", 11, 12, true],
        ["Edit", 13, 14, false],
        ["MultiEdit", 15, 16, true],
      ],
    );
    // The Task (line 6) has results after it (lines 10–16): its own was lost, a warning. A call after the last
    // result would be one still running when the copy was taken (info; see "a copy taken mid-call" below).
    const noResult = sink.rows.filter((r) => r.code === "claude-tool-call-without-result");
    assert.deepEqual(
      noResult.map((r) => [r.record, r.severity]),
      [[6, "warning"]],
    );
  });

  test("the failed Edit (line 14: is_error + string toolUseResult) carries the error and no file edit", () => {
    const c = call(s, "toolu_016raYv468sbCwgUhs665esy");
    assert.equal(c.success, false);
    assert.equal(
      c.error,
      "Error: String to replace not found in file.\nString: import { ChildProcess } from 'node:child_process'",
    );
    assert.deepEqual(c.file_edits, []);
  });

  test("Write of .env (type create, no originalFile in 1.0.51): pre-image empty, post-image the content", () => {
    const [e] = call(s, "toolu_01DFoV4k3zhmp3tuW3E7yDSh").file_edits;
    assert.equal(e.kind, "write");
    assert.equal(e.path, "/Users/kirilldubovitskiy/projects/handy-cli/.env");
    assert.equal(e.pre_image, "");
    assert.equal(e.post_image, "HANDY_SERVER_URL=https://handy-api.korshakov.org\nHANDY_SOCKET_PATH=/session/stream/");
    assert.equal(e.edits, null);
  });

  test("Edit of .gitignore: post-image = originalFile with the one match replaced; +7 lines as structuredPatch says", () => {
    const raw = JSON.parse(readFileSync(CORPUS + EXCERPT, "utf8").split("\n")[11]).toolUseResult; // line 12
    const [e] = call(s, "toolu_01MrfUcSw44Rwc3uuQZd4mYZ").file_edits;
    assert.equal(e.kind, "edit");
    assert.equal(e.pre_image, raw.originalFile);
    // oldString occurs once in originalFile (python: count == 1), so split/join gives the same as one replacement.
    assert.equal(e.post_image, raw.originalFile.split(raw.oldString).join(raw.newString));
    // structuredPatch: one hunk oldLines 4 → newLines 11, i.e. 7 more lines; pre 119 chars / 16 pieces, post 197 / 23.
    assert.equal(e.post_image!.split("\n").length - e.pre_image!.split("\n").length, 7);
    assert.equal(e.post_image!.length, 197);
    assert.deepEqual(e.edits, [
      { old_string: "yarn.lock\npnpm-lock.yaml", new_string: raw.newString, replace_all: false },
    ]);
    assert.equal(e.user_modified, false);
  });

  test("MultiEdit of logger.ts: 4 edits applied in order to originalFileContents", () => {
    const [e] = call(s, "toolu_01PMEJfQfyQwpHhZyu57cYS7").file_edits;
    assert.equal(e.kind, "multi-edit");
    assert.equal(e.edits?.length, 4);
    assert.equal(e.pre_image?.length, 1631);
    // each edit turns "any[]" into "unknown[]" (+4 characters), 4 edits → +16.
    assert.equal(e.post_image?.length, 1647);
    // python: originalFileContents has "...args: any[]" 4 times and "...args: unknown[]" once (debug()).
    assert.equal(e.pre_image!.match(/\.\.\.args: any\[\]/g)?.length, 4);
    assert.equal(e.pre_image!.match(/\.\.\.args: unknown\[\]/g)?.length, 1);
    assert.equal(e.post_image!.match(/\.\.\.args: any\[\]/g), null);
    assert.equal(e.post_image!.match(/\.\.\.args: unknown\[\]/g)?.length, 5);
  });

  test("7 API calls (one per message id, 1.0.51 also splits responses), one of them the sidechain's", () => {
    assert.equal(s.api_calls.length, 7);
    // msg_01Swp98Q8kmVdwRecgvFwU47 is on lines 2 (output 3) and 3 (output 101): line 3 wins.
    const first = s.api_calls.find((a) => a.id === "msg_01Swp98Q8kmVdwRecgvFwU47");
    assert.equal(first?.record, 3);
    assert.equal(first?.usage.output_tokens, 101);
    const side = s.api_calls.filter((a) => a.sidechain);
    assert.deepEqual(
      side.map((a) => [a.id, a.record, a.usage.output_tokens]),
      [["msg_01YbHTDrYMvXbVR46S6FtLxj", 8, 124]],
    );
    // Max per message: 101 + 6 + 124 + 149 + 33 + 167 + 1 = 581 (naive sum of all 9 records: 590; first-wins: 483).
    assert.equal(sum(s, "output_tokens"), 581);
    assert.equal(sum(s, "input_tokens"), 37);
    assert.equal(sum(s, "cache_creation_tokens"), 27314);
    assert.equal(sum(s, "cache_read_tokens"), 233756);
    assert.equal(s.api_calls[0].model, "claude-opus-4-20250514");
  });
});

describe("Claude Code 2.1.17 CHANGELOG session (5d/755497c182, 81 lines)", () => {
  const { s, sink } = parseReal(CHANGELOG_EDIT);

  test("4 real prompts; the /exit caveat (isMeta), command and its stdout are not prompts", () => {
    // Lines 4, 27, 63, 69 are typed prompts; 79 isMeta caveat, 80 <command-name>/exit, 81 <local-command-stdout>.
    assert.deepEqual(
      s.turns.map((t) => t.record),
      [4, 27, 63, 69],
    );
    assert.equal(s.turns[3].text, "can you add it to CHANGELOG.md");
    assert.deepEqual(
      s.turns.map((t) => t.index),
      [0, 1, 2, 3],
    );
    const meta = sink.rows.find((r) => r.code === "claude-meta-record");
    const cmd = sink.rows.find((r) => r.code === "claude-command-record");
    assert.equal(meta?.record, 79);
    assert.match(cmd?.message ?? "", /^2 /); // lines 80 and 81
  });

  test("17 tool calls (14 Bash, Glob, Read, Edit), 1 edit call, 0 failed, every call answered", () => {
    assert.equal(s.tool_calls.length, 17);
    assert.equal(s.tool_calls.filter((c) => EDIT_TOOLS.has(c.name)).length, 1);
    assert.equal(s.tool_calls.filter((c) => c.success === false).length, 0);
    assert.equal(s.tool_calls.filter((c) => c.result_record === null).length, 0);
    assert.equal(s.tool_calls.filter((c) => c.name === "Bash").length, 14);
  });

  test("the Edit of CHANGELOG.md (call line 71, result 73): its pre-image is the parent commit's file", () => {
    const edit = s.tool_calls.find((c) => c.name === "Edit")!;
    assert.equal(edit.record, 71);
    assert.equal(edit.result_record, 73);
    const [e] = edit.file_edits;
    assert.equal(e.path, "/Users/soph/Work/entire/devenv/cli/CHANGELOG.md");
    assert.equal(
      e.pre_image,
      readFileSync(`${CORPUS}entire/entireio-cli-changelog/commits/a6b9dfed/CHANGELOG.parent.md`, "utf8"),
    );
    // jsdiff line count 37 → 61 (structuredPatch: +24); 1514 → 2773 characters (python).
    assert.equal(e.post_image?.length, 2773);
    assert.ok(!codes(sink).includes("claude-edit-patch-mismatch"));
  });

  test("envelope: session id, version, branch, 81 records, 75 timestamped, sorted times", () => {
    assert.equal(s.session_id, "2577a596-e227-47e1-bea8-752f792cbc24");
    assert.equal(s.agent_version, "2.1.17");
    assert.equal(s.branch, "main"); // the transcript's gitBranch (Entire's metadata says soph/release-0-4-4)
    assert.equal(s.record_count, 81);
    assert.equal(s.record_times.length, 75); // 6 file-history-snapshot records have no timestamp
    assert.equal(s.record_times[0], Date.parse("2026-02-13T09:21:48.700Z"));
    // The max is line 79 (…06.709Z); the file's last line (81) says …06.701Z: times must be sorted, not in file order.
    assert.equal(s.record_times[74], Date.parse("2026-02-13T09:42:06.709Z"));
  });

  test("token dedup: 18 API calls, output 60 (naive sum of the 40 assistant records: 135)", () => {
    assert.equal(s.api_calls.length, 18);
    assert.equal(new Set(s.api_calls.map((a) => a.id)).size, 18);
    assert.equal(sum(s, "output_tokens"), 60);
    assert.equal(sum(s, "input_tokens"), 241);
    assert.equal(sum(s, "cache_creation_tokens"), 35683);
    assert.equal(sum(s, "cache_read_tokens"), 548770);
  });
});

describe("Claude Code 2.1.37 CHANGELOG session (60/61721bc409, 60 lines)", () => {
  const { s } = parseReal(CHANGELOG_WRITE);

  test("4 prompts, 11 calls (9 Bash, Glob, Write), Write create with empty pre-image = committed file", () => {
    assert.deepEqual(
      s.turns.map((t) => t.record),
      [4, 38, 48, 53],
    );
    assert.equal(s.tool_calls.length, 11);
    const w = s.tool_calls.filter((c) => EDIT_TOOLS.has(c.name));
    assert.equal(w.length, 1);
    assert.deepEqual([w[0].name, w[0].record, w[0].result_record, w[0].success], ["Write", 54, 57, true]);
    const [e] = w[0].file_edits;
    assert.equal(e.pre_image, ""); // toolUseResult.type "create", originalFile null
    assert.equal(
      e.post_image,
      readFileSync(`${CORPUS}entire/entireio-cli-changelog/commits/11e74530/CHANGELOG.commit.md`, "utf8"),
    );
  });

  test("10 API calls; all cache writes are 1-hour writes (ephemeral_1h 97,794)", () => {
    assert.equal(s.api_calls.length, 10);
    assert.equal(sum(s, "output_tokens"), 239); // naive 320, first-wins 239 here
    assert.equal(sum(s, "cache_creation_tokens"), 97794);
    assert.equal(sum(s, "cache_creation_1h_tokens"), 97794);
  });
});

describe("Claude Code 2.1.37 session c6/39a44ea03d/1 (94 lines): dedup where it matters", () => {
  const { s } = parseReal(C6_1);

  test("one count per API call: 20 calls, 20 distinct message ids, output 349 (naive 432, first-wins 201)", () => {
    assert.equal(s.api_calls.length, 20);
    assert.equal(new Set(s.api_calls.map((a) => a.id)).size, 20);
    assert.equal(sum(s, "output_tokens"), 349);
    // msg_018HHq7zsEZuGtDyoWd4ihaw: line 65 output 1, line 66 output 149 → line 66.
    const grown = s.api_calls.find((a) => a.id === "msg_018HHq7zsEZuGtDyoWd4ihaw");
    assert.deepEqual([grown?.record, grown?.usage.output_tokens], [66, 149]);
  });

  test("tool calls from interleaved blocks (msg_01RQajioRtnFHW75uZffvgnB on lines 12 and 15) are both kept", () => {
    assert.equal(s.tool_calls.length, 21); // 10 Grep, 5 Read, 5 Edit, 1 Glob
    assert.equal(call(s, "toolu_01KoPr5UA6ka4gTNnWywB7Us").record, 12);
    assert.equal(call(s, "toolu_01DfPXLxxbhABy4mopHw3qTz").record, 15);
  });

  test("5 Edits, 1 failed (not read yet); a failed Grep; replaceAll Edit replaces both matches", () => {
    const edits = s.tool_calls.filter((c) => c.name === "Edit");
    assert.equal(edits.length, 5);
    assert.deepEqual(
      s.tool_calls.filter((c) => c.success === false).map((c) => [c.name, c.record, c.result_record, c.error]),
      [
        ["Edit", 23, 24, "Error: File has not been read yet. Read it first before writing to it."],
        ["Grep", 37, 38, "Error: Path does not exist: /Users/soph/Work/entire/devenv/cli/cmd/entire/cli/commands"],
      ],
    );
    const [e] = call(s, "toolu_01DonUN2o13iVENKgeADqSAp").file_edits; // line 28, replace_all true, 2 matches (python)
    assert.equal(e.edits?.[0].replace_all, true);
    assert.equal(e.pre_image?.length, 34603);
    assert.equal(e.post_image?.length, 34565);
    assert.ok(!e.post_image!.includes(e.edits![0].old_string));
  });

  test("two prompts (lines 4 and 59), 89 timestamped records", () => {
    assert.deepEqual(
      s.turns.map((t) => t.record),
      [4, 59],
    );
    assert.equal(s.record_times.length, 89);
    assert.equal(s.record_count, 94);
  });
});

describe("token totals agree with Entire's own metadata.json (max output per message id)", () => {
  for (const path of [CHANGELOG_EDIT, CHANGELOG_WRITE, C6_0, C6_1]) {
    test(path, () => {
      const { s } = parseReal(path);
      const meta = JSON.parse(readFileSync(CORPUS + path.replace("full.jsonl", "metadata.json"), "utf8")).token_usage;
      assert.equal(s.api_calls.length, meta.api_call_count);
      assert.equal(sum(s, "output_tokens"), meta.output_tokens);
      assert.equal(sum(s, "input_tokens"), meta.input_tokens);
      assert.equal(sum(s, "cache_creation_tokens"), meta.cache_creation_tokens);
      assert.equal(sum(s, "cache_read_tokens"), meta.cache_read_tokens);
    });
  }
});

// ---------------------------------------------------------------------------
// Synthetic transcripts.
// ---------------------------------------------------------------------------

const T0 = Date.parse("2026-03-01T10:00:00.000Z");
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
let uuidSeq = 0;

function env(second: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    parentUuid: null,
    isSidechain: false,
    userType: "external",
    cwd: "/repo",
    sessionId: "sess-1",
    version: "2.1.30",
    gitBranch: "feat/x",
    uuid: `u-${++uuidSeq}`,
    timestamp: at(second),
    ...extra,
  };
}
const prompt = (second: number, content: unknown, extra: Record<string, unknown> = {}) =>
  ({ ...env(second, extra), type: "user", message: { role: "user", content } }) as Record<string, unknown>;
const usage = (output: number, more: Record<string, unknown> = {}) => ({
  input_tokens: 10,
  cache_creation_input_tokens: 100,
  cache_read_input_tokens: 1000,
  cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 60 },
  output_tokens: output,
  ...more,
});
function assistant(
  second: number,
  id: string,
  req: string,
  block: unknown,
  out: number,
  extra: Record<string, unknown> = {},
) {
  return {
    ...env(second, extra),
    type: "assistant",
    requestId: req,
    message: {
      id,
      type: "message",
      role: "assistant",
      model: "claude-opus-4-6",
      content: [block],
      stop_reason: null,
      usage: usage(out),
    },
  } as Record<string, unknown>;
}
const toolUse = (id: string, name: string, input: unknown) => ({ type: "tool_use", id, name, input });
function result(
  second: number,
  id: string,
  toolUseResult: unknown,
  opts: { isError?: boolean; content?: string; extra?: Record<string, unknown> } = {},
) {
  const block: Record<string, unknown> = { tool_use_id: id, type: "tool_result", content: opts.content ?? "ok" };
  if (opts.isError) block.is_error = true;
  const r: Record<string, unknown> = {
    ...env(second, opts.extra),
    type: "user",
    message: { role: "user", content: [block] },
  };
  if (toolUseResult !== undefined) r.toolUseResult = toolUseResult;
  return r;
}
const jsonl = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

function parseText(
  text: string | Uint8Array,
  subagents?: { file: string; text: string }[],
  file: string | null = "/p/sess-1.jsonl",
) {
  const sink = new DiagnosticSink("claude-code");
  const s = parseClaudeCodeTranscript({ text, file, subagents }, sink);
  if (s !== null) {
    const valid = sessionSchema.safeParse(s);
    assert.ok(valid.success, valid.success ? "" : valid.error.message);
  }
  return { s, sink };
}

const ORIGINAL = "a\nb\nc\n";
const editResult = (oldString: string, newString: string, extra: Record<string, unknown> = {}) => ({
  filePath: "/repo/f.txt",
  oldString,
  newString,
  originalFile: ORIGINAL,
  structuredPatch: [],
  userModified: false,
  replaceAll: false,
  ...extra,
});

describe("synthetic: streamed blocks (2.x)", () => {
  // Lines: 1 prompt; 2–5 four blocks of msg_A/req_A (text, Edit, [result], Write) with output 5, 5, 42;
  // 4 and 6 the tool results; 7 a second response msg_B whose usage stays 3.
  const text = jsonl(
    prompt(0, "add b2"),
    assistant(1, "msg_A", "req_A", { type: "text", text: "Sure." }, 5),
    assistant(
      2,
      "msg_A",
      "req_A",
      toolUse("toolu_E", "Edit", { file_path: "/repo/f.txt", old_string: "b\n", new_string: "b\nb2\n" }),
      5,
    ),
    result(
      3,
      "toolu_E",
      editResult("b\n", "b\nb2\n", {
        structuredPatch: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [] }],
      }),
    ),
    assistant(4, "msg_A", "req_A", toolUse("toolu_W", "Write", { file_path: "/repo/g.txt", content: "new\n" }), 42),
    result(5, "toolu_W", {
      type: "create",
      filePath: "/repo/g.txt",
      content: "new\n",
      structuredPatch: [],
      originalFile: null,
    }),
    assistant(6, "msg_B", "req_B", { type: "text", text: "Done." }, 3),
  );
  const { s, sink } = parseText(text);

  test("one API call per (message.id, requestId), usage from the record with the largest output", () => {
    assert.ok(s);
    assert.equal(s.api_calls.length, 2);
    const a = s.api_calls[0];
    assert.equal(a.id, "msg_A");
    assert.equal(a.record, 5); // the block with output 42
    assert.deepEqual(a.usage, {
      input_tokens: 10,
      output_tokens: 42, // not 5 (first wins), not 52 (sum)
      cache_creation_tokens: 100,
      cache_creation_1h_tokens: 60,
      cache_read_tokens: 1000,
      reasoning_tokens: 0,
    });
    assert.equal(sum(s, "output_tokens"), 45); // 42 + 3
  });

  test("tool calls are the union of the blocks, each with its own record line", () => {
    assert.deepEqual(
      s!.tool_calls.map((c) => [c.id, c.name, c.record, c.result_record, c.success, c.sidechain]),
      [
        ["toolu_E", "Edit", 3, 4, true, false],
        ["toolu_W", "Write", 5, 6, true, false],
      ],
    );
    assert.equal(s!.tool_calls[0].timestamp, at(2));
  });

  test("Edit post-image = originalFile with oldString → newString; structuredPatch (+1 line) agrees", () => {
    const [e] = s!.tool_calls[0].file_edits;
    assert.deepEqual(e, {
      path: "/repo/f.txt",
      kind: "edit",
      pre_image: "a\nb\nc\n",
      post_image: "a\nb\nb2\nc\n",
      edits: [{ old_string: "b\n", new_string: "b\nb2\n", replace_all: false }],
      patch: null,
      user_modified: false,
    });
    assert.ok(!codes(sink).includes("claude-edit-patch-mismatch"));
  });

  test("envelope fields", () => {
    assert.equal(s!.session_id, "sess-1");
    assert.equal(s!.branch, "feat/x");
    assert.equal(s!.agent_version, "2.1.30");
    assert.equal(s!.record_count, 7);
    assert.deepEqual(
      s!.record_times,
      [0, 1, 2, 3, 4, 5, 6].map((x) => T0 + x * 1000),
    );
    assert.equal(s!.turns.length, 1);
  });
});

describe("synthetic: sub-agents", () => {
  // Main transcript (seconds in brackets):
  // 1 [0] prompt; 2 [1] Task call toolu_T (msg_M, output 9);
  // 3 [2] agent_progress: nested assistant msg_S1/req_S1 with Edit toolu_S1 (output 7);
  // 4 [3] agent_progress: nested user with tool_result toolu_S1 and its own toolUseResult;
  // 5 [10] Task result, toolUseResult names agentId a1 and the sub-agent's total usage (must not be counted).
  const nestedAssistant = {
    type: "assistant",
    requestId: "req_S1",
    uuid: "n1",
    timestamp: at(2),
    message: {
      id: "msg_S1",
      model: "claude-sonnet-4-5",
      role: "assistant",
      content: [toolUse("toolu_S1", "Edit", { file_path: "/repo/f.txt", old_string: "c", new_string: "C" })],
      usage: usage(7),
    },
  };
  const nestedResult = {
    type: "user",
    uuid: "n2",
    timestamp: at(3),
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_S1", content: "ok" }] },
    toolUseResult: editResult("c", "C"),
  };
  const progress = (second: number, message: unknown) => ({
    ...env(second),
    type: "progress",
    data: { type: "agent_progress", agentId: "a1", prompt: "do it", normalizedMessages: [], message },
    toolUseID: "agent_msg_x",
    parentToolUseID: "toolu_T",
  });
  const main = jsonl(
    prompt(0, "delegate"),
    assistant(
      1,
      "msg_M",
      "req_M",
      toolUse("toolu_T", "Task", { subagent_type: "general", prompt: "do it", description: "d" }),
      9,
    ),
    progress(2, nestedAssistant),
    progress(3, nestedResult),
    result(10, "toolu_T", { status: "completed", agentId: "a1", totalTokens: 5000, usage: { output_tokens: 999 } }),
  );

  test("agent_progress: nested Edit is a sidechain ToolCall with its own result and file edit; usage counted once", () => {
    const { s, sink } = parseText(main);
    assert.ok(s);
    assert.deepEqual(
      s.tool_calls.map((c) => [c.id, c.record, c.result_record, c.success, c.sidechain]),
      [
        ["toolu_T", 2, 5, true, false],
        ["toolu_S1", 3, 4, true, true],
      ],
    );
    assert.equal(s.tool_calls[1].file_edits[0].post_image, "a\nb\nC\n");
    assert.deepEqual(
      s.api_calls.map((a) => [a.id, a.record, a.sidechain, a.usage.output_tokens]),
      [
        ["msg_M", 2, false, 9],
        ["msg_S1", 3, true, 7],
      ],
    );
    assert.equal(sum(s, "output_tokens"), 16); // 9 + 7; the Task result's 999 is a summary, not a call
    assert.equal(s.turns.length, 1); // the sub-agent prompt is not a turn
    assert.ok(!codes(sink).includes("claude-tool-call-without-result"));
  });

  // subagents/agent-a1.jsonl repeats msg_S1 (same request, same tool_use and result) and adds msg_S2 with a
  // Write at [5]/[6]; a /btw-style record replays the parent's msg_M under a new requestId.
  const sub = jsonl(
    { ...nestedAssistant, ...env(2, { isSidechain: true, agentId: "a1" }), type: "assistant" },
    { ...nestedResult, ...env(3, { isSidechain: true, agentId: "a1" }), type: "user" },
    assistant(5, "msg_S2", "req_S2", toolUse("toolu_S2", "Write", { file_path: "/repo/h.txt", content: "h\n" }), 11, {
      isSidechain: true,
      agentId: "a1",
    }),
    result(
      6,
      "toolu_S2",
      { type: "create", filePath: "/repo/h.txt", content: "h\n", structuredPatch: [], originalFile: null },
      {
        extra: { isSidechain: true, agentId: "a1" },
      },
    ),
    assistant(7, "msg_M", "req_other", { type: "text", text: "replay" }, 50, { isSidechain: true, agentId: "a1" }),
  );

  test("subagents file: no double count of tool_use ids or message ids already seen; new calls placed by timestamp", () => {
    const { s, sink } = parseText(main, [{ file: "/p/sess-1/subagents/agent-a1.jsonl", text: sub }]);
    assert.ok(s);
    assert.deepEqual(
      s.tool_calls.map((c) => [c.id, c.record, c.result_record, c.sidechain]),
      [
        ["toolu_T", 2, 5, false],
        ["toolu_S1", 3, 4, true],
        // Written at [5] and answered at [6]: the last parent line not later than that is line 4 ([3]),
        // inside the Task's window (call line 2, result line 5).
        ["toolu_S2", 4, 4, true],
      ],
    );
    assert.equal(s.tool_calls[2].file_edits[0].post_image, "h\n");
    // msg_M, msg_S1 once each, plus msg_S2; the replay of msg_M (output 50) is dropped.
    assert.deepEqual(
      s.api_calls.map((a) => [a.id, a.sidechain, a.usage.output_tokens]),
      [
        ["msg_M", false, 9],
        ["msg_S1", true, 7],
        ["msg_S2", true, 11],
      ],
    );
    assert.equal(sum(s, "output_tokens"), 27);
    assert.ok(codes(sink).includes("claude-sidechain-replayed-message"));
    const mapped = sink.rows.find((r) => r.code === "claude-subagent-lines-mapped");
    assert.equal(mapped?.file, "/p/sess-1/subagents/agent-a1.jsonl");
    assert.match(mapped?.message ?? "", /lines 2–5/);
    // record_times: 5 main records + 5 sub-agent records.
    assert.equal(s.record_times.length, 10);
    assert.equal(s.record_count, 5);
  });

  test("a subagents file alone (no agent_progress) is linked through the Task result's agentId", () => {
    const mainOnly = jsonl(
      prompt(0, "delegate"),
      assistant(1, "msg_M", "req_M", toolUse("toolu_T", "Task", { prompt: "do it" }), 9),
      prompt(4, "unrelated later prompt? no: this is a real prompt while the agent runs"),
      result(10, "toolu_T", { status: "completed", agentId: "a1" }),
    );
    const { s, sink } = parseText(mainOnly, [{ file: "/p/sess-1/subagents/agent-a1.jsonl", text: sub }]);
    assert.ok(s);
    // toolu_S1 at [2] → line 2 (the Task call at [1] is the last line not later than [2]); answered at [3] → line 2.
    // toolu_S2 at [5] → line 3 (the prompt at [4]); answered at [6] → line 3.
    assert.deepEqual(
      s.tool_calls.map((c) => [c.id, c.record, c.result_record, c.sidechain]),
      [
        ["toolu_T", 2, 4, false],
        ["toolu_S1", 2, 2, true],
        ["toolu_S2", 3, 3, true],
      ],
    );
    assert.equal(s.api_calls.filter((a) => a.sidechain).length, 2); // msg_S1, msg_S2
    assert.ok(codes(sink).includes("claude-subagent-lines-mapped"));
  });

  /*
   * Entire copies only the main transcript. A Task whose result names sub-agent a1 (10 tool uses) with
   * neither agent_progress mirrors nor subagents/agent-a1.jsonl: whatever a1 edited is not in the inputs.
   * One info row says so (its committed lines would otherwise pass as the person's without a word); given
   * the file, or for a sub-agent that used no tool, nothing is said.
   */
  test("a Task's sub-agent with no records in the inputs is named (claude-subagent-records-missing)", () => {
    const withResult = (toolUses: number) =>
      jsonl(
        prompt(0, "delegate"),
        assistant(1, "msg_M", "req_M", toolUse("toolu_T", "Task", { prompt: "do it" }), 9),
        result(10, "toolu_T", { status: "completed", agentId: "a1", totalToolUseCount: toolUses }),
      );
    const alone = parseText(withResult(10));
    const rows = alone.sink.rows.filter((r) => r.code === "claude-subagent-records-missing");
    assert.equal(rows.length, 1);
    assert.equal(rows[0].severity, "info");
    // The Task result is the third record: line 3.
    assert.match(rows[0].message, /^1 sub-agent\(s\) \(a1\) with no records in the inputs .* first at line 3$/);
    assert.ok(
      !codes(parseText(withResult(10), [{ file: "/p/sess-1/subagents/agent-a1.jsonl", text: sub }]).sink).includes(
        "claude-subagent-records-missing",
      ),
    );
    assert.ok(!codes(parseText(withResult(0)).sink).includes("claude-subagent-records-missing"));
  });

  test("an unlinked subagents file is still read, and said to be unlinked", () => {
    const { s, sink } = parseText(jsonl(prompt(0, "hi")), [{ file: "/p/sess-1/subagents/agent-zz.jsonl", text: sub }]);
    assert.ok(s);
    assert.equal(s.tool_calls.length, 2); // toolu_S1, toolu_S2
    assert.ok(codes(sink).includes("claude-subagent-unlinked"));
  });
});

describe("synthetic: failures and user changes", () => {
  const rejectText =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
  const text = jsonl(
    prompt(0, "go"),
    assistant(
      1,
      "msg_1",
      "req_1",
      toolUse("toolu_rej", "Edit", { file_path: "/repo/f.txt", old_string: "a", new_string: "A" }),
      1,
    ),
    result(2, "toolu_rej", "User rejected tool use", { isError: true, content: rejectText }),
    // Two parallel calls: Bash fails, the sibling Edit is not run.
    assistant(3, "msg_2", "req_2", toolUse("toolu_bash", "Bash", { command: "false" }), 1),
    assistant(
      3,
      "msg_2",
      "req_2",
      toolUse("toolu_sib", "Edit", { file_path: "/repo/f.txt", old_string: "b", new_string: "B" }),
      2,
    ),
    result(4, "toolu_bash", { stdout: "", stderr: "", interrupted: false }, { isError: true, content: "Exit code 1" }),
    result(5, "toolu_sib", undefined, {
      isError: true,
      content: "<tool_use_error>Sibling tool call errored</tool_use_error>",
    }),
    // A string toolUseResult without is_error still means failure.
    assistant(
      6,
      "msg_3",
      "req_3",
      toolUse("toolu_mod", "Edit", { file_path: "/repo/f.txt", old_string: "c", new_string: "C" }),
      1,
    ),
    result(
      7,
      "toolu_mod",
      "Error: File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.",
    ),
    // userModified: the person changed the proposal in the IDE.
    assistant(
      8,
      "msg_4",
      "req_4",
      toolUse("toolu_um", "Edit", { file_path: "/repo/f.txt", old_string: "b", new_string: "B" }),
      1,
    ),
    result(9, "toolu_um", editResult("b", "BB", { userModified: true })),
    // A 300-character error is shortened to 200.
    assistant(10, "msg_5", "req_5", toolUse("toolu_long", "Bash", { command: "x" }), 1),
    result(11, "toolu_long", "E".repeat(300), { isError: true }),
  );
  const { s } = parseText(text);

  test("rejected: success false, the toolUseResult string as error, no file edit", () => {
    const c = call(s!, "toolu_rej");
    assert.deepEqual([c.success, c.error, c.file_edits], [false, "User rejected tool use", []]);
  });

  test("sibling error: tags stripped from the tool_result text", () => {
    const c = call(s!, "toolu_sib");
    assert.deepEqual([c.success, c.error, c.result_record], [false, "Sibling tool call errored", 7]);
    assert.equal(call(s!, "toolu_bash").error, "Exit code 1");
  });

  test("modified since read (string toolUseResult, no is_error): failed", () => {
    const c = call(s!, "toolu_mod");
    assert.equal(c.success, false);
    assert.match(c.error!, /^Error: File has been modified since read/);
  });

  test("userModified is carried to the file edit; post-image from the logged newString", () => {
    const [e] = call(s!, "toolu_um").file_edits;
    assert.equal(e.user_modified, true);
    assert.equal(e.post_image, "a\nBB\nc\n"); // toolUseResult newString "BB", not the input's "B"
    // The edits are also what was written (the result's strings), not what the agent proposed: replay falls back
    // to them when a log has no originalFile, and the proposal would replay text the person replaced.
    assert.deepEqual(e.edits, [{ old_string: "b", new_string: "BB", replace_all: false }]);
  });

  test("long errors are shortened to 200 characters", () => {
    const c = call(s!, "toolu_long");
    assert.equal(c.error!.length, 200);
    assert.ok(c.error!.endsWith("…"));
  });

  test("counts: 6 calls, 5 failed", () => {
    assert.equal(s!.tool_calls.length, 6);
    assert.equal(s!.tool_calls.filter((c) => c.success === false).length, 5); // rej, bash, sib, mod, long
  });
});

describe("synthetic: what is not a prompt", () => {
  const text = jsonl(
    prompt(0, "first real prompt"),
    prompt(
      1,
      "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>",
      { isMeta: true },
    ),
    prompt(
      2,
      "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>",
    ),
    prompt(3, "<local-command-stdout></local-command-stdout>"),
    prompt(4, "[Request interrupted by user]"),
    prompt(5, [{ type: "text", text: "[Request interrupted by user for tool use]" }]),
    { ...env(6), type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "auto", preTokens: 150000 } },
    prompt(7, "This session is being continued from a previous conversation that ran out of context. Summary: …", {
      isCompactSummary: true,
      isVisibleInTranscriptOnly: true,
    }),
    prompt(8, "This session is being continued from a previous conversation that ran out of context."), // flag missing
    prompt(9, [
      { type: "text", text: "second real prompt" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
    ]),
    prompt(10, "sidechain prompt", { isSidechain: true }),
    {
      ...env(11),
      type: "assistant",
      message: {
        id: "msg_x",
        model: "<synthetic>",
        role: "assistant",
        content: [{ type: "text", text: "API Error: 500" }],
        usage: usage(0),
      },
    },
  );
  const { s, sink } = parseText(text);

  test("only lines 1 and 10 are turns", () => {
    assert.deepEqual(
      s!.turns.map((t) => [t.index, t.record, t.text]),
      [
        [0, 1, "first real prompt"],
        [1, 10, "second real prompt"],
      ],
    );
  });

  test("each skipped kind has its own counted diagnostic", () => {
    const byCode = new Map(sink.rows.map((r) => [r.code, r]));
    assert.match(byCode.get("claude-meta-record")!.message, /^1 /);
    assert.match(byCode.get("claude-command-record")!.message, /^2 /); // lines 3, 4
    assert.match(byCode.get("claude-interrupt-marker")!.message, /^2 /); // lines 5, 6
    assert.match(byCode.get("claude-compact-summary")!.message, /^2 /); // lines 8, 9
    assert.match(byCode.get("claude-sidechain-prompt")!.message, /^1 /); // line 11
    assert.equal(byCode.get("claude-synthetic-message")?.record, 12);
    assert.equal(s!.api_calls.length, 0); // <synthetic> is not an API call
  });
});

describe("synthetic: prompts queued mid-turn (2.1+ attachment records)", () => {
  // A person types while the agent works: Claude Code writes the text to the queue (queue-operation, bookkeeping)
  // and then delivers it into the running turn as an attachment of type queued_command; no user record follows.
  // Shapes as in public Claude Code 2.1 transcripts. Lines (1-based): 1 prompt, 2 tool call, 3 its result,
  // 4 enqueue, 5 the queued human prompt, 6 a background task's notification (not typed by anyone),
  // 7 a hook attachment, 8 custom-title, 9 last-prompt (a copy of the last prompt), 10 a queued slash command.
  const queued = (second: number, attachment: Record<string, unknown>) => ({
    ...env(second),
    type: "attachment",
    attachment,
  });
  const text = jsonl(
    prompt(0, "fix the parser"),
    assistant(1, "msg_q1", "req_q1", toolUse("toolu_q1", "Bash", { command: "ls" }), 10),
    result(2, "toolu_q1", { stdout: "a", stderr: "" }),
    {
      type: "queue-operation",
      operation: "enqueue",
      timestamp: "2026-03-01T10:00:03.000Z",
      sessionId: "sess-1",
      content: "and add a test",
    },
    queued(4, { type: "queued_command", prompt: "and add a test", commandMode: "prompt", origin: { kind: "human" } }),
    queued(5, {
      type: "queued_command",
      prompt: "<task-notification><task-id>b1</task-id><status>completed</status></task-notification>",
      commandMode: "task-notification",
      origin: { kind: "task-notification" },
    }),
    queued(6, { type: "hook_success", hookName: "SessionStart:startup", content: "" }),
    { type: "custom-title", customTitle: "fix-parser", sessionId: "sess-1" },
    { type: "last-prompt", lastPrompt: "and add a test", sessionId: "sess-1" },
    queued(9, {
      type: "queued_command",
      prompt: [{ type: "text", text: "<command-name>/clear</command-name>" }],
      commandMode: "prompt",
    }),
  );
  const { s, sink } = parseText(text);

  test("the queued human prompt is a turn at its line; the notification, hook output and copies are not", () => {
    assert.deepEqual(
      s!.turns.map((t) => [t.index, t.record, t.text]),
      [
        [0, 1, "fix the parser"],
        [1, 5, "and add a test"],
      ],
    );
  });

  test("each skipped kind is counted under its own code; none is an unknown record type", () => {
    const byCode = new Map(sink.rows.map((r) => [r.code, r]));
    assert.match(byCode.get("claude-queued-command-not-prompt")!.message, /^1 .*task-notification/); // line 6
    assert.match(byCode.get("claude-attachment-record")!.message, /^1 /); // line 7
    assert.match(byCode.get("claude-command-record")!.message, /^1 /); // line 10: a slash command, queued
    assert.equal(byCode.get("claude-unknown-record-type"), undefined);
  });
});

describe("synthetic: Bash results with bashEditDiff (2.1.269+)", () => {
  // Claude Code can attach to a Bash result the diff of the files the command changed. metrics.md §3 replays no
  // shell command, so no file edit is made of it; one counted note says how much it leaves out. Two Bash calls:
  // the first creates gen.py (4 added lines) and changes app.txt (1 file listed in changedFiles only); the second
  // deletes old.txt (no added line). Sums: 3 file changes, 4 added lines.
  const bashDiff = (files: unknown[], changedFiles: string[]) => ({
    stdout: "",
    stderr: "",
    interrupted: false,
    bashEditDiff: { files, moreFiles: 0, changedFiles },
  });
  const text = jsonl(
    prompt(0, "generate the module"),
    assistant(
      1,
      "msg_b1",
      "req_b1",
      toolUse("toolu_b1", "Bash", { command: "cat > gen.py <<'EOF'\n…\nEOF; sed -i s/b/B/ app.txt" }),
      10,
    ),
    result(
      2,
      "toolu_b1",
      bashDiff(
        [
          {
            filePath: "/repo/gen.py",
            created: true,
            hunks: [
              {
                oldStart: 0,
                oldLines: 0,
                newStart: 1,
                newLines: 4,
                lines: ["+def gen():", "+    return 1", "+", "+print(gen())"],
              },
            ],
          },
        ],
        ["/repo/gen.py", "/repo/app.txt"],
      ),
    ),
    assistant(3, "msg_b2", "req_b2", toolUse("toolu_b2", "Bash", { command: "rm old.txt" }), 10),
    result(
      4,
      "toolu_b2",
      bashDiff(
        [
          {
            filePath: "/repo/old.txt",
            deleted: true,
            hunks: [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0, lines: ["-gone"] }],
          },
        ],
        ["/repo/old.txt"],
      ),
    ),
  );
  const { s, sink } = parseText(text);

  test("no file edit is made of it, and one note counts the calls, files and added lines", () => {
    assert.deepEqual(
      s!.tool_calls.map((c) => [c.name, c.success, c.file_edits.length]),
      [
        ["Bash", true, 0],
        ["Bash", true, 0],
      ],
    );
    const note = sink.rows.find((r) => r.code === "claude-bash-edit-diff")!;
    assert.equal(note.severity, "info");
    assert.match(note.message, /^2 Bash result\(s\) carrying a diff .*3 file change\(s\), 4 added line\(s\)/);
  });
});

describe("synthetic: odd records never crash", () => {
  test("unknown types (info once per type), invalid shapes, orphan results, missing paths", () => {
    const text = jsonl(
      prompt(0, "hi"),
      { ...env(1), type: "weird", x: 1 },
      { ...env(2), type: "weird", x: 2 },
      { ...env(3), type: "other-thing" },
      { ...env(4), type: "assistant", message: "not an object" },
      { ...env(5), no_type: true },
      result(6, "toolu_ghost", { stdout: "" }),
      assistant(7, "msg_1", "req_1", toolUse("toolu_np", "Write", { content: "x" }), 1),
      result(8, "toolu_np", "Error: something"),
      assistant(9, "msg_2", "req_2", toolUse("toolu_np2", "Edit", { old_string: "a", new_string: "b" }), 1),
      result(10, "toolu_np2", { oldString: "a", newString: "b" }),
    );
    const { s, sink } = parseText(text);
    assert.ok(s);
    const unknown = sink.rows.filter((r) => r.code === "claude-unknown-record-type");
    assert.deepEqual(
      unknown.map((r) => [r.severity, r.record]),
      [
        ["info", 2],
        ["info", 4],
      ],
    );
    assert.match(unknown[0].message, /^2 record\(s\) of unknown type "weird"/);
    assert.ok(codes(sink).includes("claude-invalid-record"));
    assert.ok(codes(sink).includes("claude-record-without-type"));
    const orphan = sink.rows.find((r) => r.code === "claude-tool-result-without-call");
    assert.equal(orphan?.record, 7);
    assert.equal(sink.rows.filter((r) => r.code === "claude-edit-without-path").length, 1); // toolu_np2; toolu_np failed
    assert.ok(sink.rows.every((r) => r.session_id === "sess-1" && r.file === "/p/sess-1.jsonl"));
  });

  test("Edit whose oldString is not in originalFile: post-image null and a note (replay decides whether it is lost)", () => {
    const text = jsonl(
      assistant(
        1,
        "msg_1",
        "req_1",
        toolUse("toolu_x", "Edit", { file_path: "/repo/f.txt", old_string: "zzz", new_string: "y" }),
        1,
      ),
      result(2, "toolu_x", editResult("zzz", "y")),
    );
    const { s, sink } = parseText(text);
    const [e] = call(s!, "toolu_x").file_edits;
    assert.equal(e.pre_image, ORIGINAL);
    assert.equal(e.post_image, null);
    const note = sink.rows.find((r) => r.code === "claude-edit-not-reproducible");
    assert.deepEqual([note?.record, note?.severity], [2, "info"]);
  });

  test("a copy taken mid-call: a call after the last logged result is expected (info), one before it was lost (warning)", () => {
    const text = jsonl(
      assistant(1, "msg_1", "req_1", toolUse("toolu_lost", "Read", { file_path: "/repo/f.txt" }), 1),
      assistant(
        2,
        "msg_2",
        "req_2",
        toolUse("toolu_ok", "Edit", { file_path: "/repo/f.txt", old_string: "zzz", new_string: "y" }),
        1,
      ),
      result(3, "toolu_ok", editResult("zzz", "y")),
      assistant(4, "msg_3", "req_3", toolUse("toolu_running", "Bash", { command: "git commit -m x" }), 1),
    );
    const { sink } = parseText(text);
    const rows = sink.rows.filter((r) => r.code === "claude-tool-call-without-result");
    assert.deepEqual(
      rows.map((r) => [r.record, r.severity]),
      [
        [1, "warning"],
        [4, "info"],
      ],
    );
    assert.match(rows[1].message, /the transcript ends while it runs/);
  });

  test("NotebookEdit: kind notebook, no post-image, no edits", () => {
    const text = jsonl(
      assistant(
        1,
        "msg_1",
        "req_1",
        toolUse("toolu_nb", "NotebookEdit", { notebook_path: "/repo/a.ipynb", new_source: "x = 1", cell_id: "c1" }),
        1,
      ),
      result(2, "toolu_nb", { new_source: "x = 1", cell_id: "c1" }),
    );
    const { s, sink } = parseText(text);
    assert.deepEqual(call(s!, "toolu_nb").file_edits, [
      {
        path: "/repo/a.ipynb",
        kind: "notebook",
        pre_image: null,
        post_image: null,
        edits: null,
        patch: null,
        user_modified: false,
      },
    ]);
    assert.ok(codes(sink).includes("claude-notebook-edit"));
  });

  test("mcp__acp__Write/Edit (abs_path) are file edits too", () => {
    const text = jsonl(
      assistant(
        1,
        "msg_1",
        "req_1",
        toolUse("toolu_aw", "mcp__acp__Write", { abs_path: "/repo/n.txt", content: "n\n" }),
        1,
      ),
      result(2, "toolu_aw", undefined, { content: "" }),
      assistant(
        3,
        "msg_2",
        "req_2",
        toolUse("toolu_ae", "mcp__acp__Edit", { abs_path: "/repo/n.txt", old_string: "n", new_string: "m" }),
        1,
      ),
      result(4, "toolu_ae", undefined),
    );
    const { s } = parseText(text);
    assert.deepEqual(
      call(s!, "toolu_aw").file_edits.map((e) => [e.kind, e.path, e.pre_image, e.post_image]),
      [["write", "/repo/n.txt", null, "n\n"]],
    );
    assert.deepEqual(
      call(s!, "toolu_ae").file_edits.map((e) => [e.kind, e.pre_image, e.post_image, e.edits?.length]),
      [["edit", null, null, 1]],
    );
  });

  test("no sessionId anywhere: the file name is the session id", () => {
    const text = jsonl({ type: "user", uuid: "u", timestamp: at(0), message: { role: "user", content: "hi" } });
    const { s, sink } = parseText(text, undefined, "/x/abc-123.jsonl");
    assert.equal(s?.session_id, "abc-123");
    assert.ok(codes(sink).includes("claude-no-session-id"));
  });
});

describe("bad input files", () => {
  const good = [prompt(0, "hi"), assistant(1, "msg_1", "req_1", { type: "text", text: "yo" }, 4)];

  test("truncated last line: the rest parses, one jsonl-truncated row", () => {
    const text =
      jsonl(...good) + JSON.stringify(assistant(2, "msg_2", "req_2", { type: "text", text: "x" }, 5)).slice(0, 60);
    const { s, sink } = parseText(text);
    assert.equal(s?.api_calls.length, 1);
    assert.equal(s?.record_count, 3); // the cut-off line is still a line of the transcript
    assert.deepEqual(codes(sink), ["jsonl-truncated"]);
    assert.equal(sink.rows[0].record, 3);
  });

  test("NUL bytes: stripped, record kept", () => {
    const line = JSON.stringify(prompt(2, "second"));
    const text = jsonl(...good) + line.slice(0, 5) + "\u0000\u0000" + line.slice(5) + "\n" + "\u0000".repeat(8);
    const { s, sink } = parseText(new TextEncoder().encode(text));
    assert.equal(s?.turns.length, 2);
    assert.deepEqual(codes(sink), ["jsonl-nul-bytes", "jsonl-nul-bytes"]);
  });

  test("two objects on one line: both kept", () => {
    const text = JSON.stringify(good[0]) + JSON.stringify(good[1]) + "\n";
    const { s, sink } = parseText(text);
    assert.equal(s?.turns.length, 1);
    assert.equal(s?.api_calls.length, 1);
    assert.equal(s?.api_calls[0].record, 1); // both on line 1
    assert.deepEqual(codes(sink), ["jsonl-concatenated-objects"]);
  });

  test("a pretty-printed JSON document named .jsonl (the real Gemini session): null, with reasons", () => {
    const path = "entire/entireio-cli/ab/2b9748b105/0/full.jsonl";
    const { s, sink } = parseText(readFileSync(CORPUS + path), undefined, path);
    assert.equal(s, null);
    assert.deepEqual(codes(sink), ["jsonl-pretty-printed", "claude-no-records"]);
  });

  test("CRLF line endings parse like LF", () => {
    const text = jsonl(...good).replace(/\n/g, "\r\n");
    const { s, sink } = parseText(text);
    assert.equal(s?.turns.length, 1);
    assert.equal(s?.api_calls.length, 1);
    assert.deepEqual(codes(sink), ["jsonl-crlf"]);
  });

  test("an empty file: null, jsonl-empty and claude-no-records", () => {
    const { s, sink } = parseText("");
    assert.equal(s, null);
    assert.deepEqual(codes(sink), ["jsonl-empty", "claude-no-records"]);
    assert.ok(sink.rows.every((r) => r.file === "/p/sess-1.jsonl"));
  });

  test("a Codex rollout given to the Claude parser: null, claude-not-claude-code", () => {
    const text = jsonl({ timestamp: at(0), type: "session_meta", payload: { id: "x" } });
    const { s, sink } = parseText(text);
    assert.equal(s, null);
    assert.ok(codes(sink).includes("claude-not-claude-code"));
  });
});

describe("applyClaudeEdits (Claude Code's applyEditToFile rules)", () => {
  test("replacement text is literal ($& is not a pattern)", () => {
    const r = applyClaudeEdits("x = 1\n", [{ old_string: "1", new_string: "$&$&", replace_all: false }]);
    assert.deepEqual(r, { ok: true, text: "x = $&$&\n", quoteNormalized: false });
  });
  test("first match only, or all with replace_all", () => {
    assert.equal(
      (applyClaudeEdits("a a a", [{ old_string: "a", new_string: "b", replace_all: false }]) as { text: string }).text,
      "b a a",
    );
    assert.equal(
      (applyClaudeEdits("a a a", [{ old_string: "a", new_string: "b", replace_all: true }]) as { text: string }).text,
      "b b b",
    );
  });
  test("deleting a line without its newline also deletes the newline", () => {
    // "a\nb\nc\n" minus "b" is "a\nc\n" in Claude Code, not "a\n\nc\n".
    assert.equal(
      (applyClaudeEdits("a\nb\nc\n", [{ old_string: "b", new_string: "", replace_all: false }]) as { text: string })
        .text,
      "a\nc\n",
    );
  });
  test("curly quotes in the file match straight quotes in the edit", () => {
    const r = applyClaudeEdits("say \u201Chi\u201D\n", [
      { old_string: 'say "hi"', new_string: "say hello", replace_all: false },
    ]);
    assert.deepEqual(r, { ok: true, text: "say hello\n", quoteNormalized: true });
  });
  test("empty old_string writes into an empty file only; absent old_string fails", () => {
    assert.deepEqual(applyClaudeEdits("", [{ old_string: "", new_string: "n", replace_all: false }]), {
      ok: true,
      text: "n",
      quoteNormalized: false,
    });
    assert.equal(applyClaudeEdits("x", [{ old_string: "", new_string: "n", replace_all: false }]).ok, false);
    assert.equal(applyClaudeEdits("x", [{ old_string: "y", new_string: "n", replace_all: false }]).ok, false);
  });
});

describe("discovery (paths.ts)", () => {
  const root = mkdtempSync(join(tmpdir(), "cc-paths-"));
  after(() => rmSync(root, { recursive: true, force: true }));
  const claudeLine = jsonl(prompt(0, "hi"));
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  // projects/-repo-a/u1.jsonl with two sub-agent logs; -repo-b/u2.jsonl; a Codex rollout and history-like
  // JSONL that are not Claude Code; an orphan sub-agent folder; a node_modules folder that is skipped.
  put("projects/-repo-a/u1.jsonl", claudeLine);
  put("projects/-repo-a/u1/subagents/agent-b.jsonl", claudeLine);
  put("projects/-repo-a/u1/subagents/agent-a.jsonl", claudeLine);
  put("projects/-repo-a/u1/subagents/notes.txt", "x");
  // A Workflow tool run (2.1, mid-2026): its agents' logs sit one folder deeper, beside a journal that is no log.
  put("projects/-repo-a/u1/subagents/workflows/wf_8ca2332b-21c/agent-c.jsonl", claudeLine);
  put("projects/-repo-a/u1/subagents/workflows/wf_8ca2332b-21c/journal.jsonl", jsonl({ launched: 1 }));
  put("projects/-repo-b/u2.jsonl", claudeLine);
  put("projects/-repo-b/rollout.jsonl", jsonl({ timestamp: at(0), type: "session_meta", payload: {} }));
  put("projects/-repo-b/history.jsonl", jsonl({ display: "hi", timestamp: 1 }));
  put("projects/-repo-c/u3/subagents/agent-z.jsonl", claudeLine);
  put("projects/node_modules/x/u9.jsonl", claudeLine);

  test("a folder: sessions sorted, with their sub-agent files; others reported", () => {
    const sink = new DiagnosticSink("claude-code");
    const found = findClaudeCodeTranscripts(join(root, "projects"), sink);
    assert.deepEqual(found, [
      {
        file: join(root, "projects/-repo-a/u1.jsonl"),
        subagents: [
          join(root, "projects/-repo-a/u1/subagents/agent-a.jsonl"),
          join(root, "projects/-repo-a/u1/subagents/agent-b.jsonl"),
          join(root, "projects/-repo-a/u1/subagents/workflows/wf_8ca2332b-21c/agent-c.jsonl"),
        ],
      },
      { file: join(root, "projects/-repo-b/u2.jsonl"), subagents: [] },
    ]);
    assert.deepEqual(
      sink.rows.map((r) => r.code).sort(),
      ["claude-not-a-transcript", "claude-not-a-transcript", "claude-orphan-subagents"], // history, rollout, -repo-c
    );
  });

  test("a single file, and reading it with its sub-agents", () => {
    const found = findClaudeCodeTranscripts(join(root, "projects/-repo-a/u1.jsonl"));
    assert.equal(found.length, 1);
    assert.equal(found[0].subagents.length, 3);
    const sink = new DiagnosticSink("claude-code");
    const s = readClaudeCodeTranscript(found[0], sink);
    assert.equal(s?.turns.length, 1);
    assert.equal(s?.record_times.length, 4); // one record in the session file and in each sub-agent file (workflow's too)
  });

  test("a Workflow run folder reached through a symbolic link is read too", () => {
    // u4's workflow folder is a link to a folder elsewhere (as tools that move logs leave them): its agent log counts.
    put("projects/-repo-d/u4.jsonl", claudeLine);
    put("elsewhere/wf_run/agent-w.jsonl", claudeLine);
    mkdirSync(join(root, "projects/-repo-d/u4/subagents/workflows"), { recursive: true });
    symlinkSync(join(root, "elsewhere/wf_run"), join(root, "projects/-repo-d/u4/subagents/workflows/wf_run"));
    const found = findClaudeCodeTranscripts(join(root, "projects/-repo-d/u4.jsonl"));
    assert.deepEqual(found[0].subagents, [join(root, "projects/-repo-d/u4/subagents/workflows/wf_run/agent-w.jsonl")]);
  });

  test("a missing path is a diagnostic, not a throw", () => {
    const sink = new DiagnosticSink("claude-code");
    assert.deepEqual(findClaudeCodeTranscripts(join(root, "nope"), sink), []);
    assert.deepEqual(codes(sink), ["claude-path-unreadable"]);
  });

  test("project folder names replace / and . with -", () => {
    assert.equal(
      claudeProjectDirName("/Users/alex/workspace/cli/.worktrees/3"),
      "-Users-alex-workspace-cli--worktrees-3",
    );
  });
});
