/**
 * Entire's compact transcript (`transcript.jsonl`): fixtures written here from
 * the format's description (Entire's compact.go; the kiro and pi compactors
 * of entireio/external-agents), since no real sample exists. Every number is
 * worked out by hand in the comments. END TO END: real git repositories with
 * an `entire/checkpoints/v1` branch whose session folders hold only
 * `transcript.jsonl`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { analyze, readTranscriptByContent } from "../../src/analyze";
import { detectTranscriptFormat } from "../../src/ingest/detect";
import { parseEntireCompactTranscript } from "../../src/ingest/entire-compact";
import { DiagnosticSink, type Diagnostic, type Session } from "../../src/model";
import { applyStringEdits } from "../../src/replay";
import { TestRepo } from "../helpers/git-repo";

const ROOT = "/home/u/proj";
const GREET = `${ROOT}/src/greet.py`;

/** One compact line with its fields in compact.go's order (v, agent, cli_version, type, ts, id, tokens, content). */
function line(
  type: string,
  ts: string | null,
  content: unknown,
  more: { id?: string; input_tokens?: number; output_tokens?: number; agent?: string; v?: unknown } = {},
): string {
  const o: Record<string, unknown> = {
    v: more.v ?? 1,
    agent: more.agent ?? "claude-code",
    cli_version: "0.42.0",
    type,
  };
  if (ts !== null) o.ts = ts;
  if (more.id !== undefined) o.id = more.id;
  if (more.input_tokens) o.input_tokens = more.input_tokens; // omitted when 0, as compact.go does
  if (more.output_tokens) o.output_tokens = more.output_tokens;
  o.content = content;
  return JSON.stringify(o);
}
const user = (ts: string, ...texts: (string | { id: string; text: string } | Record<string, unknown>)[]) =>
  line(
    "user",
    ts,
    texts.map((t) => (typeof t === "string" ? { text: t } : t)),
  );
const toolUse = (
  id: string,
  name: string,
  input: unknown,
  result?: { output: string; status: string; file?: unknown },
) => ({ type: "tool_use", id, name, input, ...(result ? { result } : {}) });
const ok = (output = "ok") => ({ output, status: "success" });
const assistant = (ts: string, id: string, inTok: number, outTok: number, ...blocks: unknown[]) =>
  line("assistant", ts, blocks, { id, input_tokens: inTok, output_tokens: outTok });
const at = (s: string) => `2026-03-02T${s}.000Z`;

const V1 = 'def greet(name):\n    return "hi " + name\n\nprint(greet("ada"))\n';
const E1 = { old_string: '    return "hi " + name\n', new_string: '    message = "hi " + name\n    return message\n' };
const V2 = 'def greet(name):\n    message = "hi " + name\n    return message\n\nprint(greet("ada"))\n';
const M1 = [
  { old_string: 'print(greet("ada"))', new_string: 'if __name__ == "__main__":\n    print(greet("ada"))' },
  { old_string: "def greet(name):", new_string: "def greet(name: str) -> str:" },
];
const V3 =
  'def greet(name: str) -> str:\n    message = "hi " + name\n    return message\n\nif __name__ == "__main__":\n    print(greet("ada"))\n';

