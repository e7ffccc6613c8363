import { test } from "node:test";
import assert from "node:assert/strict";
import {
  costBreakdown,
  costOfCall,
  findPrice,
  PRICE_FIELDS,
  PRICE_TABLE,
  PRICE_TABLE_VERSION,
  unverifiedPrices,
} from "../../src/effort";
import { apiCall } from "../helpers/calls";

test("the table has a version and covers the models seen in real logs", () => {
  assert.match(PRICE_TABLE_VERSION, /^\d{4}-\d{2}-\d{2}\.\d+$/);
  const required = [
    "claude-opus-4",
    "claude-opus-4-1",
    "claude-opus-4-5",
    "claude-opus-4-6",
    "claude-sonnet-4",
    "claude-sonnet-4-5",
    "claude-sonnet-4-6",
    "claude-3-7-sonnet",
    "claude-3-5-sonnet",
    "claude-haiku-4-5",
    "claude-3-5-haiku",
    "claude-fable-5",
    "gpt-5",
    "gpt-5-codex",
    "gpt-5-mini",
    "gpt-5.1",
    "gpt-5.1-codex",
    "gpt-5.1-codex-max",
    "gpt-5.1-codex-mini",
    "gpt-5.2",
    "gpt-5.2-codex",
    "gpt-5.3-codex",
    "gpt-5.4",
    "gpt-5.5",
    "gpt-4.1",
    "gpt-4o",
    "o3",
    "o4-mini",
    "gemini-2.5-pro",
    "gemini-2.5-flash",
    "gemini-3-pro-preview",
    "gemini-3-flash-preview",
    // Mid/late 2026 (the second pass of 2026-11-30).
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-opus-5-5",
    "claude-sonnet-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
    "claude-fable-5-1",
    "claude-fable-5-2",
    "claude-mythos-5",
    "claude-mythos-5-1",
    "gpt-5.6-sol",
    "gpt-5.6-terra",
    "gpt-5.6-luna",
    "gpt-6-sol",
    "gpt-6.1-sol",
    "gemini-3.1-pro-preview",
    "gemini-3.5-flash",
    "gemini-3.5-flash-lite",
    "gemini-3.6-flash",
    "gemini-3.7-flash",
    "gemini-3.8-flash",
  ];
  for (const m of required) assert.ok(findPrice(m), `no price for ${m}`);
});

test("every entry: dated, finite non-negative prices, a source for each price", () => {
  const seen = new Set<string>();
  for (const e of PRICE_TABLE) {
    assert.match(e.effective_date, /^\d{4}-\d{2}-\d{2}$/, e.model);
    assert.ok(Number.isFinite(Date.parse(e.effective_date)), e.model);
    const key = `${e.model}@${e.effective_date}`;
    assert.ok(!seen.has(key), `duplicate ${key}`);
    seen.add(key);
    for (const f of PRICE_FIELDS) {
      const p = e.usd_per_mtok[f];
      assert.ok(Number.isFinite(p) && p >= 0, `${key} ${f} = ${p}`);
      assert.ok(e.sources[f].source.length > 0, `${key} ${f} has no source`);
      if (!e.sources[f].verified) assert.ok(e.sources[f].note, `${key} ${f} unverified without a note`);
      if (e.long_context) {
        const q = e.long_context.usd_per_mtok[f];
        const c = e.long_context.sources[f];
        assert.ok(Number.isFinite(q) && q >= p, `${key} long-context ${f} = ${q} below base ${p}`);
        assert.ok(c.source.length > 0, `${key} long-context ${f} has no source`);
        if (!c.verified) assert.ok(c.note, `${key} long-context ${f} unverified without a note`);
      }
    }
    if (e.long_context) assert.ok(e.long_context.threshold_tokens > 0, key);
    if (e.fast_multiplier !== null) {
      assert.ok(e.fast_multiplier >= 1, key);
      assert.ok(e.fast_source, `${key} fast multiplier without a source`);
      if (!e.fast_source.verified) assert.ok(e.fast_source.note, `${key} unverified fast multiplier without a note`);
    }
  }
});

/**
 * Anthropic cache hits published below 0.1× input (pricing page and model
 * pages): Fable/Mythos 5.1 and Fable 5.2 $0.25 or $0.20 hits = 0.025×; Opus 5.5
 * $0.20 on $4 = 0.05×; Sonnet 5.5 from its 2026-10-07 cut $0.10 on $2 = 0.05×.
 */
