import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { DiagnosticSink } from "../../src/model";
import { readJsonl, splitConcatenated } from "../../src/ingest/jsonl";
import { corpusPath } from "../helpers/corpus";

const CORPUS = corpusPath() + "/";
const enc = (s: string) => new TextEncoder().encode(s);
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

/** Runs the reader on both input kinds; they must agree. */
function both(text: string) {
  const s1 = new DiagnosticSink("test");
  const fromString = readJsonl(text, s1);
  const s2 = new DiagnosticSink("test");
  const fromBytes = readJsonl(enc(text), s2);
  assert.deepEqual(fromBytes.records, fromString.records, "string and byte input give the same records");
  assert.deepEqual(fromBytes.stats, fromString.stats, "… and the same stats");
  assert.deepEqual(s2.rows, s1.rows, "… and the same diagnostics");
  return { ...fromString, sink: s1 };
}

describe("readJsonl", () => {
  test("plain lines: 1-based line numbers, blank lines skipped and counted", () => {
    // Lines: 1 {"a":1}, 2 blank, 3 {"b":2}, then a final newline (not a line of its own).
    const r = both('{"a":1}\n\n{"b":2}\n');
    assert.deepEqual(
      r.records.map((x) => [x.line, x.value]),
      [
        [1, { a: 1 }],
        [3, { b: 2 }],
      ],
    );
    assert.equal(r.stats.lines, 2); // two lines with content
    assert.equal(r.stats.blankLines, 1); // line 2
    assert.deepEqual(codes(r.sink), ["jsonl-blank-lines"]);
  });

  test("a UTF-8 BOM is stripped (info), CRLF accepted (info with the count)", () => {
    // Three CRLF lines; the first carries a BOM.
    const r = both('\uFEFF{"a":1}\r\n{"b":"x\\r"}\r\n{"c":3}\r\n');
    assert.deepEqual(
      r.records.map((x) => x.value),
      [{ a: 1 }, { b: "x\r" }, { c: 3 }],
    );
    assert.equal(r.stats.crlfLines, 3);
    assert.deepEqual(codes(r.sink), ["jsonl-bom", "jsonl-crlf"]);
    assert.match(r.sink.rows[1].message, /^3 line\(s\) end with CRLF/);
  });

  test("a cut-off last line is jsonl-truncated, the lines before survive", () => {
    // Line 3 stops mid-string and has no final newline: what a copy of a live transcript looks like.
    const r = both('{"a":1}\n{"b":2}\n{"type":"assistant","message":{"content":"hal');
    assert.equal(r.records.length, 2);
    assert.equal(r.stats.badLines, 1);
    assert.deepEqual(codes(r.sink), ["jsonl-truncated"]);
    assert.equal(r.sink.rows[0].record, 3);
  });

  test("a last line that ends early but has a newline is still jsonl-truncated", () => {
    const r = both('{"a":1}\n{"b":\n');
    assert.deepEqual(codes(r.sink), ["jsonl-truncated"]);
    assert.equal(r.sink.rows[0].record, 2);
  });

  test("a broken line in the middle is jsonl-invalid-line, not truncated", () => {
    const r = both('{"a":1}\n{"b":2\n{"c":3}\n');
    assert.deepEqual(
      r.records.map((x) => x.line),
      [1, 3],
    );
    assert.deepEqual(codes(r.sink), ["jsonl-invalid-line"]);
    assert.equal(r.sink.rows[0].record, 2);
  });

  test("NUL bytes are stripped and the line retried; a line of only NULs is reported and skipped", () => {
    // Line 1 has 2 NULs inside the object (outside strings) → parses after stripping.
    // Line 2 is 5 NULs (crash padding) → nothing to parse.
    // Line 3 is fine.
    const text = '{"a":\u00001\u0000}\n\u0000\u0000\u0000\u0000\u0000\n{"b":2}\n';
    const r = both(text);
    assert.deepEqual(
      r.records.map((x) => [x.line, x.value]),
      [
        [1, { a: 1 }],
        [3, { b: 2 }],
      ],
    );
    assert.deepEqual(codes(r.sink), ["jsonl-nul-bytes", "jsonl-nul-bytes"]);
    assert.match(r.sink.rows[0].message, /2 NUL byte\(s\) stripped; the line parsed after stripping/);
    assert.match(r.sink.rows[1].message, /only NUL bytes \(5\)/);
  });

  test("two objects on one line are split and both kept, with a warning", () => {
    // Line 2 holds two records written without a newline; braces inside strings must not confuse the split.
    const r = both('{"a":1}\n{"b":"}{"}{"c":3} \n{"d":4}\n');
    assert.deepEqual(
      r.records.map((x) => [x.line, x.value]),
      [
        [1, { a: 1 }],
        [2, { b: "}{" }],
        [2, { c: 3 }],
        [3, { d: 4 }],
      ],
    );
    assert.deepEqual(codes(r.sink), ["jsonl-concatenated-objects"]);
    assert.match(r.sink.rows[0].message, /holds 2 JSON values/);
  });

  test("valid JSON that is not an object is jsonl-not-object", () => {
    const r = both('[1,2]\n"text"\n{"a":1}\nnull\n');
    assert.equal(r.records.length, 1);
    assert.deepEqual(codes(r.sink), ["jsonl-not-object", "jsonl-not-object", "jsonl-not-object"]);
    assert.deepEqual(
      r.sink.rows.map((x) => x.record),
      [1, 2, 4],
    );
  });

  test("a pretty-printed JSON document returns nothing line-wise and says so", () => {
    const r = both('{\n  "sessionId": "x",\n  "messages": []\n}\n');
    assert.equal(r.records.length, 0);
    assert.equal(r.stats.prettyPrinted, true);
    assert.deepEqual(codes(r.sink), ["jsonl-pretty-printed"]);
  });

  test("the real Gemini session stored as full.jsonl is detected as pretty-printed", () => {
    // entire/entireio-cli/ab/2b9748b105/0/full.jsonl: 520 newlines, one JSON document (ORIGIN.md).
    const sink = new DiagnosticSink("test");
    const r = readJsonl(readFileSync(`${CORPUS}entire/entireio-cli/ab/2b9748b105/0/full.jsonl`), sink);
    assert.equal(r.records.length, 0);
    assert.deepEqual(codes(sink), ["jsonl-pretty-printed"]);
    assert.match(sink.rows[0].message, /one pretty-printed JSON document/);
  });

  test("a cut-off pretty-printed document (lone brace first) is still reported as one", () => {
    const r = both('{\n  "sessionId": "x",\n  "messages": [\n');
    assert.equal(r.records.length, 0);
    assert.deepEqual(codes(r.sink), ["jsonl-pretty-printed"]);
    assert.match(r.sink.rows[0].message, /does not parse as a whole/);
  });

  test("an empty file or whitespace-only file gives jsonl-empty and no records", () => {
    for (const text of ["", "\n\n  \n", "\uFEFF"]) {
      const r = both(text);
      assert.equal(r.records.length, 0);
      assert.ok(codes(r.sink).includes("jsonl-empty"), `jsonl-empty for ${JSON.stringify(text)}`);
    }
  });

  test("invalid UTF-8 in bytes is decoded with U+FFFD and reported", () => {
    // 0xff is never valid in UTF-8.
    const bytes = Uint8Array.from([...enc('{"a":"'), 0xff, ...enc('"}\n')]);
    const sink = new DiagnosticSink("test");
    const r = readJsonl(bytes, sink);
    assert.deepEqual(r.records[0].value, { a: "\uFFFD" });
    assert.deepEqual(codes(sink), ["jsonl-invalid-utf8"]);
  });

  test("per-code diagnostics are capped and the rest summed", () => {
    // 5 broken lines then a good one, cap 2 → 2 rows for the first two, one summary row for the other 3.
    const text = "x\n".repeat(5) + '{"a":1}\n';
    const sink = new DiagnosticSink("test");
    const r = readJsonl(text, sink, { maxLineDiagnostics: 2 });
    assert.equal(r.records.length, 1);
    assert.equal(r.stats.badLines, 5);
    assert.deepEqual(codes(sink), ["jsonl-invalid-line", "jsonl-invalid-line", "jsonl-diagnostics-capped"]);
    assert.match(sink.rows[2].message, /^3 more line\(s\)/);
  });

  test("real transcripts: every line is a record; a missing final newline is not truncation", () => {
    // c6/39a44ea03d/0/full.jsonl has 22 lines and no final newline (wc -l says 21);
    // c6/39a44ea03d/1/full.jsonl has 94; the 1.0.51 excerpt 16 (all checked with python's json module).
    const cases: [string, number][] = [
      ["entire/entireio-cli/c6/39a44ea03d/0/full.jsonl", 22],
      ["entire/entireio-cli/c6/39a44ea03d/1/full.jsonl", 94],
      ["claude-code/happy-cli__400429ba.excerpt.jsonl", 16],
    ];
    for (const [path, n] of cases) {
      const sink = new DiagnosticSink("test");
      const r = readJsonl(readFileSync(CORPUS + path), sink);
      assert.equal(r.records.length, n, path);
      assert.equal(r.stats.lines, n, path);
      assert.equal(r.records[n - 1].line, n, path);
      assert.deepEqual(sink.rows, [], path);
    }
  });
});

describe("splitConcatenated", () => {
  test("splits at depth 0 outside strings, rejects unbalanced text", () => {
    assert.deepEqual(splitConcatenated('{"a":"\\"}"}[1]{"b":{}}'), ['{"a":"\\"}"}', "[1]", '{"b":{}}']);
    assert.equal(splitConcatenated('{"a":1'), null);
    assert.equal(splitConcatenated('x{"a":1}'), null);
  });
});
