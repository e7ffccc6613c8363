/**
 * Codex `token_count` events → one {@link ApiCall} per model request.
 *
 * `info.total_token_usage` is cumulative for the session and
 * `info.last_token_usage` is the last request's (formats.md §3.3). The
 * per-call usage is the difference of consecutive totals when totals are
 * logged (exact even if an event is missing), else `last_token_usage`.
 * Codex repeats events: in `c3/b191fe1158/0/full.jsonl` line 279 (the start
 * of the second turn) repeats line 273 exactly, so a total that did not move
 * is not a call. Without totals, an identical `last_token_usage` with no
 * model output in between is taken as the same repeat.
 *
 * Normalisation to our {@link Usage}: Codex `input_tokens` INCLUDE
 * `cached_input_tokens` and `output_tokens` include
 * `reasoning_output_tokens`, so input = input − cached, cache_read = cached,
 * output = output (reasoning kept inside, and copied to `reasoning_tokens`),
 * no cache writes.
 */
import type { ApiCall, Usage } from "../../model";
import { tokenInfoSchema, type RawTokenUsage } from "./schema";

const FIELDS = ["input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens"] as const;

const n = (v: number | undefined): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/** Codex usage → the model's Usage (input uncached, output with reasoning inside). */
export function normaliseCodexUsage(u: RawTokenUsage): Usage {
  const input = n(u.input_tokens);
  const cached = n(u.cached_input_tokens);
  return {
    input_tokens: Math.max(0, input - cached),
    output_tokens: n(u.output_tokens),
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    cache_read_tokens: cached,
    reasoning_tokens: n(u.reasoning_output_tokens),
  };
}

function same(a: RawTokenUsage, b: RawTokenUsage): boolean {
  return FIELDS.every((f) => n(a[f]) === n(b[f]));
}

function minus(a: RawTokenUsage, b: RawTokenUsage): RawTokenUsage | null {
  const out: RawTokenUsage = {};
  for (const f of FIELDS) {
    const d = n(a[f]) - n(b[f]);
    if (d < 0) return null;
    out[f] = d;
  }
  return out;
}

export interface TokenNotes {
  /** Events with `info: null` (before the first request). */
  nullInfo: number;
  /** Events that repeat the previous totals: not calls. */
  repeats: number;
  /** Totals that went down (a resumed or restarted process): `last_token_usage` used. */
  resets: number;
  /** The difference of totals disagrees with `last_token_usage` (a missed event?): the difference is used. */
  mismatches: number;
  /** cached > input: input clamped to 0. */
  cachedOverInput: number;
  /** Events whose info has neither totals nor last usage. */
  empty: number;
  firstRepeat: number | null;
  firstMismatch: number | null;
}

export class CodexTokenCounter {
  readonly calls: ApiCall[] = [];
  readonly notes: TokenNotes = {
    nullInfo: 0,
    repeats: 0,
    resets: 0,
    mismatches: 0,
    cachedOverInput: 0,
    empty: 0,
    firstRepeat: null,
    firstMismatch: null,
  };
  private prevTotal: RawTokenUsage | null = null;
  private prevLast: RawTokenUsage | null = null;
  private outputsSinceLast = 0;

  constructor(
    private readonly idPrefix: string,
    private readonly sidechain: boolean,
  ) {}

  /** A model output (message, reasoning, tool call) was logged: the next identical `last_token_usage` is a new call. */
  modelOutput(): void {
    this.outputsSinceLast++;
  }

  /** One `token_count` event's `info`, at transcript line `record` (`sourceLine`: its own line, when it comes from a sub-agent file). */
  add(
    info: unknown,
    record: number,
    timestamp: string | null,
    model: string | null,
    sourceLine: number = record,
  ): void {
    if (info === null || info === undefined) {
      this.notes.nullInfo++;
      return;
    }
    const parsed = tokenInfoSchema.safeParse(info);
    const total = parsed.success ? parsed.data.total_token_usage : undefined;
    const last = parsed.success ? parsed.data.last_token_usage : undefined;
    let usage: RawTokenUsage | null = null;
    if (total) {
      if (this.prevTotal) {
        const delta = minus(total, this.prevTotal);
        if (delta === null) {
          this.notes.resets++;
          usage = last ?? total;
        } else if (FIELDS.every((f) => n(delta[f]) === 0)) {
          this.repeat(record);
        } else {
          usage = delta;
          if (last && !same(last, delta)) {
            this.notes.mismatches++;
            this.notes.firstMismatch ??= record;
          }
        }
      } else {
        usage = last ?? total;
      }
      this.prevTotal = total;
    } else if (last) {
      if (this.prevLast && same(last, this.prevLast) && this.outputsSinceLast === 0) this.repeat(record);
      else usage = last;
    } else {
      this.notes.empty++;
    }
    if (last) this.prevLast = last;
    this.outputsSinceLast = 0;
    if (usage === null) return;
    if (n(usage.cached_input_tokens) > n(usage.input_tokens)) this.notes.cachedOverInput++;
    this.calls.push({
      id: `${this.idPrefix}token_count:${sourceLine}`,
      model,
      timestamp,
      record,
      sidechain: this.sidechain,
      usage: normaliseCodexUsage(usage),
      speed: null,
    });
  }

  private repeat(record: number): void {
    this.notes.repeats++;
    this.notes.firstRepeat ??= record;
  }
}
