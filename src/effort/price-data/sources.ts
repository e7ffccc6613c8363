/**
 * Where the prices of ./price-table.ts come from (its header describes the research), and the small builders
 * that turn a provider's published numbers into the table's five fields.
 */
import type { Citation, LongContextTier, PriceField, Prices } from "../price-table";

export const LITELLM = "LiteLLM model_prices_and_context_window.json (Wei-Shaw/model-price-repo @ f9ff147, 2026-07-24)";
export const GENAI = "pydantic/genai-prices prices/providers (@ 47df840, 2026-08-21)";
export const CCUSAGE = "ccusage rust/crates/ccusage/src/pricing.rs (@ 5816e64, 2026-06-13)";
export const CCUSAGE_FAST = "ccusage rust/crates/ccusage/src/fast-multiplier-overrides.json (@ 5816e64)";

export const ANTHROPIC_PAGE = "https://platform.claude.com/docs/en/about-claude/pricing (Model pricing table)";
export const ANTHROPIC_PAGE_2025 =
  "https://docs.anthropic.com/en/docs/about-claude/pricing (2025 version: Sonnet 3.5 row; Sonnet 4 long context table)";
export const ANTHROPIC_FAST = "https://platform.claude.com/docs/en/build-with-claude/fast-mode (Opus 4.6 pricing table)";
export const OPENAI_PAGE = "https://developers.openai.com/api/docs/pricing";
export const GOOGLE_PAGE = "https://ai.google.dev/gemini-api/docs/pricing";

// Sources of the second pass (see the header of ../price-table.ts).
export const CLAUDE_OVERVIEW = (model: string, what: string): string =>
  `https://platform.claude.com/docs/en/models/${model}/overview (${what})`;
export const CLAUDE_CODE_FAST = "https://code.claude.com/docs/en/fast-mode (models with fast mode; Opus 4.8 fast removed 2026-11-30)";
export const OPENAI_MODEL = (model: string): string => `https://developers.openai.com/api/docs/models/${model}`;
export const OPENAI_FAST = "https://openai.com/api-fast-mode/ (Fast mode price table: GPT-5.6 Sol/Terra/Luna at 2× Standard)";
export const GOOGLE_LATEST = "https://ai.google.dev/gemini-api/docs/generate-content/latest-model (new models table, zh-CN)";
export const GOOGLE_TRANSCRIPT =
  "ai.google.dev/gemini-api/docs/pricing as transcribed verbatim by github.com/api-evangelist/gemini plans/gemini-plans-pricing.yml (read 2026-09-20) and api-evangelist/deepmind (read 2026-10-07)";

export const anthropicPage2026: Citation = {
  source: `${ANTHROPIC_PAGE}, 2026 version with the Fable/Mythos/Opus 5 rows`,
  verified: true,
};

export const anthropicVerified: Citation = { source: ANTHROPIC_PAGE, verified: true };
export const anthropicVerified2025: Citation = { source: ANTHROPIC_PAGE_2025, verified: true };

export const crossChecked = (page: string): Citation => ({
  source: page,
  verified: false,
  note: `provider page not read; ${LITELLM} and ${GENAI} agree`,
});

export const openaiCross = crossChecked(OPENAI_PAGE);
export const googleCross = crossChecked(GOOGLE_PAGE);

/** The same citation for every field. */
export function all(c: Citation): Record<PriceField, Citation> {
  return { input: c, output: c, cache_write_5m: c, cache_write_1h: c, cache_read: c };
}

/** OpenAI/Google: cache writes are input; the citation of the write prices is the input's. */
export function noCacheWrite(input: Citation, output: Citation, cacheRead: Citation): Record<PriceField, Citation> {
  const write: Citation = {
    source: input.source,
    verified: input.verified,
    note: "no separate cache-write fee: set to the input price (table convention)",
  };
  return { input, output, cache_write_5m: write, cache_write_1h: write, cache_read: cacheRead };
}

/**
 * Anthropic prices in the column order of its pricing table: base input, 5m
 * cache writes, 1h cache writes, cache hits, output. Written out as published
 * (not computed from ratios, which would give 0.30000000000000004).
 */
export function anthropic(input: number, cacheWrite5m: number, cacheWrite1h: number, cacheRead: number, output: number): Prices {
  return { input, output, cache_write_5m: cacheWrite5m, cache_write_1h: cacheWrite1h, cache_read: cacheRead };
}

/**
 * OpenAI/Google prices in the column order of their tables: input, cached
 * input, output. No cache-write fee, so cache writes are priced as input.
 */
export function noWriteFee(input: number, cachedInput: number, output: number): Prices {
  return { input, output, cache_write_5m: input, cache_write_1h: input, cache_read: cachedInput };
}

/**
 * OpenAI prices from GPT-5.6 on, in the column order of their model pages:
 * input, cached input, cache writes (1.25× input, 30-minute retention), output.
 * Both write fields carry the one published write price.
 */
export function withWriteFee(input: number, cachedInput: number, cacheWrite: number, output: number): Prices {
  return { input, output, cache_write_5m: cacheWrite, cache_write_1h: cacheWrite, cache_read: cachedInput };
}

/** Anthropic 1M-context premium above 200K input tokens (input 2×, output 1.5×, cache prices on the doubled input). */
export function anthropicLongContext(prices: Prices, sources: Record<PriceField, Citation>): LongContextTier {
  return { threshold_tokens: 200_000, usd_per_mtok: prices, sources };
}

export const derivedCacheAbove: Citation = {
  source: `${LITELLM}; ${GENAI}`,
  verified: false,
  note: "cache prices above 200K = Anthropic's cache multipliers on the long-context input price; not read on the provider page",
};

export const solPromo: Citation = {
  source: "https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol (and ja-JP): $4 input, $0.40 cached, $20 output",
  verified: true,
};
export const solPromoWrite: Citation = {
  source: "https://developers.openai.com/ja-JP/api/docs/models/gpt-5.6-sol",
  verified: true,
  note: "the page states cache writes at 1.25× the uncached input price: $5",
};
