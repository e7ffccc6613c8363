/**
 * Hand-worked checks of the reference's own §4 rates and §5 effort code (test/reference/effort.ts,
 * deriveRates, numstatAdditions): the reference is only worth comparing against if it is right.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { compareSessions } from "./compare";
import { lengthBin, sessionEffort, timeSpans } from "./effort";
import { numstatAdditions } from "./git";
import { deriveRates } from "./reference";
import { sessionRecord } from "./sessions";

const at = (s: number): string => new Date(Date.parse("2026-04-01T10:00:00.000Z") + s * 1000).toISOString();
const jsonl = (records: object[]): string => `${records.map((r) => JSON.stringify(r)).join("\n")}\n`;

const opusUsage = (output: number) => ({
  input_tokens: 10,
  cache_creation_input_tokens: 1000,
  cache_read_input_tokens: 5000,
  output_tokens: output,
  cache_creation: { ephemeral_5m_input_tokens: 600, ephemeral_1h_input_tokens: 400 },
});

const HAND_SESSION = "11111111-2222-3333-4444-555555555555";

/** The hand-worked Claude Code 2.x transcript (envelope fields so that any reader takes it for one). */
function handTranscript(): string {
  let n = 0;
  const env = (r: object) => ({ sessionId: HAND_SESSION, uuid: `u${n++}`, cwd: "/w", version: "2.1.29", ...r });
  return jsonl(
    [
      { type: "user", timestamp: at(0), message: { role: "user", content: "fix the bug" } }, // prompt 1
      // One API call streamed as two records (same message.id + requestId); the second has the final output count.
      {
        type: "assistant",
        timestamp: at(5),
        requestId: "req_1",
        message: {
          id: "msg_A",
          model: "claude-opus-4-6",
          content: [{ type: "text", text: "Looking" }],
          usage: opusUsage(3),
        },
      },
      {
        type: "assistant",
        timestamp: at(6),
        requestId: "req_1",
        message: {
          id: "msg_A",
          model: "claude-opus-4-6",
          content: [{ type: "tool_use", id: "toolu_1", name: "Read", input: {} }],
          usage: opusUsage(120),
        },
      },
      {
        type: "user",
        timestamp: at(7),
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "x" }] },
        toolUseResult: {},
      },
      // A local error message: not an API call.
      {
        type: "assistant",
        timestamp: at(8),
        isApiErrorMessage: true,
        message: {
          id: "msg_S",
          model: "<synthetic>",
          content: [{ type: "text", text: "API Error: 500" }],
          usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        },
      },
      { type: "user", timestamp: at(408), message: { role: "user", content: "[Request interrupted by user]" } }, // 400 s later; not a prompt
      { type: "user", timestamp: at(410), message: { role: "user", content: "now add tests" } }, // prompt 2
      // A sub-agent's API call, mirrored into the parent transcript.
      {
        type: "progress",
        timestamp: at(415),
        data: {
          type: "agent_progress",
          message: {
            type: "assistant",
            timestamp: at(415),
            requestId: "req_2",
            message: {
              id: "msg_B",
              model: "claude-haiku-4-5-20251001",
              content: [],
              usage: {
                input_tokens: 20,
                output_tokens: 50,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: 0,
              },
            },
          },
        },
      },
      {
        type: "user",
        timestamp: at(416),
        isMeta: true,
        message: { role: "user", content: "Caveat: the messages below…" },
      }, // not a prompt
      { type: "user", timestamp: at(417), message: { role: "user", content: "<command-name>/exit</command-name>" } }, // not a prompt
    ].map(env),
  );
}

