import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, test } from "node:test";
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from "diff";
import { analyze } from "../../src/analyze";
import { emptyPiEditNotes, parsePiSession, piFileEdits, piPathOf } from "../../src/ingest/pi";
import { DiagnosticSink, type Session, type UnitRow } from "../../src/model";
import { oneSessionCheckpoint } from "../helpers/entire-folder";
import { TestRepo } from "../helpers/git-repo";
import { PiLog, text, toolCall } from "./pi-log";

/*
 * ADVERSARIAL: Pi sessions written the way Pi writes them (badlogic/pi-mono v0.58.3 session-manager.ts,
 * agent-session.ts, tools/edit.ts, edit-diff.ts, path-utils.ts, modes/print-mode.ts; newer edit.ts /
 * edit-diff.ts with `details.patch`), with the awkward parts, run through analyze() (the CLI's driver) or the
 * CLI itself in real git repositories. Each test failed before its fix in src/ingest/pi/*; the numbers are
 * worked out by hand from metrics.md §2–5.
 */

const START = "2026-03-02T11:00:00.000Z";

/** Pi's own `details.patch` (newer edit.ts `generateUnifiedPatch`): jsdiff's two-file patch of the LF, BOM-less text, 4 context lines. */
const piPatch = (path: string, before: string, after: string) =>
  createTwoFilesPatch(path, path, before, after, undefined, undefined, {
    context: 4,
    headerOptions: FILE_HEADERS_ONLY,
  });

function parse(textIn: string, file = "pi.jsonl"): { session: Session; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("pi", file);
  const session = parsePiSession({ text: textIn, file }, sink);
  assert.ok(session, `not parsed: ${sink.rows.map((r) => r.code).join(", ")}`);
  return { session, sink };
}

function sessionsFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "sce-piadv-sessions-"));
  for (const [rel, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), t);
  }
  return dir;
}

type Numbers = {
  produced: number | null;
  final: number | null;
  survived: number | null;
  human: number | null;
  outside: number | null;
  total: number | null;
  unreplayable: number | null;
};
const numbers = (u: UnitRow): Numbers => ({
  produced: u.agent_lines_produced,
  final: u.agent_lines_final,
  survived: u.agent_lines_survived,
  human: u.human_lines,
  outside: u.outside_lines,
  total: u.total_committed_lines,
  unreplayable: u.unreplayable_calls,
});

/** One Pi session (one agent message per call, each followed by its result) in a folder, analysed with --repo. */
async function oneEditSession(
  repo: TestRepo,
  calls: { tool: string; args: Record<string, unknown>; details?: unknown }[],
  cwd = repo.dir,
) {
  const id = "a0000000-0000-4000-8000-000000000001";
  const log = new PiLog({ id, cwd, start: START });
  log.at(1).user("change it");
  calls.forEach((c, k) => {
    log.at(2 + 2 * k).assistant([toolCall(`c${k}`, c.tool, c.args)], { input: 10, output: 5 });
    log
      .at(3 + 2 * k)
      .result(
        `c${k}`,
        c.tool,
        "Successfully replaced 1 block(s).",
        false,
        c.details ?? (c.tool === "edit" ? { diff: "…" } : undefined),
      );
  });
  return sessionsFolder({ [`--proj--/2026-03-02T11-00-00-000Z_${id}.jsonl`]: log.text() });
}

