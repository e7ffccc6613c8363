import type { ApiCall, DiagnosticSink, Usage } from "../model";
import { PRICE_FIELDS, PRICE_TABLE, type PriceEntry, type PriceField, type Prices } from "./price-table";
import { findPrice } from "./prices";

/**
 * Dollar cost of API calls (metrics.md §5, "Cost"), following ccusage's formula
 * (formats.md §10):
 *
 *   cost = input×p_in + output×p_out + cache_5m×p_cw5m + cache_1h×p_cw1h + cache_read×p_cr
 *
 * with cache_5m = cache_creation_tokens − cache_creation_1h_tokens (never below
 * 0) and cache_1h = cache_creation_1h_tokens; prices are USD per million tokens
 * from the entry in force at the call's timestamp (prices.ts). The total is
 * multiplied by the entry's fast multiplier when the call's `speed` is "fast"
 * (or "priority", Codex's name for the same tier).
 *
 * Long-context tiers. Two rules, chosen with `tierRule`:
 * - "ccusage" (default), what ccusage's `tiered_cost` does: each of the five
 *   token counts is tiered on its own. If a count exceeds the entry's
 *   threshold (200K for Claude and Gemini, 272K for GPT-5.4/5.5), its first
 *   `threshold` tokens are charged at the base price and the tokens above at
 *   the long-context price; a count at or below the threshold is charged at
 *   the base price, whatever the other counts are. (ccusage hard-codes 200K
 *   and so never tiers GPT-5.4/5.5; this table's thresholds are used instead.)
 * - "request", what the providers bill: the call's prompt is input + cache
 *   writes + cache reads; when it exceeds the threshold, every token of the
 *   call, output included, is charged at the long-context prices.
 * The ccusage rule gives a lower figure than the providers' whenever a long
 * prompt is split across buckets, or output follows a long prompt.
 *
 * Calls whose usage is all zero cost 0 whatever their model (nothing was
 * billed) and raise no diagnostic.
 */

export type TierRule = "ccusage" | "request";

export interface CostOptions {
  tierRule?: TierRule;
  /** Another price table (tests, what-if pricing). */
  table?: readonly PriceEntry[];
}

/** The name used in results and diagnostics for calls that have no model name. */
export const NO_MODEL = "(none)";

export interface CostBreakdown {
  model: string;
  /** The table entry used (model id and period). */
  entry: PriceEntry;
  /** Dollars per price field, before the fast multiplier. */
  usd: Record<PriceField, number>;
  /** True when any token was charged at a long-context price. */
  long_context_applied: boolean;
  /** The multiplier applied (1 unless `speed` is fast and the model has one). */
  fast_multiplier: number;
  /** True when the call asked for fast speed but the entry has no fast price (charged at 1×). */
  fast_price_unknown: boolean;
  total: number;
}

const PER_MILLION = 1_000_000;

/** Tokens of one call per price field. */
export function tokensPerField(usage: Usage): Record<PriceField, number> {
  const writes = usage.cache_creation_tokens;
  const writes1h = usage.cache_creation_1h_tokens ?? 0;
  return {
    input: usage.input_tokens,
    output: usage.output_tokens,
    cache_write_5m: Math.max(0, writes - writes1h),
    cache_write_1h: writes1h,
    cache_read: usage.cache_read_tokens,
  };
}

export function isZeroUsage(usage: Usage): boolean {
  return (
    usage.input_tokens === 0 &&
    usage.output_tokens === 0 &&
    usage.cache_creation_tokens === 0 &&
    usage.cache_read_tokens === 0
  );
}

export function isFastSpeed(speed: string | null | undefined): boolean {
  if (!speed) return false;
  const s = speed.toLowerCase();
  return s === "fast" || s === "priority";
}

/** ccusage's `tiered_cost` for one count: the first `threshold` tokens at `base`, the rest at `above`. */
function tiered(
  tokens: number,
  base: number,
  above: number | null,
  threshold: number,
): { usd: number; tiered: boolean } {
  if (tokens <= 0) return { usd: 0, tiered: false };
  if (above !== null && tokens > threshold) {
    return { usd: (threshold * base + (tokens - threshold) * above) / PER_MILLION, tiered: true };
  }
  return { usd: (tokens * base) / PER_MILLION, tiered: false };
}

