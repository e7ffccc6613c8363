import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { attributeUnit, readTranscriptByContent, toSessionRow, toToolCallRows } from "../../src/analyze";
import { findPrice, sumUsage } from "../../src/effort";
import {
  defaultPiSessionRoots,
  emptyPiEditNotes,
  findPiSessions,
  normalisePiUsage,
  parsePiSession,
  piFileEdits,
  readPiSession,
} from "../../src/ingest/pi";
import { DiagnosticSink, type Session } from "../../src/model";
import { promptsFromTranscript } from "../../src/taskflow";
import { G1, G2, G3, G4, GREET_COST_USD, GREET_SESSION_ID, GREET_USAGE, greetSession } from "./pi-greet-session";
import { PiLog, toolCall } from "./pi-log";

const CWD = "/home/u/proj";

function parse(text: string, file = "pi.jsonl"): { session: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("pi", file);
  const session = parsePiSession({ text, file }, sink);
  assert.ok(session, `not parsed: ${sink.rows.map((r) => r.code).join(", ")}`);
  return { session, sink };
}
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code).sort();
const row = (sink: DiagnosticSink, code: string) => {
  const r = sink.rows.find((d) => d.code === code);
  assert.ok(r, `no ${code} in ${codes(sink).join(", ")}`);
  return r;
};