describe("edits Pi makes that replay got wrong", () => {
  /*
   * Moving a line with one multi-edit (Pi 0.64+ `edits[]`): edits[0] puts "b = 2" under "a = 1", edits[1] removes
   * the old "b = 2". Pi matches both on the ORIGINAL text (edit-diff.ts applyEditsToNormalizedContent) and writes
   * "a = 1\nb = 2\nx = 0\n". Applied one after the other in the logged order, edits[1] finds the "b = 2" that
   * edits[0] just wrote (the first occurrence) and removes it: the file comes back unchanged. Applied with
   * edits[1] first (its oldText is inside edits[0]'s newText), the result is Pi's.
   * By hand: base [a = 1, x = 0, b = 2] → Pi's [a = 1, b = 2, x = 0] = the commit. Myers keeps 2 lines and moves 1:
   * produced 1 (one inserted line), final 1, total committed 1 (the same diff base → commit), survived 1, human 0.
   * Before the fix: produced 0, and the committed line was the person's (human 1).
   */
  test("a multi-edit that moves a line: replayed in an order that gives Pi's all-at-once result", async () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "m.py": "a = 1\nx = 0\nb = 2\n" });
    const sessions = await oneEditSession(repo, [
      {
        tool: "edit",
        args: {
          path: "m.py",
          edits: [
            { oldText: "a = 1\n", newText: "a = 1\nb = 2\n" },
            { oldText: "b = 2\n", newText: "" },
          ],
        },
      },
    ]);
    repo.commit("move b up", { "m.py": "a = 1\nb = 2\nx = 0\n" });
    const { rows } = await analyze({ inputs: [sessions], repo: repo.dir, threads: 1 });
    assert.equal(rows.units.length, 1);
    assert.deepEqual(numbers(rows.units[0]), {
      produced: 1,
      final: 1,
      survived: 1,
      human: 0,
      outside: 0,
      total: 1,
      unreplayable: 0,
    });
    assert.ok(
      !rows.diagnostics.some((d) => d.code === "pi-multi-edit-order"),
      "a reorderable multi-edit is not reported as unreproducible",
    );
    assert.ok(rows.diagnostics.some((d) => d.code === "pi-multi-edit-reordered"));
  });

  test("only a cycle (each newText holds the other's oldText) keeps the logged order, and is reported", () => {
    const notes = emptyPiEditNotes();
    const r = piFileEdits(
      "edit",
      {
        path: "f",
        edits: [
          { oldText: "p", newText: "qq" },
          { oldText: "q", newText: "pp" },
        ],
      },
      undefined,
      notes,
    );
    assert.deepEqual(
      r.edits[0].edits?.map((e) => e.old_string),
      ["p", "q"],
    );
    assert.deepEqual([notes.orderSensitive, notes.reordered, notes.unorderable], [1, 0, 1]);
  });

  /*
   * A C# file with a UTF-8 BOM. Newer Pi strips the BOM before matching and logs `details.patch` of the BOM-less
   * text (edit.ts: stripBom, then generateUnifiedPatch(path, baseContent, newContent)); its first hunk's first
   * context line is "using X;" while the file's first line is "\uFEFFusing X;": the patch cannot be placed.
   * Pi matched "class A {}" exactly (it is in the patch's old lines), so the string edit gives Pi's result and is
   * placed whatever the BOM. By hand: line 2 "class A {}" → "class B {}": produced 1, final 1; the commit adds 1
   * line (Myers base → commit; the BOM line is equal), survived 1, human 0, unreplayable 0.
   * Before the fix: the patch was used, "hunk 1 does not apply": unreplayable 1, the line counted human.
   */
  test("a BOM file edited by newer Pi (details.patch of the BOM-less text): replayed, not unreplayable", async () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "f.cs": "\uFEFFusing X;\nclass A {}\n" });
    const patch = piPatch("f.cs", "using X;\nclass A {}\n", "using X;\nclass B {}\n");
    const sessions = await oneEditSession(repo, [
      {
        tool: "edit",
        args: { path: "f.cs", edits: [{ oldText: "class A {}", newText: "class B {}" }] },
        details: { diff: "…", patch, firstChangedLine: 2 },
      },
    ]);
    repo.commit("rename", { "f.cs": "\uFEFFusing X;\nclass B {}\n" });
    const { rows } = await analyze({ inputs: [sessions], repo: repo.dir, threads: 1 });
    assert.deepEqual(numbers(rows.units[0]), {
      produced: 1,
      final: 1,
      survived: 1,
      human: 0,
      outside: 0,
      total: 1,
      unreplayable: 0,
    });
    assert.ok(!rows.diagnostics.some((d) => d.code === "edit-unreplayable"));
  });

  test("the patch is still used where Pi matched fuzzily (an oldText not in the patch's old lines)", () => {
    const notes = emptyPiEditNotes();
    // Line 2 ends in two spaces in the file; the oldText has none: Pi's exact match fails and its fuzzy one succeeds.
    const patch = piPatch("a.txt", "alpha\nx = 1  \nomega\n", "alpha\nx = 2\nomega\n");
    const r = piFileEdits(
      "edit",
      { path: "a.txt", edits: [{ oldText: "x = 1\nomega", newText: "x = 2\nomega" }] },
      { patch },
      notes,
    );
    assert.deepEqual(
      r.edits.map((e) => e.kind),
      ["patch"],
    );
    // With the exact oldText, the edit itself is used (same result as the patch).
    const exact = piFileEdits(
      "edit",
      { path: "a.txt", edits: [{ oldText: "x = 1  \nomega", newText: "x = 2\nomega" }] },
      { patch },
      notes,
    );
    assert.deepEqual(
      exact.edits.map((e) => [e.kind, e.patch]),
      [["edit", null]],
    );
    assert.deepEqual([notes.fromPatch, notes.exactOverPatch], [1, 1]);
  });

  /*
   * The model copied "\r\n" from a file it read into oldText, and the file (LF) matches once line endings are
   * normalised: Pi normalises oldText and newText to LF before matching (edit.ts / edit-diff.ts normalizeToLF).
   * By hand: "y = 2" → "y = 3": produced 1, final 1, total 1, survived 1, human 0, unreplayable 0.
   * Before the fix: "old_string not found": unreplayable 1, human 1.
   */
  test("oldText/newText with CRLF on an LF file: normalised to LF as Pi does", async () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "a.py": "x = 1\ny = 2\n" });
    const sessions = await oneEditSession(repo, [
      { tool: "edit", args: { path: "a.py", oldText: "x = 1\r\ny = 2", newText: "x = 1\r\ny = 3" } },
    ]);
    repo.commit("y", { "a.py": "x = 1\ny = 3\n" });
    const { rows } = await analyze({ inputs: [sessions], repo: repo.dir, threads: 1 });
    assert.deepEqual(numbers(rows.units[0]), {
      produced: 1,
      final: 1,
      survived: 1,
      human: 0,
      outside: 0,
      total: 1,
      unreplayable: 0,
    });
  });
});