const ANTHROPIC_READ_RATIO: Readonly<Record<string, number>> = {
  "claude-fable-5-1@2026-09-01": 0.025,
  "claude-mythos-5-1@2026-09-01": 0.025,
  "claude-fable-5-2@2026-11-09": 0.025,
  "claude-opus-5-5@2026-09-22": 0.05,
  "claude-sonnet-5-5@2026-10-07": 0.05,
};

/** OpenAI models that bill cache writes (GPT-5.6 on): 1.25× input, the model pages' rule. */
const OPENAI_WRITE_FEE = new Set(["gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-6-sol", "gpt-6.1-sol"]);

test("cache prices follow the published ratios: Anthropic writes 1.25×/2× and hits 0.1× (or the listed cut); OpenAI writes 1.25× from GPT-5.6, else input", () => {
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  for (const e of PRICE_TABLE) {
    const key = `${e.model}@${e.effective_date}`;
    const tiers = e.long_context ? [e.usd_per_mtok, e.long_context.usd_per_mtok] : [e.usd_per_mtok];
    for (const p of tiers) {
      if (e.provider === "anthropic") {
        assert.ok(near(p.cache_write_5m, 1.25 * p.input), `${key} 5m`);
        assert.ok(near(p.cache_write_1h, 2 * p.input), `${key} 1h`);
        assert.ok(near(p.cache_read, (ANTHROPIC_READ_RATIO[key] ?? 0.1) * p.input), `${key} read`);
      } else if (OPENAI_WRITE_FEE.has(e.model)) {
        assert.ok(near(p.cache_write_5m, 1.25 * p.input), `${key} 5m`);
        assert.equal(p.cache_write_1h, p.cache_write_5m, `${key} 1h`);
        assert.ok(p.cache_read <= 0.1 * p.input + 1e-12, `${key} read`);
      } else {
        assert.equal(p.cache_write_5m, p.input, `${key} 5m`);
        assert.equal(p.cache_write_1h, p.input, `${key} 1h`);
        assert.ok(p.cache_read <= p.input, `${key} read`);
      }
    }
  }
  // Every exception names an entry that exists (a renamed entry must not silently fall back to 0.1×).
  for (const key of Object.keys(ANTHROPIC_READ_RATIO)) {
    assert.ok(
      PRICE_TABLE.some((e) => `${e.model}@${e.effective_date}` === key),
      `no entry ${key}`,
    );
  }
  for (const m of OPENAI_WRITE_FEE) assert.ok(findPrice(m), m);
});

test("spot prices (USD per million tokens)", () => {
  const s45 = findPrice("claude-sonnet-4-5");
  assert.deepEqual(s45?.usd_per_mtok, {
    input: 3,
    output: 15,
    cache_write_5m: 3.75,
    cache_write_1h: 6,
    cache_read: 0.3,
  });
  assert.deepEqual(s45?.long_context?.usd_per_mtok, {
    input: 6,
    output: 22.5,
    cache_write_5m: 7.5,
    cache_write_1h: 12,
    cache_read: 0.6,
  });
  assert.equal(findPrice("claude-opus-4-1")?.usd_per_mtok.output, 75);
  assert.equal(findPrice("claude-opus-4-5")?.usd_per_mtok.input, 5);
  assert.equal(findPrice("gpt-5.4")?.long_context?.threshold_tokens, 272_000);
  assert.equal(findPrice("gemini-3-pro-preview")?.long_context?.usd_per_mtok.output, 18);
});

test("unverifiedPrices lists the flagged prices with their sources", () => {
  const list = unverifiedPrices();
  assert.ok(list.length > 0);
  assert.ok(list.some((u) => u.model === "gpt-5.5" && u.price === "fast_multiplier"));
  assert.ok(!list.some((u) => u.model === "claude-sonnet-4-5" && u.price === "input"));
  for (const u of list) assert.ok(u.source.length > 0);
});

// ------------------------------------------------ mid/late 2026 (second pass)

