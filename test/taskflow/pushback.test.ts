/** Pushback labels from the three sources (rules, an OpenAI-compatible endpoint, imported) and their agreement with a dataset's labels. */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { DiagnosticSink, type PromptRow } from "../../src/model";
import { labelPushback, pushbackAgreement, pushbackAgreementMarkdown, readImportedPushback } from "../../src/taskflow";

const prompt = (index: number, text: string, prompt_pushback: PromptRow["prompt_pushback"]): PromptRow => ({
  session_id: "s",
  index,
  timestamp: null,
  text,
  prompt_pushback,
});
const PROMPTS = [
  prompt(0, "add a flag", "non_pushback"),
  prompt(1, "it still fails with the same error", "failure_report"),
  prompt(2, "please revert that", "rejection"),
  // The dataset calls this a correction; the rules see no pushback.
  prompt(3, "the colour should be blue", "correction"),
];

test("rules name their rule; imported reads the rows' own labels or a file", async () => {
  const sink = new DiagnosticSink("test");
  const rules = await labelPushback(PROMPTS, { source: "rules" }, sink);
  assert.deepEqual(
    rules.map((r) => [r.label, r.rule]),
    [
      ["non_pushback", "none"],
      ["failure_report", "failure"],
      ["rejection", "rejection"],
      ["non_pushback", "none"],
    ],
  );
  const own = await labelPushback(PROMPTS, { source: "imported" }, sink);
  assert.deepEqual(
    own.map((r) => r.label),
    ["non_pushback", "failure_report", "rejection", "correction"],
  );
  const csv = "session_id,index,pushback\ns,0,takeover\ns,1,grumpy\ns,x,correction\n";
  const fromFile = await labelPushback(PROMPTS, { source: "imported", importedText: csv }, sink);
  assert.deepEqual(
    fromFile.map((r) => r.label),
    ["takeover", null, null, null],
  );
  assert.deepEqual(
    sink.rows.map((d) => d.code),
    ["pushback-import-bad-row", "pushback-import-unknown-label"],
  );
  assert.equal(
    readImportedPushback('{"session_id":"s","index":2,"prompt_pushback":"correction"}\n', sink).get("s#2"),
    "correction",
  );
});

test("the LLM source: one request per distinct text, a json_schema enum of the seven labels", async () => {
  const bodies: Record<string, any>[] = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    bodies.push(body);
    const text: string = body.messages[1].content;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        choices: [
          {
            message: { content: JSON.stringify({ pushback: text.includes("revert") ? "rejection" : "non_pushback" }) },
          },
        ],
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const got = await labelPushback(
      [...PROMPTS, prompt(4, "please revert that", null)],
      { source: "llm", llm: { baseUrl, model: "m" } },
      new DiagnosticSink("test"),
    );
    assert.deepEqual(
      got.map((r) => r.label),
      ["non_pushback", "non_pushback", "rejection", "non_pushback", "rejection"],
    );
    assert.equal(bodies.length, 4, "the repeated text is asked once");
    assert.deepEqual(bodies[0].response_format.json_schema.schema.properties.pushback.enum, [
      "correction",
      "rejection",
      "failure_report",
      "pacing_complaint",
      "takeover",
      "requirement_change",
      "non_pushback",
    ]);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test("agreement with the dataset's labels: per label precision and recall", () => {
  const a = pushbackAgreement(PROMPTS);
  // 4 labelled prompts, 3 agree (the correction is missed: predicted non_pushback).
  assert.equal(a.n, 4);
  assert.equal(a.correct, 3);
  const row = (l: string) => a.labels.find((x) => x.label === l)!;
  // non_pushback: predicted twice (0 and 3), right once → precision 1/2, recall 1/1.
  assert.deepEqual([row("non_pushback").precision, row("non_pushback").recall], [0.5, 1]);
  assert.deepEqual([row("correction").predicted, row("correction").recall], [0, 0]);
  assert.match(pushbackAgreementMarkdown(a), /\| failure_report \| 1 \| 1 \| 1 \| 100\.0% \| 100\.0% \|/);
});
