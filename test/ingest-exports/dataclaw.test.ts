import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { patchMatch } from "../../src/attribution/patch-match";
import { detectExportFormat } from "../../src/ingest/detect-export";
import { fileEditsOf, parseDataClawFile } from "../../src/ingest/dataclaw";
import { DiagnosticSink, sessionSchema } from "../../src/model";
import { CLAUDE_SESSION, CODEX_SESSION, EARLY_SESSION } from "./dataclaw-sample";

const line = (v: unknown) => JSON.stringify(v);
/** Line 1 blank, 2–4 sessions, 5 `{}`, 6 a session with no messages, 7 cut off in the middle (no final newline). */
const SAMPLE = [
  "",
  line(CLAUDE_SESSION),
  line(CODEX_SESSION),
  line(EARLY_SESSION),
  "{}",
  line({ session_id: "empty", messages: [] }),
  line(CLAUDE_SESSION).slice(0, 40),
].join("\n");

describe("DataClaw conversations.jsonl (sample built from the exporter's code)", () => {
  const sink = new DiagnosticSink("dataclaw", "conversations.jsonl");
  const sessions = parseDataClawFile({ text: SAMPLE, file: "conversations.jsonl" }, sink);
  const codes = sink.rows.map((r) => r.code);

  test("detected by content: a line is a session object with session_id and messages", () => {
    assert.equal(detectExportFormat(SAMPLE), "dataclaw");
    assert.equal(detectExportFormat(line(CLAUDE_SESSION)), "dataclaw");
  });

  test("3 sessions read; the blank, `{}`, message-less and truncated lines become diagnostics", () => {
    assert.deepEqual(
      sessions.map((s) => [s.session.session_id, s.line]),
      [
        ["c1", 2],
        ["x2", 3],
        ["e3", 4],
      ],
    );
    for (const s of sessions) assert.ok(sessionSchema.safeParse(s.session).success);
    assert.ok(codes.includes("jsonl-blank-lines"));
    assert.equal(sink.rows.find((r) => r.code === "dataclaw-not-a-session")?.record, 5);
    assert.equal(sink.rows.find((r) => r.code === "dataclaw-empty-session")?.record, 6);
    assert.equal(sink.rows.find((r) => r.code === "jsonl-truncated")?.record, 7);
  });

  test("Claude session: 2 prompts (the interruption marker is not one), 4 calls with the exported status", () => {
    const s = sessions[0].session;
    assert.equal(s.agent, "Claude Code");
    assert.equal(s.source, "dataclaw");
    assert.deepEqual(
      s.turns.map((t) => t.text),
      ["Write app.py", "Split b"],
    );
    assert.deepEqual(
      s.tool_calls.map((c) => [c.name, c.success]),
      [
        ["Read", false],
        ["Write", true],
        ["Edit", true],
        ["Edit", false],
      ],
    );
    // The failed Edit changed nothing: no file edit kept.
    assert.deepEqual(
      s.tool_calls.map((c) => c.file_edits.length),
      [0, 1, 1, 0],
    );
    assert.equal(s.tool_calls[3].error, "String to replace not found");
    assert.equal(s.branch, "main");
    // 5 message timestamps + start + end = 7 times; 10:00 to 10:05.
    assert.equal(s.record_times.length, 7);
    assert.equal((s.record_times[6] - s.record_times[0]) / 1000, 300);
  });

  test("session totals as one aggregate usage record (Claude input includes cache reads: kept as exported)", () => {
    const s = sessions[0].session;
    assert.deepEqual(
      s.api_calls.map((c) => [c.model, c.usage.input_tokens, c.usage.output_tokens]),
      [["claude-opus-4-6", 50000, 3000]],
    );
  });

  test("Codex session: DataClaw marks every Codex output 'success', so outcomes are unknown; apply_patch Add File → a write", () => {
    const s = sessions[1].session;
    assert.equal(s.agent, "Codex");
    assert.deepEqual(
      s.tool_calls.map((c) => c.success),
      [null, null],
    );
    const e = s.tool_calls[1].file_edits[0];
    // Add File may overwrite an existing file, so no pre-image (the Codex adapter's reading).
    assert.deepEqual(
      [e.path, e.kind, e.pre_image, e.post_image],
      ["lib/x.go", "write", null, "package x\n\nfunc X() {}\n"],
    );
    assert.ok(codes.includes("dataclaw-codex-status"));
  });

  test("early export: summary-string inputs give no file edits, said in a diagnostic; source missing → Claude Code", () => {
    const s = sessions[2].session;
    assert.equal(s.agent, "Claude Code");
    assert.deepEqual(
      s.tool_calls.map((c) => [c.name, c.success, c.file_edits.length]),
      [
        ["Edit", null, 0],
        ["Bash", null, 0],
      ],
    );
    assert.ok(codes.includes("dataclaw-summarized-input"));
  });

  test("the file says the outcomes are unknown and the method can only be patch-match: 4 of 8 calls without a result", () => {
    // c1: 4 calls, each with a status; x2: 2 calls whose Codex status is not trusted; e3: 2 calls without status → 2 + 2 = 4 of 8.
    const row = sink.rows.find((r) => r.code === "dataclaw-no-tool-results");
    assert.ok(row);
    assert.match(row.message, /^4 of 8 tool calls/);
    assert.match(row.message, /patch-match/);
  });

  test("patch-match on the Claude session: Write a,b,c then Edit b → B,B2; the commit adds a,B,B2,c,d", () => {
    // produced: Write 3 + Edit 2 (b deleted, B and B2 inserted) = 5; final: a, B, B2, c = 4;
    // committed 5 `+` lines: 4 match agent lines, `d` is human. survival 4/4, efficiency 4/5.
    const diff =
      "diff --git a/src/app.py b/src/app.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/app.py\n@@ -0,0 +1,5 @@\n+a\n+B\n+B2\n+c\n+d\n";
    const u = patchMatch(
      sessions[0].session,
      [{ path: "src/app.py", patch: diff.slice(diff.indexOf("@@")) }],
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
      [5, 4, 4, 1, 5],
    );
  });
});