test("2026 models resolve from the names logs use: [1m] suffix, dated ids, prefixes, aliases", () => {
  const modelOf = (name: string, at: string | null = null) => findPrice(name, at)?.model ?? null;
  // Claude Code writes "[1m]" on 1M-context sessions; Bedrock, Vertex and OpenRouter decorate the id.
  assert.equal(modelOf("claude-opus-5-5[1m]"), "claude-opus-5-5");
  assert.equal(modelOf("claude-sonnet-5-5[1m]"), "claude-sonnet-5-5");
  assert.equal(modelOf("claude-haiku-5-5[1m]"), "claude-haiku-5-5");
  assert.equal(modelOf("claude-opus-4-8"), "claude-opus-4-8");
  assert.equal(modelOf("claude-opus-5[1m]"), "claude-opus-5");
  assert.equal(modelOf("claude-sonnet-5"), "claude-sonnet-5");
  assert.equal(modelOf("claude-fable-5-1"), "claude-fable-5-1");
  assert.equal(modelOf("claude-mythos-5"), "claude-mythos-5");
  assert.equal(modelOf("claude-mythos-5-1"), "claude-mythos-5-1");
  assert.equal(modelOf("anthropic/claude-opus-5.5"), "claude-opus-5-5");
  assert.equal(modelOf("us.anthropic.claude-haiku-5-5-v1:0"), "claude-haiku-5-5");
  assert.equal(modelOf("claude-opus-5@20260724"), "claude-opus-5");
  // Codex turn_context.model, with and without a snapshot date; "gpt-5.6" is the alias of Sol.
  assert.equal(modelOf("gpt-5.6-sol"), "gpt-5.6-sol");
  assert.equal(modelOf("gpt-5.6"), "gpt-5.6-sol");
  assert.equal(modelOf("gpt-5.6-terra"), "gpt-5.6-terra");
  assert.equal(modelOf("openai/gpt-5.6-luna"), "gpt-5.6-luna");
  assert.equal(modelOf("gpt-6-sol"), "gpt-6-sol");
  assert.equal(modelOf("gpt-6.1-sol"), "gpt-6.1-sol");
  assert.equal(modelOf("gpt-6.1-sol-2026-09-29"), "gpt-6.1-sol");
  // Gemini CLI.
  assert.equal(modelOf("models/gemini-3.8-flash"), "gemini-3.8-flash");
  assert.equal(modelOf("gemini-3.6-flash"), "gemini-3.6-flash");
  assert.equal(modelOf("gemini-3.5-flash-lite"), "gemini-3.5-flash-lite");
});

test("2026 siblings never fall back to each other; unpriced neighbours stay unknown", () => {
  const modelOf = (name: string) => findPrice(name)?.model ?? null;
  assert.equal(modelOf("claude-opus-5"), "claude-opus-5");
  assert.equal(modelOf("claude-opus-5-5"), "claude-opus-5-5");
  assert.equal(modelOf("claude-fable-5"), "claude-fable-5");
  assert.equal(modelOf("claude-fable-5-1"), "claude-fable-5-1");
  assert.equal(modelOf("gpt-6-sol"), "gpt-6-sol");
  assert.equal(modelOf("gemini-3.5-flash"), "gemini-3.5-flash");
  // Not priced (no price found, or not researched): null, never a sibling's price.
  assert.equal(findPrice("claude-mythos-5-2"), null);
  assert.equal(findPrice("gpt-6.2-sol"), null);
  assert.equal(findPrice("gpt-6-luna"), null);
  assert.equal(findPrice("gpt-5.6-sol-pro"), null);
  assert.equal(findPrice("gemini-3.1-flash-lite-preview"), null);
});

