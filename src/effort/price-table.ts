/**
 * The price table (metrics.md §5, "Cost"): list prices in USD per million
 * tokens, per model, as data. Each entry is one model over one period: it
 * applies from `effective_date` until the next entry with the same `model`
 * starts (see `findPrice` in prices.ts). Every price names where it comes from;
 * `verified: false` marks a price that was not read on the provider's own page
 * (see the note on each).
 *
 * Conventions:
 * - `input` is uncached input; `cache_read` is the cache-hit price.
 * - Google, and OpenAI before GPT-5.6, have no cache-write fee: a prompt that
 *   fills the cache is billed as ordinary input, and cached input is billed at
 *   their "cached input" / "context caching" price. So for them
 *   `cache_write_5m` and `cache_write_1h` equal `input` (the same convention as
 *   ccusage/LiteLLM). Gemini's hourly cache-storage fee is not modelled.
 * - OpenAI from GPT-5.6 (July 2026) bills cache writes at 1.25× uncached input
 *   (the model pages; that price buys 30 minutes of retention). It is the one
 *   cache-write price they publish for these models, so both write fields
 *   carry it. (Codex logs report no cache writes; other clients may.)
 * - Anthropic's 5-minute cache write is 1.25× input, the 1-hour write 2× input,
 *   a cache hit 0.1× input (the published table; ccusage prices 1-hour writes
 *   at 2× input too). From Fable 5.1 (Sept 2026) some models have cheaper
 *   hits: 0.05× (Opus 5.5, Sonnet 5.5 from 2026-10-07) or 0.025× (Fable/Mythos
 *   5.1, Fable 5.2).
 * - `long_context`: prices that apply above `threshold_tokens` (see cost.ts for
 *   how the threshold is applied).
 * - `fast_multiplier`: factor on the whole call when its `speed` is "fast"
 *   (Claude fast mode, Codex fast/priority tier), as ccusage applies it.
 * - Batch, priority/flex (other than "fast"), regional and data-residency
 *   surcharges are not modelled.
 *
 * Research (2026-11-30): provider pages found with the `search` tool; cross-
 * checks against three independent machine-readable tables:
 * - LiteLLM `model_prices_and_context_window.json`, as mirrored by
 *   github.com/Wei-Shaw/model-price-repo @ f9ff147 (2026-07-24);
 * - github.com/pydantic/genai-prices `prices/providers/*.yml` @ 47df840
 *   (2026-08-21), which records dated price changes;
 * - ccusage's built-in prices, github.com/ryoppippi/ccusage
 *   `rust/crates/ccusage/src/pricing.rs` and `fast-multiplier-overrides.json`
 *   @ 5816e64 (2026-06-13).
 *
 * Second pass (2026-11-30, ".2"): the models of mid/late 2026 (Claude Opus 4.8
 * to Haiku 5.5, Mythos 5/5.1, Fable 5.1/5.2; GPT-5.6 Sol/Terra/Luna, GPT-6 Sol,
 * GPT-6.1 Sol; Gemini 3.5 to 3.8 Flash), from the provider pages indexed by the
 * `search` tool: platform.claude.com pricing and per-model overview pages,
 * code.claude.com fast-mode page, developers.openai.com model pages,
 * openai.com/api-fast-mode, ai.google.dev latest-model page. Those three
 * machine-readable tables predate these models, so where a provider page could
 * not be read the note names the third-party pages that agree (none disagreed
 * unless the note says so). Dated changes found: GPT-5.6 Terra/Luna cuts
 * (2026-07-30), the GPT-5.6 Sol promotion (2026-08-21, "at least until
 * 2026-11-21"), the Sonnet 5.5 cache-read cut (2026-10-07).
 */

export const PRICE_TABLE_VERSION = "2026-11-30.2";
/** The day the prices below were last checked. */
export const PRICE_TABLE_CHECKED = "2026-11-30";

export type Provider = "anthropic" | "openai" | "google";
export type PriceField = "input" | "output" | "cache_write_5m" | "cache_write_1h" | "cache_read";
export const PRICE_FIELDS: readonly PriceField[] = ["input", "output", "cache_write_5m", "cache_write_1h", "cache_read"];

/** USD per million tokens. */
export type Prices = Readonly<Record<PriceField, number>>;

export interface Citation {
  /** A URL or document name. */
  readonly source: string;
  /** True only when the number was read on the provider's own page (or a verbatim quote of it). */
  readonly verified: boolean;
  readonly note?: string;
}

export interface LongContextTier {
  /** Tokens per call above which `usd_per_mtok` applies (see cost.ts for the rule). */
  readonly threshold_tokens: number;
  readonly usd_per_mtok: Prices;
  readonly sources: Readonly<Record<PriceField, Citation>>;
}

export interface PriceEntry {
  /** Canonical model id. */
  readonly model: string;
  readonly provider: Provider;
  /** Other names of the model (already lower-case); dated ids match without being listed (prices.ts). */
  readonly aliases: readonly string[];
  /** ISO date from which these prices apply (release or price-change date). */
  readonly effective_date: string;
  readonly usd_per_mtok: Prices;
  readonly sources: Readonly<Record<PriceField, Citation>>;
  readonly long_context: LongContextTier | null;
  /** Factor on the whole call for `speed: "fast"`; null = no known fast price. */
  readonly fast_multiplier: number | null;
  readonly fast_source: Citation | null;
  readonly notes?: string;
}

// ---------------------------------------------------------------- sources

const LITELLM = "LiteLLM model_prices_and_context_window.json (Wei-Shaw/model-price-repo @ f9ff147, 2026-07-24)";
const GENAI = "pydantic/genai-prices prices/providers (@ 47df840, 2026-08-21)";
const CCUSAGE = "ccusage rust/crates/ccusage/src/pricing.rs (@ 5816e64, 2026-06-13)";
const CCUSAGE_FAST = "ccusage rust/crates/ccusage/src/fast-multiplier-overrides.json (@ 5816e64)";

