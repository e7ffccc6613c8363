/**
 * SWE-chat's Fig. 25 (swe-chat.md §6): sessions counted on their UTC day,
 * then a rolling window of `windowDays` days ending on each day
 * (`counts.rolling("14D").sum()`: the window holds the days in
 * (day − 14 days, day]), one point per calendar day from the first session
 * day to the last; a day whose window is empty has no point.
 */
import { codingMode } from "../../attribution/rates";
import { median } from "../bootstrap";

const DAY_MS = 86_400_000;

export interface DatedPercent {
  /** ISO timestamp or YYYY-MM-DD; its UTC day counts. */
  at: string;
  pct: number;
}

export interface RollingPoint {
  day: string;
  /** Sessions in the window. */
  sessions: number;
  vibe_share: number;
  human_only_share: number;
  mean_pct: number;
  median_pct: number;
}

const dayOf = (at: string): number | null => {
  const t = Date.parse(`${at.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(t) ? t : null;
};

export function rollingModes(items: readonly DatedPercent[], windowDays = 14): RollingPoint[] {
  const byDay = new Map<number, number[]>();
  for (const it of items) {
    const d = dayOf(it.at);
    if (d === null) continue;
    const list = byDay.get(d) ?? [];
    list.push(it.pct);
    byDay.set(d, list);
  }
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const out: RollingPoint[] = [];
  if (days.length === 0) return out;
  for (let t = days[0]; t <= days[days.length - 1]; t += DAY_MS) {
    const window: number[] = [];
    for (let k = 0; k < windowDays; k++) for (const p of byDay.get(t - k * DAY_MS) ?? []) window.push(p);
    if (window.length === 0) continue;
    const share = (m: string) => (100 * window.filter((p) => codingMode(p) === m).length) / window.length;
    out.push({
      day: new Date(t).toISOString().slice(0, 10),
      sessions: window.length,
      vibe_share: share("vibe"),
      human_only_share: share("human-only"),
      mean_pct: window.reduce((a, b) => a + b, 0) / window.length,
      median_pct: median(window)!,
    });
  }
  return out;
}

/** The lowest vibe share among the points of one month (`YYYY-MM`), or null when the month has none. */
export function lowestVibeShare(points: readonly RollingPoint[], month: string): RollingPoint | null {
  let low: RollingPoint | null = null;
  for (const p of points) if (p.day.startsWith(month) && (low === null || p.vibe_share < low.vibe_share)) low = p;
  return low;
}