describe("tool call ids", () => {
  /*
   * An OpenAI-compatible server behind Pi's openai-completions provider may send no tool call id ("": the
   * provider keeps `toolCall.id || ""`) or the same "call_0" in every message. Replay counts unreplayable calls
   * by id, so two such calls counted as one.
   * Here Pi 0.58.3 (no details.patch) edits a file whose quotes are curly: edit 1's ASCII oldText matches only
   * fuzzily (edit-diff.ts normalizeForFuzzyMatch: smart quotes → ASCII), and Pi writes the whole file back
   * normalised, so edit 2's ASCII oldText then matches exactly. Replay re-applies exactly from the base: neither
   * is found. By hand: produced 0, final 0; the commit rewrites both lines (Myers: 2 added), human 2,
   * survived 0; unreplayable 2 (before the fix: 1, both calls being "call_0").
   */
  test("repeated tool call ids (call_0 in every message) are made unique: each unreplayable call counts", async () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "a.py": "print(\u201chi\u201d)\nprint(\u201cbye\u201d)\n" });
    const id = "a0000000-0000-4000-8000-000000000005";
    const log = new PiLog({ id, cwd: repo.dir, start: START, model: "gpt-4.1", provider: "openai" });
    log.at(1).user("friendlier");
    log
      .at(2)
      .assistant([toolCall("call_0", "edit", { path: "a.py", oldText: 'print("hi")', newText: 'print("hello")' })], {
        input: 10,
        output: 5,
      });
    log.at(3).result("call_0", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    log
      .at(4)
      .assistant([toolCall("call_0", "edit", { path: "a.py", oldText: 'print("bye")', newText: 'print("goodbye")' })], {
        input: 10,
        output: 5,
      });
    log.at(5).result("call_0", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    const sessions = sessionsFolder({ [`--proj--/2026-03-02T11-00-00-000Z_${id}.jsonl`]: log.text() });
    repo.commit("friendlier", { "a.py": 'print("hello")\nprint("goodbye")\n' });
    const { rows } = await analyze({ inputs: [sessions], repo: repo.dir, threads: 1 });
    assert.deepEqual(numbers(rows.units[0]), {
      produced: 0,
      final: 0,
      survived: 0,
      human: 2,
      outside: 0,
      total: 2,
      unreplayable: 2,
    });
    assert.deepEqual(
      rows.tool_calls.map((c) => c.success),
      [true, true],
      "both results matched, in order",
    );
    assert.deepEqual(
      parse(log.text()).session.tool_calls.map((c) => c.id),
      ["call_0", "call_0@5:1"],
    );
    assert.ok(rows.diagnostics.some((d) => d.code === "pi-tool-call-id-repeated"));
  });
});

