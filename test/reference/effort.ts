/**
 * metrics.md §5 (effort per session) and §6 (a session's model), read independently from the
 * transcript text: tokens, API calls, cost, time, prompts and the length bin.
 *
 * Like the rest of test/reference/ it imports none of the product's logic. The one exception the
 * brief allows is the price *data* (`PRICE_TABLE`); matching a model name to an entry and the cost
 * formula are written here from metrics.md §5 and formats.md §2.3, §3.3, §10.
 */
import { PRICE_TABLE, type PriceEntry, type Prices } from "../../src/effort/price-table";
import { geminiEffortParts } from "./gemini";
import { piEffortParts } from "./pi";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** One API call, its usage already in Claude's meaning (input = uncached input). */
export interface RefApiCall {
  model: string | null;
  /** ms since the epoch, for the price period in force. */
  timestamp: number | null;
  input: number;
  output: number;
  /** All cache writes; `cacheWrite1h` of them at the 1-hour price. */
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  speed: string | null;
}

export interface SessionEffort {
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  api_calls: number;
  duration_s: number | null;
  active_s: number | null;
  prompts: number;
  length_bin: string | null;
  model: string | null;
  /** §6: every model of the session's API calls, most output tokens first (ties by name); `model` is the first. */
  models_ranked: string[];
  /** First and last record timestamp (ISO, UTC, ms), in time order as `duration_s`. */
  started_at: string | null;
  ended_at: string | null;
  cost_usd: number | null;
  /** Models with non-zero usage and no price (the reason for a null cost). */
  unknown_models: string[];
}

export interface EffortOptions {
  /** §5: each gap between consecutive records is capped at this many seconds (default 300). */
  idleLimitS?: number;
  /**
   * §5 bins start at 1 and say nothing about a session with 0 real prompts (a resumed or sub-agent
   * only transcript). Default: null (no bin). `"0"`: the product's reading, its own bin "0".
   */
  zeroPromptBin?: null | "0";
  /** Gemini only: read the messages from this position on (a unit's slice; Entire's offsets count messages). */
  fromMessage?: number;
  /** Pi only: read the lines from this one on, the model in effect carried over from before (a unit's slice). */
  fromLine?: number;
}

export function parseRecords(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line);
      if (isObj(v)) out.push(v);
    } catch {
      // not a JSON object: transcripts.ts counts these; effort ignores them
    }
  }
  return out;
}

