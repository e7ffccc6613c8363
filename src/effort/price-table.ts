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

import { ANTHROPIC_PRICES } from "./price-data/anthropic";
import { GOOGLE_PRICES } from "./price-data/google";
import { OPENAI_PRICES } from "./price-data/openai";

export const PRICE_TABLE_VERSION = "2026-11-30.2";
/** The day the prices below were last checked. */
export const PRICE_TABLE_CHECKED = "2026-11-30";

export type Provider = "anthropic" | "openai" | "google";
export type PriceField = "input" | "output" | "cache_write_5m" | "cache_write_1h" | "cache_read";
export const PRICE_FIELDS: readonly PriceField[] = [
  "input",
  "output",
  "cache_write_5m",
  "cache_write_1h",
  "cache_read",
];

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

// ---------------------------------------------------------------- the table

/** Every entry, by provider (the data lives in ./price-data/, one file per provider). */
export const PRICE_TABLE: readonly PriceEntry[] = [...ANTHROPIC_PRICES, ...OPENAI_PRICES, ...GOOGLE_PRICES];

/** Every price (field, tier, fast multiplier) whose citation says `verified: false`, for reports and README checks. */
export function unverifiedPrices(
  table: readonly PriceEntry[] = PRICE_TABLE,
): { model: string; effective_date: string; price: string; source: string; note: string | null }[] {
  const out: { model: string; effective_date: string; price: string; source: string; note: string | null }[] = [];
  for (const e of table) {
    for (const f of PRICE_FIELDS) {
      const c = e.sources[f];
      if (!c.verified)
        out.push({
          model: e.model,
          effective_date: e.effective_date,
          price: f,
          source: c.source,
          note: c.note ?? null,
        });
    }
    if (e.long_context) {
      for (const f of PRICE_FIELDS) {
        const c = e.long_context.sources[f];
        if (!c.verified) {
          out.push({
            model: e.model,
            effective_date: e.effective_date,
            price: `long_context.${f}`,
            source: c.source,
            note: c.note ?? null,
          });
        }
      }
    }
    if (e.fast_source && !e.fast_source.verified) {
      out.push({
        model: e.model,
        effective_date: e.effective_date,
        price: "fast_multiplier",
        source: e.fast_source.source,
        note: e.fast_source.note ?? null,
      });
    }
  }
  return out;
}
