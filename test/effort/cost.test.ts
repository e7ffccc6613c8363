import { test } from "node:test";
import assert from "node:assert/strict";
import { DiagnosticSink } from "../../src/model";
import { apiCall } from "../helpers/calls";
import { costBreakdown, costOfCall, costOfCalls, partialCostOfCalls, NO_MODEL } from "../../src/effort";

const call = apiCall;

/** Dollar amounts are sums of products of decimals: compare to 1e-12. */
function near(actual: number | null, expected: number, what = "cost"): void {
  assert.ok(actual !== null, `${what}: expected ${expected}, got null`);
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: expected ${expected}, got ${actual}`);
}

test("Sonnet 4.5 call with 5-minute and 1-hour cache writes and cache reads", () => {
  // cache_creation 5,000 of which 3,000 with 1-hour TTL → 2,000 five-minute writes.
  //   input        1,000 × $3.00 / 1M = 0.003
  //   output         500 × $15.00 / 1M = 0.0075
  //   cache 5m     2,000 × $3.75 / 1M = 0.0075
  //   cache 1h     3,000 × $6.00 / 1M = 0.018
  //   cache read  10,000 × $0.30 / 1M = 0.003
  //   total                            = 0.039
  const c = call("claude-sonnet-4-5-20250929", {
    input_tokens: 1_000,
    output_tokens: 500,
    cache_creation_tokens: 5_000,
    cache_creation_1h_tokens: 3_000,
    cache_read_tokens: 10_000,
  });
  near(costOfCall(c), 0.039);
  const b = costBreakdown(c);
  assert.ok(b);
  near(b.usd.cache_write_5m, 0.0075, "5m writes");
  near(b.usd.cache_write_1h, 0.018, "1h writes");
  assert.equal(b.long_context_applied, false);
});

test("long-context call above 200K: ccusage per-count rule and the provider's whole-request rule", () => {
  // Sonnet 4.5; long-context prices: input $6, output $22.50, 5m write $7.50, read $0.60.
  const c = call("claude-sonnet-4-5", {
    input_tokens: 10,
    output_tokens: 2_000,
    cache_creation_tokens: 50_000,
    cache_read_tokens: 300_000,
  });
  // ccusage: each count tiered on its own; only cache reads exceed 200K.
  //   input          10 × 3.00 / 1M            = 0.00003
  //   output      2,000 × 15.00 / 1M           = 0.03
  //   cache 5m   50,000 × 3.75 / 1M            = 0.1875
  //   cache read 200,000 × 0.30 / 1M           = 0.06
  //            + 100,000 × 0.60 / 1M           = 0.06
  //   total                                    = 0.33753
  near(costOfCall(c), 0.33753);
  assert.equal(costBreakdown(c)?.long_context_applied, true);
  // Provider rule: prompt = 10 + 50,000 + 300,000 = 350,010 > 200K → every token at the long-context price.
  //   10 × 6 + 2,000 × 22.5 + 50,000 × 7.5 + 300,000 × 0.6 = 60 + 45,000 + 375,000 + 180,000 = 600,060 / 1M
  near(costOfCall(c, { tierRule: "request" }), 0.60006);
});

test("ccusage rule: a count exactly at the threshold is not tiered, one token above is", () => {
  // Sonnet 4.5 input: 200,000 × 3 / 1M = 0.6; 200,001 → 0.6 + 1 × 6 / 1M = 0.600006
  near(costOfCall(call("claude-sonnet-4-5", { input_tokens: 200_000 })), 0.6);
  near(costOfCall(call("claude-sonnet-4-5", { input_tokens: 200_001 })), 0.600006);
  // Request rule at 200,001: all 200,001 × 6 / 1M = 1.200006
  near(costOfCall(call("claude-sonnet-4-5", { input_tokens: 200_001 }), { tierRule: "request" }), 1.200006);
});

test("gpt-5 call: cached input at the cached price, no cache-write charge", () => {
  //   input       20,000 × 1.25 / 1M  = 0.025
  //   cache read  80,000 × 0.125 / 1M = 0.01
  //   output       3,000 × 10 / 1M    = 0.03
  //   total                           = 0.065
  const c = call("gpt-5-2025-08-07", {
    input_tokens: 20_000,
    cache_read_tokens: 80_000,
    output_tokens: 3_000,
    reasoning_tokens: 2_000,
  });
  near(costOfCall(c), 0.065);
});

test("Gemini 2.5 Pro call above its 200K tier", () => {
  // ccusage rule: input 200,000 × 1.25 + 50,000 × 2.50 = 250,000 + 125,000 → 0.375
  //               output 4,000 × 10 = 40,000 → 0.04            total 0.415
  const c = call("models/gemini-2.5-pro", { input_tokens: 250_000, output_tokens: 4_000 });
  near(costOfCall(c), 0.415);
  // Provider rule: prompt 250,000 > 200K → 250,000 × 2.50 + 4,000 × 15 = 625,000 + 60,000 → 0.685
  near(costOfCall(c, { tierRule: "request" }), 0.685);
});

test("fast speed multiplies the whole call (Opus 4.6 fast mode is 6×)", () => {
  // (1,000 × 5 + 1,000 × 25) / 1M = 0.03; × 6 = 0.18
  const fast = call(
    "claude-opus-4-6",
    { input_tokens: 1_000, output_tokens: 1_000 },
    { speed: "fast", timestamp: "2026-05-01T10:00:00Z" },
  );
  near(costOfCall(fast), 0.18);
  const standard = call(
    "claude-opus-4-6",
    { input_tokens: 1_000, output_tokens: 1_000 },
    { speed: "standard", timestamp: "2026-05-01T10:00:00Z" },
  );
  near(costOfCall(standard), 0.03);
});

test("fast speed on a model without a fast price: standard price and one warning", () => {
  // Sonnet 4.5: 1,000 × 3 / 1M = 0.003, not multiplied.
  const sink = new DiagnosticSink("test");
  const calls = [
    call("claude-sonnet-4-5", { input_tokens: 1_000 }, { speed: "fast" }),
    call("claude-sonnet-4-5", { input_tokens: 1_000 }, { speed: "fast" }),
  ];
  near(costOfCalls(calls, sink), 0.006);
  assert.deepEqual(
    sink.rows.map((r) => r.code),
    ["price-fast-unknown"],
  );
});

test("dated prices: Opus 4.6 long-context premium before 2026-03-13, flat after", () => {
  const usage = { cache_read_tokens: 300_000 };
  // Before: 200,000 × 0.50 + 100,000 × 1.00 = 100,000 + 100,000 → 0.2
  near(costOfCall(call("claude-opus-4-6", usage, { timestamp: "2026-02-20T12:00:00Z" })), 0.2);
  // After: 300,000 × 0.50 → 0.15
  near(costOfCall(call("claude-opus-4-6", usage, { timestamp: "2026-04-01T12:00:00Z" })), 0.15);
  // No timestamp: current prices.
  near(costOfCall(call("claude-opus-4-6", usage)), 0.15);
});

test("dated prices: o3 before and after the 2025-06-10 price cut", () => {
  // Before: 1,000 × 10 + 1,000 × 40 = 50,000 → 0.05; after: 1,000 × 2 + 1,000 × 8 → 0.01
  near(
    costOfCall(
      call("o3-2025-04-16", { input_tokens: 1_000, output_tokens: 1_000 }, { timestamp: "2025-05-01T00:00:00Z" }),
    ),
    0.05,
  );
  near(
    costOfCall(
      call("o3-2025-04-16", { input_tokens: 1_000, output_tokens: 1_000 }, { timestamp: "2025-07-01T00:00:00Z" }),
    ),
    0.01,
  );
});

test("1-hour writes larger than all writes (bad data): 5-minute writes count as 0", () => {
  // Haiku 4.5: 1h writes 1,000 × 2.00 / 1M = 0.002; 5m = max(0, 500 − 1,000) = 0.
  near(costOfCall(call("claude-haiku-4-5", { cache_creation_tokens: 500, cache_creation_1h_tokens: 1_000 })), 0.002);
});

test("unknown model: null cost and one diagnostic per distinct model, never a silent 0", () => {
  const sink = new DiagnosticSink("test", "t.jsonl", "s1");
  const known = call("claude-haiku-4-5", { input_tokens: 1_000, output_tokens: 1_000 }); // 0.001 + 0.005 = 0.006
  const calls = [
    known,
    call("mystery-model-9", { input_tokens: 10 }),
    call("mystery-model-9", { output_tokens: 5 }),
    call(null, { input_tokens: 7 }),
  ];
  assert.equal(costOfCall(calls[1]), null);
  assert.equal(costOfCalls(calls, sink), null);
  assert.equal(sink.rows.length, 2);
  assert.ok(sink.rows.every((r) => r.code === "price-unknown-model" && r.severity === "warning"));
  assert.ok(sink.rows.some((r) => r.message.includes("mystery-model-9") && r.message.includes("2 calls")));
  assert.equal(sink.rows.find((r) => r.message.includes("mystery"))?.record, calls[1].record);
  assert.equal(sink.rows[0].session_id, "s1");

  const partial = partialCostOfCalls(calls);
  near(partial.known_usd, 0.006, "known part");
  assert.deepEqual(partial.unknown_models, [NO_MODEL, "mystery-model-9"]);
  assert.equal(partial.priced_calls, 1);
  assert.equal(partial.unpriced_calls, 3);
  assert.equal(partial.unpriced_tokens, 22);
});

test("all calls known: the sum, and no diagnostic", () => {
  const sink = new DiagnosticSink("test");
  const calls = [
    call("claude-haiku-4-5", { input_tokens: 1_000 }), // 0.001
    call("gpt-5-mini", { output_tokens: 1_000 }), // 0.002
  ];
  near(costOfCalls(calls, sink), 0.003);
  assert.equal(sink.rows.length, 0);
  assert.equal(costOfCalls([], sink), 0);
});

test("a call with zero usage costs 0 whatever its model, without a diagnostic", () => {
  const sink = new DiagnosticSink("test");
  assert.equal(costOfCall(call("<synthetic>", {})), 0);
  near(costOfCalls([call("<synthetic>", {}), call("claude-haiku-4-5", { output_tokens: 1_000 })], sink), 0.005);
  assert.equal(sink.rows.length, 0);
});