test("Claude 2.x: two streamed blocks are one API call, <synthetic> is none, sub-agent usage counts, the 400 s gap is capped at 300 s", () => {
  const e = sessionEffort(handTranscript(), "claude-code");
  // API calls: msg_A once + msg_B = 2 (<synthetic> is not one).
  // input 10 + 20 = 30; output 120 (msg_A's largest, not 3 + 120) + 50 = 170; cache writes 1000; cache reads 5000.
  assert.deepEqual(
    [e.api_calls, e.input_tokens, e.output_tokens, e.cache_creation_tokens, e.cache_read_tokens],
    [2, 30, 170, 1000, 5000],
  );
  // Timestamps 0, 5, 6, 7, 8, 408, 410, 415, 416, 417 s: duration 417 s;
  // active 5 + 1 + 1 + 1 + min(400, 300) + 2 + 5 + 1 + 1 = 317 s.
  assert.equal(e.duration_s, 417);
  assert.equal(e.active_s, 317);
  // Real prompts: "fix the bug" and "now add tests" → 2, bin "2".
  assert.equal(e.prompts, 2);
  assert.equal(e.length_bin, "2");
  // Model: opus 120 output tokens against haiku's 50.
  assert.equal(e.model, "claude-opus-4-6");
  // Cost (USD per Mtok, opus-4-6 from 2026-03-13: in 5, out 25, write 5m 6.25, write 1h 10, read 0.5;
  // haiku-4-5, matched without its date suffix: in 1, out 5):
  // opus 10·5 + 120·25 + 600·6.25 + 400·10 + 5000·0.5 = 50 + 3000 + 3750 + 4000 + 2500 = 13,300 → $0.0133;
  // haiku 20·1 + 50·5 = 270 → $0.00027; total $0.01357.
  assert.ok(Math.abs(e.cost_usd! - 0.01357) < 1e-12, String(e.cost_usd));
});

