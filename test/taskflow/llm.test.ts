import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { DiagnosticSink } from "../../src/model";
import { classifyWithLlm, CLASSIFIER_INSTRUCTION, parseLabelAnswer, TASK_LABELS } from "../../src/taskflow";
import { corpusPath } from "../helpers/corpus";

type Handler = (
  body: Record<string, any>,
  req: IncomingMessage,
  res: ServerResponse,
  n: number,
) => void | Promise<void>;

/** A chat-completions endpoint on 127.0.0.1 that runs `handler` for each request and records the bodies. */
async function loopback(handler: Handler) {
  const bodies: Record<string, any>[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer(async (req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    bodies.push(body);
    try {
      await handler(body, req, res, bodies.length);
    } finally {
      inFlight--;
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    bodies,
    maxInFlight: () => maxInFlight,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const answer = (res: ServerResponse, content: string, status = 200, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content } }] }));
};

/** The label the fake model gives: keyed by a word in the user's message. */
const fakeLabel = (body: Record<string, any>) => {
  const text: string = body.messages[1].content;
  return text.includes("crash") ? "bug-fix" : text.includes("README") ? "generate-docs" : "new-feature";
};

const noSleep = async () => {};

test("structured output: the paper's instruction, a json_schema enum of the 16 labels, the key as a bearer token", async () => {
  let auth: string | undefined;
  const server = await loopback((body, req, res) => {
    auth = req.headers.authorization;
    answer(res, JSON.stringify({ task_type: fakeLabel(body) }));
  });
  try {
    const sink = new DiagnosticSink("test");
    const { labels, stats } = await classifyWithLlm(
      ["the app crashes on start", "add a README section", "add dark mode"],
      { baseUrl: server.baseUrl, model: "m1", apiKey: "k-123", sleep: noSleep },
      sink,
    );
    assert.deepEqual(labels, ["bug-fix", "generate-docs", "new-feature"]);
    assert.equal(stats.requests, 3);
    assert.equal(auth, "Bearer k-123");
    const body = server.bodies[0];
    assert.equal(body.model, "m1");
    assert.equal(body.temperature, 0);
    assert.ok(body.messages[0].content.startsWith(CLASSIFIER_INSTRUCTION));
    for (const l of TASK_LABELS) assert.ok(body.messages[0].content.includes(`- ${l}: `), `definition of ${l} sent`);
    assert.equal(body.response_format.type, "json_schema");
    assert.deepEqual(body.response_format.json_schema.schema.properties.task_type.enum, [...TASK_LABELS]);
    assert.deepEqual(body.response_format.json_schema.schema.required, ["task_type"]);
    assert.equal(sink.rows.length, 0);
  } finally {
    await server.close();
  }
});

test("a malformed answer: read tolerantly when a label is named, a diagnostic and no label when none is", async () => {
  const server = await loopback((body, _req, res) => {
    const text: string = body.messages[1].content;
    if (text === "one") answer(res, "Sure! I would say this is a New Feature request.");
    else if (text === "two") answer(res, 'Here you go: {"task_type": "REFACTOR"} hope it helps');
    else if (text === "three") answer(res, "banana");
    else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("<html>not json</html>");
    }
  });
  try {
    const sink = new DiagnosticSink("test");
    const { labels, stats } = await classifyWithLlm(
      ["one", "two", "three", "four"],
      { baseUrl: server.baseUrl, model: "m", sleep: noSleep, concurrency: 1 },
      sink,
    );
    assert.deepEqual(labels, ["new-feature", "refactor", null, null]);
    assert.equal(stats.fallbackParses, 4);
    assert.deepEqual(
      sink.rows.map((d) => d.code),
      ["taskflow-llm-unparseable", "taskflow-llm-unparseable"],
    );
  } finally {
    await server.close();
  }
  // The tolerant parse on its own: a refusal is no label; "tests" inside "latest" is not a label.
  assert.equal(
    parseLabelAnswer(JSON.stringify({ choices: [{ message: { content: null, refusal: "I can't" } }] })).label,
    null,
  );
  assert.equal(
    parseLabelAnswer(JSON.stringify({ choices: [{ message: { content: "the latest answer: debug" } }] })).label,
    "debug",
  );
});