describe("what the log cannot tell: said so", () => {
  /*
   * Pi 0.58.0 made parallel tool execution the default; two edit calls on one file in one assistant message then
   * both read the original and the last write won (Pi issue #2327, fixed later by a per-file mutation queue).
   * Both results say success and the log holds no patch, so replay applies both; the file may hold only one.
   * By hand: message 1 (line 3) edits a.py twice → 1 message reported; message 2 (line 6) edits a.py and b.py once
   * each → none.
   */
  test("several successful write/edit calls on one file in one assistant message are reported", () => {
    const log = new PiLog({ id: "a0000000-0000-4000-8000-000000000006", cwd: "/p", start: START });
    log.at(1).user("two edits");
    log
      .at(2)
      .assistant(
        [
          toolCall("e1", "edit", { path: "a.py", oldText: "50", newText: "FIFTY" }),
          toolCall("e2", "edit", { path: "a.py", oldText: "75", newText: "SEVENTY-FIVE" }),
        ],
        { input: 10, output: 5 },
      );
    log.at(3).result("e1", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    log.at(3).result("e2", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    log
      .at(4)
      .assistant(
        [
          toolCall("e3", "edit", { path: "a.py", oldText: "1", newText: "one" }),
          toolCall("e4", "write", { path: "b.py", content: "b\n" }),
        ],
        { input: 10, output: 5 },
      );
    log.at(5).result("e3", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    log.at(5).result("e4", "write", "Successfully wrote 2 bytes to b.py");
    const { sink } = parse(log.text());
    const rowsOf = sink.rows.filter((r) => r.code === "pi-same-file-calls");
    assert.deepEqual(
      rowsOf.map((r) => [r.record, r.message.startsWith("1 assistant message")]),
      [[3, true]],
    );
  });
});

describe("paths Pi resolves that the adapter did not", () => {
  /*
   * Pi expands "~" and "~/" to the home folder (path-utils.ts expandPath), before resolving against the cwd. The
   * session ran in /home/dev/proj (the checkout on the user's machine), so "~/proj/a.py" is the repository's
   * a.py. Left as logged, replay took "~/proj/a.py" for a path relative to the cwd: a new file "~/proj/a.py"
   * inside the repository, whose 2 lines counted as agent lines in the final state, and a.py's new line as
   * the person's. By hand (Entire checkpoint, one commit): a.py "a" → "a, b" (+1), README.md "r" → "r, s" (+1):
   * produced 2, final 2, the commit adds 2 lines, survived 2, human 0. Before the fix: produced 3, final 3,
   * survived 1, human 1.
   */
  test("a ~/ path: expanded with the home folder the header cwd lies in", async () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "a.py": "a\n", "README.md": "r\n" });
    const sid = "a0000000-0000-4000-8000-000000000004";
    const log = new PiLog({ id: sid, cwd: "/home/dev/proj", start: START });
    log.at(1).user("add b, then s");
    log.at(2).assistant([toolCall("w", "write", { path: "~/proj/a.py", content: "a\nb\n" })], { input: 10, output: 5 });
    log.at(3).result("w", "write", "Successfully wrote 4 bytes to ~/proj/a.py");
    log.at(4).assistant([toolCall("e", "edit", { path: "README.md", oldText: "r\n", newText: "r\ns\n" })], {
      input: 10,
      output: 5,
    });
    log.at(5).result("e", "edit", "Successfully replaced text in README.md.", false, { diff: "…" });
    const id = "c0ffee000004";
    repo.commit(`b and s\n\nEntire-Checkpoint: ${id}`, { "a.py": "a\nb\n", "README.md": "r\ns\n" });
    repo.checkpointsBranch(
      oneSessionCheckpoint(id, JSON.stringify({ checkpoint_id: id, session_id: sid, agent: "Pi" }), {
        "full.jsonl": log.text(),
      }),
    );
    const { rows } = await analyze({ inputs: [repo.dir], threads: 1 });
    assert.deepEqual(numbers(rows.units[0]), {
      produced: 2,
      final: 2,
      survived: 2,
      human: 0,
      outside: 0,
      total: 2,
      unreplayable: 0,
    });
    assert.deepEqual(
      rows.tool_calls.map((c) => c.file),
      ["a.py", "README.md"],
    );
  });

  test("path forms: @ prefix, Unicode spaces (Pi's normalizeUnicodeSpaces), ~ with and without a known home", () => {
    const notes = emptyPiEditNotes();
    assert.equal(piPathOf({ path: "@src/a.ts" }), "src/a.ts");
    // U+00A0 and U+202F become plain spaces: Pi writes "my file.py".
    assert.equal(piPathOf({ path: "my\u00A0file\u202Fv2.py" }), "my file v2.py");
    assert.equal(piPathOf({ path: "~/x.py" }, "/Users/ann/code/p", notes), "/Users/ann/x.py");
    assert.equal(piPathOf({ path: "~" }, "/root/p", notes), "/root");
    assert.equal(
      piPathOf({ path: "~\\x.py" }, "/home/u/p", notes),
      "~\\x.py",
      "only ~ and ~/ are expanded (expandPath)",
    );
    // A cwd outside any home folder: left as logged, and said so.
    assert.equal(piPathOf({ path: "~/x.py" }, "/workspace/p", notes), "~/x.py");
    assert.deepEqual([notes.homeExpanded, notes.homeUnknown], [2, 1]);
  });
});

