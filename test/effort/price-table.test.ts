import { test } from "node:test";
import assert from "node:assert/strict";
import { findPrice, PRICE_FIELDS, PRICE_TABLE, PRICE_TABLE_VERSION, unverifiedPrices } from "../../src/effort";

test("the table has a version and covers the models seen in real logs", () => {
  assert.match(PRICE_TABLE_VERSION, /^\d{4}-\d{2}-\d{2}\.\d+$/);
  const required = [
    "claude-opus-4", "claude-opus-4-1", "claude-opus-4-5", "claude-opus-4-6", "claude-sonnet-4", "claude-sonnet-4-5",
    "claude-sonnet-4-6", "claude-3-7-sonnet", "claude-3-5-sonnet", "claude-haiku-4-5", "claude-3-5-haiku", "claude-fable-5",
    "gpt-5", "gpt-5-codex", "gpt-5-mini", "gpt-5.1", "gpt-5.1-codex", "gpt-5.1-codex-max", "gpt-5.1-codex-mini", "gpt-5.2",
    "gpt-5.2-codex", "gpt-5.3-codex", "gpt-5.4", "gpt-5.5", "gpt-4.1", "gpt-4o", "o3", "o4-mini",
    "gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-pro-preview", "gemini-3-flash-preview",
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
        assert.ok(Number.isFinite(q) && q >= p, `${key} long-context ${f} = ${q} below base ${p}`);
        assert.ok(e.long_context.sources[f].source.length > 0, `${key} long-context ${f} has no source`);
      }
    }
    if (e.long_context) assert.ok(e.long_context.threshold_tokens > 0, key);
    if (e.fast_multiplier !== null) {
      assert.ok(e.fast_multiplier >= 1, key);
      assert.ok(e.fast_source, `${key} fast multiplier without a source`);
    }
  }
});

test("Anthropic cache prices follow the published ratios; OpenAI and Google charge writes as input", () => {
  for (const e of PRICE_TABLE) {
    const p = e.usd_per_mtok;
    if (e.provider === "anthropic") {
      assert.ok(Math.abs(p.cache_write_5m - 1.25 * p.input) < 1e-9, `${e.model} 5m`);
      assert.ok(Math.abs(p.cache_write_1h - 2 * p.input) < 1e-9, `${e.model} 1h`);
      assert.ok(Math.abs(p.cache_read - 0.1 * p.input) < 1e-9, `${e.model} read`);
    } else {
      assert.equal(p.cache_write_5m, p.input, `${e.model} 5m`);
      assert.equal(p.cache_write_1h, p.input, `${e.model} 1h`);
      assert.ok(p.cache_read <= p.input, `${e.model} read`);
    }
  }
});

test("spot prices (USD per million tokens)", () => {
  const s45 = findPrice("claude-sonnet-4-5");
  assert.deepEqual(s45?.usd_per_mtok, { input: 3, output: 15, cache_write_5m: 3.75, cache_write_1h: 6, cache_read: 0.3 });
  assert.deepEqual(s45?.long_context?.usd_per_mtok, { input: 6, output: 22.5, cache_write_5m: 7.5, cache_write_1h: 12, cache_read: 0.6 });
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
