/**
 * Property test of every adapter in src/ingest: random bytes, random JSON
 * and random mutations of each format's own record shapes go in; no
 * exception may come out, and every input is either read (a session) or
 * named in diagnostics (at least one row). Seeded, so a failure names the
 * seed and the case that failed; sizes kept small so the file runs in a few
 * seconds.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DiagnosticSink, seededRandom } from "../../src/model";
import { parseClaudeCodeTranscript } from "../../src/ingest/claude-code";
import { parseCodexRollout } from "../../src/ingest/codex";
import { detectTranscriptFormat } from "../../src/ingest/detect";
import { detectExportFormat } from "../../src/ingest/detect-export";
import { parseDataClawFile } from "../../src/ingest/dataclaw";
import { parseLenient, sessionMetadataSchema } from "../../src/ingest/entire";
import { parseEntireCompactTranscript } from "../../src/ingest/entire-compact";
import { parseGeminiSession } from "../../src/ingest/gemini";
import { parseOpenCodeSession } from "../../src/ingest/opencode";
import { parsePiSession } from "../../src/ingest/pi";
import { parseSpecStory } from "../../src/ingest/specstory";
import { parseSweAgentTrajectory } from "../../src/ingest/swe-agent";
import { sessionFromRows } from "../../src/ingest/swechat/parse";
import type { ConversationRow } from "../../src/ingest/swechat/schema";
import { ClaudeLog } from "../helpers/claude-log";
import { CodexLog } from "../ingest-agents/codex-log";

type Random = () => number;
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Random, n: number) => Math.floor(r() * n);

/** Keys the adapters look for, so random objects often reach past the first checks. */
const KEYS = [
  "type",
  "message",
  "role",
  "content",
  "text",
  "usage",
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "timestamp",
  "sessionId",
  "uuid",
  "parentUuid",
  "payload",
  "info",
  "total_token_usage",
  "last_token_usage",
  "tool_use",
  "id",
  "name",
  "input",
  "messages",
  "tokens",
  "parts",
  "model",
  "history",
  "trajectory",
  "info",
  "submission",
  "model_stats",
  "tokens_sent",
  "session_id",
  "project",
  "sessionID",
  "cwd",
  "version",
  "toolUseResult",
  "filePath",
  "old_string",
  "new_string",
  "arguments",
  "call_id",
  "output",
  "cost",
  "time",
  "created",
  "isSidechain",
  "agentId",
  "data",
];
/** Values that break naive code: out-of-domain numbers, odd strings, wrong types. */
const NASTY: unknown[] = [
  -1,
  -1e20,
  1e20,
  Number.MAX_VALUE,
  0,
  1.5,
  "",
  "x",
  "1e999",
  "../../etc/passwd",
  "\u202e",
  "<script>",
  "99999-01-01T00:00:00Z",
  "2026-13-45T99:99:99Z",
  null,
  true,
  false,
  [],
  {},
  "sk-ant-api03-" + "A1b2".repeat(8),
  "-----BEGIN PRIVATE KEY-----",
];

function randomValue(r: Random, depth: number): unknown {
  const roll = r();
  if (depth <= 0 || roll < 0.35) return roll < 0.2 ? pick(r, NASTY) : roll < 0.28 ? int(r, 1e6) - 1000 : pick(r, KEYS);
  if (roll < 0.55) return Array.from({ length: int(r, 4) }, () => randomValue(r, depth - 1));
  return randomObject(r, depth - 1);
}

function randomObject(r: Random, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = int(r, 6); i >= 0; i--) out[pick(r, KEYS)] = randomValue(r, depth);
  return out;
}

/** A record with one part changed: a key removed, a value replaced by a random or nasty one, an object emptied, a type swapped. */
function mutate(r: Random, value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return r() < 0.5 ? pick(r, NASTY) : randomValue(r, 2);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...value]
    : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  if (keys.length === 0) return randomValue(r, 2);
  const key = pick(r, keys);
  const roll = r();
  const target = copy as Record<string, unknown>;
  if (roll < 0.2) delete target[key];
  else if (roll < 0.6 && depth < 6 && target[key] !== null && typeof target[key] === "object")
    target[key] = mutate(r, target[key], depth + 1);
  else if (roll < 0.85) target[key] = pick(r, NASTY);
  else target[key] = randomValue(r, 2);
  return copy;
}