describe("the hand-worked Pi session (pi-greet-session.ts: write, two edits, a failed edit, an abandoned branch)", () => {
  const { session, sink } = parse(greetSession(CWD));

  test("header, prompts on every branch, record times", () => {
    assert.equal(session.session_id, GREET_SESSION_ID);
    assert.deepEqual([session.source, session.agent, session.agent_version, session.branch], ["pi", "Pi", null, null]);
    assert.deepEqual(session.cwds, [CWD]);
    assert.equal(session.record_count, 26);
    // Prompts: lines 4, 13 (on the abandoned branch: the person typed it) and 18; the branch summary (17) is not one.
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [
        [4, "create greet.py with a greet function and call it"],
        [13, "also add a farewell function"],
        [18, "rename greet to hello instead"],
      ],
    );
    assert.equal(session.turns[2].timestamp, "2026-03-02T11:10:10.000Z");
    // Every line carries a time: 26 records, from 11:00:00 to 11:11:22 (682 s).
    assert.equal(session.record_times.length, 26);
    assert.equal(session.record_times[25] - session.record_times[0], 682_000);
  });

  test("tool calls: outcome from toolResult.isError, result lines, file edits by tool", () => {
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.name, c.success, c.record, c.result_record]),
      [
        ["tc1", "write", true, 6, 7],
        ["tc2", "edit", true, 8, 9],
        ["tc3", "edit", false, 10, 11],
        ["tc5", "edit", true, 14, 15],
        ["tc7", "edit", true, 19, 20],
        ["tc8", "bash", true, 21, 22],
      ],
    );
    const edits = (id: string) => session.tool_calls.find((c) => c.id === id)!.file_edits;
    assert.deepEqual(
      edits("tc1").map((e) => [e.path, e.kind, e.pre_image, e.post_image]),
      [["greet.py", "write", null, G1]],
    );
    // The old single-edit form becomes one string edit; details.diff (display text) is not used.
    assert.deepEqual(
      edits("tc2").map((e) => [e.kind, e.edits, e.patch]),
      [
        [
          "edit",
          [{ old_string: '    return "hi " + name\n', new_string: '    return f"hello {name}"\n', replace_all: false }],
          null,
        ],
      ],
    );
    assert.deepEqual(edits("tc3"), []);
    assert.match(session.tool_calls[2].error!, /^Could not find the exact text in greet\.py/);
    assert.equal(edits("tc5")[0].path, `${CWD}/greet.py`);
    // edits[] with two entries, and Pi's "@" path prefix dropped.
    assert.deepEqual(
      edits("tc7").map((e) => [e.path, e.kind, e.edits?.length]),
      [["greet.py", "multi-edit", 2]],
    );
    assert.deepEqual(edits("tc8"), []);
  });

  test("API calls: one per assistant message with tokens (the all-zero error message is none), tokens and cost by hand", () => {
    assert.equal(session.api_calls.length, 9);
    assert.deepEqual(
      session.api_calls.map((c) => [
        c.record,
        c.usage.input_tokens,
        c.usage.output_tokens,
        c.usage.cache_read_tokens,
        c.usage.cache_creation_tokens,
      ]),
      [6, 8, 10, 12, 14, 16, 19, 21, 23].map((line, k) => [
        line,
        GREET_USAGE[k][0],
        GREET_USAGE[k][1],
        GREET_USAGE[k][2],
        GREET_USAGE[k][3],
      ]),
    );
    assert.ok(session.api_calls.every((c) => c.model === "claude-sonnet-4-6" && c.sidechain === false));
    const u = sumUsage(session.api_calls);
    // Σ input 1200+50+40+30+60+20+70+25+15 = 1,510; output 300+120+90+20+150+10+160+40+30 = 920;
    // cache read 0+2000+2400+2600+2700+3000+2700+3200+3250 = 21,850; cache write 2000+400+200+100+300+0+500+50+0 = 3,550.
    assert.deepEqual(
      [u.api_calls, u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cache_creation_tokens],
      [9, 1510, 920, 21850, 3550],
    );

    const rowSink = new DiagnosticSink("t");
    const s = toSessionRow(session, { repo: null, idleLimitS: 300 }, rowSink);
    assert.deepEqual(
      [s.source, s.agent, s.model, s.models, s.prompts, s.length_bin],
      ["pi", "Pi", "claude-sonnet-4-6", "claude-sonnet-4-6", 3, "3"],
    );
    // 6 calls; write + 4 edits are edit calls, 1 of them failed.
    assert.deepEqual([s.tool_calls, s.edit_calls, s.failed_edit_calls, s.api_calls], [6, 5, 1, 9]);
    // Σ per call (pi-greet-session.ts) = 38,197.5 µ$ = 1510·3 + 920·15 + 3550·3.75 + 21850·0.30 (claude-sonnet-4-6, per million).
    assert.ok(Math.abs(s.cost_usd! - GREET_COST_USD) < 1e-12, String(s.cost_usd));
    // duration 11:00:00 → 11:11:22 = 682 s; active: the one gap over 300 s (240 → 600 s, the person away) counts 300: 682 − 60 = 622.
    assert.deepEqual(
      [s.started_at, s.ended_at, s.duration_s, s.active_s],
      ["2026-03-02T11:00:00.000Z", "2026-03-02T11:11:22.000Z", 682, 622],
    );
    assert.equal(rowSink.rows.length, 0, "the model is priced");
  });

  test("tool_calls rows: SWE-chat categories and each call's own line counts", () => {
    const rows = toToolCallRows(session, (p) => p.replace(`${CWD}/`, ""));
    // write: 4 lines added; tc2: line 2 rewritten (+1 −1); tc3 failed: unknown; tc5: 3 lines inserted before the print;
    // tc7: two one-line replacements (+2 −2); bash "python3 …" is bash:build (first word python*).
    assert.deepEqual(
      rows.map((r) => [r.tool, r.category, r.file, r.success, r.lines_added, r.lines_removed]),
      [
        ["write", "write", "greet.py", true, 4, 0],
        ["edit", "edit", "greet.py", true, 1, 1],
        ["edit", "edit", "greet.py", false, null, null],
        ["edit", "edit", "greet.py", true, 3, 0],
        ["edit", "edit", "greet.py", true, 2, 2],
        ["bash", "bash:build", null, true, null, null],
      ],
    );
  });

  test("diagnostics: the error message, the branch summary, the unknown entry, the branch report", () => {
    assert.deepEqual(codes(sink), [
      "pi-assistant-stopped",
      "pi-branch-summary",
      "pi-branched",
      "pi-unknown-entry-type",
      "pi-zero-usage",
    ]);
    assert.equal(row(sink, "pi-unknown-entry-type").record, 26);
    assert.match(row(sink, "pi-unknown-entry-type").message, /future_entry ×1/);
    // Off the active branch (leaf = line 26; line 17 hangs under line 12): lines 13–16 = 4 of the 25 entries,
    // holding prompt 2, call tc5 and API calls 5 and 6. Counted all the same.
    assert.match(
      row(sink, "pi-branched").message,
      /4 of 25 entries lie off the active branch.* 1 prompt\(s\), 1 tool call\(s\) and 2 API call\(s\)/,
    );
  });

  /*
   * Replay in file order, abandoned branch included: base has no greet.py; write G1 (+4), tc2 rewrites line 2
   * (+1), tc3 failed (skipped), tc5 inserts 3 lines (+3, G3, still on disk after the person went back), tc7
   * rewrites lines 1 and 7 of G3 (+2) → G4. produced 4+1+3+2 = 10; every line of G4 is the agent's: final 7.
   * The person commits "# greeting helpers" + G4: 8 added lines, 7 agent + 1 human.
   */
  test("replay on a unit: every successful edit in file order, the abandoned branch's too", async () => {
    const committed = `# greeting helpers\n${G4}`;
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "greet.py", binary: false }],
        readBase: async () => null,
        readCommit: async (p) => (p === "greet.py" ? committed : null),
        exists: (p) => p === "greet.py",
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [
        a.agent_lines_produced,
        a.agent_lines_final,
        a.agent_lines_survived,
        a.human_lines,
        a.outside_lines,
        a.total_committed_lines,
        a.unreplayable_calls,
        a.outside_changes,
      ],
      [10, 7, 7, 1, 0, 8, 0, 0],
    );
    // Were the abandoned branch left out, G3's farewell lines would be human, not agent: the file order matters.
    assert.equal([G1, G2, G3, G4].map((g) => g.split("\n").length - 1).join(","), "4,4,7,7");
  });
});