describe("tool inputs → file edits, across the agents DataClaw exports", () => {
  test("Gemini replace, OpenCode edit (camelCase), MultiEdit, Cursor edit_file sketch", () => {
    const r = fileEditsOf("replace", { file_path: "a.ts", old_string: "x", new_string: "y" });
    assert.equal(r.kind === "edits" && r.edits[0].edits![0].new_string, "y");
    const o = fileEditsOf("edit", { filePath: "b.ts", oldString: "p", newString: "q", replaceAll: true });
    assert.deepEqual(o.kind === "edits" && o.edits[0].edits, [{ old_string: "p", new_string: "q", replace_all: true }]);
    const m = fileEditsOf("MultiEdit", {
      file_path: "c.ts",
      edits: [
        { old_string: "1", new_string: "2" },
        { old_string: "3", new_string: "4" },
      ],
    });
    assert.equal(m.kind === "edits" && m.edits[0].edits!.length, 2);
    assert.equal(
      fileEditsOf("edit_file", { target_file: "d.ts", code_edit: "// ... existing code ..." }).kind,
      "unusable",
    );
    assert.equal(fileEditsOf("Read", { file_path: "a.ts" }).kind, "none");
  });

  test("apply_patch: Update hunks as a unified diff, Delete, and a patch inside a shell call", () => {
    const r = fileEditsOf("apply_patch", {
      patch:
        "*** Begin Patch\n*** Update File: a.go\n@@ func A\n ctx\n-old\n+new\n*** Delete File: b.go\n*** End Patch",
    });
    assert.ok(r.kind === "edits");
    assert.deepEqual(
      r.edits.map((e) => [e.path, e.kind]),
      [
        ["a.go", "patch"],
        ["b.go", "delete"],
      ],
    );
    assert.equal(r.edits[0].patch, "@@\n ctx\n-old\n+new");
    const shell = fileEditsOf("shell", {
      command: ["apply_patch", "*** Begin Patch\n*** Add File: n.txt\n+hi\n*** End Patch"],
    });
    assert.equal(shell.kind === "edits" && shell.edits[0].post_image, "hi\n");
  });
});