const randomBytes = (r: Random) => Uint8Array.from({ length: int(r, 1500) }, () => int(r, 256));
const randomJsonl = (r: Random) =>
  Array.from({ length: 1 + int(r, 12) }, () => JSON.stringify(randomObject(r, 4))).join("\n") + (r() < 0.5 ? "\n" : "");
const mutatedJsonl = (r: Random, lines: readonly string[]) =>
  lines
    .map((l) =>
      r() < 0.4 ? JSON.stringify(mutate(r, mutate(r, JSON.parse(l)))) : r() < 0.05 ? l.slice(0, int(r, l.length)) : l,
    )
    .join("\n") + "\n";

/** One valid-looking input per format, as the tests' own builders write them: what mutations start from. */
function claudeTemplate(): string[] {
  return new ClaudeLog({ sessionId: "11111111-2222-3333-4444-555555555555", cwd: "/work/p" })
    .prompt("add a function")
    .call("toolu_1", "Write", { file_path: "/work/p/a.ts", content: "export const a = 1;\n" })
    .result("toolu_1", {
      type: "create",
      filePath: "/work/p/a.ts",
      content: "export const a = 1;\n",
      structuredPatch: [],
      originalFile: null,
    }).lines;
}
function codexTemplate(): string[] {
  const log = new CodexLog({ id: "019c0000-0000-7000-8000-000000000001", cwd: "/work/p" })
    .meta()
    .turn()
    .prompt("fix it");
  log.env("event_msg", {
    type: "token_count",
    info: {
      total_token_usage: { input_tokens: 100, cached_input_tokens: 10, output_tokens: 5, reasoning_output_tokens: 1 },
      last_token_usage: { input_tokens: 100, cached_input_tokens: 10, output_tokens: 5 },
    },
  });
  return log.lines;
}
const PI_TEMPLATE = [
  {
    type: "session",
    version: 3,
    id: "0a1b2c3d-0000-4000-8000-000000000001",
    timestamp: "2026-03-02T10:00:00.000Z",
    cwd: "/work/p",
  },
  {
    type: "message",
    id: "aaaa0001",
    parentId: null,
    timestamp: "2026-03-02T10:00:01.000Z",
    message: { role: "user", content: [{ type: "text", text: "hi" }], timestamp: 1 },
  },
  {
    type: "message",
    id: "aaaa0002",
    parentId: "aaaa0001",
    timestamp: "2026-03-02T10:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "write", arguments: { path: "a.ts", content: "x\n" } }],
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
      stopReason: "toolUse",
      timestamp: 2,
    },
  },
].map((x) => JSON.stringify(x));
const GEMINI_TEMPLATE = JSON.stringify({
  sessionId: "g1",
  projectHash: "abc",
  startTime: "2026-03-02T10:00:00.000Z",
  lastUpdated: "2026-03-02T10:01:00.000Z",
  messages: [
    { id: "m1", timestamp: "2026-03-02T10:00:01.000Z", type: "user", content: "hi" },
    {
      id: "m2",
      timestamp: "2026-03-02T10:00:02.000Z",
      type: "gemini",
      content: "ok",
      model: "gemini-2.5-pro",
      tokens: { input: 10, output: 5, cached: 0, thoughts: 0, tool: 0, total: 15 },
      toolCalls: [
        {
          id: "t1",
          name: "write_file",
          args: { file_path: "/p/a.ts", content: "x\n" },
          status: "success",
          timestamp: "2026-03-02T10:00:03.000Z",
        },
      ],
    },
  ],
});
const OPENCODE_TEMPLATE = JSON.stringify({
  info: { id: "ses_1", directory: "/work/p", time: { created: 1772445600000, updated: 1772445660000 } },
  messages: [
    {
      info: { id: "msg_1", role: "user", sessionID: "ses_1", time: { created: 1772445601000 } },
      parts: [{ id: "p1", type: "text", text: "hi" }],
    },
    {
      info: {
        id: "msg_2",
        role: "assistant",
        sessionID: "ses_1",
        modelID: "claude-sonnet-4-5",
        time: { created: 1772445602000 },
        tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
      },
      parts: [
        {
          id: "p2",
          type: "tool",
          tool: "write",
          callID: "c1",
          state: { status: "completed", input: { filePath: "/work/p/a.ts", content: "x\n" } },
        },
      ],
    },
  ],
});
const SWE_AGENT_TEMPLATE = JSON.stringify({
  trajectory: [{ action: "create a.py", observation: "ok", response: "", thought: "", state: "{}" }],
  history: [{ role: "user", content: "fix" }],
  info: { submission: "", model_stats: { tokens_sent: 10, tokens_received: 5, api_calls: 1, instance_cost: 0.1 } },
});
const DATACLAW_TEMPLATE = [
  JSON.stringify({
    session_id: "d1",
    project: "p",
    model: "claude",
    source: "claude",
    start_time: "2026-03-02T10:00:00Z",
    messages: [{ role: "user", content: "hi", timestamp: "2026-03-02T10:00:00Z" }],
    stats: { input_tokens: 10, output_tokens: 5 },
  }),
];
const SPECSTORY_TEMPLATE = "# Title\n\n_**User**_\n\nhi\n\n---\n\n_**Assistant**_\n\nok\n";