describe("Pi's edit tool forms", () => {
  test("details.patch (newer Pi) is the tool's own record, preferred: it replays an edit Pi matched fuzzily", async () => {
    // a.txt line 2 ends in two spaces; oldText has none: Pi's exact match fails, its fuzzy match (trailing
    // whitespace stripped) succeeds, and the patch it logs holds the change on the real text.
    const base = "alpha\nx = 1  \nomega\n";
    const after = "alpha\nx = 2\nomega\n";
    const patch = "--- a.txt\n+++ a.txt\n@@ -1,3 +1,3 @@\n alpha\n-x = 1  \n+x = 2\n omega\n";
    const session = (details: unknown) => {
      const log = new PiLog({ id: "s-patch", cwd: CWD, start: "2026-03-02T11:00:00.000Z" });
      log.at(1).user("set x to 2");
      log
        .at(2)
        .assistant(
          [toolCall("e1", "edit", { path: "a.txt", edits: [{ oldText: "x = 1\nomega", newText: "x = 2\nomega" }] })],
          { input: 10, output: 5 },
        );
      log.at(3).result("e1", "edit", "Successfully replaced 1 block(s) in a.txt.", false, details);
      return parse(log.text());
    };
    const unit = (s: Session) =>
      attributeUnit(
        s,
        0,
        {
          changed: [{ path: "a.txt", binary: false }],
          readBase: async () => base,
          readCommit: async () => after,
          exists: (p) => p === "a.txt",
        },
        new DiagnosticSink("t"),
      );

    const withPatch = session({ diff: "…", patch, firstChangedLine: 2 });
    assert.deepEqual(
      withPatch.session.tool_calls[0].file_edits.map((e) => [e.kind, e.patch, e.edits]),
      [["patch", "@@ -1,3 +1,3 @@\n alpha\n-x = 1  \n+x = 2\n omega\n", null]],
    );
    assert.ok(codes(withPatch.sink).includes("pi-edit-from-patch"));
    // Line 2 rewritten: produced 1, and "x = 2" survives: 1 of 1 committed line.
    const a = await unit(withPatch.session);
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_survived, a.human_lines, a.total_committed_lines, a.unreplayable_calls],
      [1, 1, 0, 1, 0],
    );

    // Without the patch (Pi before it logged one) the exact re-application fails: unreplayable, said so,
    // and the committed line is the person's (the replayed state never changed).
    const old = session({ diff: "…" });
    const replaySink = new DiagnosticSink("t");
    const b = await attributeUnit(
      old.session,
      0,
      {
        changed: [{ path: "a.txt", binary: false }],
        readBase: async () => base,
        readCommit: async () => after,
        exists: (p) => p === "a.txt",
      },
      replaySink,
    );
    assert.deepEqual(
      [b.agent_lines_produced, b.agent_lines_survived, b.human_lines, b.total_committed_lines, b.unreplayable_calls],
      [0, 0, 1, 1, 1],
    );
    assert.ok(
      replaySink.rows.some((d) => d.code === "edit-unreplayable" && /old_string not found/.test(d.message)),
      replaySink.rows.map((d) => d.code).join(", "),
    );
  });

  test("a CRLF file: Pi matches LF oldText and writes CRLF back; replay does the same", async () => {
    const log = new PiLog({ id: "s-crlf", cwd: CWD, start: "2026-03-02T11:00:00.000Z" });
    log.at(1).user("b → c");
    log.at(2).assistant([toolCall("e1", "edit", { path: "w.txt", oldText: "a\nb", newText: "a\nc" })], {
      input: 10,
      output: 5,
    });
    log.at(3).result("e1", "edit", "Successfully replaced text in w.txt.", false, { diff: "…" });
    const { session } = parse(log.text());
    // Base "a", "b" with CRLF; Pi's result and the commit "a", "c" with CRLF: line 2 rewritten, 1 of 1 committed line the agent's.
    const a = await attributeUnit(
      session,
      0,
      {
        changed: [{ path: "w.txt", binary: false }],
        readBase: async () => "a\r\nb\r\n",
        readCommit: async () => "a\r\nc\r\n",
        exists: () => true,
      },
      new DiagnosticSink("t"),
    );
    assert.deepEqual(
      [a.agent_lines_produced, a.agent_lines_survived, a.human_lines, a.total_committed_lines, a.unreplayable_calls],
      [1, 1, 0, 1, 0],
    );
  });

  test("a patch with a body line starting --- or +++ is not used (diff readers take it for a header): the edits are", () => {
    const notes = emptyPiEditNotes();
    const patch = "--- q.sql\n+++ q.sql\n@@ -1,2 +1,2 @@\n---- old note\n+-- new note\n select 1;\n";
    const r = piFileEdits("edit", { path: "q.sql", oldText: "-- old note", newText: "-- new note" }, { patch }, notes);
    assert.deepEqual(
      r.edits.map((e) => [e.kind, e.patch, e.edits]),
      [["edit", null, [{ old_string: "-- old note", new_string: "-- new note", replace_all: false }]]],
    );
    assert.deepEqual([notes.fromPatch, notes.patchHeaderLike], [0, 1]);
  });

  test("edits[] as a JSON string, the old form beside edits[] (appended last, as prepareEditArguments does), order-sensitive edits", () => {
    const notes = emptyPiEditNotes();
    const asString = piFileEdits(
      "edit",
      { path: "f", edits: JSON.stringify([{ oldText: "p", newText: "q" }]) },
      undefined,
      notes,
    );
    assert.deepEqual(asString.edits[0].edits, [{ old_string: "p", new_string: "q", replace_all: false }]);
    const both = piFileEdits(
      "edit",
      { path: "f", edits: [{ oldText: "a", newText: "b" }], oldText: "c", newText: "d" },
      undefined,
      notes,
    );
    assert.deepEqual(
      both.edits[0].edits?.map((e) => e.old_string),
      ["a", "c"],
    );
    assert.equal(notes.orderSensitive, 0);
    // The first newText holds the second oldText: replayed one after the other, "c()" could be found inside "b(); c()".
    piFileEdits(
      "edit",
      {
        path: "f",
        edits: [
          { oldText: "a()", newText: "b(); c()" },
          { oldText: "c()", newText: "d()" },
        ],
      },
      undefined,
      notes,
    );
    assert.equal(notes.orderSensitive, 1);
    // Unusable arguments: the call keeps a file edit with nothing to apply (replay counts it unreplayable) and a problem.
    const bad = piFileEdits("edit", { path: "f", edits: [{ oldText: 1 }] }, undefined, notes);
    assert.deepEqual(
      [bad.edits.map((e) => [e.path, e.edits, e.patch]), bad.problem !== null],
      [[["f", null, null]], true],
    );
    assert.deepEqual(piFileEdits("write", { content: "x" }, undefined, notes).problem, "write without path");
  });
});

