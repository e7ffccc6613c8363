import { test } from "node:test";
import assert from "node:assert/strict";
import type { ApiCall, Usage } from "../../src/model";
import { apiCall } from "../helpers/calls";
import { dominantModel, modelsByOutput, sumUsage, tokensByModel, totalTokens } from "../../src/effort";

/** Every second call is a sub-agent's (sidechain), as in a session with a Task. */
let seq = 0;
const call = (model: string | null, usage: Partial<Usage>): ApiCall =>
  apiCall(model, usage, { sidechain: ++seq % 2 === 0 });

const calls = [
  call("claude-opus-4-6", {
    input_tokens: 10,
    output_tokens: 100,
    cache_creation_tokens: 1_000,
    cache_creation_1h_tokens: 400,
    cache_read_tokens: 5_000,
  }),
  call("claude-haiku-4-5", { input_tokens: 20, output_tokens: 300, cache_read_tokens: 1_000 }),
  call("claude-opus-4-6", { input_tokens: 5, output_tokens: 250, reasoning_tokens: 50 }),
  call(null, { input_tokens: 1, output_tokens: 999 }),
];

test("sumUsage adds every field and counts calls (sidechain calls included)", () => {
  assert.deepEqual(sumUsage(calls), {
    input_tokens: 36,
    output_tokens: 1_649,
    cache_creation_tokens: 1_000,
    cache_creation_1h_tokens: 400,
    cache_read_tokens: 6_000,
    reasoning_tokens: 50,
    api_calls: 4,
  });
  assert.deepEqual(sumUsage([]).api_calls, 0);
  assert.equal(totalTokens(sumUsage(calls)), 36 + 1_649 + 1_000 + 6_000);
});

test("tokensByModel: rows by output tokens descending, no-model row last, rows add up to the total", () => {
  const rows = tokensByModel(calls);
  assert.deepEqual(
    rows.map((r) => [r.model, r.output_tokens, r.api_calls]),
    [
      ["claude-opus-4-6", 350, 2],
      ["claude-haiku-4-5", 300, 1],
      [null, 999, 1],
    ],
  );
  const total = sumUsage(calls);
  assert.equal(
    rows.reduce((s, r) => s + r.cache_read_tokens, 0),
    total.cache_read_tokens,
  );
  assert.equal(
    rows.reduce((s, r) => s + r.output_tokens, 0),
    total.output_tokens,
  );
});

test("dominantModel is the model with most output tokens; calls without a model are ignored", () => {
  assert.equal(dominantModel(calls), "claude-opus-4-6");
  assert.deepEqual(modelsByOutput(calls), ["claude-opus-4-6", "claude-haiku-4-5"]);
  assert.equal(dominantModel([]), null);
  assert.equal(dominantModel([call(null, { output_tokens: 5 })]), null);
});

test("ties are broken by name, whatever the call order", () => {
  const a = call("gpt-5.4", { output_tokens: 500 });
  const b = call("claude-sonnet-4-6", { output_tokens: 500 });
  assert.equal(dominantModel([a, b]), "claude-sonnet-4-6");
  assert.equal(dominantModel([b, a]), "claude-sonnet-4-6");
  assert.deepEqual(modelsByOutput([a, b]), ["claude-sonnet-4-6", "gpt-5.4"]);
});

test("<synthetic> is not a model", () => {
  const s = call("<synthetic>", { output_tokens: 10_000 });
  assert.equal(dominantModel([s, call("gpt-5", { output_tokens: 1 })]), "gpt-5");
  assert.deepEqual(modelsByOutput([s]), []);
  assert.equal(tokensByModel([s]).length, 1);
});
