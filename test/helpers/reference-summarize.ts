import type { SessionRow, UnitRow } from "../../src/model";
import {
  bootstrapInterval,
  type BootstrapOptions,
  isHeadlineUnit,
  mean,
  median,
  RATIO_NAMES,
  RATIOS,
  type RatioName,
  type RatioSummary,
  type SliceSummary,
} from "../../src/tables";

const pooled = (units: readonly UnitRow[], name: RatioName): number | null => {
  const { num, den } = RATIOS[name];
  let n = 0;
  let d = 0;
  for (const u of units) {
    n += u[num] ?? 0;
    d += u[den] ?? 0;
  }
  return d > 0 ? (100 * n) / d : null;
};

/**
 * The straightforward implementation of metrics.md §6 (each resample
 * flattened into unit rows, one bootstrap per ratio), kept as the reference
 * the fast `summarizeUnits` must equal exactly.
 *
 * Summarises units per slice: pooled ratios with a 95 % bootstrap interval
 * that resamples whole sessions (seeded), per-unit mean and median, and
 * effort per committed line. Only headline (unambiguous) units are used.
 */
export function referenceSummarizeUnits(
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
  sliceOf: (u: UnitRow) => string | null = () => "all",
  options: BootstrapOptions = {},
): SliceSummary[] {
  const sessionById = new Map(sessions.map((s) => [s.session_id, s]));
  const slices = new Map<string, UnitRow[]>();
  // The figures depend on the set of rows, not their order (shards put together equal one run): rows are taken
  // sorted by session, repository, commit and checkpoint, so the resampled sessions come in that order.
  const key = (u: UnitRow) => [u.session_id, u.repo, u.commit_sha, u.checkpoint_id ?? ""].join("\u0000");
  const ordered = [...units].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  for (const u of ordered) {
    if (!isHeadlineUnit(u)) continue;
    const key = sliceOf(u) ?? "(none)";
    let list = slices.get(key);
    if (!list) slices.set(key, (list = []));
    list.push(u);
  }
  const out: SliceSummary[] = [];
  for (const [slice, list] of [...slices.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const bySession = new Map<string, UnitRow[]>();
    for (const u of list) {
      let g = bySession.get(u.session_id);
      if (!g) bySession.set(u.session_id, (g = []));
      g.push(u);
    }
    const groups = [...bySession.values()];
    const ratios = {} as Record<RatioName, RatioSummary>;
    for (const name of RATIO_NAMES) {
      const per = list.map((u) => u[name]).filter((v): v is number => v !== null);
      const ci = bootstrapInterval(groups, (sample) => pooled(sample.flat(), name), options);
      ratios[name] = {
        pooled: pooled(list, name),
        ci_low: ci?.[0] ?? null,
        ci_high: ci?.[1] ?? null,
        mean: mean(per),
        median: median(per),
        n: per.length,
      };
    }
    const committed = list.reduce((s, u) => s + (u.total_committed_lines ?? 0), 0);
    const effort = effortPerLine(
      [...bySession.keys()].map((id) => sessionById.get(id)).filter((s): s is SessionRow => !!s),
      committed,
    );
    out.push({ slice, units: list.length, sessions: bySession.size, ratios, committed_lines: committed, ...effort });
  }
  return out;
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
