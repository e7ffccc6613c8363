import type { GroupUnitRow, SessionRow, UnitRow } from "../model";
import { type BootstrapOptions, mean, median, quantileSorted } from "./bootstrap";

/** The three pooled ratios of metrics.md §6 and their unit fields. */
export const RATIOS = {
  code_survival_rate: { num: "agent_lines_survived", den: "agent_lines_final" },
  coding_efficiency: { num: "agent_lines_survived", den: "agent_lines_produced" },
  agent_authored_pct: { num: "agent_lines_survived", den: "total_committed_lines" },
} as const;
export type RatioName = keyof typeof RATIOS;
export const RATIO_NAMES = Object.keys(RATIOS) as RatioName[];

export interface RatioSummary {
  /** Σ num / Σ den × 100: the headline figure. */
  pooled: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** Mean and median of the per-unit ratios (units where the ratio is defined). */
  mean: number | null;
  median: number | null;
  n: number;
}

export interface SliceSummary {
  slice: string;
  units: number;
  sessions: number;
  ratios: Record<RatioName, RatioSummary>;
  committed_lines: number;
  /** Effort per committed line over the sessions of the slice's units (metrics.md §5). */
  tokens_per_line: number | null;
  cost_per_line: number | null;
  active_s_per_line: number | null;
}

/** A row `summarizeUnits` reads: a strict unit, or a (session, group) row of metrics.md §1b. */
export type SummarizableRow = UnitRow | GroupUnitRow;

/** Units that enter headline numbers: unambiguous (or in an attributable group) and computed. */
export const isHeadlineUnit = (u: SummarizableRow): boolean => u.ambiguity === null && u.total_committed_lines !== null;

/**
 * metrics.md §1b: agent-authored % pools Σ survived over the committed lines of the distinct groups in the slice.
 * Each of a group's rows in the slice carries an equal share of the group's committed lines, so any sum over the
 * slice (and over a resample of its sessions, on average) counts a group's lines once.
 */
function withGroupShares<T extends SummarizableRow>(rows: T[]): T[] {
  const inSlice = new Map<string, number>();
  for (const r of rows) if ("group_id" in r) inSlice.set(r.group_id, (inSlice.get(r.group_id) ?? 0) + 1);
  if (inSlice.size === 0) return rows;
  return rows.map((r) =>
    "group_id" in r && r.total_committed_lines !== null
      ? { ...r, total_committed_lines: r.total_committed_lines / inSlice.get(r.group_id)! }
      : r,
  );
}

/**
 * Summarises units per slice (metrics.md §6): pooled ratios with a 95 %
 * bootstrap interval that resamples whole sessions (seeded), per-unit mean
 * and median, and effort per committed line. Only headline (unambiguous)
 * units are used.
 *
 * Fast enough for 20,000 sessions: each session's sums are taken once and a
 * resample only adds them up; the three ratios share one draw sequence
 * (`seededRandom(seed)`), which is what three separate bootstraps from the
 * same seed would draw. test/tables/summarize.test.ts checks it equals the
 * straightforward implementation exactly.
 */
