import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { detectExportFormat } from "../../src/ingest/detect-export";
import { detectTranscriptFormat } from "../../src/ingest/detect";
import { FormatProbe } from "../../src/ingest/probe-format";

const dir = mkdtempSync(join(tmpdir(), "probe-format-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const jsonl = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join("\n") + "\n";
const claude = (i: number, pad = "") => ({
  type: "user",
  sessionId: "s1",
  uuid: `u${i}`,
  parentUuid: null,
  message: { role: "user", content: `line ${i}\n${pad}` },
});

describe("FormatProbe: one read of a file for both detectors", () => {
  // Each file's verdicts must be what the two detectors give on the file's own bytes, as the two searches read
  // them before: the export search 256 KiB + 1 bytes (so it knows a longer file is cut), the transcript
  // search at most 256 KiB.
  const files: Record<string, string> = {
    "claude.jsonl": jsonl(claude(1), claude(2)),
    // 40 records of ~8 KB: 320 KB, longer than the prefix; the last line in the prefix is cut.
    "claude-long.jsonl": jsonl(...Array.from({ length: 40 }, (_, i) => claude(i, "x".repeat(8000)))),
    "dataclaw.jsonl": jsonl({ session_id: "d1", messages: [{ role: "user", content: "hi" }] }),
    // The key spelled with an escape: `session_id` is not in the text, the parsed line has it (DataClaw).
    "dataclaw-escaped.jsonl": '{"session\\u005fid":"d2","messages":[{"role":"user","content":"hi"}]}\n',
    "pretty.jsonl": '{\n  "a": 1\n}\n',
    "notes.json": '{"hello": "world"}',
    "empty.jsonl": "",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);

  for (const [name, text] of Object.entries(files)) {
    test(`${name}: the verdicts of both detectors`, () => {
      const bytes = Buffer.from(text);
      const formats = new FormatProbe().of(join(dir, name));
      assert.ok(formats);
      assert.equal(formats.export, detectExportFormat(bytes.subarray(0, 256 * 1024 + 1)));
      assert.equal(formats.transcript, detectTranscriptFormat(bytes.subarray(0, 256 * 1024)));
    });
  }

  test("the escaped key is still read as DataClaw (lines without `session_id` are skipped, not these)", () => {
    assert.equal(new FormatProbe().of(join(dir, "dataclaw-escaped.jsonl"))?.export, "dataclaw");
    assert.equal(new FormatProbe().of(join(dir, "claude.jsonl"))?.export, "unknown");
  });

  test("a pretty-printed JSON file is marked so; a record per line is not", () => {
    assert.equal(new FormatProbe().of(join(dir, "pretty.jsonl"))?.prettyPrinted, true);
    assert.equal(new FormatProbe().of(join(dir, "notes.json"))?.prettyPrinted, false);
  });

  test("one probe reads a file once: a file rewritten after the first question keeps its first verdicts", () => {
    const file = join(dir, "changing.jsonl");
    writeFileSync(file, jsonl(claude(1)));
    const probe = new FormatProbe();
    assert.equal(probe.of(file)?.transcript, "claude-code");
    writeFileSync(file, jsonl({ session_id: "d3", messages: [] }));
    // Read again, this would be DataClaw and no transcript; the cached verdicts answer instead.
    assert.deepEqual(probe.of(file), { export: "unknown", transcript: "claude-code", prettyPrinted: false });
    // A new probe (a new analysis) reads the file as it is now.
    assert.equal(new FormatProbe().of(file)?.export, "dataclaw");
  });

  test("an unreadable file: null, with a warning; of no format to the transcript search", () => {
    const probe = new FormatProbe();
    const warned: string[] = [];
    const sink = { add: (_s: string, code: string) => warned.push(code) } as never;
    assert.equal(probe.of(join(dir, "missing.jsonl"), sink), null);
    assert.deepEqual(warned, ["export-unreadable"]);
    assert.deepEqual(probe.formatsOf(join(dir, "missing.jsonl")), {
      export: "unknown",
      transcript: "unknown",
      prettyPrinted: false,
    });
  });
});
