import type { ApiCall, Usage } from "../model";

/**
 * Token totals (metrics.md §5, "Tokens") and the session's model (§6: the
 * model with the most output tokens; the others are kept in `models`).
 * Calls are taken as given: deduplication of streamed records, Codex
 * normalisation and dropping `<synthetic>` records are the adapters' work.
 * Sub-agent (sidechain) calls count like any other.
 */

export interface UsageTotals extends Usage {
  /** Number of API calls summed. */
  api_calls: number;
}

export interface ModelTokens extends UsageTotals {
  /** The model name as logged; null for calls without one. */
  model: string | null;
}

/** Names that are not models (Claude Code's local error records). */
const NOT_A_MODEL = new Set(["<synthetic>"]);

function emptyTotals(): UsageTotals {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    cache_read_tokens: 0,
    reasoning_tokens: 0,
    api_calls: 0,
  };
}

function addUsage(t: UsageTotals, u: Usage): void {
  t.input_tokens += u.input_tokens;
  t.output_tokens += u.output_tokens;
  t.cache_creation_tokens += u.cache_creation_tokens;
  t.cache_creation_1h_tokens += u.cache_creation_1h_tokens ?? 0;
  t.cache_read_tokens += u.cache_read_tokens;
  t.reasoning_tokens += u.reasoning_tokens ?? 0;
  t.api_calls += 1;
}

/** Field-by-field sum of the calls' usage, with the number of calls. */
export function sumUsage(calls: readonly ApiCall[]): UsageTotals {
  const t = emptyTotals();
  for (const c of calls) addUsage(t, c.usage);
  return t;
}

/** All tokens of a usage: input + output + cache writes + cache reads (reasoning is inside output). */
export function totalTokens(u: Usage): number {
  return u.input_tokens + u.output_tokens + u.cache_creation_tokens + u.cache_read_tokens;
}

function byOutputThenName(a: ModelTokens, b: ModelTokens): number {
  if (a.model === null || b.model === null) {
    if (a.model === b.model) return 0;
    return a.model === null ? 1 : -1;
  }
  if (b.output_tokens !== a.output_tokens) return b.output_tokens - a.output_tokens;
  return a.model < b.model ? -1 : a.model > b.model ? 1 : 0;
}

/**
 * Usage per model name as logged (no merging of dated and undated ids: use
 * `canonicalModel` first if wanted), sorted by output tokens descending, then
 * name ascending; calls without a model come last. The rows add up to
 * `sumUsage(calls)`.
 */
export function tokensByModel(calls: readonly ApiCall[]): ModelTokens[] {
  const map = new Map<string | null, ModelTokens>();
  for (const c of calls) {
    const key = c.model === null || c.model.trim() === "" ? null : c.model;
    let row = map.get(key);
    if (!row) {
      row = { model: key, ...emptyTotals() };
      map.set(key, row);
    }
    addUsage(row, c.usage);
  }
  return Array.from(map.values()).sort(byOutputThenName);
}

/** Model names by output tokens descending, then name; no null, no `<synthetic>`. */
export function modelsByOutput(calls: readonly ApiCall[]): string[] {
  const out: string[] = [];
  for (const row of tokensByModel(calls)) {
    if (row.model !== null && !NOT_A_MODEL.has(row.model)) out.push(row.model);
  }
  return out;
}

/** The model with the most output tokens (ties: the alphabetically first name); null when no call names a model. */
export function dominantModel(calls: readonly ApiCall[]): string | null {
  const models = modelsByOutput(calls);
  return models.length > 0 ? models[0] : null;
}