const ANTHROPIC_PAGE = "https://platform.claude.com/docs/en/about-claude/pricing (Model pricing table)";
const ANTHROPIC_PAGE_2025 =
  "https://docs.anthropic.com/en/docs/about-claude/pricing (2025 version: Sonnet 3.5 row; Sonnet 4 long context table)";
const ANTHROPIC_FAST = "https://platform.claude.com/docs/en/build-with-claude/fast-mode (Opus 4.6 pricing table)";
const OPENAI_PAGE = "https://developers.openai.com/api/docs/pricing";
const GOOGLE_PAGE = "https://ai.google.dev/gemini-api/docs/pricing";

// Sources of the second pass (see the header).
const CLAUDE_OVERVIEW = (model: string, what: string): string =>
  `https://platform.claude.com/docs/en/models/${model}/overview (${what})`;
const CLAUDE_CODE_FAST = "https://code.claude.com/docs/en/fast-mode (models with fast mode; Opus 4.8 fast removed 2026-11-30)";
const OPENAI_MODEL = (model: string): string => `https://developers.openai.com/api/docs/models/${model}`;
const OPENAI_FAST = "https://openai.com/api-fast-mode/ (Fast mode price table: GPT-5.6 Sol/Terra/Luna at 2× Standard)";
const GOOGLE_LATEST = "https://ai.google.dev/gemini-api/docs/generate-content/latest-model (new models table, zh-CN)";
const GOOGLE_TRANSCRIPT =
  "ai.google.dev/gemini-api/docs/pricing as transcribed verbatim by github.com/api-evangelist/gemini plans/gemini-plans-pricing.yml (read 2026-09-20) and api-evangelist/deepmind (read 2026-10-07)";

const anthropicPage2026: Citation = {
  source: `${ANTHROPIC_PAGE}, 2026 version with the Fable/Mythos/Opus 5 rows`,
  verified: true,
};

const anthropicVerified: Citation = { source: ANTHROPIC_PAGE, verified: true };
const anthropicVerified2025: Citation = { source: ANTHROPIC_PAGE_2025, verified: true };

const crossChecked = (page: string): Citation => ({
  source: page,
  verified: false,
  note: `provider page not read; ${LITELLM} and ${GENAI} agree`,
});

const openaiCross = crossChecked(OPENAI_PAGE);
const googleCross = crossChecked(GOOGLE_PAGE);

/** The same citation for every field. */
function all(c: Citation): Record<PriceField, Citation> {
  return { input: c, output: c, cache_write_5m: c, cache_write_1h: c, cache_read: c };
}

