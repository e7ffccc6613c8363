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
 * - OpenAI and Google have no cache-write fee: a prompt that fills the cache is
 *   billed as ordinary input, and cached input is billed at their "cached
 *   input" / "context caching" price. So for them `cache_write_5m` and
 *   `cache_write_1h` equal `input` (the same convention as ccusage/LiteLLM).
 *   Gemini's hourly cache-storage fee is not modelled.
 * - Anthropic's 5-minute cache write is 1.25× input, the 1-hour write 2× input,
 *   a cache hit 0.1× input (the published table; ccusage prices 1-hour writes
 *   at 2× input too).
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
 */

export const PRICE_TABLE_VERSION = "2026-11-30.1";
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

/** Anthropic 1M-context premium above 200K input tokens (input 2×, output 1.5×, cache prices on the doubled input). */
function anthropicLongContext(prices: Prices, sources: Record<PriceField, Citation>): LongContextTier {
  return { threshold_tokens: 200_000, usd_per_mtok: prices, sources };
}

const derivedCacheAbove: Citation = {
  source: `${LITELLM}; ${GENAI}`,
  verified: false,
  note: "cache prices above 200K = Anthropic's cache multipliers on the long-context input price; not read on the provider page",
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