describe("Pi usage by provider (usage.ts)", () => {
  test("model ids from Pi's model table (models.generated.ts) are priced: Anthropic, OpenRouter, Copilot, OpenAI, Google", () => {
    const ids = [
      "claude-sonnet-4-0",
      "claude-sonnet-4-5",
      "claude-sonnet-4-6",
      "anthropic/claude-sonnet-4.6",
      "claude-sonnet-4.5",
      "gpt-5.1-codex",
      "gemini-2.5-pro",
    ];
    assert.deepEqual(
      ids.map((m) => findPrice(m)?.model ?? null),
      [
        "claude-sonnet-4",
        "claude-sonnet-4-5",
        "claude-sonnet-4-6",
        "claude-sonnet-4-6",
        "claude-sonnet-4-5",
        "gpt-5.1-codex",
        "gemini-2.5-pro",
      ],
    );
  });

  const norm = (u: Parameters<typeof normalisePiUsage>[0]) => {
    const r = normalisePiUsage(u);
    return [
      r.usage.input_tokens,
      r.usage.output_tokens,
      r.usage.cache_read_tokens,
      r.usage.cache_creation_tokens,
      r.cacheInInput,
    ];
  };
  test("Anthropic and OpenAI input is uncached; Google's (google.ts) includes the cache reads, told by totalTokens", () => {
    // Anthropic: total = 100 + 20 + 500 + 30.
    assert.deepEqual(norm({ input: 100, output: 20, cacheRead: 500, cacheWrite: 30, totalTokens: 650 }), [
      100,
      20,
      500,
      30,
      false,
    ]);
    // OpenAI responses: input = input_tokens − cached; total_tokens = 400 + 50 + 600.
    assert.deepEqual(norm({ input: 400, output: 50, cacheRead: 600, cacheWrite: 0, totalTokens: 1050 }), [
      400,
      50,
      600,
      0,
      false,
    ]);
    // Google: input = promptTokenCount 1000 (600 of them cached), total = 1000 + 50: input 1000 − 600 = 400.
    assert.deepEqual(norm({ input: 1000, output: 50, cacheRead: 600, cacheWrite: 0, totalTokens: 1050 }), [
      400,
      50,
      600,
      0,
      true,
    ]);
    // No total, or no cache reads: taken as logged.
    assert.deepEqual(norm({ input: 1000, output: 50, cacheRead: 600 }), [1000, 50, 600, 0, false]);
    assert.deepEqual(norm({ input: 7, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 10 }), [7, 3, 0, 0, false]);
  });
});