/** OpenAI/Google: cache writes are input; the citation of the write prices is the input's. */
function noCacheWrite(input: Citation, output: Citation, cacheRead: Citation): Record<PriceField, Citation> {
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
function anthropic(input: number, cacheWrite5m: number, cacheWrite1h: number, cacheRead: number, output: number): Prices {
  return { input, output, cache_write_5m: cacheWrite5m, cache_write_1h: cacheWrite1h, cache_read: cacheRead };
}

/**
 * OpenAI/Google prices in the column order of their tables: input, cached
 * input, output. No cache-write fee, so cache writes are priced as input.
 */
function noWriteFee(input: number, cachedInput: number, output: number): Prices {
  return { input, output, cache_write_5m: input, cache_write_1h: input, cache_read: cachedInput };
}

/**
 * OpenAI prices from GPT-5.6 on, in the column order of their model pages:
 * input, cached input, cache writes (1.25× input, 30-minute retention), output.
 * Both write fields carry the one published write price.
 */
function withWriteFee(input: number, cachedInput: number, cacheWrite: number, output: number): Prices {
  return { input, output, cache_write_5m: cacheWrite, cache_write_1h: cacheWrite, cache_read: cachedInput };
}

/** Anthropic 1M-context premium above 200K input tokens (input 2×, output 1.5×, cache prices on the doubled input). */
function anthropicLongContext(prices: Prices, sources: Record<PriceField, Citation>): LongContextTier {
  return { threshold_tokens: 200_000, usd_per_mtok: prices, sources };
}

const derivedCacheAbove: Citation = {
  source: `${LITELLM}; ${GENAI}`,
  verified: false,
  note: "cache prices above 200K = Anthropic's cache multipliers on the long-context input price; not read on the provider page",
};

const solPromo: Citation = {
  source: "https://developers.openai.com/pt-BR/api/docs/models/gpt-5.6-sol (and ja-JP): $4 input, $0.40 cached, $20 output",
  verified: true,
};
const solPromoWrite: Citation = {
  source: "https://developers.openai.com/ja-JP/api/docs/models/gpt-5.6-sol",
  verified: true,
  note: "the page states cache writes at 1.25× the uncached input price: $5",
};

// ---------------------------------------------------------------- the table

export const PRICE_TABLE: readonly PriceEntry[] = [
  // ----------------------------------------------------------- Anthropic
  {
    model: "claude-3-5-sonnet",
    provider: "anthropic",
    aliases: ["claude-3-5-sonnet-latest", "claude-3-5-sonnet-v2", "claude-3.5-sonnet"],
    effective_date: "2024-06-20",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified2025),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Sonnet 3.5 (both 20240620 and 20241022 snapshots); retired, listed as deprecated on the 2025 pricing page.",
  },
  {
    model: "claude-3-5-haiku",
    provider: "anthropic",
    aliases: ["claude-3-5-haiku-latest", "claude-3.5-haiku"],
    effective_date: "2024-11-04",
    usd_per_mtok: anthropic(0.8, 1, 1.6, 0.08, 4),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Some third-party lists quote $1/$5 (said to be the launch price); the provider page lists $0.80/$4, used for all dates.",
  },
  {
    model: "claude-3-7-sonnet",
    provider: "anthropic",
    aliases: ["claude-3-7-sonnet-latest", "claude-3.7-sonnet"],
    effective_date: "2025-02-24",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-opus-4",
    provider: "anthropic",
    aliases: ["claude-opus-4-0", "claude-4-opus"],
    effective_date: "2025-05-22",
    usd_per_mtok: anthropic(15, 18.75, 30, 1.5, 75),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-sonnet-4",
    provider: "anthropic",
    aliases: ["claude-sonnet-4-0", "claude-4-sonnet"],
    effective_date: "2025-05-22",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified),
    long_context: anthropicLongContext(anthropic(6, 7.5, 12, 0.6, 22.5), {
      input: anthropicVerified2025,
      output: anthropicVerified2025,
      cache_write_5m: derivedCacheAbove,
      cache_write_1h: derivedCacheAbove,
      cache_read: derivedCacheAbove,
    }),
    fast_multiplier: null,
    fast_source: null,
    notes: "Long-context prices apply with the 1M-context beta (from 2025-08-12); without it a call cannot exceed 200K.",
  },
  {
    model: "claude-opus-4-1",
    provider: "anthropic",
    aliases: [],
    effective_date: "2025-08-05",
    usd_per_mtok: anthropic(15, 18.75, 30, 1.5, 75),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-sonnet-4-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2025-09-29",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified),
    long_context: anthropicLongContext(anthropic(6, 7.5, 12, 0.6, 22.5), {
      ...all({
        source: `${LITELLM}; ${GENAI}; ${CCUSAGE}`,
        verified: false,
        note: "same premium as Sonnet 4 ($6/$22.50); not read on the provider page",
      }),
      cache_write_5m: derivedCacheAbove,
      cache_write_1h: derivedCacheAbove,
      cache_read: derivedCacheAbove,
    }),
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-haiku-4-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2025-10-15",
    usd_per_mtok: anthropic(1, 1.25, 2, 0.1, 5),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-opus-4-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2025-11-24",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  // Opus 4.6 and Sonnet 4.6: the 1M context window was a beta with a premium
  // above 200K until 2026-03-13, then general availability at flat prices.
  {
    model: "claude-opus-4-6",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-02-05",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all(anthropicVerified),
    long_context: anthropicLongContext(anthropic(10, 12.5, 20, 1, 37.5), {
      ...all({
        source: `${GENAI}; ${ANTHROPIC_FAST}`,
        verified: false,
        note: "beta-period premium ($10/$37.50 above 200K): genai-prices dates it until 2026-03-13; the fast-mode page's >200K row ($60/$225) is 6× these",
      }),
      cache_write_5m: derivedCacheAbove,
      cache_write_1h: derivedCacheAbove,
      cache_read: derivedCacheAbove,
    }),
    fast_multiplier: 6,
    fast_source: { source: ANTHROPIC_FAST, verified: true, note: "fast mode is 6× standard Opus rates" },
  },
  {
    model: "claude-opus-4-6",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-03-13",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: 6,
    fast_source: { source: ANTHROPIC_FAST, verified: true, note: "fast mode is 6× standard Opus rates" },
    notes: "1M context at standard prices from 2026-03-13 (date from genai-prices; LiteLLM and ccusage list no premium).",
  },
  {
    model: "claude-sonnet-4-6",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-02-17",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified),
    long_context: anthropicLongContext(anthropic(6, 7.5, 12, 0.6, 22.5), {
      ...all({
        source: GENAI,
        verified: false,
        note: "beta-period premium ($6/$22.50 above 200K) until 2026-03-13; not read on the provider page",
      }),
      cache_write_5m: derivedCacheAbove,
      cache_write_1h: derivedCacheAbove,
      cache_read: derivedCacheAbove,
    }),
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-sonnet-4-6",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-03-13",
    usd_per_mtok: anthropic(3, 3.75, 6, 0.3, 15),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-opus-4-7",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-04-16",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: 6,
    fast_source: { source: CCUSAGE_FAST, verified: false, note: "fast mode on Opus 4.7 (removed 2026-07-24); multiplier from ccusage" },
  },
  {
    model: "claude-opus-4-8",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-05-28",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all(anthropicPage2026),
    long_context: null,
    fast_multiplier: 2,
    fast_source: {
      source: `${CLAUDE_CODE_FAST}; dev.to/hiyoyok "Claude API Cheatsheet 2026"; dev.to/aakira (apidog) Opus 4.8 pricing`,
      verified: false,
      note: "both third-party pages list Opus 4.8 fast at $10/$50 (2× the $5/$25 base); the provider pages read list fast mode for Opus 4.8 without its price",
    },
    notes: "Released 2026-05-28 (platform.claude.com/docs/ko/models/opus-4-8/overview.md). 1M context at one price.",
  },
  {
    model: "claude-fable-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-06-09",
    usd_per_mtok: anthropic(10, 12.5, 20, 1, 50),
    sources: all(anthropicVerified),
    long_context: null,
    fast_multiplier: 6,
    fast_source: { source: LITELLM, verified: false, note: "LiteLLM provider_specific_entry.fast = 6; not read on the provider page" },
    notes: "Seen in the Entire sample corpus.",
  },
  {
    model: "claude-mythos-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-06-09",
    usd_per_mtok: anthropic(10, 12.5, 20, 1, 50),
    sources: all({ ...anthropicPage2026, note: "row 'Claude Mythos 5 (limited availability)', the same prices as Claude Fable 5" }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Limited availability (verified organisations). Model id from https://platform.claude.com/docs/fr/models/fable-5/introducing-claude-fable-5-and-claude-mythos-5; released with Fable 5.",
  },
  {
    model: "claude-sonnet-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-06-30",
    usd_per_mtok: anthropic(2, 2.5, 4, 0.2, 10),
    sources: all({
      source: "https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview (Pricing: input, output, 5m/1h cache write, cache read)",
      verified: true,
    }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Released 2026-06-30. Launched as introductory pricing with $3/$15 announced from 2026-09-01; Anthropic made $2/$10 permanent on 2026-08-10 " +
      "(github.com/Piebald-AI/splitrail#235, TheKrush/PromptFuel v1.0.22), so there is no second period. No fast mode on Sonnet (code.claude.com fast-mode page).",
  },
  {
    model: "claude-opus-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-07-24",
    usd_per_mtok: anthropic(5, 6.25, 10, 0.5, 25),
    sources: all({ source: CLAUDE_OVERVIEW("opus-5", "Pricing; released July 24, 2026"), verified: true }),
    long_context: null,
    fast_multiplier: 2,
    fast_source: {
      source: "openrouter.ai/anthropic/claude-opus-5-fast; vercel.com/ai-gateway/models/claude-opus-5-fast; krayong/ccsidekick 1.6.4; Factory-AI/factory#1333",
      verified: false,
      note: "all give fast Opus 5 at $10/$50, 2× standard; the fast-mode page read lists the model, not its price",
    },
  },
  {
    model: "claude-fable-5-1",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-09-01",
    usd_per_mtok: anthropic(10, 12.5, 20, 0.25, 50),
    sources: all({ ...anthropicPage2026, note: "row 'Claude Fable 5.1': cache hits $0.25 (0.025× input)" }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Released 2026-09-01 (platform.claude.com/docs/zh-CN/models/fable-5-1/overview.md: same input/output as Fable 5, cache reads cut to a quarter). " +
      "Fast mode is not offered on Fable 5.1 (code.claude.com fast-mode page lists Fable 5.2, Opus 5.5, Opus 5, Opus 4.8).",
  },
  {
    model: "claude-mythos-5-1",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-09-01",
    usd_per_mtok: anthropic(10, 12.5, 20, 0.25, 50),
    sources: all({ ...anthropicPage2026, note: "row 'Claude Mythos 5.1 (limited availability)', the same prices as Claude Fable 5.1" }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Limited availability. Model id claude-mythos-5-1 from github.com/pingdotgg/t3code discussion #18048 (third party); released with Fable 5.1.",
  },
  {
    model: "claude-opus-5-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-09-22",
    usd_per_mtok: anthropic(4, 5, 8, 0.2, 20),
    sources: all({
      source: "https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview (Pricing: $4/$20, 5m $5, 1h $8, cache read $0.20)",
      verified: true,
    }),
    long_context: null,
    fast_multiplier: 2,
    fast_source: {
      source: "apidog.com/jp/blog/claude-sonnet-5-5-pricing; TheKrush/PromptFuel v1.0.21",
      verified: false,
      note: "both list Opus 5.5 fast mode at $8/$40 (2× standard); code.claude.com lists fast mode for Opus 5.5 without the price",
    },
    notes:
      "effective_date from PromptFuel v1.0.21 ('effective 2026-09-22'; kurofune/claudit added it from the pricing page on 2026-09-23); release date not read on a provider page.",
  },
  {
    model: "claude-sonnet-5-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-09-28",
    usd_per_mtok: anthropic(2, 2.5, 4, 0.2, 10),
    sources: all({
      source: "https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview (Pricing, copy from before the 2026-10-07 cut: cache read $0.20)",
      verified: true,
    }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Released 2026-09-28 (runware.ai model page; PromptFuel v1.0.22 'effective 2026-09-28'). No fast mode on Sonnet.",
  },
  {
    model: "claude-sonnet-5-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-10-07",
    usd_per_mtok: anthropic(2, 2.5, 4, 0.1, 10),
    sources: {
      ...all({
        source: "https://platform.claude.com/docs/zh-CN/models/sonnet-5-5/overview (Pricing)",
        verified: true,
        note: "unchanged by the 2026-10-07 cut",
      }),
      cache_read: {
        source:
          "kurofune/claudit v1.9.2 (pricing page re-read 2026-10-24); TheKrush/PromptFuel v1.0.23; mahype/token-stats 0.3.2 (2026-10-09); docs.rs synaps pricing (0.05×)",
        verified: false,
        note: "cache hits cut from $0.20 to $0.10 (0.05× input) on 2026-10-07; the provider pages indexed predate the cut",
      },
    },
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "claude-haiku-5-5",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-10-07",
    usd_per_mtok: anthropic(0.1, 0.125, 0.2, 0.01, 0.5),
    sources: {
      ...all({
        source: "https://platform.claude.com/docs/zh-CN/models/haiku-5-5/overview (Pricing, 'for prompts up to 100,000 tokens')",
        verified: true,
      }),
      cache_read: {
        source: "kurofune/claudit v1.9.2; apidog.com/blog/how-to-use-claude-haiku-5-5-api; Surething-io/cockpit v1.0.282",
        verified: false,
        note: "$0.01 in all three; the indexed provider page is cut off before its cache-read line",
      },
    },
    long_context: {
      threshold_tokens: 100_000,
      usd_per_mtok: anthropic(0.5, 0.625, 1, 0.05, 2.5),
      sources: {
        ...all({
          source: "https://platform.claude.com/docs/zh-CN/models/haiku-5-5/overview (Pricing, 'for prompts over 100,000 tokens')",
          verified: true,
        }),
        cache_write_1h: {
          source: "kurofune/claudit v1.9.2",
          verified: false,
          note: "$1.00 (2× the $0.50 input, Anthropic's 1h ratio); the indexed provider page is cut off before it",
        },
        cache_read: {
          source: "kurofune/claudit v1.9.2; apidog.com/blog/how-to-use-claude-haiku-5-5-api",
          verified: false,
          note: "$0.05 in both; the indexed provider page is cut off before it",
        },
      },
    },
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Released 2026-10-07 (platform.claude.com/docs/en/models/haiku-5-5/overview.md). Priced by prompt length: a request whose prompt " +
      "(input + cache writes + cache reads) exceeds 100,000 tokens pays the higher prices on every token, output included: cost.ts's " +
      "'request' tier rule; the default 'ccusage' rule tiers each count on its own and gives less.",
  },
  {
    model: "claude-fable-5-2",
    provider: "anthropic",
    aliases: [],
    effective_date: "2026-11-09",
    usd_per_mtok: anthropic(8, 10, 16, 0.2, 40),
    sources: all({
      source: "docs.laozhang.ai/en/announcements/claude-fable-5-2-2026-11; archid21/rightsize release notes (Fable 5.2 row of the pricing page)",
      verified: false,
      note: "both give $8/$40, $10 5m write, $0.20 cache read; the 1h write ($16) only in rightsize; the provider page was not read",
    }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Released 2026-11-09 (laozhang). Fast mode exists for Fable 5.2 (code.claude.com fast-mode page) but no fast price was found: fast calls are charged at 1× with a diagnostic.",
  },

  // ----------------------------------------------------------- OpenAI
  {
    model: "gpt-4o-2024-05-13",
    provider: "openai",
    aliases: [],
    effective_date: "2024-05-13",
    usd_per_mtok: noWriteFee(5, 5, 15),
    sources: noCacheWrite(
      { source: LITELLM, verified: false, note: "first gpt-4o snapshot, priced above later ones" },
      { source: LITELLM, verified: false, note: "first gpt-4o snapshot" },
      { source: LITELLM, verified: false, note: "no cached-input price listed: cache hits priced as input" },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-4o",
    provider: "openai",
    aliases: ["chatgpt-4o-latest"],
    effective_date: "2024-08-06",
    usd_per_mtok: noWriteFee(2.5, 1.25, 10),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-4.1",
    provider: "openai",
    aliases: [],
    effective_date: "2025-04-14",
    usd_per_mtok: noWriteFee(2, 0.5, 8),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "o3",
    provider: "openai",
    aliases: [],
    effective_date: "2025-04-16",
    usd_per_mtok: noWriteFee(10, 2.5, 40),
    sources: noCacheWrite(
      { source: GENAI, verified: false, note: "launch price, cut 80% on 2025-06-10 (third-party pages agree)" },
      { source: GENAI, verified: false, note: "launch price, cut 80% on 2025-06-10 (third-party pages agree)" },
      {
        source: OPENAI_PAGE,
        verified: false,
        note: "launch cached-input price not found: $2.50 assumes the post-cut ratio (0.25× input); genai-prices lists $0.50. Unconfirmed",
      },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "o3",
    provider: "openai",
    aliases: [],
    effective_date: "2025-06-10",
    usd_per_mtok: noWriteFee(2, 0.5, 8),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "o4-mini",
    provider: "openai",
    aliases: [],
    effective_date: "2025-04-16",
    usd_per_mtok: noWriteFee(1.1, 0.275, 4.4),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "codex-mini-latest",
    provider: "openai",
    aliases: ["codex-mini"],
    effective_date: "2025-05-16",
    usd_per_mtok: noWriteFee(1.5, 0.375, 6),
    sources: all({ source: "https://developers.openai.com/api/docs/models/codex-mini-latest", verified: true }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Early Codex CLI default model (fine-tuned o4-mini).",
  },
  {
    model: "gpt-5",
    provider: "openai",
    aliases: ["gpt-5-chat-latest"],
    effective_date: "2025-08-07",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: noCacheWrite(
      {
        source: "https://developers.openai.com/api/docs/models/gpt-5-codex (Quick comparison: GPT-5 $1.25)",
        verified: true,
      },
      openaiCross,
      openaiCross,
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5-mini",
    provider: "openai",
    aliases: [],
    effective_date: "2025-08-07",
    usd_per_mtok: noWriteFee(0.25, 0.025, 2),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5-codex",
    provider: "openai",
    aliases: [],
    effective_date: "2025-09-15",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: all({ source: "https://developers.openai.com/api/docs/models/gpt-5-codex", verified: true }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.1",
    provider: "openai",
    aliases: ["gpt-5.1-chat-latest"],
    effective_date: "2025-11-13",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.1-codex",
    provider: "openai",
    aliases: [],
    effective_date: "2025-11-13",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.1-codex-mini",
    provider: "openai",
    aliases: [],
    effective_date: "2025-11-13",
    usd_per_mtok: noWriteFee(0.25, 0.025, 2),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.1-codex-max",
    provider: "openai",
    aliases: [],
    effective_date: "2025-11-19",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: noCacheWrite(
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and a dated third-party snapshot (2026-05-05) agree` },
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and a dated third-party snapshot (2026-05-05) agree` },
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and a dated third-party snapshot (2026-05-05) agree` },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.2",
    provider: "openai",
    aliases: ["gpt-5.2-chat-latest"],
    effective_date: "2025-12-11",
    usd_per_mtok: noWriteFee(1.75, 0.175, 14),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gpt-5.2-codex",
    provider: "openai",
    aliases: [],
    effective_date: "2026-01-14",
    usd_per_mtok: noWriteFee(1.75, 0.175, 14),
    sources: noCacheWrite(
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and ${CCUSAGE} agree` },
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and ${CCUSAGE} agree` },
      { source: OPENAI_PAGE, verified: false, note: `provider page not read; ${LITELLM} and ${CCUSAGE} agree` },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "effective_date approximate (only matters when a model has several periods).",
  },
  {
    model: "gpt-5.3-codex",
    provider: "openai",
    aliases: [],
    effective_date: "2026-02-05",
    usd_per_mtok: noWriteFee(1.75, 0.175, 14),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: null,
    fast_multiplier: 2,
    fast_source: { source: CCUSAGE_FAST, verified: false, note: "Codex fast tier; LiteLLM's priority prices are also 2×" },
  },
  {
    model: "gpt-5.4",
    provider: "openai",
    aliases: [],
    effective_date: "2026-03-05",
    usd_per_mtok: noWriteFee(2.5, 0.25, 15),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: noWriteFee(5, 0.5, 22.5),
      sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    },
    fast_multiplier: 2,
    fast_source: { source: CCUSAGE_FAST, verified: false, note: "Codex fast tier; LiteLLM's priority prices are also 2×" },
    notes: "Above 272K input tokens: input 2×, output 1.5× (ccusage does not apply this tier: it only reads 200K fields).",
  },
  {
    model: "gpt-5.5",
    provider: "openai",
    aliases: [],
    effective_date: "2026-04-24",
    usd_per_mtok: noWriteFee(5, 0.5, 30),
    sources: noCacheWrite(openaiCross, openaiCross, openaiCross),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: noWriteFee(10, 1, 45),
      sources: all({
        source: LITELLM,
        verified: false,
        note: "LiteLLM lists a 272K tier for gpt-5.5; genai-prices lists none. Unconfirmed",
      }),
    },
    fast_multiplier: 2.5,
    fast_source: {
      source: CCUSAGE_FAST,
      verified: false,
      note: "ccusage uses 2.5× for Codex fast on gpt-5.5; LiteLLM's priority prices are 2×. Unconfirmed",
    },
  },

  // GPT-5.6 (2026-07-09): three models; long context above 272K input tokens is
  // 2× input and cache prices and 1.5× output for the whole request (the model
  // pages), the "request" tier rule of cost.ts.
  {
    model: "gpt-5.6-sol",
    provider: "openai",
    aliases: ["gpt-5.6"],
    effective_date: "2026-07-09",
    usd_per_mtok: withWriteFee(5, 0.5, 6.25, 30),
    sources: all({
      source: "docs.apiyi.com/models/gpt-5-6-sol; docs.laozhang.ai gpt-5-6-sol-price-cut-2026-09 (old column); TheKrush/PromptFuel v1.0.17; wavespeed.ai (write $6.25)",
      verified: false,
      note: `launch price, replaced by the 2026-08-21 promotion on the provider page; ${OPENAI_FAST} lists launch-era Fast at $10/$1.00/$60, exactly 2× these`,
    }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(10, 1, 12.5, 45),
      sources: all({
        source: "github.com/anuran-roy/unified-llm-pricing data/pricing.json (from developers.openai.com/api/docs/pricing.md, fetched 2026-08-19); docs.laozhang.ai",
        verified: false,
        note: "$10/$1/$45 above 272K; the write price is 1.25× the long-context input",
      }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true },
    notes: "The alias gpt-5.6 routes to Sol (provider model page).",
  },
  {
    model: "gpt-5.6-sol",
    provider: "openai",
    aliases: ["gpt-5.6"],
    effective_date: "2026-08-21",
    usd_per_mtok: withWriteFee(4, 0.4, 5, 20),
    sources: { ...all(solPromo), cache_write_5m: solPromoWrite, cache_write_1h: solPromoWrite },
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(8, 0.8, 10, 30),
      sources: all({
        source: `docs.laozhang.ai/en/announcements/gpt-5-6-sol-price-cut-2026-09 ($8/$30); ${OPENAI_FAST} (long-context Fast $16/$1.60/$60)`,
        verified: false,
        note: "2× input and cache, 1.5× output as the model page states; the long-context figures themselves are from laozhang and half the provider's Fast row",
      }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true, note: "$8/$0.80/$40 Fast against $4/$0.40/$20 Standard" },
    notes:
      "Promotional price from 2026-08-21 (date: laozhang, PromptFuel v1.0.17, OpenAI changelog cited there), 'available at least until November 21, 2026' " +
      "(provider page). Whether it ended after 2026-11-21 was not found: this period stays in force until a later entry says otherwise.",
  },
  {
    model: "gpt-5.6-terra",
    provider: "openai",
    aliases: [],
    effective_date: "2026-07-09",
    usd_per_mtok: withWriteFee(2.5, 0.25, 3.125, 15),
    sources: all({
      source: "docs.apiyi.com/models/gpt-5-6-terra; docs.laozhang.ai gpt-5-6-pricing-2026-07 (old column); TheKrush/PromptFuel v1.0.19",
      verified: false,
      note: "launch price before the 2026-07-30 cut; write price = 1.25× input (the family's rule)",
    }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(5, 0.5, 6.25, 22.5),
      sources: all({ source: "docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut", verified: false, note: "$5/$22.50 above 272K before the cut" }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true },
  },
  {
    model: "gpt-5.6-terra",
    provider: "openai",
    aliases: [],
    effective_date: "2026-07-30",
    usd_per_mtok: withWriteFee(2, 0.2, 2.5, 12),
    sources: {
      ...all({
        source: `docs.laozhang.ai/en/announcements/gpt-5-6-pricing-2026-07; vercel.com/ai-gateway/models/gpt-5.6-terra; ${OPENAI_FAST} ($4/$0.40/$24 Fast = 2×)`,
        verified: false,
        note: "cut by 20% on 2026-07-30; write = 1.25× input",
      }),
      input: { source: `${OPENAI_MODEL("gpt-5.6-luna")} (quick comparison: GPT-5.6 Terra $2.00)`, verified: true },
    },
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(4, 0.4, 5, 18),
      sources: all({ source: "docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut", verified: false, note: "$4/$18 above 272K after the cut" }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true },
  },
  {
    model: "gpt-5.6-luna",
    provider: "openai",
    aliases: [],
    effective_date: "2026-07-09",
    usd_per_mtok: withWriteFee(1, 0.1, 1.25, 6),
    sources: all({
      source: "docs.laozhang.ai gpt-5-6-pricing-2026-07 (old column); docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut; TheKrush/PromptFuel v1.0.19",
      verified: false,
      note: "launch price before the 2026-07-30 cut; write price = 1.25× input",
    }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(2, 0.2, 2.5, 9),
      sources: all({ source: "docs.apiyi.com/live/2026-07/gpt-5-6-terra-luna-price-cut", verified: false, note: "$2/$9 above 272K before the cut" }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true },
  },
  {
    model: "gpt-5.6-luna",
    provider: "openai",
    aliases: [],
    effective_date: "2026-07-30",
    usd_per_mtok: withWriteFee(0.2, 0.02, 0.25, 1.2),
    sources: all({
      source: `${OPENAI_MODEL("gpt-5.6-luna")}: $0.20 input, $0.02 cached, $1.20 output; cache writes 1.25× uncached input`,
      verified: true,
    }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(0.4, 0.04, 0.5, 1.8),
      sources: all({
        source: `${OPENAI_MODEL("gpt-5.6-luna")} (2× input, 1.5× output); ${OPENAI_FAST} (long-context Fast $0.80/$0.08/$3.60)`,
        verified: false,
        note: "computed from the page's rule; the cached long-context price is half the provider's Fast row",
      }),
    },
    fast_multiplier: 2,
    fast_source: { source: OPENAI_FAST, verified: true },
  },
  {
    model: "gpt-6-sol",
    provider: "openai",
    aliases: [],
    effective_date: "2026-09-22",
    usd_per_mtok: withWriteFee(2, 0.2, 2.5, 10),
    sources: all({ source: "https://developers.openai.com/docs/models/gpt-6-sol (Text tokens)", verified: true }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(4, 0.4, 5, 15),
      sources: all({
        source: "https://developers.openai.com/docs/models/gpt-6-sol",
        verified: true,
        note: "the page: above 272K input tokens, 2× input and cache rates and 1.5× output for the full request",
      }),
    },
    fast_multiplier: 2,
    fast_source: {
      source: `${OPENAI_MODEL("gpt-6.2-sol")}; merefield/codexometer v0.18.4`,
      verified: false,
      note: "the GPT-6.1 and 6.2 Sol pages say Fast costs 2× Standard; the GPT-6 Sol page's sentence is cut off in the index",
    },
    notes: "Released 2026-09-22 (codexometer v0.18.4 'OpenAI's September 22 pricing', PromptFuel v1.0.21).",
  },
  {
    model: "gpt-6.1-sol",
    provider: "openai",
    aliases: [],
    effective_date: "2026-09-29",
    usd_per_mtok: withWriteFee(2, 0.1, 2.5, 10),
    sources: all({
      source: `${OPENAI_MODEL("gpt-6.1-sol")} as copied by w3cschool.cn/openai_api/openai-api-docs-gpt-6-1-sol.html; amine123max/Codex-Manager 0.4.7; KZCFG/AILSA-SubSwitch 1.0.0(g) (read 2026-10-01)`,
      verified: false,
      note: "the provider page itself was not in the index; all three agree: $2, cached $0.10, writes $2.50, output $10",
    }),
    long_context: {
      threshold_tokens: 272_000,
      usd_per_mtok: withWriteFee(4, 0.2, 5, 15),
      sources: all({
        source: "amine123max/Codex-Manager 0.4.7; KZCFG/AILSA-SubSwitch 1.0.0(g); wavespeed.ai/llm/openai/gpt-6.1-sol",
        verified: false,
        note: "$4/$0.20/$15 above 272K; write = 2× the $2.50 short-context write, per the page's rule",
      }),
    },
    fast_multiplier: 2,
    fast_source: {
      source: "w3cschool copy of the GPT-6.1 Sol page; KZCFG/AILSA-SubSwitch 1.0.0(g)",
      verified: false,
      note: "Fast = 2× Standard (Ultrafast, 6×, is not modelled: cost.ts knows only fast/priority)",
    },
    notes: "Released 2026-09-29 at DevDay (laozhang, apidog); snapshot gpt-6.1-sol-2026-09-29.",
  },

  // ----------------------------------------------------------- Google
  {
    model: "gemini-2.5-pro",
    provider: "google",
    aliases: ["gemini-2.5-pro-preview-03-25", "gemini-2.5-pro-preview-05-06", "gemini-2.5-pro-preview-06-05"],
    effective_date: "2025-06-17",
    usd_per_mtok: noWriteFee(1.25, 0.125, 10),
    sources: noCacheWrite(googleCross, googleCross, {
      ...googleCross,
      note: `${googleCross.note}; the context-caching price was higher ($0.31) before implicit caching, not modelled`,
    }),
    long_context: {
      threshold_tokens: 200_000,
      usd_per_mtok: noWriteFee(2.5, 0.25, 15),
      sources: noCacheWrite(googleCross, googleCross, googleCross),
    },
    fast_multiplier: null,
    fast_source: null,
    notes: "Output includes thinking tokens. Paid-tier prices (free-tier and experimental -exp models are not priced).",
  },
  {
    model: "gemini-2.5-flash",
    provider: "google",
    aliases: [],
    effective_date: "2025-06-17",
    usd_per_mtok: noWriteFee(0.3, 0.03, 2.5),
    sources: noCacheWrite(googleCross, googleCross, googleCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Text/image/video input price (audio input is dearer, not modelled). Preview snapshots had other prices and are not matched.",
  },
  {
    model: "gemini-2.5-flash-lite",
    provider: "google",
    aliases: [],
    effective_date: "2025-07-22",
    usd_per_mtok: noWriteFee(0.1, 0.01, 0.4),
    sources: noCacheWrite(googleCross, googleCross, googleCross),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gemini-3-pro-preview",
    provider: "google",
    aliases: [],
    effective_date: "2025-11-18",
    usd_per_mtok: noWriteFee(2, 0.2, 12),
    sources: noCacheWrite(googleCross, googleCross, googleCross),
    long_context: {
      threshold_tokens: 200_000,
      usd_per_mtok: noWriteFee(4, 0.4, 18),
      sources: noCacheWrite(googleCross, googleCross, googleCross),
    },
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gemini-3-flash-preview",
    provider: "google",
    aliases: [],
    effective_date: "2025-12-17",
    usd_per_mtok: noWriteFee(0.5, 0.05, 3),
    sources: all({
      source: `${GOOGLE_PAGE} (verbatim quote, accessed 2026-07-04, via factquire.com/models/google/gemini-3-flash-preview.json)`,
      verified: true,
    }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gemini-3.1-pro-preview",
    provider: "google",
    aliases: [],
    effective_date: "2026-02-19",
    usd_per_mtok: noWriteFee(2, 0.2, 12),
    sources: noCacheWrite(googleCross, googleCross, googleCross),
    long_context: {
      threshold_tokens: 200_000,
      usd_per_mtok: noWriteFee(4, 0.4, 18),
      sources: noCacheWrite(googleCross, googleCross, googleCross),
    },
    fast_multiplier: null,
    fast_source: null,
  },
  // Gemini 3.5-3.8 Flash: no long-context tier on these Flash models; cached
  // input is 0.1× input, as for Gemini 3.
  {
    model: "gemini-3.5-flash",
    provider: "google",
    aliases: [],
    effective_date: "2026-05-19",
    usd_per_mtok: noWriteFee(1.5, 0.15, 9),
    sources: noCacheWrite(
      { source: GOOGLE_TRANSCRIPT, verified: false, note: "'$1.50' quoted from the provider page by a third party; simstudioai/sim#4660 agrees" },
      { source: GOOGLE_TRANSCRIPT, verified: false, note: "'$9.00' quoted from the provider page by a third party; simstudioai/sim#4660 agrees" },
      { source: "simstudioai/sim#4660 (cachedInput 0.15, 2026-05-19)", verified: false, note: "one third-party source; 0.1× input like the other Gemini 3 models" },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Released 2026-05-19 (simstudioai/sim#4660); superseded by 3.6 Flash.",
  },
  {
    model: "gemini-3.6-flash",
    provider: "google",
    aliases: [],
    effective_date: "2026-07-21",
    usd_per_mtok: noWriteFee(1.5, 0.15, 7.5),
    sources: noCacheWrite(
      { source: `${GOOGLE_LATEST}: $1.50 input`, verified: true },
      { source: `${GOOGLE_LATEST}: $7.50 output`, verified: true },
      { source: "simstudioai/sim#5812 (cachedInput 0.15, 2026-07-21)", verified: false, note: "one third-party source; 0.1× input like the other Gemini 3 models" },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes: "Generally available 2026-07-21 (simstudioai/sim#5812).",
  },
  {
    model: "gemini-3.5-flash-lite",
    provider: "google",
    aliases: [],
    effective_date: "2026-07-21",
    usd_per_mtok: noWriteFee(0.3, 0.03, 2.5),
    sources: noCacheWrite(
      { source: `${GOOGLE_LATEST}: $0.30 input`, verified: true },
      { source: `${GOOGLE_LATEST}: $2.50 output`, verified: true },
      { source: "simstudioai/sim#5812 (cachedInput 0.03, 2026-07-21)", verified: false, note: "one third-party source; 0.1× input like the other Gemini 3 models" },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
  },
  {
    model: "gemini-3.7-flash",
    provider: "google",
    aliases: [],
    effective_date: "2026-08-14",
    usd_per_mtok: noWriteFee(0.75, 0.075, 3.75),
    sources: all({
      source: "BerriAI/litellm discussion #36799 (Day 0 Gemini 3.7 Flash); cometapi-dev discussion #130",
      verified: false,
      note: "launch price, half of 3.6 Flash ($1.50/$7.50 standard), cache reads discounted alike; LiteLLM dates its end 2027-12-31, unconfirmed",
    }),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "effective_date approximate (first third-party listings 2026-08-14). Deprecated: ai.google.dev routes gemini-3.7-flash to gemini-3.8-flash.",
  },
  {
    model: "gemini-3.8-flash",
    provider: "google",
    aliases: [],
    effective_date: "2026-09-02",
    usd_per_mtok: noWriteFee(0.75, 0.075, 3.75),
    sources: noCacheWrite(
      { source: GOOGLE_TRANSCRIPT, verified: false, note: "'$0.75 through December 31, 2026.' quoted from the provider page by a third party; vercel.com and LiteLLM #39357 agree" },
      { source: GOOGLE_TRANSCRIPT, verified: false, note: "'$3.75 through December 31, 2026.' quoted from the provider page by a third party; vercel.com and LiteLLM #39357 agree" },
      { source: "BerriAI/litellm discussion #39357; docs.apiyi.com/models/gemini-3-8-flash", verified: false, note: "$0.075 in both" },
    ),
    long_context: null,
    fast_multiplier: null,
    fast_source: null,
    notes:
      "Released 2026-09-02 (apiyi, takeshy/obsidian-gemini-helper 1.21.7). Half price through 2026-12-31; $1.50/$7.50 from 2027-01-01 " +
      "(same transcript). That later period is not entered: findPrice without a time returns the latest period, which would then be a future price.",
  },
];

/** Every price (field, tier, fast multiplier) whose citation says `verified: false`, for reports and README checks. */
export function unverifiedPrices(
  table: readonly PriceEntry[] = PRICE_TABLE,
): { model: string; effective_date: string; price: string; source: string; note: string | null }[] {
  const out: { model: string; effective_date: string; price: string; source: string; note: string | null }[] = [];
  for (const e of table) {
    for (const f of PRICE_FIELDS) {
      const c = e.sources[f];
      if (!c.verified) out.push({ model: e.model, effective_date: e.effective_date, price: f, source: c.source, note: c.note ?? null });
    }
    if (e.long_context) {
      for (const f of PRICE_FIELDS) {
        const c = e.long_context.sources[f];
        if (!c.verified) {
          out.push({ model: e.model, effective_date: e.effective_date, price: `long_context.${f}`, source: c.source, note: c.note ?? null });
        }
      }
    }
    if (e.fast_source && !e.fast_source.verified) {
      out.push({ model: e.model, effective_date: e.effective_date, price: "fast_multiplier", source: e.fast_source.source, note: e.fast_source.note ?? null });
    }
  }
  return out;
}