interface Adapter {
  name: string;
  /** Reads one input; true when something was read. */
  read: (text: string | Uint8Array, sink: DiagnosticSink) => boolean;
  /** Inputs of the format's own shape, to mutate. */
  template: () => string;
  document?: boolean;
}

const ADAPTERS: Adapter[] = [
  {
    name: "claude-code",
    read: (text, sink) => parseClaudeCodeTranscript({ text, file: "t.jsonl" }, sink) !== null,
    template: () => claudeTemplate().join("\n"),
  },
  {
    name: "codex",
    read: (text, sink) => parseCodexRollout({ text, file: "rollout.jsonl" }, sink) !== null,
    template: () => codexTemplate().join("\n"),
  },
  {
    name: "gemini",
    read: (text, sink) => parseGeminiSession({ text, file: "session.json" }, sink) !== null,
    template: () => GEMINI_TEMPLATE,
    document: true,
  },
  {
    name: "opencode",
    read: (text, sink) => parseOpenCodeSession({ text, file: "export.json" }, sink) !== null,
    template: () => OPENCODE_TEMPLATE,
    document: true,
  },
  {
    name: "pi",
    read: (text, sink) => parsePiSession({ text, file: "pi.jsonl" }, sink) !== null,
    template: () => PI_TEMPLATE.join("\n"),
  },
  {
    name: "entire-compact",
    read: (text, sink) => parseEntireCompactTranscript({ text, file: "transcript.jsonl" }, sink) !== null,
    template: () => claudeTemplate().join("\n"),
  },
  {
    name: "swe-agent",
    read: (text, sink) => parseSweAgentTrajectory({ text, file: "x.traj" }, sink) !== null,
    template: () => SWE_AGENT_TEMPLATE,
    document: true,
  },
  {
    name: "dataclaw",
    read: (text, sink) => parseDataClawFile({ text, file: "conversations.jsonl" }, sink).length > 0,
    template: () => DATACLAW_TEMPLATE.join("\n"),
  },
  {
    name: "specstory",
    read: (text, sink) => parseSpecStory({ text, file: "h.md" }, sink) !== null,
    template: () => SPECSTORY_TEMPLATE,
  },
  {
    name: "entire-metadata",
    read: (text, sink) => {
      let raw: unknown;
      try {
        raw = JSON.parse(typeof text === "string" ? text : new TextDecoder().decode(text));
      } catch {
        sink.warn("not-json", "not JSON"); // the Entire reader reports entire-metadata-invalid here
        return false;
      }
      return parseLenient(sessionMetadataSchema, raw) !== null;
    },
    template: () =>
      JSON.stringify({
        session_id: "s",
        token_usage: { input_tokens: 1, output_tokens: 2 },
        initial_attribution: { agent_lines: 3, total_committed: 4, agent_percentage: 75 },
      }),
    document: true,
  },
];