/** The cost of one call, term by term, or null when its model has no price. */
export function costBreakdown(call: ApiCall, options: CostOptions = {}): CostBreakdown | null {
  const entry = findPrice(call.model, call.timestamp, options.table ?? PRICE_TABLE);
  if (!entry) return null;
  const rule = options.tierRule ?? "ccusage";
  const tokens = tokensPerField(call.usage);
  const base: Prices = entry.usd_per_mtok;
  const tier = entry.long_context;
  const usd = { input: 0, output: 0, cache_write_5m: 0, cache_write_1h: 0, cache_read: 0 } as Record<
    PriceField,
    number
  >;
  let longApplied = false;

  if (rule === "request") {
    const prompt = tokens.input + tokens.cache_write_5m + tokens.cache_write_1h + tokens.cache_read;
    const useTier = tier !== null && prompt > tier.threshold_tokens;
    const prices = useTier && tier ? tier.usd_per_mtok : base;
    for (const f of PRICE_FIELDS) usd[f] = (tokens[f] * prices[f]) / PER_MILLION;
    longApplied = useTier;
  } else {
    for (const f of PRICE_FIELDS) {
      const r = tiered(tokens[f], base[f], tier ? tier.usd_per_mtok[f] : null, tier ? tier.threshold_tokens : Infinity);
      usd[f] = r.usd;
      if (r.tiered) longApplied = true;
    }
  }

  const wantsFast = isFastSpeed(call.speed);
  const fastPriceUnknown = wantsFast && entry.fast_multiplier === null;
  const multiplier = wantsFast && entry.fast_multiplier !== null ? entry.fast_multiplier : 1;
  let total = 0;
  for (const f of PRICE_FIELDS) total += usd[f];
  return {
    model: entry.model,
    entry,
    usd,
    long_context_applied: longApplied,
    fast_multiplier: multiplier,
    fast_price_unknown: fastPriceUnknown,
    total: total * multiplier,
  };
}

/** Dollar cost of one call; null when its model has no price (a call with zero usage costs 0). */
export function costOfCall(call: ApiCall, options: CostOptions = {}): number | null {
  if (isZeroUsage(call.usage)) return 0;
  const b = costBreakdown(call, options);
  return b ? b.total : null;
}

export interface PartialCost {
  /** Dollars of the calls whose model has a price. */
  known_usd: number;
  /** Distinct models without a price, sorted; `NO_MODEL` for calls without a model name. */
  unknown_models: string[];
  priced_calls: number;
  unpriced_calls: number;
  /** Tokens (input + output + cache writes + cache reads) of the unpriced calls. */
  unpriced_tokens: number;
}

/**
 * The priced part of a list of calls and the models that could not be priced.
 * With a sink: one `price-unknown-model` warning per distinct unknown model,
 * and one `price-fast-unknown` warning per model that asked for fast speed
 * without a known fast price (those calls are charged at standard prices).
 */
export function partialCostOfCalls(
  calls: readonly ApiCall[],
  sink: DiagnosticSink | null = null,
  options: CostOptions = {},
): PartialCost {
  let known = 0;
  let priced = 0;
  let unpriced = 0;
  let unpricedTokens = 0;
  const unknown = new Map<string, { calls: number; tokens: number; record: number }>();
  const fastUnknown = new Map<string, { calls: number; record: number }>();

  for (const call of calls) {
    if (isZeroUsage(call.usage)) {
      priced++;
      continue;
    }
    const b = costBreakdown(call, options);
    if (!b) {
      const name = call.model === null || call.model.trim() === "" ? NO_MODEL : call.model;
      const u = call.usage;
      const tokens = u.input_tokens + u.output_tokens + u.cache_creation_tokens + u.cache_read_tokens;
      const seen = unknown.get(name);
      if (seen) {
        seen.calls++;
        seen.tokens += tokens;
      } else unknown.set(name, { calls: 1, tokens, record: call.record });
      unpriced++;
      unpricedTokens += tokens;
      continue;
    }
    if (b.fast_price_unknown) {
      const seen = fastUnknown.get(b.model);
      if (seen) seen.calls++;
      else fastUnknown.set(b.model, { calls: 1, record: call.record });
    }
    known += b.total;
    priced++;
  }

  const unknownModels = Array.from(unknown.keys()).sort();
  if (sink) {
    for (const name of unknownModels) {
      const u = unknown.get(name);
      if (!u) continue;
      const what = name === NO_MODEL ? "calls without a model name" : `model '${name}'`;
      sink.warn(
        "price-unknown-model",
        `no price for ${what} (${u.calls} call${u.calls === 1 ? "" : "s"}, ${u.tokens} tokens): cost left null`,
        u.record,
      );
    }
    for (const name of Array.from(fastUnknown.keys()).sort()) {
      const f = fastUnknown.get(name);
      if (!f) continue;
      sink.warn(
        "price-fast-unknown",
        `fast speed requested on '${name}' (${f.calls} call${f.calls === 1 ? "" : "s"}) but no fast price is known: charged at standard prices`,
        f.record,
      );
    }
  }
  return {
    known_usd: known,
    unknown_models: unknownModels,
    priced_calls: priced,
    unpriced_calls: unpriced,
    unpriced_tokens: unpricedTokens,
  };
}

/**
 * Dollar cost of a list of calls: the sum, or null when any call (with
 * non-zero usage) has a model without a price, never a partial sum passed off
 * as the total. Diagnostics as in `partialCostOfCalls`. No calls cost 0.
 */
export function costOfCalls(calls: readonly ApiCall[], sink: DiagnosticSink, options: CostOptions = {}): number | null {
  const p = partialCostOfCalls(calls, sink, options);
  return p.unknown_models.length > 0 ? null : p.known_usd;
}