test("2026 spot prices are the cited ones (USD per million tokens)", () => {
  const at = (m: string, t: string | null = null) => findPrice(m, t)?.usd_per_mtok;
  // Pricing page rows / model pages, in the order input, output, 5m write, 1h write, cache read.
  assert.deepEqual(at("claude-opus-4-8"), {
    input: 5,
    output: 25,
    cache_write_5m: 6.25,
    cache_write_1h: 10,
    cache_read: 0.5,
  });
  assert.deepEqual(at("claude-opus-5"), {
    input: 5,
    output: 25,
    cache_write_5m: 6.25,
    cache_write_1h: 10,
    cache_read: 0.5,
  });
  assert.deepEqual(at("claude-opus-5-5"), {
    input: 4,
    output: 20,
    cache_write_5m: 5,
    cache_write_1h: 8,
    cache_read: 0.2,
  });
  assert.deepEqual(at("claude-sonnet-5"), {
    input: 2,
    output: 10,
    cache_write_5m: 2.5,
    cache_write_1h: 4,
    cache_read: 0.2,
  });
  assert.deepEqual(at("claude-fable-5-1"), {
    input: 10,
    output: 50,
    cache_write_5m: 12.5,
    cache_write_1h: 20,
    cache_read: 0.25,
  });
  assert.deepEqual(at("claude-mythos-5"), at("claude-fable-5"));
  assert.deepEqual(at("claude-mythos-5-1"), at("claude-fable-5-1"));
  assert.deepEqual(at("claude-fable-5-2"), {
    input: 8,
    output: 40,
    cache_write_5m: 10,
    cache_write_1h: 16,
    cache_read: 0.2,
  });
  const haiku = findPrice("claude-haiku-5-5");
  assert.deepEqual(haiku?.usd_per_mtok, {
    input: 0.1,
    output: 0.5,
    cache_write_5m: 0.125,
    cache_write_1h: 0.2,
    cache_read: 0.01,
  });
  assert.equal(haiku?.long_context?.threshold_tokens, 100_000);
  assert.deepEqual(haiku?.long_context?.usd_per_mtok, {
    input: 0.5,
    output: 2.5,
    cache_write_5m: 0.625,
    cache_write_1h: 1,
    cache_read: 0.05,
  });
  // OpenAI: input, cached input, cache writes (both write fields), output; 272K tier 2× input/cache, 1.5× output.
  assert.deepEqual(at("gpt-6-sol"), {
    input: 2,
    output: 10,
    cache_write_5m: 2.5,
    cache_write_1h: 2.5,
    cache_read: 0.2,
  });
  assert.deepEqual(findPrice("gpt-6-sol")?.long_context?.usd_per_mtok, {
    input: 4,
    output: 15,
    cache_write_5m: 5,
    cache_write_1h: 5,
    cache_read: 0.4,
  });
  assert.deepEqual(at("gpt-6.1-sol"), {
    input: 2,
    output: 10,
    cache_write_5m: 2.5,
    cache_write_1h: 2.5,
    cache_read: 0.1,
  });
  assert.deepEqual(at("gpt-5.6-luna"), {
    input: 0.2,
    output: 1.2,
    cache_write_5m: 0.25,
    cache_write_1h: 0.25,
    cache_read: 0.02,
  });
  // Gemini: writes are input (no write fee).
  assert.deepEqual(at("gemini-3.6-flash"), {
    input: 1.5,
    output: 7.5,
    cache_write_5m: 1.5,
    cache_write_1h: 1.5,
    cache_read: 0.15,
  });
  assert.deepEqual(at("gemini-3.8-flash"), {
    input: 0.75,
    output: 3.75,
    cache_write_5m: 0.75,
    cache_write_1h: 0.75,
    cache_read: 0.075,
  });
  // Fast multipliers: 2× on Opus 4.8/5/5.5 and every GPT-5.6/6.x; none known for Fable 5.2, none offered on Sonnet/Haiku.
  for (const m of [
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-opus-5-5",
    "gpt-5.6-sol",
    "gpt-5.6-terra",
    "gpt-5.6-luna",
    "gpt-6-sol",
    "gpt-6.1-sol",
  ]) {
    assert.equal(findPrice(m)?.fast_multiplier, 2, m);
  }
  for (const m of ["claude-fable-5-2", "claude-sonnet-5-5", "claude-haiku-5-5"])
    assert.equal(findPrice(m)?.fast_multiplier, null, m);
});

