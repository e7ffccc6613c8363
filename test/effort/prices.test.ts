import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalModel, findPrice, normalizeModelName, PRICE_TABLE } from "../../src/effort";

function modelOf(name: string | null, at: string | null = null): string | null {
  return findPrice(name, at)?.model ?? null;
}

test("dated ids match their undated entry", () => {
  assert.equal(modelOf("claude-sonnet-4-5-20250929"), "claude-sonnet-4-5");
  assert.equal(modelOf("claude-3-5-sonnet-20241022"), "claude-3-5-sonnet");
  assert.equal(modelOf("claude-3-5-sonnet-20240620"), "claude-3-5-sonnet");
  assert.equal(modelOf("claude-opus-4-5-20251101"), "claude-opus-4-5");
  assert.equal(modelOf("claude-opus-4-20250514"), "claude-opus-4");
  assert.equal(modelOf("claude-haiku-4-5-20251001"), "claude-haiku-4-5");
  assert.equal(modelOf("claude-3-5-haiku-20241022"), "claude-3-5-haiku");
  assert.equal(modelOf("gpt-5-2025-08-07"), "gpt-5");
  assert.equal(modelOf("gpt-5-mini-2025-08-07"), "gpt-5-mini");
  assert.equal(modelOf("gpt-4.1-2025-04-14"), "gpt-4.1");
  assert.equal(modelOf("o4-mini-2025-04-16"), "o4-mini");
});

test("an exact dated id wins over the stripped one (gpt-4o's first snapshot has its own price)", () => {
  assert.equal(modelOf("gpt-4o-2024-05-13"), "gpt-4o-2024-05-13");
  assert.equal(modelOf("gpt-4o-2024-08-06"), "gpt-4o");
  assert.equal(findPrice("gpt-4o-2024-05-13")?.usd_per_mtok.input, 5);
  assert.equal(findPrice("gpt-4o-2024-11-20")?.usd_per_mtok.input, 2.5);
});

test("provider prefixes, platform decorations and case", () => {
  assert.equal(modelOf("anthropic/claude-sonnet-4-5"), "claude-sonnet-4-5");
  assert.equal(modelOf("anthropic/claude-sonnet-4.5"), "claude-sonnet-4-5");
  assert.equal(modelOf("openai/gpt-5.1-codex-max"), "gpt-5.1-codex-max");
  assert.equal(modelOf("models/gemini-2.5-pro"), "gemini-2.5-pro");
  assert.equal(modelOf("google/gemini-3-pro-preview"), "gemini-3-pro-preview");
  assert.equal(modelOf("openrouter/anthropic/claude-opus-4.6"), "claude-opus-4-6");
  assert.equal(modelOf("CLAUDE-OPUS-4-6"), "claude-opus-4-6");
  assert.equal(modelOf("  GPT-5.4  "), "gpt-5.4");
  assert.equal(modelOf("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), "claude-sonnet-4-5");
  assert.equal(modelOf("anthropic.claude-3-5-sonnet-20241022-v2:0"), "claude-3-5-sonnet");
  assert.equal(modelOf("claude-sonnet-4-5@20250929"), "claude-sonnet-4-5");
  assert.equal(modelOf("claude-opus-4-6[1m]"), "claude-opus-4-6");
  assert.equal(modelOf("claude-3-5-sonnet-latest"), "claude-3-5-sonnet");
  assert.equal(modelOf("codex-mini-latest"), "codex-mini-latest");
});

test("no prefix or fuzzy fallback between sibling models", () => {
  assert.equal(modelOf("gpt-5.1-codex-mini"), "gpt-5.1-codex-mini");
  assert.equal(modelOf("gpt-5.1-codex"), "gpt-5.1-codex");
  assert.equal(modelOf("gpt-5.1"), "gpt-5.1");
  assert.equal(modelOf("gpt-5.2-codex"), "gpt-5.2-codex");
  assert.equal(modelOf("gpt-5-codex"), "gpt-5-codex");
  assert.equal(modelOf("claude-opus-4-1"), "claude-opus-4-1");
  assert.equal(modelOf("claude-opus-4"), "claude-opus-4");
  assert.equal(modelOf("gemini-2.5-flash-lite"), "gemini-2.5-flash-lite");
  assert.equal(modelOf("gemini-2.5-flash"), "gemini-2.5-flash");
});

test("unknown names give null", () => {
  assert.equal(findPrice(null), null);
  assert.equal(findPrice(""), null);
  assert.equal(findPrice("   "), null);
  assert.equal(findPrice("<synthetic>"), null);
  assert.equal(findPrice("gpt-6"), null);
  assert.equal(findPrice("claude-sonnet-4-5-extra"), null);
  assert.equal(findPrice("gpt-5.1-codex-ultra"), null);
  assert.equal(findPrice("gemini-2.5-pro-exp-03-25"), null);
  assert.equal(findPrice("kimi-k2.5"), null);
});

test("periods: the entry in force at a time", () => {
  assert.equal(findPrice("claude-opus-4-6", "2026-02-10T00:00:00Z")?.effective_date, "2026-02-05");
  assert.equal(findPrice("claude-opus-4-6", "2026-03-13T00:00:00Z")?.effective_date, "2026-03-13");
  assert.equal(findPrice("claude-opus-4-6", "2026-03-12T23:59:59Z")?.effective_date, "2026-02-05");
  assert.equal(findPrice("claude-opus-4-6")?.effective_date, "2026-03-13");
  // A time before every period (clock skew): the earliest period.
  assert.equal(findPrice("claude-opus-4-6", "2020-01-01")?.effective_date, "2026-02-05");
  // Epoch milliseconds work too; an unparsable time counts as unknown (current prices).
  assert.equal(findPrice("o3", Date.parse("2025-05-01T00:00:00Z"))?.usd_per_mtok.input, 10);
  assert.equal(findPrice("o3", "not a date")?.usd_per_mtok.input, 2);
});

test("every model id and alias in the table finds its own entry", () => {
  for (const e of PRICE_TABLE) {
    assert.equal(findPrice(e.model, e.effective_date)?.model, e.model, e.model);
    for (const a of e.aliases) assert.equal(findPrice(a, e.effective_date)?.model, e.model, `${a} → ${e.model}`);
  }
});

test("normalizeModelName and canonicalModel", () => {
  assert.equal(normalizeModelName("Anthropic/Claude-Sonnet-4.5"), "claude-sonnet-4-5");
  assert.equal(normalizeModelName("openai/gpt-5.1"), "gpt-5.1"); // dots kept outside Claude names
  assert.equal(canonicalModel("claude-sonnet-4-5-20250929"), "claude-sonnet-4-5");
  assert.equal(canonicalModel("Some/Unknown-Model"), "unknown-model");
  assert.equal(canonicalModel(null), null);
});