describe("bad and odd Pi input", () => {
  test("no header, an orphan result, a call without result, a skipped call, an unknown role, a truncated last line", () => {
    const log = new PiLog({ id: "unused", cwd: CWD, start: "2026-03-02T11:00:00.000Z", header: false });
    log.at(1).result("nobody", "read", "x");
    log.at(2).user([]);
    log.at(3).user("look");
    log
      .at(4)
      .assistant(
        [toolCall("r1", "read", { path: "a.txt" }), toolCall("r2", "lookup_docs", { q: "x" })],
        { input: 5, output: 1 },
        { model: null },
      );
    log.at(5).result("r1", "read", "Skipped due to queued user message.", true);
    log.other("message", { message: { role: "oracle", content: "?" } });
    log.at(6).assistant([toolCall("w1", "write", { path: "b.txt", content: "b\n" })], { input: 5, output: 1 });
    log.raw('{"type":"message","id":"ffff0001","parentId":"0000000');
    const file = "/s/--home-u-proj--/2026-03-02T11-00-00-000Z_0badc0de-0000-4000-8000-000000000000.jsonl";
    const { session, sink } = parse(log.text(), file);
    assert.equal(session.session_id, "0badc0de-0000-4000-8000-000000000000");
    assert.deepEqual(session.cwds, []);
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.success, c.result_record]),
      [
        ["r1", false, 5],
        ["r2", null, null],
        ["w1", null, null],
      ],
    );
    // The first assistant message names no model and no model_change precedes it: null (priced as unknown).
    assert.deepEqual(
      session.api_calls.map((c) => c.model),
      [null, "claude-sonnet-4-6"],
    );
    assert.deepEqual(codes(sink), [
      "jsonl-truncated",
      "pi-empty-prompt",
      "pi-no-header",
      "pi-orphan-result",
      "pi-tool-no-result",
      "pi-tool-skipped",
      "pi-unknown-role",
      "pi-unknown-tool",
    ]);
    assert.match(row(sink, "pi-tool-no-result").message, /^2 tool call/);
    assert.match(row(sink, "pi-unknown-tool").message, /lookup_docs/);
    assert.equal(session.turns.length, 1);
  });

  test("an old (v1) file without ids, a forked session, a model from model_change, a context message", () => {
    const lines = [
      {
        type: "session",
        id: "v1-session",
        timestamp: "2025-06-01T10:00:00.000Z",
        cwd: CWD,
        parentSession: "/s/--x--/old.jsonl",
      },
      { type: "model_change", timestamp: "2025-06-01T10:00:00.000Z", provider: "openai", modelId: "gpt-5" },
      { type: "message", timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: "hi there" } },
      { type: "message", timestamp: "2025-06-01T10:00:02.000Z", message: { role: "hookMessage", content: "injected" } },
      {
        type: "message",
        timestamp: "2025-06-01T10:00:03.000Z",
        message: {
          role: "assistant",
          content: [{ type: "text", text: "hello" }],
          usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 },
        },
      },
    ];
    const { session, sink } = parse(lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    assert.deepEqual(
      session.turns.map((t) => t.text),
      ["hi there"],
    );
    assert.deepEqual(
      session.api_calls.map((c) => [c.id, c.model]),
      [["line:5", "gpt-5"]],
    );
    assert.deepEqual(codes(sink), [
      "pi-context-message",
      "pi-forked-session",
      "pi-model-from-change",
      "pi-old-version",
    ]);
  });

  test("not a Pi session: nothing read, an error row", () => {
    const sink = new DiagnosticSink("pi", "x.json");
    assert.equal(parsePiSession({ text: JSON.stringify({ a: 1 }, null, 2), file: "x.json" }, sink), null);
    assert.ok(codes(sink).includes("pi-no-records"));
  });
});

