import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { toolCategory } from "../../src/analyze/tool-category";
import { detectExportFormat } from "../../src/ingest/detect-export";
import { cursorChunkLines, decodeEntities, parseSpecStory, type SpecStorySession } from "../../src/ingest/specstory";
import { DiagnosticSink, sessionSchema } from "../../src/model";
import { corpusPath } from "../helpers/corpus";

const CORPUS = corpusPath("specstory") + "/";
const CURSOR = "getspecstory__2025-06-30_12-46-48Z-fix-unknown-field-error.cursor.md";
const CLAUDE = "getspecstory__2026-01-28_13-10-29Z-take-a-look-at.claude-code.md";
const CODEX = "getspecstory__2026-02-20_16-33-05Z-start-with-docs-git.codex.md";

function parseReal(name: string): { p: SpecStorySession; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("specstory", name);
  const text = readFileSync(CORPUS + name);
  assert.equal(detectExportFormat(text), "specstory");
  const p = parseSpecStory({ text, file: name }, sink);
  assert.ok(p, `${name} parses`);
  assert.ok(sessionSchema.safeParse(p.session).success);
  return { p, sink };
}
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

// Counts checked with grep and a python one-off: `^_\*\*User` / `^_\*\*Agent`
// lines, `^<tool-use` lines, the ```diff block's lines, html.unescape.

describe("SpecStory Cursor export (diff chunks, HTML-escaped)", () => {
  const { p, sink } = parseReal(CURSOR);
  const s = p.session;

  test("session id from the header comment, agent Cursor, model from the agent turns", () => {
    assert.equal(s.session_id, "7648a3a8-cec0-45cc-a87c-6ad5a39677a2");
    assert.equal(s.agent, "Cursor");
    assert.equal(p.provider, "Cursor IDE");
    assert.equal(p.markdown_version, "2.1.0");
    assert.deepEqual(p.models, ["claude-4-sonnet"]);
  });

  test("1 prompt, 5 agent turns; 4 tool blocks of which 2 are empty twins → 2 calls", () => {
    assert.equal(s.turns.length, 1);
    assert.ok(s.turns[0].text.startsWith("For the code present, we get this error:"));
    assert.ok(
      s.turns[0].text.endsWith("please make it concise."),
      "the trailing --- separator is not part of the prompt",
    );
    assert.equal(p.agent_turns, 5);
    assert.deepEqual(
      s.tool_calls.map((c) => c.name),
      ["read_file", "search_replace"],
    );
    assert.ok(codes(sink).includes("specstory-empty-tool-block-merged"));
  });

  test("the diff chunk: &#96; decoded to a backtick, the extra space after each marker removed, +1 −0", () => {
    const e = s.tool_calls[1].file_edits[0];
    assert.equal(e.path, "pkg/cloud/sync.go");
    assert.equal(e.kind, "patch");
    assert.equal(
      e.patch,
      [
        "@@ -43,4 +43,5 @@",
        ' \tClientName    string `json:"clientName"`',
        ' \tClientVersion string `json:"clientVersion"`',
        '+\tAgentName     string `json:"agentName"`',
        ' \tDeviceID      string `json:"deviceId"`',
        " }",
        "",
      ].join("\n"),
    );
    assert.deepEqual(p.diff_lines, { added: 1, removed: 0 });
    assert.equal(s.tool_calls[1].success, true);
  });
});

describe("SpecStory Claude Code export (no diffs)", () => {
  const { p, sink } = parseReal(CLAUDE);
  const s = p.session;

  test("11 user turns, 3 of them '[Request interrupted by user for tool use]': 8 prompts; 73 agent turns", () => {
    assert.equal(p.user_turn_lines.length, 11);
    assert.equal(s.turns.length, 8);
    assert.deepEqual(
      s.turns.map((t) => t.record),
      [7, 289, 638, 736, 836, 933, 1026, 1128],
    );
    assert.equal(p.agent_turns, 73);
    assert.deepEqual(p.models, ["claude-opus-4-5-20251101"]);
  });

  test("31 tool blocks: 10 Edit (8 'updated', 2 rejected), 1 Write, the rejected AskUserQuestion", () => {
    assert.equal(s.tool_calls.length, 31);
    const edits = s.tool_calls.filter((c) => c.name === "Edit");
    assert.equal(edits.length, 10);
    assert.equal(edits.filter((c) => c.success === true).length, 8); // 6 "updated successfully" + 2 "All occurrences … replaced"
    assert.equal(edits.filter((c) => c.success === false).length, 2);
    assert.equal(s.tool_calls.find((c) => c.name === "AskUserQuestion")?.success, false);
  });

  test("no diff anywhere: no file edit, nothing to attribute, said in a diagnostic", () => {
    assert.equal(p.has_diffs, false);
    assert.equal(
      s.tool_calls.reduce((n, c) => n + c.file_edits.length, 0),
      0,
    );
    assert.ok(codes(sink).includes("specstory-no-diffs"));
    assert.ok(codes(sink).includes("specstory-not-a-prompt"));
  });

  test("the Bash command is read from the block (`go mod tidy` → bash:build)", () => {
    const bash = s.tool_calls.filter((c) => c.name === "Bash").map((c) => (c.input as { command?: string }).command);
    assert.ok(bash.includes("go mod tidy"));
    assert.equal(toolCategory("Bash", { command: "go mod tidy" }), "bash:build");
  });

  test("times from the turn headers: 13:10:29 → 13:30:15", () => {
    assert.equal(new Date(s.record_times[0]).toISOString(), "2026-01-28T13:10:29.000Z");
    assert.equal(new Date(s.record_times[s.record_times.length - 1]).toISOString(), "2026-01-28T13:30:15.000Z");
  });
});