test("the product (`swe-chat-eval analyze FILE`) gives the same hand-worked numbers for that transcript", () => {
  const dir = mkdtempSync(join(tmpdir(), "ref-effort-"));
  try {
    writeFileSync(join(dir, `${HAND_SESSION}.jsonl`), handTranscript());
    const r = spawnSync(
      process.execPath,
      [
        join(process.cwd(), "bin/swe-chat-eval.js"),
        "analyze",
        join(dir, `${HAND_SESSION}.jsonl`),
        "--out",
        join(dir, "out"),
        "--quiet",
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const product = JSON.parse(readFileSync(join(dir, "out", "sessions.json"), "utf8"));
    const reference = sessionRecord(HAND_SESSION, handTranscript(), "claude-code", { modelsWithMain: true });
    const c = compareSessions([reference], product);
    assert.deepEqual([c.diffs, c.onlyProduct, c.onlyReference], [[], [], []]);
    assert.equal(c.perColumn.cost_usd.agree, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a prompt typed mid-turn (2.1+ queued_command attachment) is a real prompt on both sides; a task notification is not", () => {
  // Prompts: "fix it" (a user record), "and add a test" (queued, commandMode "prompt", origin human) and a queued
  // image → 3, bin "3". The task-notification, the isMeta and the <bash-input> queued commands and the
  // queue-operation bookkeeping are not prompts.
  const id = "22222222-3333-4444-5555-666666666666";
  const env = (r: object, i: number) => ({ sessionId: id, uuid: `q${i}`, cwd: "/w", version: "2.1.90", ...r });
  const text = jsonl(
    [
      { type: "user", timestamp: at(0), message: { role: "user", content: "fix it" } },
      {
        type: "assistant",
        timestamp: at(1),
        requestId: "req_q",
        message: {
          id: "msg_Q",
          model: "claude-opus-4-6",
          content: [{ type: "text", text: "on it" }],
          usage: opusUsage(5),
        },
      },
      { type: "queue-operation", operation: "enqueue", timestamp: at(2), content: "and add a test" },
      {
        type: "attachment",
        timestamp: at(3),
        attachment: {
          type: "queued_command",
          prompt: "and add a test",
          commandMode: "prompt",
          origin: { kind: "human" },
        },
      },
      {
        type: "attachment",
        timestamp: at(4),
        attachment: {
          type: "queued_command",
          prompt: "<task-notification>done</task-notification>",
          commandMode: "task-notification",
          origin: { kind: "task-notification" },
        },
      },
      // A queued image with no text is a prompt, as an image-only user record is; an isMeta one is not (§5).
      {
        type: "attachment",
        timestamp: at(5),
        attachment: {
          type: "queued_command",
          prompt: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }],
          commandMode: "prompt",
        },
      },
      {
        type: "attachment",
        timestamp: at(6),
        isMeta: true,
        attachment: { type: "queued_command", prompt: "injected context", commandMode: "prompt" },
      },
      {
        type: "attachment",
        timestamp: at(7),
        attachment: { type: "queued_command", prompt: "<bash-input>ls</bash-input>", commandMode: "prompt" },
      },
    ].map(env),
  );
  const e = sessionEffort(text, "claude-code");
  // "fix it", "and add a test", the image: 3, bin "3".
  assert.deepEqual([e.prompts, e.length_bin], [3, "3"]);
  const dir = mkdtempSync(join(tmpdir(), "ref-queued-"));
  try {
    writeFileSync(join(dir, `${id}.jsonl`), text);
    const r = spawnSync(
      process.execPath,
      [
        join(process.cwd(), "bin/swe-chat-eval.js"),
        "analyze",
        join(dir, `${id}.jsonl`),
        "--out",
        join(dir, "out"),
        "--quiet",
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const product = JSON.parse(readFileSync(join(dir, "out", "sessions.json"), "utf8"));
    const c = compareSessions([sessionRecord(id, text, "claude-code", { modelsWithMain: true })], product);
    assert.deepEqual([c.diffs, c.onlyProduct, c.onlyReference], [[], [], []]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("Claude: a cache read above the long-context threshold is tiered per count; an unknown model gives a null cost", () => {
  const call = (model: string, day: string) =>
    jsonl([
      {
        type: "assistant",
        timestamp: `${day}T12:00:00.000Z`,
        requestId: "r",
        message: {
          id: "m",
          model,
          content: [],
          usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 300000 },
        },
      },
    ]);
  // 2026-02-20 is in opus-4-6's first period (threshold 200K, read 0.5 then 1 per Mtok):
  // 200,000·0.5 + 100,000·1 = 200,000 → $0.2. From 2026-03-13 no tier: 300,000·0.5 → $0.15.
  assert.ok(Math.abs(sessionEffort(call("claude-opus-4-6", "2026-02-20"), "claude-code").cost_usd! - 0.2) < 1e-12);
  assert.ok(Math.abs(sessionEffort(call("claude-opus-4-6", "2026-04-01"), "claude-code").cost_usd! - 0.15) < 1e-12);
  const unknown = sessionEffort(call("kimi-k2.5", "2026-04-01"), "claude-code");
  assert.equal(unknown.cost_usd, null);
  assert.deepEqual(unknown.unknown_models, ["kimi-k2.5"]);
});

test("Codex: input includes cached tokens (normalised), a repeated token_count is not a second call", () => {
  const usage = {
    input_tokens: 1000,
    cached_input_tokens: 800,
    output_tokens: 300,
    reasoning_output_tokens: 100,
    total_tokens: 1300,
  };
  const text = jsonl([
    { timestamp: at(0), type: "session_meta", payload: { id: "s", cwd: "/w" } },
    { timestamp: at(1), type: "turn_context", payload: { cwd: "/w", model: "gpt-5.4" } },
    { timestamp: at(2), type: "event_msg", payload: { type: "user_message", message: "fix it" } },
    { timestamp: at(3), type: "event_msg", payload: { type: "token_count", info: null } },
    {
      timestamp: at(4),
      type: "event_msg",
      payload: { type: "token_count", info: { total_token_usage: usage, last_token_usage: usage } },
    },
    {
      timestamp: at(5),
      type: "event_msg",
      payload: { type: "token_count", info: { total_token_usage: usage, last_token_usage: usage } },
    }, // repeat
  ]);
  const e = sessionEffort(text, "codex");
  // One call: uncached input 1000 − 800 = 200, cache reads 800, output 300 (reasoning already inside).
  assert.deepEqual(
    [e.api_calls, e.input_tokens, e.cache_read_tokens, e.output_tokens, e.cache_creation_tokens],
    [1, 200, 800, 300, 0],
  );
  // gpt-5.4: 200·2.5 + 800·0.25 + 300·15 = 500 + 200 + 4500 = 5,200 → $0.0052.
  assert.ok(Math.abs(e.cost_usd! - 0.0052) < 1e-12);
  assert.deepEqual([e.prompts, e.length_bin, e.model, e.duration_s, e.active_s], [1, "1", "gpt-5.4", 5, 5]);
});

test("length bins, the 0-prompt reading, and time spans over unordered timestamps", () => {
  assert.deepEqual(
    [1, 5, 6, 10, 11, 40].map((n) => lengthBin(n)),
    ["1", "5", "6-10", "6-10", "11+", "11+"],
  );
  assert.equal(lengthBin(0), null);
  assert.equal(lengthBin(0, "0"), "0");
  // Sorted: 0, 1000, 701000 ms → duration 701 s, active 1 + min(700, 300) = 301 s.
  assert.deepEqual(timeSpans([701000, 0, 1000], 300), { duration_s: 701, active_s: 301 });
  assert.deepEqual(timeSpans([], 300), { duration_s: null, active_s: null });
});

test("§4 rates and coding mode from the counts", () => {
  const n = (survived: number, final: number, produced: number, total: number) => ({
    agent_lines_produced: produced,
    agent_lines_final: final,
    agent_lines_survived: survived,
    human_lines: total - survived,
    outside_lines: 0,
    total_committed_lines: total,
    unreplayable_calls: 0,
    outside_changes: 0,
  });
  // 3/4 survive, 3/6 of the produced lines, 3/3 of the committed lines → 75, 50, 100, vibe.
  assert.deepEqual(deriveRates(n(3, 4, 6, 3)), {
    code_survival_rate: 75,
    coding_efficiency: 50,
    agent_authored_pct: 100,
    coding_mode: "vibe",
  });
  // 99/100 is exactly the vibe threshold; 98/99 = 98.99… is collaborative; 0/5 human-only.
  assert.equal(deriveRates(n(99, 99, 99, 100)).coding_mode, "vibe");
  assert.equal(deriveRates(n(98, 98, 98, 99)).coding_mode, "collaborative");
  assert.equal(deriveRates(n(0, 0, 0, 5)).coding_mode, "human-only");
  // No committed lines: null pct and null mode; no final agent lines: null survival rate.
  assert.deepEqual(deriveRates(n(0, 0, 0, 0)), {
    code_survival_rate: null,
    coding_efficiency: null,
    agent_authored_pct: null,
    coding_mode: null,
  });
});

test("numstat_additions: git's count of added lines, a binary file adds nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "ref-numstat-"));
  try {
    const git = (...args: string[]) => {
      const r = spawnSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args], {
        encoding: "utf8",
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout.trim();
    };
    git("init", "-q");
    writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
    git("add", ".");
    git("commit", "-qm", "base");
    const base = git("rev-parse", "HEAD");
    // a.txt: "two" → "TWO" plus two new lines: git adds 3 lines; b.bin has a NUL byte: numstat "-", adds nothing.
    writeFileSync(join(dir, "a.txt"), "one\nTWO\nthree\nfour\n");
    writeFileSync(join(dir, "b.bin"), Buffer.from([0, 1, 2, 10, 3]));
    git("add", ".");
    git("commit", "-qm", "change");
    assert.equal(numstatAdditions(dir, git("rev-parse", "HEAD"), base), 3);
    // The root commit against the empty tree: a.txt's 2 lines.
    assert.equal(numstatAdditions(dir, base, null), 2);
    // A changed file's blob absent (as in a partial clone): git would print "-" as for a binary file
    // and count 0 for it; the count is unknown, so null.
    writeFileSync(join(dir, "c.txt"), "x\ny\n");
    git("add", ".");
    git("commit", "-qm", "c");
    const blob = git("rev-parse", "HEAD:c.txt");
    rmSync(join(dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    assert.equal(numstatAdditions(dir, git("rev-parse", "HEAD"), git("rev-parse", "HEAD~1")), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