describe("finding and reading Pi sessions", () => {
  test("a sessions folder is found by content; the agent dir comes from PI_CODING_AGENT_DIR", () => {
    const agent = mkdtempSync(join(tmpdir(), "sce-pi-"));
    const put = (rel: string, text: string) => {
      mkdirSync(dirname(join(agent, rel)), { recursive: true });
      writeFileSync(join(agent, rel), text);
    };
    const rel = `sessions/--home-u-proj--/2026-03-02T11-00-00-000Z_${GREET_SESSION_ID}.jsonl`;
    put(rel, greetSession(CWD));
    put(
      "sessions/--home-u-proj--/notes.jsonl",
      JSON.stringify({ type: "session_start", id: "droid", version: 2, cwd: CWD }) + "\n",
    );
    put("settings.json", "{}");
    assert.deepEqual(defaultPiSessionRoots({ PI_CODING_AGENT_DIR: agent }), [join(agent, "sessions")]);
    assert.deepEqual(defaultPiSessionRoots({ PI_CODING_AGENT_DIR: join(agent, "nope") }), []);
    const found = findPiSessions(join(agent, "sessions"));
    assert.deepEqual(found, [join(agent, rel)]);
    const sink = new DiagnosticSink("pi", found[0]);
    assert.equal(readPiSession(found[0], sink)?.tool_calls.length, 6);
    assert.equal(readPiSession(join(agent, "missing.jsonl"), sink), null);
    assert.ok(codes(sink).includes("pi-transcript-unreadable"));
  });

  test("by content, as Entire's full.jsonl labelled Pi, and as Task Flow prompts", () => {
    const bytes = new TextEncoder().encode(greetSession(CWD));
    const sink = new DiagnosticSink("entire", "ab/cdef/0/full.jsonl");
    const outcome = readTranscriptByContent(bytes, "ab/cdef/0/full.jsonl", "Pi", sink);
    assert.ok(outcome.ok);
    assert.equal(outcome.session.agent, "Pi");
    assert.ok(!sink.rows.some((d) => d.code === "agent-label-mismatch"));
    const prompts = promptsFromTranscript(bytes, "full.jsonl", new DiagnosticSink("taskflow"));
    assert.deepEqual([prompts?.format, prompts?.session_id, prompts?.messages.length], ["pi", GREET_SESSION_ID, 3]);
  });
});