describe("SpecStory Codex export (apply_patch Add, nested fences in tool output)", () => {
  const { p } = parseReal(CODEX);
  const s = p.session;

  test("2 prompts, 43 agent turns, 14 tool blocks (13 exec_command + apply_patch), even though `cat` output nests ``` fences", () => {
    assert.equal(s.turns.length, 2);
    assert.equal(p.agent_turns, 43);
    assert.equal(s.tool_calls.length, 14);
    assert.equal(s.tool_calls.filter((c) => c.name === "exec_command").length, 13);
  });

  test("the Add block is a 307-line write (14 of its lines start with ``` and stay content), entities not decoded", () => {
    const call = s.tool_calls.find((c) => c.name === "apply_patch")!;
    const e = call.file_edits[0];
    assert.deepEqual([e.path, e.kind, e.pre_image], ["docs/git-provenance/RECOMMENDATIONS.md", "write", null]);
    const lines = e.post_image!.split("\n").slice(0, -1);
    assert.equal(lines.length, 307);
    assert.equal(lines.filter((l) => l.startsWith("```")).length, 14);
    assert.equal(lines[0], "# AI Git Provenance Recommendations");
    assert.deepEqual(p.diff_lines, { added: 307, removed: 0 });
  });

  test("shell commands shown as `cmd` in the summary become the call's command", () => {
    assert.equal(
      (s.tool_calls[0].input as { command?: string }).command,
      "rg --files docs/git-provenance -g '*.md' | sort",
    );
    assert.equal(toolCategory("exec_command", s.tool_calls[0].input), "grep");
  });
});

describe("entities and chunks", () => {
  test("one decoding pass: &amp;lt; stays &lt;; numeric and hex entities", () => {
    assert.equal(decodeEntities("&amp;lt; &#96;x&#x60; &quot;q&quot; &#39;"), '&lt; `x` "q" \'');
    assert.equal(decodeEntities("&unknown; &"), "&unknown; &");
  });

  test("a chunk without the extra space is kept as written", () => {
    assert.deepEqual(cursorChunkLines(["@@ -1 +1 @@", "-a", "+b"]), {
      lines: ["@@ -1 +1 @@", "-a", "+b"],
      spaced: false,
    });
    assert.deepEqual(cursorChunkLines(["+ x", "  y", "+"]).lines, ["+x", " y", "+"]);
  });
});

describe("bad input", () => {
  test("a file with agent turns but no user turn: a session without prompts, with a warning", () => {
    const md = "<!-- Generated by SpecStory -->\n\n_**Agent (gpt-5 2026-01-01 10:00Z)**_\n\nHello.\n";
    assert.equal(detectExportFormat(md), "specstory");
    const sink = new DiagnosticSink("specstory");
    const p = parseSpecStory({ text: md, file: "a.md" }, sink)!;
    assert.equal(p.session.turns.length, 0);
    assert.deepEqual(p.models, ["gpt-5"]);
    assert.equal(new Date(p.session.record_times[0]).toISOString(), "2026-01-01T10:00:00.000Z"); // minute precision
    assert.ok(codes(sink).includes("specstory-no-user-turn"));
    assert.ok(codes(sink).includes("specstory-no-session-id"));
  });

  test("a SpecStory comment and no turn at all: an error, no session", () => {
    const sink = new DiagnosticSink("specstory");
    assert.equal(parseSpecStory({ text: "<!-- Generated by SpecStory -->\n\n# empty\n", file: "b.md" }, sink), null);
    assert.deepEqual(codes(sink), ["specstory-no-turns"]);
  });

  test("a turn header quoted inside a fenced block of a prompt is not a turn", () => {
    const md = [
      "<!-- Generated by SpecStory -->",
      "",
      "_**User**_",
      "",
      "Look:",
      "```",
      "_**User**_",
      "fake",
      "```",
      "",
      "---",
      "",
      "_**Assistant**_",
      "",
      "ok",
    ].join("\n");
    const p = parseSpecStory({ text: md, file: "c.md" }, new DiagnosticSink("specstory"))!;
    assert.equal(p.user_turn_lines.length, 1);
    assert.equal(p.session.turns[0].text, "Look:\n```\n_**User**_\nfake\n```");
  });

  test("a tool block cut off at the end of the file: kept, with a warning", () => {
    const md =
      '<!-- Generated by SpecStory -->\n\n_**User**_\n\nhi\n\n_**Agent**_\n\n<tool-use data-tool-type="shell" data-tool-name="Bash"><details>\n<summary>Tool use: **Bash**</summary>\n`ls`\n';
    const sink = new DiagnosticSink("specstory");
    const p = parseSpecStory({ text: md, file: "d.md" }, sink)!;
    assert.deepEqual(
      p.session.tool_calls.map((c) => [c.name, (c.input as { command?: string }).command]),
      [["Bash", "ls"]],
    );
    assert.ok(codes(sink).includes("specstory-unclosed-tool"));
  });
});