describe("forks, crashes and print mode", () => {
  /*
   * `/fork` (agent-session.ts fork → session-manager.ts createBranchedSession) writes a new file: a header with
   * `parentSession` and the fork time, then the parent's path copied with the same ids and timestamps, then the
   * new work. The copied entries are the parent session's (its prompts, API calls and edits, counted there).
   *
   * Parent P (11:01–11:01:20): prompt, edit a.py (+ "import sys"), answer; commit C1 at 12:00.
   * Fork F (header 12:30:00): P's 4 entries copied, then prompt (12:30:10), edit (+ "import json", 12:30:20),
   * result (12:30:21); commit C2 at 13:00.
   * F by hand: 1 prompt, 1 tool call, 1 API call (200 input, 60 output); duration 12:30:00 → 12:30:21 = 21 s.
   * Its first own edit is at 12:30:20, so it links to C2 only (not to C1 at 12:00). Unit (F, C2): base a.py =
   * "import os, import sys"; + "import json": produced 1, final 1, survived 1, total 1, human 0.
   * Before the fix F counted 2 prompts, 2 tool calls, 3 API calls, 400 input tokens, 5,361 s, and was linked to
   * C1 as well (with the copied edit replayed again).
   */
  test("a forked session counts its own entries, not the parent's copied history (the CLI, folder + --repo)", () => {
    const repo = new TestRepo("sce-piadv-");
    repo.commit("initial", { "a.py": "import os\n" }); // 11:00
    const P = "a0000000-0000-4000-8000-0000000000aa";
    const F = "a0000000-0000-4000-8000-0000000000bb";
    const parent = new PiLog({ id: P, cwd: repo.dir, start: START });
    parent.at(60).user("add sys import");
    parent
      .at(70)
      .assistant(
        [toolCall("toolu_1", "edit", { path: "a.py", oldText: "import os\n", newText: "import os\nimport sys\n" })],
        { input: 100, output: 50 },
      );
    parent.at(71).result("toolu_1", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    const done = parent.at(80).assistant([text("done")], { input: 100, output: 10 });
    const c1 = repo.commit("c1", { "a.py": "import os\nimport sys\n" }); // 12:00
    const fork = new PiLog({
      id: F,
      cwd: repo.dir,
      start: "2026-03-02T12:30:00.000Z",
      parentSession: `/s/--proj--/x_${P}.jsonl`,
    });
    for (const line of parent.lines.slice(1)) fork.raw(line);
    fork.branchFrom(done);
    // Fresh ids for the fork's own entries (Pi's generateId avoids the copied ones).
    (fork as unknown as { next: number }).next = 0xf000;
    fork.at(10).user("now add json");
    fork
      .at(20)
      .assistant(
        [toolCall("toolu_2", "edit", { path: "a.py", oldText: "import sys\n", newText: "import sys\nimport json\n" })],
        { input: 200, output: 60 },
      );
    fork.at(21).result("toolu_2", "edit", "Successfully replaced text in a.py.", false, { diff: "…" });
    const sessions = sessionsFolder({
      [`--proj--/2026-03-02T11-00-00-000Z_${P}.jsonl`]: parent.text(),
      [`--proj--/2026-03-02T12-30-00-000Z_${F}.jsonl`]: fork.text(),
    });
    const c2 = repo.commit("c2", { "a.py": "import os\nimport sys\nimport json\n" }); // 13:00

    const out = mkdtempSync(join(tmpdir(), "sce-piadv-out-"));
    const run = spawnSync(
      process.execPath,
      ["bin/swe-chat-eval.js", "analyze", sessions, "--repo", repo.dir, "--out", out, "--quiet"],
      { encoding: "utf8" },
    );
    assert.equal(run.status, 0, run.stderr);
    const sessionRows = JSON.parse(readFileSync(join(out, "sessions.json"), "utf8")) as {
      session_id: string;
      prompts: number;
      tool_calls: number;
      api_calls: number;
      input_tokens: number;
      output_tokens: number;
      duration_s: number;
    }[];
    const f = sessionRows.find((s) => s.session_id === F)!;
    assert.deepEqual(
      [f.prompts, f.tool_calls, f.api_calls, f.input_tokens, f.output_tokens, f.duration_s],
      [1, 1, 1, 200, 60, 21],
    );
    const units = JSON.parse(readFileSync(join(out, "units.json"), "utf8")) as UnitRow[];
    const fUnits = units.filter((u) => u.session_id === F);
    assert.deepEqual(
      fUnits.map((u) => u.commit_sha),
      [c2],
    );
    assert.deepEqual(numbers(fUnits[0]), {
      produced: 1,
      final: 1,
      survived: 1,
      human: 0,
      outside: 0,
      total: 1,
      unreplayable: 0,
    });
    // The parent is untouched: C1 is its unit (it also reaches C2 by the folder-mode time window).
    assert.ok(units.some((u) => u.session_id === P && u.commit_sha === c1));
    const diagnostics = JSON.parse(readFileSync(join(out, "diagnostics.json"), "utf8")) as {
      code: string;
      message: string;
      session_id: string | null;
    }[];
    const forked = diagnostics.find((d) => d.code === "pi-forked-session");
    assert.match(forked?.message ?? "", /4 entries .*copied.*1 prompt\(s\), 1 tool call\(s\) and 2 API call\(s\)/);
  });

  /*
   * Pi appends each entry with appendFileSync(`${json}\n`). A crash in the middle of one leaves half a line with no
   * newline; `pi --continue` skips that line when it loads (loadEntriesFromFile) and appends the next entry right
   * after it, on the same line. That entry (here the prompt "two") is whole, after the cut-off one.
   * By hand: prompts "one" and "two"; call w2 (line 4) succeeds; the cut-off assistant message (w1) is lost, as in
   * Pi. Before the fix: the prompt "two" was dropped with the cut-off line, and the branch report said its child
   * entries lay off the active branch.
   */
  test("a session resumed after a crash: the entry appended after a cut-off line is read", () => {
    const log = new PiLog({ id: "a0000000-0000-4000-8000-000000000007", cwd: "/p", start: START });
    log.at(1).user("one");
    const leaf = log.leaf;
    log
      .at(2)
      .assistant([toolCall("w1", "write", { path: "a.py", content: "x\n".repeat(5) })], { input: 10, output: 5 });
    const cut = log.lines.pop()!.slice(0, 150);
    const resumed = new PiLog({ id: "unused", cwd: "/p", start: "2026-03-02T11:05:00.000Z", header: false });
    resumed.branchFrom(leaf);
    (resumed as unknown as { next: number }).next = 0xc000;
    resumed.at(0).user("two");
    resumed.at(1).assistant([toolCall("w2", "write", { path: "b.py", content: "y\n" })], { input: 10, output: 5 });
    resumed.at(2).result("w2", "write", "Successfully wrote 2 bytes to b.py");
    const file = `${log.lines.join("\n")}\n${cut}${resumed.lines.join("\n")}\n`;
    const { session, sink } = parse(file);
    assert.deepEqual(
      session.turns.map((t) => [t.record, t.text]),
      [
        [2, "one"],
        [3, "two"],
      ],
    );
    assert.deepEqual(
      session.tool_calls.map((c) => [c.id, c.success, c.record]),
      [["w2", true, 4]],
    );
    const codes = sink.rows.map((r) => r.code);
    assert.ok(codes.includes("jsonl-invalid-line"));
    assert.ok(codes.includes("pi-entry-after-cut-line"));
    assert.ok(!codes.includes("pi-branched"), codes.join(", "));
  });

  /*
   * `pi -p --mode json` (modes/print-mode.ts) prints the session header and then every agent event, one per line:
   * the messages are in `message_end` events (message_start / message_update repeat them while streaming, turn_end
   * and agent_end again at the end). Detected as Pi (the header), every line was an unknown entry type: no prompt,
   * no call. By hand: 1 prompt, 1 write call (success, 2 lines), 2 API calls (300 + 20 input, 40 + 8 output).
   */
  test("a print-mode JSON event stream (pi -p --mode json): messages read from message_end events, once", () => {
    const header = {
      type: "session",
      version: 3,
      id: "a0000000-0000-4000-8000-000000000009",
      timestamp: START,
      cwd: "/p",
    };
    const t = Date.parse(START);
    const user = { role: "user", content: [{ type: "text", text: "write b.py" }], timestamp: t + 1000 };
    const usage = (input: number, output: number) => ({
      input,
      output,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: input + output,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    });
    const call = { type: "toolCall", id: "toolu_9", name: "write", arguments: { path: "b.py", content: "1\n2\n" } };
    const a1 = {
      role: "assistant",
      content: [call],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      usage: usage(300, 40),
      stopReason: "toolUse",
      timestamp: t + 2000,
    };
    const result = {
      role: "toolResult",
      toolCallId: "toolu_9",
      toolName: "write",
      content: [{ type: "text", text: "Successfully wrote 4 bytes to b.py" }],
      isError: false,
      timestamp: t + 3000,
    };
    const a2 = {
      role: "assistant",
      content: [{ type: "text", text: "done" }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-6",
      usage: usage(20, 8),
      stopReason: "stop",
      timestamp: t + 4000,
    };
    const events = [
      header,
      { type: "agent_start" },
      { type: "turn_start" },
      { type: "message_start", message: user },
      { type: "message_end", message: user },
      { type: "message_start", message: { ...a1, content: [] } },
      { type: "message_update", message: a1, assistantMessageEvent: { type: "toolcall_end" } },
      { type: "message_end", message: a1 },
      { type: "tool_execution_start", toolCallId: "toolu_9", toolName: "write", args: call.arguments },
      {
        type: "tool_execution_end",
        toolCallId: "toolu_9",
        toolName: "write",
        result: { content: result.content },
        isError: false,
      },
      { type: "message_start", message: result },
      { type: "message_end", message: result },
      { type: "turn_end", message: a1, toolResults: [result] },
      { type: "turn_start" },
      { type: "message_start", message: a2 },
      { type: "message_end", message: a2 },
      { type: "turn_end", message: a2, toolResults: [] },
      { type: "agent_end", messages: [user, a1, result, a2] },
    ];
    const { session, sink } = parse(events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    assert.deepEqual(
      session.turns.map((x) => [x.record, x.text]),
      [[5, "write b.py"]],
    );
    assert.deepEqual(
      session.tool_calls.map((c) => [
        c.id,
        c.success,
        c.record,
        c.result_record,
        c.file_edits.map((e) => e.post_image),
      ]),
      [["toolu_9", true, 8, 12, ["1\n2\n"]]],
    );
    assert.deepEqual(
      session.api_calls.map((c) => [c.record, c.usage.input_tokens, c.usage.output_tokens]),
      [
        [8, 300, 40],
        [16, 20, 8],
      ],
    );
    const codes = sink.rows.map((r) => r.code);
    assert.ok(codes.includes("pi-print-mode-events"));
    assert.ok(!codes.includes("pi-unknown-entry-type"), codes.join(", "));
  });
});