test("2026 dated price changes pick the period on each side of the date", () => {
  const read = (m: string, t: string | null) => findPrice(m, t)?.usd_per_mtok.cache_read;
  const input = (m: string, t: string | null) => findPrice(m, t)?.usd_per_mtok.input;
  // Sonnet 5.5 cache hits $0.20 → $0.10 on 2026-10-07 (00:00 UTC); the other prices stay.
  assert.equal(read("claude-sonnet-5-5", "2026-10-06T23:59:59Z"), 0.2);
  assert.equal(read("claude-sonnet-5-5", "2026-10-07T00:00:00Z"), 0.1);
  assert.equal(read("claude-sonnet-5-5[1m]", "2026-11-29T12:00:00Z"), 0.1);
  assert.equal(read("claude-sonnet-5-5", null), 0.1); // no time: current prices
  assert.equal(findPrice("claude-sonnet-5-5", "2026-10-06T23:59:59Z")?.usd_per_mtok.output, 10);
  assert.equal(findPrice("claude-sonnet-5-5", "2026-10-07T00:00:00Z")?.usd_per_mtok.output, 10);
  // GPT-5.6 Terra $2.50 → $2.00 and Luna $1.00 → $0.20 on 2026-07-30.
  assert.equal(input("gpt-5.6-terra", "2026-07-29T23:59:59Z"), 2.5);
  assert.equal(input("gpt-5.6-terra", "2026-07-30T00:00:00Z"), 2);
  assert.equal(input("gpt-5.6-luna", "2026-07-29T23:59:59Z"), 1);
  assert.equal(input("gpt-5.6-luna", "2026-07-30T00:00:00Z"), 0.2);
  // GPT-5.6 Sol promotion from 2026-08-21: $5/$30 → $4/$20; still in force today (no later entry).
  assert.equal(input("gpt-5.6-sol", "2026-08-20T23:59:59Z"), 5);
  assert.equal(input("gpt-5.6-sol", "2026-08-21T00:00:00Z"), 4);
  assert.equal(findPrice("gpt-5.6", "2026-11-30T00:00:00Z")?.usd_per_mtok.output, 20);
});

test("2026 costs, worked by hand: Haiku 5.5's 100K prompt tier, Opus 5.5 fast, GPT-6 Sol cache writes", () => {
  const near = (a: number | null, b: number) => assert.ok(a !== null && Math.abs(a - b) < 1e-12, `${a} vs ${b}`);
  // Haiku 5.5, prompt = 40,000 input + 60,000 cache reads = 100,000: not over 100K → base prices.
  //   40,000 × 0.10 + 60,000 × 0.01 + 1,000 × 0.50 = 4,000 + 600 + 500 = 5,100 → $0.0051
  const atLimit = apiCall("claude-haiku-5-5", {
    input_tokens: 40_000,
    cache_read_tokens: 60_000,
    output_tokens: 1_000,
  });
  near(costOfCall(atLimit, { tierRule: "request" }), 0.0051);
  // Prompt 50,000 + 60,000 = 110,000 > 100K → every token at the higher prices (provider rule):
  //   50,000 × 0.50 + 60,000 × 0.05 + 1,000 × 2.50 = 25,000 + 3,000 + 2,500 = 30,500 → $0.0305
  const over = apiCall("claude-haiku-5-5", { input_tokens: 50_000, cache_read_tokens: 60_000, output_tokens: 1_000 });
  near(costOfCall(over, { tierRule: "request" }), 0.0305);
  assert.equal(costBreakdown(over, { tierRule: "request" })?.long_context_applied, true);
  // Opus 5.5 in fast mode: 10,000 input × $4 + 2,000 output × $20 = 40,000 + 40,000 → $0.08, × 2 = $0.16.
  const fast = apiCall("claude-opus-5-5[1m]", { input_tokens: 10_000, output_tokens: 2_000 }, { speed: "fast" });
  near(costOfCall(fast), 0.16);
  // GPT-6 Sol with cache writes (a client that reports them): 1,000 × $2 + 4,000 writes × $2.50
  //   + 10,000 cached × $0.20 + 500 × $10 = 2,000 + 10,000 + 2,000 + 5,000 = 19,000 → $0.019
  const sol = apiCall("gpt-6-sol", {
    input_tokens: 1_000,
    cache_creation_tokens: 4_000,
    cache_read_tokens: 10_000,
    output_tokens: 500,
  });
  near(costOfCall(sol), 0.019);
});

test("2026 unverified prices are flagged with their sources", () => {
  const list = unverifiedPrices();
  const has = (model: string, price: string) => list.some((u) => u.model === model && u.price === price);
  assert.ok(has("claude-sonnet-5-5", "cache_read")); // the 2026-10-07 cut: third-party only
  assert.ok(!list.some((u) => u.model === "claude-sonnet-5-5" && u.price === "input"));
  assert.ok(has("claude-haiku-5-5", "long_context.cache_read"));
  assert.ok(!has("claude-haiku-5-5", "long_context.input"));
  assert.ok(has("claude-fable-5-2", "input"));
  assert.ok(has("claude-opus-5-5", "fast_multiplier"));
  assert.ok(!has("gpt-5.6-luna", "fast_multiplier")); // openai.com/api-fast-mode
  assert.ok(!list.some((u) => u.model === "claude-opus-5" && u.price === "input"));
});
