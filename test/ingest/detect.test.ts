import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { detectTranscriptFormat } from "../../src/ingest/detect";
import { corpusPath, sharedCorpusPath, sharedCorpusSkip } from "../helpers/corpus";

const CORPUS = corpusPath() + "/";
const read = (path: string) => readFileSync(CORPUS + path, "utf8");
const lines = (...objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join("\n") + "\n";

describe("detectTranscriptFormat on real files (by content, whatever the name)", () => {
  const cases: [string, string][] = [
    ["claude-code/happy-cli__400429ba.excerpt.jsonl", "claude-code"], // 1.0.51: first line a user record
    ["entire/entireio-cli-changelog/5d/755497c182/0/full.jsonl", "claude-code"], // 2.1.17: first line a file-history-snapshot
    ["entire/entireio-cli/c6/39a44ea03d/1/full.jsonl", "claude-code"],
    ["entire/entireio-cli/ab/2b9748b105/0/full.jsonl", "gemini"], // named full.jsonl, pretty-printed Gemini JSON
    ["entire/nivalis-studio-biome-config/01/25fb057a68/0/full.jsonl", "opencode"], // {info, messages:[{info, parts}]}
    ["swe-agent/pydicom__pydicom-1458.v0-default.traj", "unknown"],
    ["entire/entireio-cli/c6/39a44ea03d/metadata.json", "unknown"],
  ];
  for (const [path, want] of cases) {
    test(`${path} → ${want}`, () => {
      assert.equal(detectTranscriptFormat(read(path)), want);
      assert.equal(detectTranscriptFormat(readFileSync(CORPUS + path)), want, "bytes give the same answer");
    });
  }
  // Only in the shared corpus (entireio/external-agents has no licence to copy under).
  test("entire/entireio-external-agents/c3/b191fe1158/0/full.jsonl → codex (rollout: session_meta first)", {
    skip: sharedCorpusSkip,
  }, () => {
    const bytes = readFileSync(sharedCorpusPath("entire/entireio-external-agents/c3/b191fe1158/0/full.jsonl"));
    assert.equal(detectTranscriptFormat(bytes.toString("utf8")), "codex");
    assert.equal(detectTranscriptFormat(bytes), "codex", "bytes give the same answer");
  });
});

describe("detectTranscriptFormat on synthetic inputs", () => {
  test("Claude Code: summary and queue-operation first lines", () => {
    assert.equal(detectTranscriptFormat(lines({ type: "summary", summary: "x", leafUuid: "u1" })), "claude-code");
    assert.equal(
      detectTranscriptFormat(
        lines({ type: "queue-operation", operation: "enqueue", timestamp: "t", sessionId: "s", content: "hi" }),
      ),
      "claude-code",
    );
  });

  test("Claude Code: an unknown first record type does not decide; the next line does", () => {
    const text = lines(
      { type: "custom-title", customTitle: "x" },
      { type: "user", sessionId: "s", uuid: "u", message: { role: "user", content: "hi" } },
    );
    assert.equal(detectTranscriptFormat(text), "claude-code");
  });

  test("Codex: envelope, and the legacy bare items with record_type", () => {
    assert.equal(
      detectTranscriptFormat(lines({ timestamp: "t", type: "response_item", payload: { type: "message" } })),
      "codex",
    );
    const legacy = lines(
      { id: "abc", timestamp: "2025-05-01T00:00:00Z", instructions: "", git: {} },
      { record_type: "state" },
      { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
    );
    assert.equal(detectTranscriptFormat(legacy), "codex");
    assert.equal(detectTranscriptFormat(lines({ record_type: "state" })), "codex");
    assert.equal(
      detectTranscriptFormat(lines({ type: "function_call", name: "shell", arguments: "{}", call_id: "c1" })),
      "codex",
    );
  });

  test("Pi and Factory Droid lines ({type: message} with a nested message) are not Codex bare items", () => {
    // Pi's session file (session-manager.ts): a session header, then tree entries.
    const pi = lines(
      { type: "session", version: 3, id: "s1", timestamp: "2026-03-27T21:00:00.000Z", cwd: "/tmp/p" },
      { type: "model_change", id: "mc1", parentId: null, provider: "anthropic", modelId: "claude-sonnet-4-6" },
      {
        type: "message",
        id: "m1",
        parentId: "mc1",
        timestamp: "t",
        message: { role: "user", content: [{ type: "text", text: "hi" }] },
      },
    );
    assert.equal(detectTranscriptFormat(pi), "pi");
    const droid = lines({
      type: "message",
      id: "m1",
      timestamp: "t",
      message: { role: "user", content: [{ type: "text", text: "hi" }] },
    });
    assert.equal(detectTranscriptFormat(droid), "unknown");
    // A bare Codex message item still is one.
    assert.equal(
      detectTranscriptFormat(
        lines({ type: "message", role: "assistant", content: [{ type: "output_text", text: "ok" }] }),
      ),
      "codex",
    );
  });

  test("Pi: the header, or entries only Pi writes; Factory Droid's session stays unknown", () => {
    // A v1 header has no version, but a cwd.
    assert.equal(detectTranscriptFormat(lines({ type: "session", id: "s1", timestamp: "t", cwd: "/p" })), "pi");
    // Without the header (a file cut at its start): a tree entry naming its parent, a toolResult, a toolCall part.
    assert.equal(
      detectTranscriptFormat(
        lines({ type: "message", id: "a", parentId: null, timestamp: "t", message: { role: "user", content: "hi" } }),
      ),
      "pi",
    );
    assert.equal(
      detectTranscriptFormat(
        lines({
          type: "message",
          timestamp: "t",
          message: { role: "toolResult", toolCallId: "c", toolName: "read", content: [], isError: false },
        }),
      ),
      "pi",
    );
    const call = {
      type: "message",
      id: "b",
      timestamp: "t",
      message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "read", arguments: { path: "a" } }] },
    };
    assert.equal(detectTranscriptFormat(lines(call)), "pi");
    // Factory Droid: a session_start header, messages without parentId, Anthropic-style tool_use / tool_result parts.
    const droid = lines(
      { type: "session_start", id: "d1", title: "t", sessionTitle: "t", owner: "o", version: 2, cwd: "/p" },
      { type: "message", id: "m1", timestamp: "t", message: { role: "user", content: [{ type: "text", text: "hi" }] } },
      {
        type: "message",
        id: "m2",
        timestamp: "t",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: "tu1", name: "Read", input: { file_path: "/p/a" } }],
        },
      },
      {
        type: "message",
        id: "m3",
        timestamp: "t",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu1", content: "x" }] },
      },
    );
    assert.equal(detectTranscriptFormat(droid), "unknown");
    // A Pi message line longer than the prefix (a big write) is told by how Pi starts its entries.
    const big = JSON.stringify({
      type: "message",
      id: "c0ffee00",
      parentId: "c0ffee01",
      timestamp: "2026-03-02T11:00:00.000Z",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: "w", name: "write", arguments: { path: "a", content: "x".repeat(300_000) } }],
      },
    });
    assert.equal(detectTranscriptFormat(big + "\n"), "pi");
  });

  test("Codex: a first line longer than the prefix is classified from its start", () => {
    // 300,000 characters of base instructions push the line's end past the 256 KiB prefix.
    const big = JSON.stringify({
      timestamp: "t",
      type: "session_meta",
      payload: { base_instructions: { text: "x".repeat(300_000) } },
    });
    assert.ok(big.length > 256 * 1024);
    assert.equal(detectTranscriptFormat(big + "\n"), "codex");
  });

  test("Gemini: one-line and pretty-printed documents, and a document longer than the prefix", () => {
    const doc = {
      sessionId: "s",
      projectHash: "h",
      startTime: "t",
      messages: [{ id: "m", type: "user", content: "hi" }],
    };
    assert.equal(detectTranscriptFormat(JSON.stringify(doc)), "gemini");
    assert.equal(detectTranscriptFormat(JSON.stringify(doc, null, 2)), "gemini");
    const long = { ...doc, messages: [...doc.messages, { id: "g", type: "gemini", content: "y".repeat(300_000) }] };
    assert.equal(detectTranscriptFormat(JSON.stringify(long, null, 2)), "gemini");
  });

  test("OpenCode: {info, messages:[{info, parts}]}", () => {
    const doc = { info: { id: "ses_1", version: "1.3.13" }, messages: [{ info: { role: "user" }, parts: [] }] };
    assert.equal(detectTranscriptFormat(JSON.stringify(doc, null, 2)), "opencode");
    assert.equal(detectTranscriptFormat(JSON.stringify(doc)), "opencode");
  });

  test("unknown: empty, not JSON, JSON of another kind", () => {
    assert.equal(detectTranscriptFormat(""), "unknown");
    assert.equal(detectTranscriptFormat("# a markdown file\n"), "unknown");
    assert.equal(detectTranscriptFormat(lines({ display: "hi", timestamp: 1, project: "/p" })), "unknown"); // ~/.claude/history.jsonl
    assert.equal(detectTranscriptFormat(JSON.stringify({ a: 1 }, null, 2)), "unknown");
  });

  test("a BOM and leading blank lines are skipped", () => {
    assert.equal(
      detectTranscriptFormat(
        "\uFEFF\n\n" + lines({ type: "user", sessionId: "s", uuid: "u", message: { content: "hi" } }),
      ),
      "claude-code",
    );
  });
});