/** The three kinds of input for one case. */
function inputFor(r: Random, adapter: Adapter, kind: number): string | Uint8Array {
  if (kind === 0) return randomBytes(r);
  if (kind === 1) return adapter.document ? JSON.stringify(randomObject(r, 5)) : randomJsonl(r);
  const template = adapter.template();
  if (adapter.name === "specstory")
    return template.replace(/\n/g, () =>
      pick(r, ["\n", "\n_**User**_\n", "\n---\n", "\n```\n", "\n_**Assistant**_\n"]),
    );
  if (adapter.document) return JSON.stringify(mutate(r, mutate(r, mutate(r, JSON.parse(template)))));
  return mutatedJsonl(r, template.split("\n"));
}

const CASES_PER_KIND = 200;

for (const adapter of ADAPTERS) {
  test(`${adapter.name}: random bytes, random JSON and mutated records never throw, and every input is read or named in diagnostics`, () => {
    const r = seededRandom(0x5eed + adapter.name.length * 7919);
    for (let kind = 0; kind < 3; kind++) {
      for (let n = 0; n < CASES_PER_KIND; n++) {
        const input = inputFor(r, adapter, kind);
        const sink = new DiagnosticSink(adapter.name, "input");
        let read: boolean;
        try {
          read = adapter.read(input, sink);
        } catch (e) {
          const shown = typeof input === "string" ? input.slice(0, 400) : `${input.length} random bytes`;
          assert.fail(
            `${adapter.name} threw on case ${kind}/${n} (${shown}): ${e instanceof Error ? e.stack : String(e)}`,
          );
        }
        assert.ok(
          read || sink.rows.length > 0,
          `${adapter.name} case ${kind}/${n}: neither read nor named in diagnostics: ${String(input).slice(0, 300)}`,
        );
      }
    }
  });
}

test("swechat: random conversation rows (every field of its type, numbers out of their domain) never throw", () => {
  const r = seededRandom(7);
  const str = () => (r() < 0.3 ? null : String(pick(r, [...KEYS, ...NASTY.filter((x) => typeof x === "string")])));
  const num = () =>
    r() < 0.3
      ? null
      : (pick(r, [-5, 0, 1, 12, 1e20, Number.POSITIVE_INFINITY, Number.NaN, 1772445600000, 3e15]) as number);
  for (let n = 0; n < 200; n++) {
    const rows = Array.from({ length: 1 + int(r, 8) }, (_, i) => {
      const row: Record<string, unknown> = { session_id: "s1", turn_number: r() < 0.2 ? int(r, 3) : i };
      row.turn_type = pick(r, ["user_prompt", "tool_use", "tool_result", "assistant_text", null, "compaction"]);
      for (const k of [
        "content",
        "model",
        "tool_name",
        "tool_call_id",
        "tool_input_json",
        "command",
        "file_path",
        "bash_category",
      ])
        row[k] = str();
      for (const k of [
        "timestamp",
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
      ])
        row[k] = num();
      row.is_continuation = r() < 0.1;
      return row as unknown as ConversationRow;
    });
    const sink = new DiagnosticSink("swechat", "conversations");
    const built = sessionFromRows("s1", rows, { agent: null, branch: null }, sink);
    for (const c of built.session.api_calls) {
      for (const v of Object.values(c.usage))
        assert.ok(Number.isFinite(v) && v >= 0 && v <= 1e10, `usage ${v} out of its domain after ingest`);
    }
    for (const t of built.session.record_times)
      assert.ok(t >= Date.UTC(2000, 0, 1) && t < Date.UTC(2100, 0, 1), `record time ${t} kept`);
  }
});

test("format detection (transcripts and exports) never throws on random bytes, random JSON or any adapter's mutated records", () => {
  const r = seededRandom(11);
  for (let n = 0; n < 300; n++) {
    const adapter = pick(r, ADAPTERS);
    const input = inputFor(r, adapter, n % 3);
    assert.doesNotThrow(() => detectTranscriptFormat(input), `${adapter.name} case ${n}`);
    assert.doesNotThrow(() => detectExportFormat(input), `${adapter.name} case ${n}`);
  }
});