export function summarizeUnits<T extends SummarizableRow>(
  units: readonly T[],
  sessions: readonly SessionRow[],
  sliceOf: (u: T) => string | null = () => "all",
  { iterations = 1000, seed = 1, level = 0.95 }: BootstrapOptions = {},
): SliceSummary[] {
  const sessionById = new Map(sessions.map((s) => [s.session_id, s]));
  const slices = new Map<string, T[]>();
  for (const u of canonicalOrder(units)) {
    if (!isHeadlineUnit(u)) continue;
    const key = sliceOf(u) ?? "(none)";
    let list = slices.get(key);
    if (!list) slices.set(key, (list = []));
    list.push(u);
  }
  const out: SliceSummary[] = [];
  for (const [slice, rows] of [...slices.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const list = withGroupShares(rows);
    const bySession = new Map<string, T[]>();
    for (const u of list) {
      let g = bySession.get(u.session_id);
      if (!g) bySession.set(u.session_id, (g = []));
      g.push(u);
    }
    // The resampled clusters: whole sessions; group rows resample whole groups (a group's sessions share its lines).
    const clusters = new Map<string, T[]>();
    for (const u of list) {
      const key = "group_id" in u ? `g:${u.group_id}` : `s:${u.session_id}`;
      let c = clusters.get(key);
      if (!c) clusters.set(key, (c = []));
      c.push(u);
    }
    const intervals = bootstrapRatios([...clusters.values()], { iterations, seed, level });
    const ratios = {} as Record<RatioName, RatioSummary>;
    for (const [r, name] of RATIO_NAMES.entries()) {
      const per = list.map((u) => u[name]).filter((v): v is number => v !== null);
      const ci = intervals[r];
      ratios[name] = {
        pooled: pooled(list, name),
        ci_low: ci?.[0] ?? null,
        ci_high: ci?.[1] ?? null,
        mean: mean(per),
        median: median(per),
        n: per.length,
      };
    }
    // Group rows carry shares of their group's lines: the sum is whole up to rounding.
    const committed = Math.round(list.reduce((s, u) => s + (u.total_committed_lines ?? 0), 0));
    const effort = effortPerLine(
      [...bySession.keys()].map((id) => sessionById.get(id)).filter((s): s is SessionRow => !!s),
      committed,
    );
    out.push({ slice, units: list.length, sessions: bySession.size, ratios, committed_lines: committed, ...effort });
  }
  return out;
}

/**
 * The rows in an order that depends only on their content: the figures (float sums, the bootstrap's draws over
 * clusters) are then the same for one run's table and for shards' tables put together (`summarize`).
 */
function canonicalOrder<T extends SummarizableRow>(units: readonly T[]): T[] {
  const key = (u: SummarizableRow) =>
    `${"group_id" in u ? u.group_id : ""}\u0000${u.session_id}\u0000${u.repo}\u0000${u.commit_sha}\u0000${u.checkpoint_id}`;
  const keyed = units.map((u) => ({ u, k: key(u) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((x) => x.u);
}

function pooled(units: readonly SummarizableRow[], name: RatioName): number | null {
  const { num, den } = RATIOS[name];
  let n = 0;
  let d = 0;
  for (const u of units) {
    n += u[num] ?? 0;
    d += u[den] ?? 0;
  }
  return d > 0 ? (100 * n) / d : null;
}

/**
 * Percentile intervals of the three pooled ratios over session resamples.
 * The three ratios share their numerator (agent lines survived), so a
 * resample sums four numbers per drawn session. The draws are
 * `seededRandom(seed)` (mulberry32) inlined: this loop runs 20 million times
 * for 20,000 sessions, and a closure call per draw doubled its time.
 */
function bootstrapRatios(
  groups: readonly SummarizableRow[][],
  { iterations, seed, level }: Required<BootstrapOptions>,
): ([number, number] | null)[] {
  const g = groups.length;
  const [r0, r1, r2] = RATIO_NAMES.map((name) => RATIOS[name]);
  if (r0.num !== r1.num || r1.num !== r2.num)
    throw new Error("summarizeUnits assumes the three ratios share their numerator");
  const sums = new Float64Array(4 * g);
  for (let i = 0; i < g; i++) {
    for (const u of groups[i]) {
      sums[4 * i] += u[r0.num] ?? 0;
      sums[4 * i + 1] += u[r0.den] ?? 0;
      sums[4 * i + 2] += u[r1.den] ?? 0;
      sums[4 * i + 3] += u[r2.den] ?? 0;
    }
  }
  const values: number[][] = [[], [], []];
  let a = seed >>> 0;
  for (let it = 0; it < iterations; it++) {
    let n = 0;
    let d0 = 0;
    let d1 = 0;
    let d2 = 0;
    for (let i = 0; i < g; i++) {
      // mulberry32, exactly as seededRandom in src/model/seeded-random.ts.
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const j = 4 * Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * g);
      n += sums[j];
      d0 += sums[j + 1];
      d1 += sums[j + 2];
      d2 += sums[j + 3];
    }
    if (d0 > 0) values[0].push((100 * n) / d0);
    if (d1 > 0) values[1].push((100 * n) / d1);
    if (d2 > 0) values[2].push((100 * n) / d2);
  }
  const alpha = (1 - level) / 2;
  return values.map((v) => {
    if (v.length === 0) return null;
    v.sort((x, y) => x - y);
    return [quantileSorted(v, alpha), quantileSorted(v, 1 - alpha)];
  });
}

function effortPerLine(sessions: readonly SessionRow[], committed: number) {
  if (committed === 0) return { tokens_per_line: null, cost_per_line: null, active_s_per_line: null };
  const tokens = sessions.reduce(
    (s, r) => s + r.input_tokens + r.output_tokens + r.cache_creation_tokens + r.cache_read_tokens,
    0,
  );
  const costKnown = sessions.every((r) => r.cost_usd !== null);
  const cost = sessions.reduce((s, r) => s + (r.cost_usd ?? 0), 0);
  const activeKnown = sessions.every((r) => r.active_s !== null);
  const active = sessions.reduce((s, r) => s + (r.active_s ?? 0), 0);
  return {
    tokens_per_line: tokens / committed,
    cost_per_line: costKnown ? cost / committed : null,
    active_s_per_line: activeKnown ? active / committed : null,
  };
}

/**
 * The share of units each view covers (metrics.md §1b: shown beside the headline figures): strict, the units
 * that enter headline numbers; with groups, the units whose session is in an attributable group.
 */
export function unitCoverage(
  units: readonly UnitRow[],
  groupUnits: readonly GroupUnitRow[],
): { units: number; strict: number; groups: number } {
  const norm = (id: string) => id.replace(/^\d{4}-\d{2}-\d{2}-/, "");
  const attributable = new Set(groupUnits.filter(isHeadlineUnit).map((r) => `${norm(r.session_id)}\u0000${r.repo}`));
  return {
    units: units.length,
    strict: units.filter(isHeadlineUnit).length,
    groups: units.filter((u) => attributable.has(`${norm(u.session_id)}\u0000${u.repo}`)).length,
  };
}

/** The headline figures of a run as the CLI prints them and writes them to `summary.json`: strict and with groups. */
export interface Headline {
  seed: number;
  strict: SliceSummary[];
  groups: SliceSummary[];
  coverage: ReturnType<typeof unitCoverage>;
}

export function headlineOf(
  rows: { units: UnitRow[]; sessions: SessionRow[]; group_units?: GroupUnitRow[] },
  seed: number,
): Headline {
  return {
    seed,
    strict: summarizeUnits(rows.units, rows.sessions, () => "all", { seed }),
    groups: summarizeUnits(rows.group_units ?? [], rows.sessions, () => "all", { seed }),
    coverage: unitCoverage(rows.units, rows.group_units ?? []),
  };
}
