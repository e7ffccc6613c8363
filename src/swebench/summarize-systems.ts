/**
 * Several runs of one system: the mean resolve rate with min–max whiskers
 * and the mean cost per issue, as the SWE-TaskFlow pilot reports them (three
 * runs each, min–max rather than confidence intervals).
 */
import type { RunRow, SystemRow } from "./rows";
import { sortIds } from "./subsets";

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
const min = (xs: readonly number[]) => (xs.length === 0 ? null : Math.min(...xs));
const max = (xs: readonly number[]) => (xs.length === 0 ? null : Math.max(...xs));

/** One row per (system, subset), sorted by system then subset. */
export function summarizeSystems(runs: readonly RunRow[]): SystemRow[] {
  const groups = new Map<string, RunRow[]>();
  for (const r of runs) {
    const key = JSON.stringify([r.system, r.subset]);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(r);
  }
  const rows: SystemRow[] = [];
  for (const list of groups.values()) {
    const rates = list.map((r) => r.resolve_rate).filter((v): v is number => v !== null);
    const costs = list.map((r) => r.mean_cost_usd).filter((v): v is number => v !== null);
    rows.push({
      system: list[0].system,
      subset: list[0].subset,
      total: Math.max(...list.map((r) => r.total)),
      runs: list.length,
      mean_resolve_rate: mean(rates),
      min_resolve_rate: min(rates),
      max_resolve_rate: max(rates),
      mean_cost_usd: mean(costs),
      min_cost_usd: min(costs),
      max_cost_usd: max(costs),
      cost_runs: costs.length,
      run_names: sortIds(list.map((r) => r.run)).join(";"),
    });
  }
  return rows.sort((a, b) =>
    a.system < b.system ? -1 : a.system > b.system ? 1 : a.subset < b.subset ? -1 : a.subset > b.subset ? 1 : 0,
  );
}