function time(v: unknown): number | null {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

// ---------------------------------------------------------------- Claude Code

/**
 * Claude Code: one API call per (message.id, requestId); 2.x streams one record per content block,
 * so keep the record with the largest output count (§5). Sub-agent calls come nested in
 * `agent_progress` records (2.x) or as `isSidechain` records (1.x) and are included. `<synthetic>`
 * records are local error messages, not API calls.
 */
function claudeApiCalls(records: Json[]): RefApiCall[] {
  const byKey = new Map<string, RefApiCall>();
  let anonymous = 0;
  for (const r of records) {
    const candidates: Json[] = [];
    if (r.type === "assistant") candidates.push(r);
    if (
      r.type === "progress" &&
      isObj(r.data) &&
      r.data.type === "agent_progress" &&
      isObj(r.data.message) &&
      r.data.message.type === "assistant"
    ) {
      candidates.push(r.data.message);
    }
    for (const m of candidates) {
      const msg = m.message;
      if (!isObj(msg) || !isObj(msg.usage)) continue;
      const model = typeof msg.model === "string" ? msg.model : null;
      if (model === "<synthetic>") continue;
      const u = msg.usage;
      const cacheWrite = num(u.cache_creation_input_tokens);
      const call: RefApiCall = {
        model,
        timestamp: time(m.timestamp) ?? time(r.timestamp),
        input: num(u.input_tokens),
        output: num(u.output_tokens),
        cacheWrite,
        cacheWrite1h: Math.min(
          cacheWrite,
          isObj(u.cache_creation) ? num(u.cache_creation.ephemeral_1h_input_tokens) : 0,
        ),
        cacheRead: num(u.cache_read_input_tokens),
        speed: typeof u.speed === "string" ? u.speed : null,
      };
      const id = typeof msg.id === "string" ? msg.id : null;
      const req = typeof m.requestId === "string" ? m.requestId : null;
      // A record with neither id cannot be matched with another block: it is its own call.
      const key = id === null && req === null ? `anon:${anonymous++}` : `${id}\0${req}`;
      const seen = byKey.get(key);
      if (!seen || call.output > seen.output) byKey.set(key, call);
    }
  }
  return [...byKey.values()];
}

// Command outputs (formats.md §2.2): slash commands, local commands, `!` shell commands typed in the prompt box
// (<bash-input>, <bash-stdout>, <bash-stderr>), and background-task notifications; interruption markers.
const NOT_PROMPT = [
  /^\s*<command-name>/,
  /^\s*<command-message>/,
  /^\s*<command-args>/,
  /^\s*<local-command-stdout>/,
  /^\s*<local-command-stderr>/,
  /^\s*<local-command-caveat>/,
  /^\s*<bash-(input|stdout|stderr)>/,
  /^\s*<task-notification>/,
  /^\[Request interrupted/,
];

/**
 * §5 "real user prompts": top-level `user` records that a person typed: not tool results, not
 * `isMeta`, not command outputs (formats.md §2.2), not compaction summaries (§2.6), not
 * "[Request interrupted…]". Sidechain (1.x sub-agent) records are the main agent's prompts to a
 * sub-agent, not the person's. A prompt the person typed while the agent worked (2.1+) has no `user`
 * record: it is an `attachment` of type `queued_command` with `commandMode` "prompt"; it is a real
 * user prompt too (a `task-notification` queued command is a background task, not a person).
 */
function claudePrompts(records: Json[]): number {
  let n = 0;
  for (const r of records) {
    const a = r.type === "attachment" && isObj(r.attachment) ? r.attachment : null;
    if (a !== null && a.type === "queued_command" && r.isSidechain !== true && r.isMeta !== true) {
      const mode = a.commandMode ?? "prompt";
      const kind = isObj(a.origin) ? (a.origin.kind ?? "human") : "human";
      const blocks = Array.isArray(a.prompt) ? a.prompt.filter(isObj) : [];
      const body =
        typeof a.prompt === "string"
          ? a.prompt
          : blocks
              .filter((b) => b.type === "text")
              .map((b) => String(b.text ?? ""))
              .join("\n");
      // Like a user record: text that is not a command marker, or an image alone.
      const said =
        body.trim() !== "" ? !NOT_PROMPT.some((re) => re.test(body)) : blocks.some((b) => b.type === "image");
      if (mode === "prompt" && kind === "human" && said) n += 1;
      continue;
    }
    if (
      r.type !== "user" ||
      r.isMeta === true ||
      r.isCompactSummary === true ||
      r.isSidechain === true ||
      r.toolUseResult !== undefined
    )
      continue;
    const content = isObj(r.message) ? r.message.content : undefined;
    let text: string | null = null;
    if (typeof content === "string") text = content;
    else if (Array.isArray(content)) {
      if (content.some((b) => isObj(b) && b.type === "tool_result")) continue;
      const first = content.find((b) => isObj(b) && (b.type === "text" || b.type === "image"));
      if (!isObj(first)) continue;
      text = typeof first.text === "string" ? first.text : "";
    } else continue;
    if (NOT_PROMPT.some((re) => re.test(text!))) continue;
    n += 1;
  }
  return n;
}

// ---------------------------------------------------------------- Codex

/**
 * Codex: one API call per `token_count` event with usage (formats.md §3.3), from
 * `last_token_usage` (or the difference of consecutive `total_token_usage`); an event whose total
 * repeats the previous one is a repeat, not a call. Codex `input_tokens` include the cached ones
 * and `output_tokens` include reasoning: normalise to Claude's meaning (§5). The model is the
 * latest `turn_context.model`.
 */
function codexApiCalls(records: Json[]): RefApiCall[] {
  const calls: RefApiCall[] = [];
  let model: string | null = null;
  let prevTotal: Json | null = null;
  for (const r of records) {
    const p = r.payload;
    if (!isObj(p)) continue;
    if (r.type === "turn_context" && typeof p.model === "string") model = p.model;
    if (p.type !== "token_count" || !isObj(p.info)) continue;
    const total = isObj(p.info.total_token_usage) ? p.info.total_token_usage : null;
    if (total && prevTotal && JSON.stringify(total) === JSON.stringify(prevTotal)) continue;
    let last: Json | null = isObj(p.info.last_token_usage) ? p.info.last_token_usage : null;
    if (!last && total) {
      const before = prevTotal ?? {};
      last = Object.fromEntries(
        ["input_tokens", "cached_input_tokens", "output_tokens"].map((k) => [k, num(total[k]) - num(before[k])]),
      );
    }
    if (total) prevTotal = total;
    if (!last) continue;
    const cached = num(last.cached_input_tokens);
    calls.push({
      model,
      timestamp: time(r.timestamp),
      input: num(last.input_tokens) - cached,
      output: num(last.output_tokens),
      cacheWrite: 0,
      cacheWrite1h: 0,
      cacheRead: cached,
      speed: null,
    });
  }
  return calls;
}

/** Codex's clean prompt is `event_msg` / `user_message` (formats.md §3.1). */
function codexPrompts(records: Json[]): number {
  return records.filter((r) => r.type === "event_msg" && isObj(r.payload) && r.payload.type === "user_message").length;
}

// ---------------------------------------------------------------- cost (§5 "Cost")

/** "Model names match with or without date suffixes": -YYYYMMDD or -YYYY-MM-DD. */
function withoutDate(name: string): string {
  return name.replace(/-\d{8}$/, "").replace(/-\d{4}-\d{2}-\d{2}$/, "");
}

/** The table entry for a model at a time: exact name or alias first, then without the date suffix; the latest period started by then. */
export function priceEntry(model: string, at: number | null): PriceEntry | null {
  const lower = model.toLowerCase();
  for (const name of [lower, withoutDate(lower)]) {
    const periods = PRICE_TABLE.filter((e) => e.model === name || e.aliases.includes(name));
    if (periods.length === 0) continue;
    periods.sort((a, b) => (a.effective_date < b.effective_date ? -1 : 1));
    const day = at === null ? null : new Date(at).toISOString().slice(0, 10);
    // Before the first period (or without a time) the first / the latest period applies.
    if (day === null) return periods[periods.length - 1];
    let chosen = periods[0];
    for (const e of periods) if (e.effective_date <= day) chosen = e;
    return chosen;
  }
  return null;
}

/**
 * One call in dollars. Cache writes split into 5-minute and 1-hour parts (formats.md §2.3). Long
 * context: metrics.md names the tiers but not the rule; this follows formats.md §10 (ccusage):
 * each count is tiered on its own, the tokens above the threshold at the long-context price.
 * `speed: "fast"` multiplies the call by the entry's fast factor where the table has one.
 */
export function callCost(call: RefApiCall, entry: PriceEntry): number {
  const counts: [keyof Prices, number][] = [
    ["input", call.input],
    ["output", call.output],
    ["cache_write_5m", call.cacheWrite - call.cacheWrite1h],
    ["cache_write_1h", call.cacheWrite1h],
    ["cache_read", call.cacheRead],
  ];
  let usd = 0;
  for (const [field, n] of counts) {
    const base = entry.usd_per_mtok[field];
    const lc = entry.long_context;
    if (lc && n > lc.threshold_tokens)
      usd += (lc.threshold_tokens * base + (n - lc.threshold_tokens) * lc.usd_per_mtok[field]) / 1e6;
    else usd += (n * base) / 1e6;
  }
  if ((call.speed === "fast" || call.speed === "priority") && entry.fast_multiplier !== null)
    usd *= entry.fast_multiplier;
  return usd;
}

// ---------------------------------------------------------------- the session

const BINS: [number, number, string][] = [
  [1, 1, "1"],
  [2, 2, "2"],
  [3, 3, "3"],
  [4, 4, "4"],
  [5, 5, "5"],
  [6, 10, "6-10"],
  [11, Infinity, "11+"],
];

export function lengthBin(prompts: number, zero: null | "0" = null): string | null {
  if (prompts === 0) return zero;
  return BINS.find(([lo, hi]) => prompts >= lo && prompts <= hi)![2];
}

/** §5 Time over the records' own timestamps, taken in time order. */
export function timeSpans(times: number[], idleLimitS: number): { duration_s: number | null; active_s: number | null } {
  if (times.length === 0) return { duration_s: null, active_s: null };
  const t = [...times].sort((a, b) => a - b);
  let active = 0;
  for (let i = 1; i < t.length; i++) active += Math.min((t[i] - t[i - 1]) / 1000, idleLimitS);
  return { duration_s: (t[t.length - 1] - t[0]) / 1000, active_s: active };
}

/** §6: models by output tokens, most first; ties go to the alphabetically first name (metrics.md is silent on ties). */
function rankModels(calls: RefApiCall[]): string[] {
  const out = new Map<string, number>();
  for (const c of calls) if (c.model !== null) out.set(c.model, (out.get(c.model) ?? 0) + c.output);
  return [...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([m]) => m);
}

export function sessionEffort(
  text: string,
  format: "claude-code" | "codex" | "gemini" | "pi",
  options: EffortOptions = {},
): SessionEffort {
  let calls: RefApiCall[];
  let prompts: number;
  let times: number[];
  if (format === "gemini") ({ calls, prompts, times } = geminiEffortParts(text, options.fromMessage ?? 0));
  else if (format === "pi") ({ calls, prompts, times } = piEffortParts(text, options.fromLine ?? 0));
  else {
    const records = parseRecords(text);
    calls = format === "codex" ? codexApiCalls(records) : claudeApiCalls(records);
    prompts = format === "codex" ? codexPrompts(records) : claudePrompts(records);
    times = records.map((r) => time(r.timestamp)).filter((t): t is number => t !== null);
  }
  const ranked = rankModels(calls);
  const iso = (t: number): string | null => (Number.isFinite(t) ? new Date(t).toISOString() : null);
  let cost: number | null = 0;
  const unknown = new Set<string>();
  for (const c of calls) {
    if (c.input + c.output + c.cacheWrite + c.cacheRead === 0) continue; // nothing billed, whatever the model
    const entry = c.model === null ? null : priceEntry(c.model, c.timestamp);
    if (!entry) unknown.add(c.model ?? "(no model)");
    else if (cost !== null) cost += callCost(c, entry);
  }
  if (unknown.size > 0) cost = null; // §5: an unknown model gives a null cost, never a silent 0
  const sum = (f: (c: RefApiCall) => number): number => calls.reduce((s, c) => s + f(c), 0);
  return {
    input_tokens: sum((c) => c.input),
    output_tokens: sum((c) => c.output),
    cache_creation_tokens: sum((c) => c.cacheWrite),
    cache_read_tokens: sum((c) => c.cacheRead),
    api_calls: calls.length,
    ...timeSpans(times, options.idleLimitS ?? 300),
    prompts,
    length_bin: lengthBin(prompts, options.zeroPromptBin ?? null),
    model: ranked[0] ?? null,
    models_ranked: ranked,
    started_at: iso(times.reduce((a, b) => Math.min(a, b), Infinity)),
    ended_at: iso(times.reduce((a, b) => Math.max(a, b), -Infinity)),
    cost_usd: cost,
    unknown_models: [...unknown].sort(),
  };
}