test("a 429 then success: retried after Retry-After; a 503 twice: exponential backoff; a 404 is not retried", async () => {
  const waits: number[] = [];
  const attempts = new Map<string, number>();
  const server = await loopback((body, _req, res) => {
    const text: string = body.messages[1].content;
    const n = (attempts.get(text) ?? 0) + 1;
    attempts.set(text, n);
    if (text === "limited" && n === 1) return answer(res, "slow down", 429, { "retry-after": "2" });
    if (text === "flaky" && n <= 2) return answer(res, "unavailable", 503);
    if (text === "bad") return answer(res, "no such model", 404);
    if (text === "down") return answer(res, "unavailable", 503);
    answer(res, JSON.stringify({ task_type: "execute" }));
  });
  try {
    const sleep = async (ms: number) => void waits.push(ms);
    const sink = new DiagnosticSink("test");
    const a = await classifyWithLlm(["limited"], { baseUrl: server.baseUrl, model: "m", sleep, backoffMs: 100 }, sink);
    assert.deepEqual(a.labels, ["execute"]);
    assert.equal(a.stats.retries, 1);
    // Retry-After: 2 seconds, not the 100 ms backoff.
    assert.deepEqual(waits, [2000]);
    // flaky: attempts 1 and 2 get 503, so waits 100·2⁰ and 100·2¹; attempt 3 succeeds.
    waits.length = 0;
    const b = await classifyWithLlm(["flaky"], { baseUrl: server.baseUrl, model: "m", sleep, backoffMs: 100 }, sink);
    assert.deepEqual(b.labels, ["execute"]);
    assert.deepEqual(waits, [100, 200]);
    assert.equal(attempts.get("flaky"), 3);
    // A 404 is not retried: one attempt, no label, a diagnostic.
    waits.length = 0;
    const c = await classifyWithLlm(["bad"], { baseUrl: server.baseUrl, model: "m", sleep, retries: 3 }, sink);
    assert.deepEqual(c.labels, [null]);
    assert.deepEqual(waits, []);
    assert.equal(attempts.get("bad"), 1);
    assert.equal(sink.rows.at(-1)!.code, "taskflow-llm-failed");
    // Always 503 with retries 1: two attempts, one wait, then no label and a diagnostic naming the attempts.
    waits.length = 0;
    const d = await classifyWithLlm(
      ["down"],
      { baseUrl: server.baseUrl, model: "m", sleep, retries: 1, backoffMs: 100 },
      sink,
    );
    assert.deepEqual(d.labels, [null]);
    assert.equal(attempts.get("down"), 2);
    assert.deepEqual(waits, [100]);
    assert.match(sink.rows.at(-1)!.message, /after 2 attempt/);
  } finally {
    await server.close();
  }
});

test("the cache: a second run asks nothing; identical messages are asked once; requests in flight stay within the bound", async () => {
  const server = await loopback(async (body, _req, res) => {
    await new Promise((r) => setTimeout(r, 30));
    answer(res, JSON.stringify({ task_type: fakeLabel(body) }));
  });
  try {
    const cacheFile = join(mkdtempSync(join(tmpdir(), "sce-llm-")), "cache.jsonl");
    const texts = ["a crash", "b", "c", "d README", "e", "f", "a crash"];
    const sink = new DiagnosticSink("test");
    const first = await classifyWithLlm(
      texts,
      { baseUrl: server.baseUrl, model: "m", cacheFile, concurrency: 2, sleep: noSleep },
      sink,
    );
    // 6 distinct texts → 6 requests, 2 at a time at most (each answer waits 30 ms, so both workers overlap).
    assert.equal(first.stats.requests, 6);
    assert.equal(server.maxInFlight(), 2);
    assert.equal(first.labels[0], "bug-fix");
    assert.equal(first.labels[6], "bug-fix");
    assert.equal(readFileSync(cacheFile, "utf8").trim().split("\n").length, 6);
    const second = await classifyWithLlm(
      texts,
      { baseUrl: server.baseUrl, model: "m", cacheFile, sleep: noSleep },
      sink,
    );
    assert.deepEqual(second.labels, first.labels);
    assert.equal(second.stats.requests, 0);
    assert.equal(second.stats.cacheHits, 7);
    assert.equal(server.bodies.length, 6);
    // Another model does not reuse the first model's answers.
    const other = await classifyWithLlm(
      ["b"],
      { baseUrl: server.baseUrl, model: "m2", cacheFile, sleep: noSleep },
      sink,
    );
    assert.equal(other.stats.requests, 1);
  } finally {
    await server.close();
  }
});

test("a server that rejects response_format is asked again without it", async () => {
  const server = await loopback((body, _req, res) => {
    if (body.response_format) return answer(res, "response_format json_schema is not supported", 400);
    answer(res, '{"task_type": "planning"}');
  });
  try {
    const sink = new DiagnosticSink("test");
    const { labels } = await classifyWithLlm(
      ["plan it", "and this"],
      { baseUrl: server.baseUrl, model: "m", concurrency: 1, sleep: noSleep },
      sink,
    );
    assert.deepEqual(labels, ["planning", "planning"]);
    // One rejected request, then two without the schema.
    assert.deepEqual(
      server.bodies.map((b) => "response_format" in b),
      [true, false, false],
    );
    assert.deepEqual(
      sink.rows.map((d) => d.code),
      ["taskflow-llm-no-structured-output"],
    );
  } finally {
    await server.close();
  }
});

test("the CLI labels a corpus with the LLM classifier against a loopback endpoint named by the environment", async () => {
  const server = await loopback((body, _req, res) => answer(res, JSON.stringify({ task_type: fakeLabel(body) })));
  try {
    const dir = mkdtempSync(join(tmpdir(), "sce-llm-cli-"));
    const out = join(dir, "labels.jsonl");
    // Runs asynchronously: a spawnSync would block the server in this process.
    const run = await promisify(execFile)(
      process.execPath,
      [
        "bin/swe-chat-eval.js",
        "taskflow",
        "label",
        corpusPath("entire/entireio-cli/c6/39a44ea03d"),
        "--classifier",
        "llm",
        "--out",
        out,
        "--llm-cache",
        join(dir, "cache.jsonl"),
      ],
      {
        env: {
          ...process.env,
          TASKFLOW_LLM_BASE_URL: server.baseUrl,
          TASKFLOW_LLM_MODEL: "m",
          TASKFLOW_LLM_API_KEY: "",
        },
      },
    );
    assert.match(run.stderr, /2 session\(s\), 3 message\(s\) labelled \(llm\)/);
    const lines = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // c6/39a44ea03d holds two Claude Code sessions with 1 and 2 prompts (see prompts.test.ts).
    assert.deepEqual(lines.map((l) => l.labels.length).sort(), [1, 2]);
    assert.equal(server.bodies.length, 3);
  } finally {
    await server.close();
  }
});
