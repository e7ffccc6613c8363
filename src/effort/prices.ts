import { withoutVariantLabel } from "../model";
import { PRICE_TABLE, type PriceEntry } from "./price-table";

/**
 * Model-name matching for the price table.
 *
 * A name is first normalised (`normalizeModelName`): lower case; a trailing
 * `[...]` (Claude Code's `[1m]`) dropped; any path prefix dropped
 * (`anthropic/…`, `openai/…`, `models/gemini-…`, `openrouter/anthropic/…`);
 * Bedrock (`us.anthropic.…-v1:0`) and Vertex (`…@20250929`) decorations
 * dropped; for Claude names, dots between digits become hyphens
 * (`claude-sonnet-4.5` → `claude-sonnet-4-5`).
 *
 * Then it is looked up exactly (model id or alias); failing that, after
 * removing one date suffix: `-YYYYMMDD` (Anthropic), `-YYYY-MM-DD` (OpenAI),
 * or `-latest`. There is no fuzzy or prefix matching, so `gpt-5.1-codex-mini`
 * never falls back to `gpt-5.1-codex`, and an unknown model stays unknown.
 */

export function normalizeModelName(raw: string): string {
  let s = withoutVariantLabel(raw.trim().toLowerCase());
  const slash = s.lastIndexOf("/");
  if (slash >= 0) s = s.slice(slash + 1);
  if (/^(?:[a-z]{2,6}\.)?anthropic\./.test(s)) {
    // Bedrock: "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
    s = s.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, "").replace(/-v\d+(?::\d+)?$/, "");
  }
  if (s.startsWith("claude")) {
    s = s.replace(/@.*$/, ""); // Vertex: "claude-sonnet-4-5@20250929"
    s = s.replace(/:(?:\d+|thinking)$/, "");
    s = s.replace(/(\d)\.(\d)/g, "$1-$2");
  }
  return s;
}

const DATE_SUFFIXES: readonly RegExp[] = [/-\d{8}$/, /-\d{4}-\d{2}-\d{2}$/, /-latest$/];

/** Candidate keys for a name, in lookup order. */
function candidateKeys(model: string): string[] {
  const base = normalizeModelName(model);
  const keys = [base];
  for (const re of DATE_SUFFIXES) {
    if (re.test(base)) keys.push(base.replace(re, ""));
  }
  return keys;
}

/** Normalised name → entries (all periods of one model), oldest first. */
function buildIndex(table: readonly PriceEntry[]): Map<string, PriceEntry[]> {
  const index = new Map<string, PriceEntry[]>();
  const add = (key: string, e: PriceEntry) => {
    const list = index.get(key);
    if (!list) index.set(key, [e]);
    else if (!list.includes(e)) list.push(e);
  };
  for (const e of table) {
    add(normalizeModelName(e.model), e);
    for (const a of e.aliases) add(normalizeModelName(a), e);
  }
  for (const list of index.values())
    list.sort((a, b) => (a.effective_date < b.effective_date ? -1 : a.effective_date > b.effective_date ? 1 : 0));
  return index;
}

const DEFAULT_INDEX = buildIndex(PRICE_TABLE);
const indexCache = new WeakMap<readonly PriceEntry[], Map<string, PriceEntry[]>>();

function indexFor(table: readonly PriceEntry[]): Map<string, PriceEntry[]> {
  if (table === PRICE_TABLE) return DEFAULT_INDEX;
  let idx = indexCache.get(table);
  if (!idx) {
    idx = buildIndex(table);
    indexCache.set(table, idx);
  }
  return idx;
}

/** Epoch milliseconds of an ISO timestamp or date, or null. */
export function timeOf(at: string | number | Date | null | undefined): number | null {
  if (at === null || at === undefined) return null;
  if (typeof at === "number") return Number.isFinite(at) ? at : null;
  const t = at instanceof Date ? at.getTime() : Date.parse(at);
  return Number.isFinite(t) ? t : null;
}

/** The period in force at `at`: the latest with effective_date ≤ at; the latest of all when `at` is unknown; the earliest when `at` predates them all. */
function pickPeriod(periods: readonly PriceEntry[], at: number | null): PriceEntry {
  if (at === null) return periods[periods.length - 1];
  let chosen = periods[0];
  for (const p of periods) {
    const start = Date.parse(`${p.effective_date}T00:00:00Z`);
    if (start <= at) chosen = p;
  }
  return chosen;
}

/**
 * The price entry for a model name, or null when the model is unknown (or the
 * name is null/empty). `at` (an ISO timestamp, epoch ms or Date) picks the
 * period in force then; without it, the current prices.
 */
export function findPrice(
  model: string | null,
  at: string | number | Date | null = null,
  table: readonly PriceEntry[] = PRICE_TABLE,
): PriceEntry | null {
  if (model === null || model.trim() === "") return null;
  const index = indexFor(table);
  for (const key of candidateKeys(model)) {
    const periods = index.get(key);
    if (periods && periods.length > 0) return pickPeriod(periods, timeOf(at));
  }
  return null;
}

/** The table's canonical id for a model name, or its normalised form when the table does not know it; null for no name. */
export function canonicalModel(model: string | null, table: readonly PriceEntry[] = PRICE_TABLE): string | null {
  if (model === null || model.trim() === "") return null;
  const e = findPrice(model, null, table);
  return e ? e.model : normalizeModelName(model);
}