/** The unit-test fixture: a Write create, two Edits (one failed), a Read, a MultiEdit, prompts with promptIds, an interruption, a command. */
const FIXTURE =
  [
    /* 1 */ user(at("11:00:00"), { id: "prompt-1", text: "create src/greet.py" }),
    /* 2 */ assistant(
      at("11:00:05"),
      "msg_1",
      100,
      50,
      { type: "text", text: "Writing it." },
      toolUse("toolu_1", "Write", { file_path: GREET, content: V1 }, ok(`File created successfully at: ${GREET}`)),
    ),
    /* 3 */ assistant(
      at("11:00:10"),
      "msg_2",
      5,
      7,
      toolUse(
        "toolu_2",
        "Edit",
        { file_path: GREET, old_string: "nothing", new_string: "x" },
        {
          output: "<tool_use_error>String to replace not found in file.\nString: nothing</tool_use_error>",
          status: "error",
        },
      ),
    ),
    /* 4 */ assistant(at("11:00:15"), "msg_3", 10, 20, toolUse("toolu_3", "Edit", { file_path: GREET, ...E1 }, ok())),
    /* 5 */ assistant(
      at("11:00:20"),
      "msg_4",
      3,
      0,
      toolUse(
        "toolu_4",
        "Read",
        { file_path: GREET },
        { output: "     1\tdef greet(name):", status: "success", file: { filePath: GREET, numLines: 5 } },
      ),
    ),
    /* 6 */ user(at("11:00:30"), "[Request interrupted by user]"),
    /* 7 */ user(
      at("11:01:00"),
      { id: "prompt-2", text: "type it and guard main" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ),
    /* 8 */ assistant(
      at("11:01:10"),
      "msg_5",
      30,
      40,
      toolUse("toolu_5", "MultiEdit", { file_path: GREET, edits: M1 }, ok()),
      toolUse("toolu_6", "Bash", { command: "pytest" }),
    ),
    /* 9 */ user(at("11:02:00"), "<command-name>/exit</command-name>\n<command-message>exit</command-message>"),
  ].join("\n") + "\n";

const codes = (rows: Diagnostic[], code: string) => rows.filter((d) => d.code === code);

function parse(
  text: string,
  file = "ab/cdef012345/0/transcript.jsonl",
): { session: Session | null; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("entire", file);
  return { session: parseEntireCompactTranscript({ text, file }, sink), sink };
}

describe("parseEntireCompactTranscript on a hand-written Claude Code compact transcript", () => {
  const { session, sink } = parse(FIXTURE);
  const s = session!;

  test("session fields: agent from the lines, no cwd, no model, 9 lines", () => {
    assert.ok(session);
    assert.deepEqual(
      [s.source, s.agent, s.agent_version, s.branch, s.cwds, s.record_count],
      ["entire-compact", "Claude Code", null, null, [], 9],
    );
    // 9 lines with `ts`, 11:00:00 … 11:02:00.
    assert.equal(s.record_times.length, 9);
    assert.equal(s.record_times[8] - s.record_times[0], 120_000);
  });

  test("prompts: lines 1 and 7 (with an image); the interruption (6) and /exit (9) are not prompts", () => {
    assert.deepEqual(
      s.turns.map((t) => [t.index, t.record, t.text, t.timestamp]),
      [
        [0, 1, "create src/greet.py", at("11:00:00")],
        [1, 7, "type it and guard main", at("11:01:00")],
      ],
    );
    assert.equal(codes(sink.rows, "entire-compact-interrupt-marker")[0]?.record, 6);
    assert.equal(codes(sink.rows, "entire-compact-command-record")[0]?.record, 9);
  });

  test("tool calls: six, their success from result.status, the result on the call's own line", () => {
    assert.deepEqual(
      s.tool_calls.map((c) => [c.id, c.name, c.record, c.result_record, c.success]),
      [
        ["toolu_1", "Write", 2, 2, true],
        ["toolu_2", "Edit", 3, 3, false],
        ["toolu_3", "Edit", 4, 4, true],
        ["toolu_4", "Read", 5, 5, true],
        ["toolu_5", "MultiEdit", 8, 8, true],
        ["toolu_6", "Bash", 8, null, null], // no inlined result
      ],
    );
    assert.equal(s.tool_calls[1].error, "String to replace not found in file.\nString: nothing");
    const missing = codes(sink.rows, "entire-compact-tool-call-without-result");
    assert.deepEqual(
      missing.map((d) => [d.record, d.severity]),
      [[8, "warning"]],
    );
    assert.match(missing[0].message, /toolu_6/);
  });

  test("file edits: Write → post-image, Edit/MultiEdit → string edits (no pre-images); the failed Edit and the Read have none", () => {
    const [w, failed, e, read, multi, bash] = s.tool_calls.map((c) => c.file_edits);
    assert.deepEqual(w, [
      { path: GREET, kind: "write", pre_image: null, post_image: V1, edits: null, patch: null, user_modified: false },
    ]);
    assert.deepEqual(e, [
      {
        path: GREET,
        kind: "edit",
        pre_image: null,
        post_image: null,
        edits: [{ ...E1, replace_all: false }],
        patch: null,
        user_modified: false,
      },
    ]);
    assert.deepEqual(multi[0].kind, "multi-edit");
    assert.deepEqual(
      multi[0].edits,
      M1.map((m) => ({ ...m, replace_all: false })),
    );
    assert.deepEqual([failed, read, bash], [[], [], []]);
    // Replayed in order, the edits give V2 after the Edit and V3 after the MultiEdit.
    const afterEdit = applyStringEdits(w[0].post_image!, e[0].edits!);
    assert.deepEqual(afterEdit, { ok: true, text: V2 });
    assert.deepEqual(applyStringEdits(V2, multi[0].edits!), { ok: true, text: V3 });
  });

  test("usage: one API call per assistant line, input and output only; the format's limits said once each", () => {
    assert.deepEqual(
      s.api_calls.map((a) => [
        a.id,
        a.record,
        a.model,
        a.usage.input_tokens,
        a.usage.output_tokens,
        a.usage.cache_creation_tokens,
        a.usage.cache_read_tokens,
      ]),
      [
        ["msg_1", 2, null, 100, 50, 0, 0],
        ["msg_2", 3, null, 5, 7, 0, 0],
        ["msg_3", 4, null, 10, 20, 0, 0],
        ["msg_4", 5, null, 3, 0, 0, 0],
        ["msg_5", 8, null, 30, 40, 0, 0],
      ],
    );
    // Σ input 100+5+10+3+30 = 148, Σ output 50+7+20+0+40 = 117.
    assert.equal(
      s.api_calls.reduce((n, a) => n + a.usage.input_tokens, 0),
      148,
    );
    assert.equal(
      s.api_calls.reduce((n, a) => n + a.usage.output_tokens, 0),
      117,
    );
    for (const code of ["entire-compact-no-cache-tokens", "entire-compact-no-preimages"]) {
      const rows = codes(sink.rows, code);
      assert.equal(rows.length, 1, code);
      assert.equal(rows[0].severity, "info");
    }
    assert.match(codes(sink.rows, "entire-compact-no-cache-tokens")[0].message, /lower bounds/);
    assert.equal(codes(sink.rows, "entire-compact-no-token-counts").length, 0);
  });

  test("a message id on two lines is one API call, with the usage of the line with the most output", () => {
    const text =
      [
        user(at("10:00:00"), "go"),
        assistant(at("10:00:01"), "msg_x", 4, 5, { type: "text", text: "a" }),
        assistant(at("10:00:02"), "msg_x", 4, 9, { type: "text", text: "b" }),
      ].join("\n") + "\n";
    const r = parse(text);
    assert.deepEqual(
      r.session!.api_calls.map((a) => [a.id, a.record, a.usage.output_tokens]),
      [["msg_x", 3, 9]],
    );
    assert.equal(codes(r.sink.rows, "entire-compact-repeated-message-id").length, 1);
  });
});

describe("bad input", () => {
  test("truncated and NUL-bearing lines go through jsonl.ts; an unknown v is read with a warning; unknown and missing types are counted", () => {
    const text = [
      /* 1 */ user(at("10:00:00"), "first prompt"),
      /* 2 */ line(
        "assistant",
        at("10:00:01"),
        [toolUse("t1", "Write", { file_path: "/p/a.txt", content: "a\n" }, ok())],
        { id: "m1", output_tokens: 3, v: 2 },
      ),
      /* 3 */ "\u0000\u0000" + line("system", at("10:00:02"), "hook ran"),
      /* 4 */ JSON.stringify({ v: 1, agent: "claude-code", cli_version: "0.42.0", content: "no type" }),
      /* 5 */ line("system", at("10:00:03"), "again"),
      /* 6 */ line("user", at("10:00:04"), [{ text: "cut off" }]).slice(0, 40),
    ].join("\n");
    const { session, sink } = parse(text);
    assert.ok(session);
    // Lines 1, 2 read (v 2 too): one prompt, one successful Write.
    assert.deepEqual([session.turns.length, session.tool_calls.length, session.tool_calls[0].success], [1, 1, true]);
    assert.deepEqual(
      codes(sink.rows, "entire-compact-unknown-version").map((d) => [d.severity, d.record]),
      [["warning", 2]],
    );
    assert.equal(codes(sink.rows, "jsonl-nul-bytes")[0]?.record, 3);
    assert.equal(codes(sink.rows, "jsonl-truncated")[0]?.record, 6);
    const unknownType = codes(sink.rows, "entire-compact-unknown-line-type");
    assert.equal(unknownType.length, 1);
    assert.match(unknownType[0].message, /^2 line\(s\) of unknown type "system"/); // lines 3 and 5
    assert.equal(codes(sink.rows, "entire-compact-line-without-type")[0]?.record, 4);
    assert.equal(session.record_count, 6);
  });

  test("nothing readable, or no compact lines: null with an error", () => {
    assert.equal(parse("").session, null);
    const notCompact = parse(JSON.stringify({ v: 1, type: "summary" }) + "\n");
    assert.equal(notCompact.session, null);
    assert.equal(codes(notCompact.sink.rows, "entire-compact-not-compact").length, 1);
  });

  test("an agent whose compactor writes no tokens (kiro) says so; unknown status and a missing path are counted", () => {
    const text =
      [
        line("user", "2026-01-01T00:00:00Z", [{ text: "Create a hello.go file" }], { agent: "kiro" }),
        line(
          "assistant",
          "2026-01-01T00:00:01Z",
          [
            toolUse(
              "tu-1",
              "Write",
              { content: "package main", path: "/repo/hello.go" },
              { output: "ok", status: "done" },
            ),
            toolUse("tu-2", "Edit", { old_string: "a", new_string: "b" }, ok()),
          ],
          { id: "msg-1", agent: "kiro" },
        ),
      ].join("\n") + "\n";
    const { session, sink } = parse(text);
    assert.deepEqual([session!.agent, session!.source], ["Kiro", "entire-compact"]);
    assert.deepEqual(
      session!.tool_calls.map((c) => [c.success, c.file_edits.map((e) => e.path)]),
      [
        [null, ["/repo/hello.go"]],
        [true, []],
      ],
    );
    assert.equal(codes(sink.rows, "entire-compact-unknown-result-status").length, 1);
    assert.equal(codes(sink.rows, "entire-compact-edit-without-path").length, 1);
    assert.equal(codes(sink.rows, "entire-compact-no-token-counts").length, 1);
  });
});

describe("Codex compacted lines", () => {
  test("apply_patch with its patch text → patch edits; without it → counted; injected context is not a prompt but names the cwd", () => {
    const patch =
      "*** Begin Patch\n*** Update File: /w/app.py\n@@\n import os\n+import json\n*** Add File: /w/notes.md\n+one\n+two\n*** End Patch\n";
    const text =
      [
        /* 1 */ line(
          "user",
          at("09:00:00"),
          [{ text: "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>" }],
          { agent: "codex" },
        ),
        /* 2 */ line("user", at("09:00:01"), [{ text: "add json" }], { agent: "codex" }),
        /* 3 */ line(
          "assistant",
          at("09:00:05"),
          [toolUse("call_1", "apply_patch", patch, { output: "Success.", status: "success" })],
          { agent: "codex", id: "r1", input_tokens: 1000, output_tokens: 200 },
        ),
        /* 4 */ line("assistant", at("09:00:06"), [toolUse("call_2", "apply_patch", {}, ok())], {
          agent: "codex",
          id: "r2",
          input_tokens: 10,
          output_tokens: 2,
        }),
      ].join("\n") + "\n";
    const { session, sink } = parse(text);
    const s = session!;
    assert.deepEqual(
      [s.agent, s.source, s.cwds, s.turns.map((t) => t.record)],
      ["Codex", "entire-compact", ["/w"], [2]],
    );
    assert.deepEqual(
      s.tool_calls[0].file_edits.map((e) => [e.path, e.kind, e.patch, e.post_image]),
      [
        ["/w/app.py", "patch", "@@\n import os\n+import json", null],
        ["/w/notes.md", "write", null, "one\ntwo\n"],
      ],
    );
    assert.deepEqual(s.tool_calls[1].file_edits, []);
    assert.equal(codes(sink.rows, "entire-compact-patch-without-text").length, 1);
    assert.equal(codes(sink.rows, "entire-compact-injected-context").length, 1);
  });
});

describe("detection and dispatch by content", () => {
  test("compact lines are entire-compact; a first line longer than the prefix too; other formats keep theirs", () => {
    assert.equal(detectTranscriptFormat(FIXTURE), "entire-compact");
    assert.equal(detectTranscriptFormat(new TextEncoder().encode(FIXTURE)), "entire-compact");
    const big = assistant(
      at("10:00:00"),
      "m",
      1,
      1,
      toolUse("t", "Read", { file_path: "/a" }, ok("x".repeat(300_000))),
    );
    assert.ok(big.length > 256 * 1024);
    assert.equal(detectTranscriptFormat(big + "\n"), "entire-compact");
    // A Claude Code record (sessionId, uuid) is still Claude Code; a compact-looking line without cli_version is not compact.
    assert.equal(
      detectTranscriptFormat(
        JSON.stringify({ type: "user", sessionId: "s", uuid: "u", message: { role: "user", content: "hi" } }) + "\n",
      ),
      "claude-code",
    );
    assert.equal(detectTranscriptFormat(JSON.stringify({ v: 1, role: "user", text: "add a file" }) + "\n"), "unknown");
  });

  test("readTranscriptByContent reads it; the agent comes from the lines", () => {
    const bytes = new TextEncoder().encode(FIXTURE);
    const sink = new DiagnosticSink("entire");
    const out = readTranscriptByContent(bytes, "ab/cdef012345/0/transcript.jsonl", "Claude Code", sink);
    assert.ok(out.ok);
    assert.equal(out.session.agent, "Claude Code");
    assert.equal(codes(sink.rows, "agent-label-mismatch").length, 0);
    const mislabelled = new DiagnosticSink("entire");
    readTranscriptByContent(bytes, "x/transcript.jsonl", "Codex", mislabelled);
    assert.match(codes(mislabelled.rows, "agent-label-mismatch")[0]?.message ?? "", /is Claude Code/);
  });
});

/** A checkpoint folder on the checkpoints branch holding one session with only `transcript.jsonl`. */
function compactCheckpoint(id: string, sessionId: string, transcript: string, start: number): Record<string, string> {
  const f = `${id.slice(0, 2)}/${id.slice(2)}`;
  return {
    [`${f}/metadata.json`]: JSON.stringify({
      checkpoint_id: id,
      strategy: "manual-commit",
      sessions: [{ metadata: `/${f}/0/metadata.json`, transcript: `/${f}/0/transcript.jsonl` }],
    }),
    [`${f}/0/metadata.json`]: JSON.stringify({
      checkpoint_id: id,
      session_id: sessionId,
      agent: "Claude Code",
      model: "claude-sonnet-4-5",
      created_at: "2026-03-02T12:00:00Z",
      compact_transcript_start: start,
    }),
    [`${f}/0/transcript.jsonl`]: transcript,
  };
}

describe("END TO END: analyze on a real git repository whose checkpoint stores only transcript.jsonl", () => {
  const SESSION = "22222222-3333-4444-5555-666666666666";
  // Lines 1–4: prompt, Write greet.py (V1, 4 lines), a failed Edit, Edit (1 line → 2: V2) on the slice's last line.
  const part1 = FIXTURE.split("\n").slice(0, 4);
  // Lines 5–7: a prompt, the MultiEdit (V2 → V3), a closing text (output 3, no input).
  const part2 = [
    user(at("11:01:00"), { id: "prompt-2", text: "type it and guard main" }),
    assistant(at("11:01:10"), "msg_5", 30, 40, toolUse("toolu_5", "MultiEdit", { file_path: GREET, edits: M1 }, ok())),
    line("assistant", at("11:01:20"), [{ type: "text", text: "Done." }], { id: "msg_6", output_tokens: 3 }),
  ];

  /*
   * One checkpoint, one commit (V2 committed unchanged; the base has no greet.py):
   * produced = Write 4 + Edit 2 (Myers: "return …" deleted, "message = …" and "return message" inserted) = 6;
   * final agent lines = 5 (V2's five lines, all agent); the commit adds 5 lines (new file), all agent-owned:
   * survived 5, human 0, outside 0, total 5. The failed Edit is not replayed (unreplayable 0), nothing outside.
   */
  test("one checkpoint: Write 4 lines, Edit 1 → 2, committed unchanged → produced 6, final 5, survived 5 of 5", async () => {
    const repo = new TestRepo("sce-compact-");
    repo.commit("initial", { "README.md": "readme\n" });
    const sha = repo.commit("Add greet\n\nEntire-Checkpoint: c0ffee000001", { "src/greet.py": V2 });
    repo.checkpointsBranch(compactCheckpoint("c0ffee000001", SESSION, part1.join("\n") + "\n", 0));

    const { rows, readAnything } = await analyze({ inputs: [repo.dir], threads: 1 });
    assert.equal(readAnything, true);
    assert.equal(codes(rows.diagnostics, "transcript-unreadable").length, 0);
    assert.equal(rows.units.length, 1);
    const u = rows.units[0];
    assert.deepEqual([u.commit_sha, u.agent, u.method, u.ambiguity], [sha, "Claude Code", "git-replay", null]);
    assert.deepEqual(
      [
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.outside_lines,
        u.total_committed_lines,
        u.numstat_additions,
        u.unreplayable_calls,
        u.outside_changes,
      ],
      [6, 5, 5, 0, 0, 5, 5, 0, 0],
    );
    assert.equal(u.coding_mode, "vibe");
    // Session row: 1 prompt, 3 calls (all edits), 1 failed; 3 API calls, input 100+5+10 = 115, output 50+7+20 = 77, no cache.
    const s = rows.sessions[0];
    assert.deepEqual(
      [
        s.session_id,
        s.source,
        s.agent,
        s.prompts,
        s.tool_calls,
        s.edit_calls,
        s.failed_edit_calls,
        s.api_calls,
        s.input_tokens,
        s.output_tokens,
        s.cache_creation_tokens,
        s.cache_read_tokens,
      ],
      [SESSION, "entire-compact", "Claude Code", 1, 3, 3, 1, 3, 115, 77, 0, 0],
    );
    // No model in the format: the cost is unknown (null, with a reason), never a silent 0.
    assert.equal(s.cost_usd, null);
    assert.equal(codes(rows.diagnostics, "price-unknown-model").length, 1);
    assert.equal(codes(rows.diagnostics, "entire-transcript-compact-only").length, 1);
    assert.equal(codes(rows.diagnostics, "entire-compact-no-cache-tokens").length, 1);
    assert.deepEqual(
      rows.tool_calls.map((c) => c.file),
      ["src/greet.py", "src/greet.py", "src/greet.py"],
    );
  });

  /*
   * Two checkpoints of the same session (so both units are `multi-checkpoint-session`, but computed).
   * Commit 2 adds V3 plus a person's "# end"; checkpoint 2's transcript.jsonl holds lines 1–7 with
   * compact_transcript_start 4, so only line 6 (the MultiEdit) is in its slice. Base = commit 1 (V2).
   * MultiEdit V2 → V3 (Myers): "def greet(name):" → typed signature (−1 +1), `print(…)` → the guard and the
   * indented print (−1 +2): produced 3, final 3. Commit 2 adds those 3 lines and "# end": total 4,
   * survived 3, human 1. The Edit on line 4 (the last line before the start) is not in the slice: replayed on
   * V2 its old text would be absent (an unreplayable call), so 0 unreplayable calls also pins the boundary.
   */
  test("two checkpoints: compact_transcript_start slices the compact lines unchanged", async () => {
    const repo = new TestRepo("sce-compact2-");
    repo.commit("initial", { "README.md": "readme\n" });
    const sha1 = repo.commit("Add greet\n\nEntire-Checkpoint: c0ffee000001", { "src/greet.py": V2 });
    const sha2 = repo.commit("Type greet\n\nEntire-Checkpoint: c0ffee000002", { "src/greet.py": V3 + "# end\n" });
    repo.checkpointsBranch({
      ...compactCheckpoint("c0ffee000001", SESSION, part1.join("\n") + "\n", 0),
      ...compactCheckpoint("c0ffee000002", SESSION, [...part1, ...part2].join("\n") + "\n", 4),
    });
    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    const pick = (sha: string) => {
      const u = rows.units.find((x) => x.commit_sha === sha)!;
      return [
        u.ambiguity,
        u.agent_lines_produced,
        u.agent_lines_final,
        u.agent_lines_survived,
        u.human_lines,
        u.outside_lines,
        u.total_committed_lines,
        u.unreplayable_calls,
      ];
    };
    assert.deepEqual(pick(sha1), ["multi-checkpoint-session", 6, 5, 5, 0, 0, 5, 0]);
    assert.deepEqual(pick(sha2), ["multi-checkpoint-session", 3, 3, 3, 1, 0, 4, 0]);
    // The session row comes from the longer copy (7 lines): 2 prompts, 4 calls, 5 API calls, output 77 + 40 + 3 = 120.
    const s = rows.sessions[0];
    assert.deepEqual([s.prompts, s.tool_calls, s.api_calls, s.output_tokens], [2, 4, 5, 120]);
  });
});

/*
 * A folder input holding a compact transcript (e.g. copied out of a checkpoint): findTranscripts in
 * src/analyze/analyze-transcripts.ts lists transcripts per detected format; the compact one must be
 * read, not make the whole folder unreadable.
 */
test("a folder holding a compact transcript is read as one session", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-compact-dir-"));
  writeFileSync(join(dir, "transcript.jsonl"), FIXTURE);
  const { rows } = await analyze({ inputs: [dir], threads: 1 });
  assert.equal(codes(rows.diagnostics, "transcript-path-unreadable").length, 0);
  // The fixture: 2 prompts, 6 tool calls, 5 API calls.
  assert.deepEqual(
    rows.sessions.map((s) => [s.agent, s.prompts, s.tool_calls, s.api_calls]),
    [["Claude Code", 2, 6, 5]],
  );
});
