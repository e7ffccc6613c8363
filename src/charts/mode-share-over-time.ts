import { codingMode } from "../attribution/rates";
import type { SessionRow, UnitRow } from "../model";
import { replayPercentBySession } from "../tables/swechat-paper/figures";
import { formatCount, plural } from "./format";
import { excludedText, headlineSubset } from "./subset";
import { emptyBody, FIGURE, frame, MODE_ORDER, modeScale } from "./theme";
import type { Chart } from "./types";

export interface RollingOptions {
  /** Window length in days, ending on (and including) each day. Default 14, as SWE-chat. */
  windowDays?: number;
}

const DAY_MS = 86_400_000;

/**
 * Each session's coding mode from its headline units pooled (Σ survived /
 * Σ committed), counted on the UTC day its first record was written
 * (`started_at`), as SWE-chat does (`created_at` floored to the day,
 * `rolling("14D")`).
 */
export function sessionModes(
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
): { session_id: string; day: string; mode: string }[] {
  const percents = replayPercentBySession(units);
  const out: { session_id: string; day: string; mode: string }[] = [];
  for (const s of sessions) {
    const pct = percents.get(s.session_id);
    if (pct === undefined || !s.started_at) continue;
    const mode = codingMode(pct);
    if (mode) out.push({ session_id: s.session_id, day: s.started_at.slice(0, 10), mode });
  }
  return out;
}

/**
 * The share of sessions in each coding mode over a rolling window of days,
 * one point per calendar day from the first to the last session day (a day
 * whose window holds no session has no point). At most 3 × days rows.
 */
export function modeShareOverTime(
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
  { windowDays = 14 }: RollingOptions = {},
): Chart {
  const modes = sessionModes(units, sessions).filter((m) => /^\d{4}-\d{2}-\d{2}$/.test(m.day));
  const perDay = new Map<number, number[]>();
  for (const m of modes) {
    const t = Date.parse(`${m.day}T00:00:00Z`);
    if (!Number.isFinite(t)) continue;
    let c = perDay.get(t);
    if (!c) perDay.set(t, (c = MODE_ORDER.map(() => 0)));
    c[MODE_ORDER.indexOf(m.mode as (typeof MODE_ORDER)[number])]++;
  }
  const days = [...perDay.keys()].sort((a, b) => a - b);
  const values: { day: string; mode: string; share: number; sessions: number; window_sessions: number }[] = [];
  if (days.length > 0) {
    const window = MODE_ORDER.map(() => 0);
    for (let t = days[0]; t <= days[days.length - 1]; t += DAY_MS) {
      const add = perDay.get(t);
      const drop = perDay.get(t - windowDays * DAY_MS);
      for (let i = 0; i < window.length; i++) window[i] += (add?.[i] ?? 0) - (drop?.[i] ?? 0);
      const total = window.reduce((s, v) => s + v, 0);
      if (total === 0) continue;
      const day = new Date(t).toISOString().slice(0, 10);
      MODE_ORDER.forEach((mode, i) =>
        values.push({ day, mode, share: (100 * window[i]) / total, sessions: window[i], window_sessions: total }),
      );
    }
  }
  const subset = headlineSubset(units);
  const withMode = new Set(modes.map((m) => m.session_id));
  const caption =
    `Share of sessions per coding mode over a rolling ${windowDays}-day window (UTC day of the session's first record); ` +
    `a session's mode pools its unambiguous units. ${plural(withMode.size, "session")} with a mode (${formatCount(subset.units)} unambiguous units). ` +
    `${excludedText(subset)} Sessions without an unambiguous unit or a start time are not shown.`;
  const title = `Coding modes over time (${windowDays}-day rolling share)`;
  return {
    name: "mode-share-rolling",
    title,
    caption,
    spec: frame(
      title,
      caption,
      values.length === 0
        ? emptyBody("No session with an unambiguous unit and a start time.")
        : {
            width: FIGURE.width,
            height: FIGURE.height,
            data: { values },
            mark: { type: "line", strokeWidth: 1.6, point: values.length <= 3 * 40 ? { size: 14 } : false },
            encoding: {
              x: {
                field: "day",
                type: "temporal",
                timeUnit: "utcyearmonthdate",
                title: "session start (UTC day)",
                axis: { labelAngle: 0, tickCount: 5 },
              },
              y: { field: "share", type: "quantitative", scale: { domain: [0, 100] }, title: `sessions in window (%)` },
              color: { field: "mode", type: "nominal", scale: modeScale, title: null },
              tooltip: [
                { field: "day", type: "temporal", timeUnit: "utcyearmonthdate", title: "day" },
                { field: "mode" },
                { field: "share", format: ".1f", title: "share %" },
                { field: "sessions" },
                { field: "window_sessions", title: "sessions in window" },
              ],
            },
          },
    ),
  };
}
