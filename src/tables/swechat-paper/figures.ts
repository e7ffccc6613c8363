/**
 * The SWE-chat paper's figures as small pure functions over our tables'
 * rows (research/swe-chat.md §6): each returns the numbers a chart draws and
 * the headline printed beside the published value. Shares are in %.
 */
import { CODING_MODES, type CodingMode, codingMode } from "../../attribution/rates";
import {
  type GroupUnitRow,
  PROMPT_INTENTS,
  type PromptRow,
  PUSHBACK_KINDS,
  type SessionRow,
  type ToolCallRow,
  type UnitRow,
  USER_PERSONAS,
} from "../../model";
import { TOOL_CATEGORIES } from "../../analyze/tool-category";
import { classifyPushback } from "../../signals";
import { isHeadlineUnit } from "../summarize";

export const MODES = CODING_MODES;

export interface Share {
  label: string;
  count: number;
  /** count / n × 100; null when n is 0. */
  share: number | null;
}

/** Counts of `labels` (in that order, zeros kept) over `values`, as shares of the values that are one of them. */
export function shares(
  values: readonly (string | null | undefined)[],
  labels: readonly string[],
): { n: number; rows: Share[] } {
  const counts = new Map(labels.map((l) => [l, 0]));
  let n = 0;
  for (const v of values) {
    if (v === null || v === undefined || !counts.has(v)) continue;
    counts.set(v, counts.get(v)! + 1);
    n++;
  }
  return {
    n,
    rows: labels.map((label) => ({
      label,
      count: counts.get(label)!,
      share: n > 0 ? (100 * counts.get(label)!) / n : null,
    })),
  };
}

export const shareOf = (s: { rows: Share[] }, label: string): number | null =>
  s.rows.find((r) => r.label === label)?.share ?? null;

// ---- coding modes and the agent-authored histogram (Fig. 5) ------------------------------------------------------

/** Each session's agent-authored % from our replay: Σ survived / Σ committed over its headline units; sessions without one are left out. */
export function replayPercentBySession(units: readonly UnitRow[]): Map<string, number> {
  const sums = new Map<string, { survived: number; committed: number }>();
  for (const u of units) {
    if (!isHeadlineUnit(u)) continue;
    const s = sums.get(u.session_id) ?? { survived: 0, committed: 0 };
    s.survived += u.agent_lines_survived ?? 0;
    s.committed += u.total_committed_lines ?? 0;
    sums.set(u.session_id, s);
  }
  const out = new Map<string, number>();
  for (const [id, s] of sums) if (s.committed > 0) out.set(id, (100 * s.survived) / s.committed);
  return out;
}

/** Each session's agent % as Entire recorded it (`sessions.entire_agent_percentage`), where it has one. */
export function entirePercentBySession(sessions: readonly SessionRow[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of sessions)
    if (typeof s.entire_agent_percentage === "number") out.set(s.session_id, s.entire_agent_percentage);
  return out;
}

/** Sessions per coding mode (SWE-chat's thresholds: 0 human-only, ≥ 99 vibe). */
export const modeShares = (percents: ReadonlyMap<string, number>) =>
  shares(
    [...percents.values()].map((p) => codingMode(p)),
    MODES,
  );

export interface Bin {
  bin_start: number;
  bin_end: number;
  count: number;
}

/** A histogram of percentages over [0, 100] in bins of `width` (the last bin closed, so 100 falls in it). */
export function percentHistogram(values: Iterable<number>, width = 10): Bin[] {
  const n = Math.round(100 / width);
  const bins: Bin[] = Array.from({ length: n }, (_, i) => ({
    bin_start: i * width,
    bin_end: (i + 1) * width,
    count: 0,
  }));
  for (const v of values) if (v >= 0 && v <= 100) bins[Math.min(n - 1, Math.floor(v / width))].count++;
  return bins;
}

// ---- survival (Table 3) ------------------------------------------------------------------------------------------

export interface Pooled {
  value: number | null;
  num: number;
  den: number;
  /** Rows that entered (headline rows with a defined denominator). */
  n: number;
}

/** Code survival rate, pooled: Σ agent lines surviving / Σ agent lines in the final state, over headline rows (strict units or group rows). */
export function pooledSurvival(rows: readonly (UnitRow | GroupUnitRow)[]): Pooled {
  let num = 0;
  let den = 0;
  let n = 0;
  for (const r of rows) {
    if (!isHeadlineUnit(r) || r.agent_lines_final === null || r.agent_lines_survived === null) continue;
    num += r.agent_lines_survived;
    den += r.agent_lines_final;
    n++;
  }
  return { value: den > 0 ? (100 * num) / den : null, num, den, n };
}

// ---- tokens and dollars per committed line by mode (Figs. 7, 29) ----------------------------------------------------

export interface ModeEffort {
  mode: CodingMode;
  sessions: number;
  lines: number;
  tokens_per_line: number | null;
  dollars_per_line: number | null;
}

