/**
 * Transcript folders with symbolic links (a researcher's log folder often
 * links to `~/.claude/projects` or to another disk), on the real file system:
 * a link counts as what it points at; a broken link and a link cycle are
 * reported, never followed forever, never dropped silently.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findTranscripts } from "../../src/analyze/analyze-transcripts";
import { findClaudeCodeTranscripts } from "../../src/ingest/claude-code";
import { DiagnosticSink } from "../../src/model";

const record = (sessionId: string) =>
  `{"type":"user","sessionId":"${sessionId}","cwd":"/p","timestamp":"2026-03-02T10:00:00Z","message":{"role":"user","content":"hi"}}\n`;

test("Claude Code transcripts behind symbolic links are found; a broken link and a link cycle are reported", () => {
  const root = mkdtempSync(join(tmpdir(), "sce-links-"));
  try {
    // elsewhere/one.jsonl, elsewhere/project/two.jsonl; the folder we are given holds only links and one real file.
    mkdirSync(join(root, "elsewhere", "project"), { recursive: true });
    writeFileSync(join(root, "elsewhere", "one.jsonl"), record("one"));
    writeFileSync(join(root, "elsewhere", "project", "two.jsonl"), record("two"));
    const logs = join(root, "logs");
    mkdirSync(logs);
    writeFileSync(join(logs, "three.jsonl"), record("three"));
    symlinkSync(join(root, "elsewhere", "one.jsonl"), join(logs, "linked-file.jsonl"));
    symlinkSync(join(root, "elsewhere", "project"), join(logs, "linked-folder"));
    symlinkSync(join(root, "nowhere.jsonl"), join(logs, "broken.jsonl"));
    symlinkSync(logs, join(logs, "loop"));

    const sink = new DiagnosticSink("claude-code");
    const found = findClaudeCodeTranscripts(logs, sink).map((f) => f.file.slice(logs.length + 1));
    assert.deepEqual(found.sort(), ["linked-file.jsonl", "linked-folder/two.jsonl", "three.jsonl"]);
    const codes = sink.rows.map((d) => [d.code, d.file?.slice(logs.length + 1)]);
    assert.deepEqual(codes.sort(), [
      ["claude-path-cycle", "loop"],
      ["claude-path-unreadable", "broken.jsonl"],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("analyze's transcript search follows links too, and reads a file reached twice once", () => {
  const root = mkdtempSync(join(tmpdir(), "sce-links-"));
  try {
    mkdirSync(join(root, "elsewhere"), { recursive: true });
    writeFileSync(join(root, "elsewhere", "one.jsonl"), record("one"));
    const logs = join(root, "logs");
    mkdirSync(logs);
    writeFileSync(join(logs, "two.jsonl"), record("two"));
    symlinkSync(join(root, "elsewhere", "one.jsonl"), join(logs, "a-link.jsonl"));
    symlinkSync(join(root, "elsewhere"), join(logs, "b-folder"));
    const sink = new DiagnosticSink("transcripts");
    const found = findTranscripts(logs, sink).map((f) => f.file.slice(logs.length + 1));
    // a-link.jsonl and b-folder/one.jsonl are one file: the first in walk order (sorted by name) is kept.
    assert.deepEqual(found.sort(), ["a-link.jsonl", "two.jsonl"]);
    assert.deepEqual(
      sink.rows.map((d) => [d.code, d.file?.slice(logs.length + 1)]),
      [["transcript-same-file", "b-folder/one.jsonl"]],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
