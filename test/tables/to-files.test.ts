import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { csvField, writeParquetTables, writeTables, type AnalysisRows } from "../../src/tables";

const rows: AnalysisRows = {
  units: [],
  sessions: [],
  tool_calls: [
    {
      session_id: "s,1",
      seq: 0,
      tool: "Write",
      category: "write",
      file: 'a "b".txt',
      success: true,
      lines_added: 3,
      lines_removed: 0,
      timestamp: null,
    },
    {
      session_id: "s,1",
      seq: 1,
      tool: "Bash",
      category: "bash",
      file: null,
      success: null,
      lines_added: null,
      lines_removed: null,
      timestamp: "2026-01-01T00:00:00.000Z",
    },
  ],
  diagnostics: [
    {
      source: "x",
      session_id: null,
      file: null,
      record: 7,
      severity: "warning",
      code: "c",
      message: "line one\nline two",
    },
  ],
};

test("CSV fields are quoted only when needed and null is empty", () => {
  assert.equal(csvField(null), "");
  assert.equal(csvField("plain"), "plain");
  assert.equal(csvField('say "hi", ok'), '"say ""hi"", ok"');
  assert.equal(csvField(1.5), "1.5");
  assert.equal(csvField(Number.NaN), "");
});

test("CSV, JSON and Parquet carry the same rows with the contract's columns", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-tables-"));
  await writeTables(dir, rows);
  await writeParquetTables(dir, rows);
  const csv = readFileSync(join(dir, "tool_calls.csv"), "utf8");
  assert.equal(
    csv,
    'session_id,seq,tool,category,file,success,lines_added,lines_removed,timestamp\n"s,1",0,Write,write,"a ""b"".txt",true,3,0,\n"s,1",1,Bash,bash,,,,,2026-01-01T00:00:00.000Z\n',
  );
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "tool_calls.json"), "utf8")), rows.tool_calls);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "units.json"), "utf8")), []);
  const { parquetReadObjects } = await import("hyparquet");
  const bytes = readFileSync(join(dir, "tool_calls.parquet"));
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const back = await parquetReadObjects({ file });
  assert.deepEqual(
    back.map((r) => [r.session_id, r.seq, r.file, r.success, r.lines_added]),
    [
      ["s,1", 0, 'a "b".txt', true, 3],
      ["s,1", 1, null, null, null],
    ],
  );
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  assert.equal(manifest.tables.tool_calls.rows, 2);
});