/**
 * Per coding mode (each session's mode from `percents`): Σ tokens (input, output, cache write and read) and Σ cost of
 * its sessions over Σ committed lines of their headline units. Sessions with no committed line in `units` are left out.
 */
export function effortByMode(
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
  percents: ReadonlyMap<string, number>,
): ModeEffort[] {
  const lines = new Map<string, number>();
  for (const u of units)
    if (isHeadlineUnit(u)) lines.set(u.session_id, (lines.get(u.session_id) ?? 0) + (u.total_committed_lines ?? 0));
  const acc = new Map(MODES.map((m) => [m, { sessions: 0, lines: 0, tokens: 0, cost: 0, costKnown: true }]));
  for (const s of sessions) {
    const pct = percents.get(s.session_id);
    const l = lines.get(s.session_id) ?? 0;
    const mode = pct === undefined ? null : codingMode(pct);
    if (mode === null || l === 0) continue;
    const a = acc.get(mode)!;
    a.sessions++;
    a.lines += l;
    a.tokens += s.input_tokens + s.output_tokens + s.cache_creation_tokens + s.cache_read_tokens;
    if (s.cost_usd === null) a.costKnown = false;
    a.cost += s.cost_usd ?? 0;
  }
  return MODES.map((mode) => {
    const a = acc.get(mode)!;
    return {
      mode,
      sessions: a.sessions,
      lines: a.lines,
      tokens_per_line: a.lines > 0 ? a.tokens / a.lines : null,
      dollars_per_line: a.lines > 0 && a.costKnown ? a.cost / a.lines : null,
    };
  });
}

/** Vibe's effort per line over collaborative's (the paper's "about 3×"); null when either is missing. */
export function vibeOverCollaborative(
  effort: readonly ModeEffort[],
  key: "tokens_per_line" | "dollars_per_line",
): number | null {
  const v = effort.find((e) => e.mode === "vibe")?.[key] ?? null;
  const c = effort.find((e) => e.mode === "collaborative")?.[key] ?? null;
  return v !== null && c !== null && c > 0 ? v / c : null;
}

// ---- tool calls by category (Table 5) ------------------------------------------------------------------------------

/** Calls per SWE-chat category (the `category` column follows swe-chat.md §6's rules), in Table 5's order. */
export const toolCategoryShares = (calls: readonly ToolCallRow[]) =>
  shares(
    calls.map((c) => c.category),
    TOOL_CATEGORIES,
  );

// ---- prompts: intents, pushback, clarification -------------------------------------------------------------------

/** Prompts per SWE-chat intent, over the prompts that carry one. */
export const intentShares = (prompts: readonly PromptRow[]) =>
  shares(
    prompts.map((p) => p.prompt_intent),
    PROMPT_INTENTS,
  );

export type PushbackOrigin = "dataset" | "rules";

/** Each prompt's pushback kind: the dataset's own label, or the rule classifier's (src/signals) for data without labels. */
export function pushbackOf(p: PromptRow, source: PushbackOrigin): string | null {
  return source === "dataset" ? (p.prompt_pushback ?? null) : classifyPushback(p.text).label;
}

/** Share of prompts that push back (any kind but non_pushback), and each kind's share of all labelled prompts. */
export function pushbackShares(prompts: readonly PromptRow[], source: PushbackOrigin) {
  const all = shares(
    prompts.map((p) => pushbackOf(p, source)),
    [...PUSHBACK_KINDS, "non_pushback"],
  );
  const non = all.rows.find((r) => r.label === "non_pushback")!;
  return {
    n: all.n,
    pushback: all.n > 0 ? 100 - non.share! : null,
    kinds: all.rows.filter((r) => r.label !== "non_pushback"),
  };
}

/** Share of prompts whose agent reply asks for clarification, over the prompts where that is known. */
export function clarificationShare(prompts: readonly PromptRow[]): { n: number; count: number; share: number | null } {
  const known = prompts.filter((p) => typeof p.agent_clarification === "boolean");
  const count = known.filter((p) => p.agent_clarification).length;
  return { n: known.length, count, share: known.length > 0 ? (100 * count) / known.length : null };
}

// ---- sessions: personas, success -----------------------------------------------------------------------------------

/** Sessions per persona; `among` restricts to the sessions it names (e.g. the vibe sessions). */
export function personaShares(sessions: readonly SessionRow[], among: ((s: SessionRow) => boolean) | null = null) {
  return shares(
    sessions.filter((s) => among === null || among(s)).map((s) => s.user_persona),
    USER_PERSONAS,
  );
}

/** The session_success histogram (bins of 10, 100 in the last) and the share of scored sessions at 50 or more. */
export function sessionSuccess(sessions: readonly SessionRow[]): { n: number; atLeast50: number | null; bins: Bin[] } {
  const scores = sessions.map((s) => s.session_success).filter((v): v is number => typeof v === "number");
  const high = scores.filter((v) => v >= 50).length;
  return {
    n: scores.length,
    atLeast50: scores.length > 0 ? (100 * high) / scores.length : null,
    bins: percentHistogram(scores, 10),
  };
}
