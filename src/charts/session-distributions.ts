import type { SessionRow, UnitRow } from "../model";
import { quantileSorted } from "../tables/bootstrap";
import { isHeadlineUnit } from "../tables/summarize";
import { formatCount, plural } from "./format";
import { excludedText, headlineSubset } from "./subset";
import { BAR_COLOR, emptyBody, FIGURE, frame } from "./theme";
import type { Chart, VegaLiteSpec } from "./types";

export interface DistributionOptions {
  /** Groups (models) shown; the rest pool into "other". Default 8. */
  topN?: number;
  /** A group's raw values are drawn as ticks only when it has at most this many. Default 200. */
  maxPoints?: number;
}

export interface BoxStats {
  group: string;
  n: number;
  q1: number;
  median: number;
  q3: number;
  /** Tukey whiskers: the most extreme values within 1.5 IQR of the box. */
  lo: number;
  hi: number;
}

/** Quartiles (type 7) and Tukey whiskers of a non-empty list. */
export function boxStats(group: string, values: readonly number[]): BoxStats {
  const v = [...values].sort((a, b) => a - b);
  const q1 = quantileSorted(v, 0.25);
  const q3 = quantileSorted(v, 0.75);
  const iqr = q3 - q1;
  const lo = v.find((x) => x >= q1 - 1.5 * iqr) ?? v[0];
  let hi = v[v.length - 1];
  for (let i = v.length - 1; i >= 0; i--) {
    if (v[i] <= q3 + 1.5 * iqr) {
      hi = v[i];
      break;
    }
  }
  return { group, n: v.length, q1, median: quantileSorted(v, 0.5), q3, lo, hi };
}

/** Groups values by key, keeping the `topN` largest groups and pooling the rest as "other (k models)". */
function grouped(
  items: readonly { key: string; value: number }[],
  topN: number,
): { group: string; values: number[] }[] {
  const by = new Map<string, number[]>();
  for (const it of items) {
    let list = by.get(it.key);
    if (!list) by.set(it.key, (list = []));
    list.push(it.value);
  }
  const ranked = [...by.entries()].sort(
    (a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
  );
  if (ranked.length <= topN + 1) return ranked.map(([group, values]) => ({ group, values }));
  const rest = ranked.slice(topN);
  return [
    ...ranked.slice(0, topN).map(([group, values]) => ({ group, values })),
    { group: `other (${rest.length} models)`, values: rest.flatMap(([, v]) => v) },
  ];
}

function boxSpec(groups: { group: string; values: number[] }[], x: VegaLiteSpec, maxPoints: number): VegaLiteSpec {
  const boxes = groups.map((g, rank) => ({
    ...boxStats(g.group, g.values),
    rank,
    n_label: `n=${formatCount(g.values.length)}`,
  }));
  const points = groups.flatMap((g, rank) =>
    g.values.length <= maxPoints ? g.values.map((value) => ({ group: g.group, rank, value })) : [],
  );
  const y = {
    field: "group",
    type: "nominal",
    sort: { field: "rank", op: "min" },
    title: null,
    axis: { labelLimit: 220 },
  };
  const field = (name: string) => ({ ...x, field: name });
  return {
    width: FIGURE.width - 60,
    height: { step: FIGURE.step + 4 },
    layer: [
      {
        data: { values: boxes },
        mark: { type: "rule", color: "#555555" },
        encoding: { y, x: field("lo"), x2: { field: "hi" } },
      },
      {
        data: { values: boxes },
        mark: { type: "bar", color: "#c6dbef", stroke: BAR_COLOR, strokeWidth: 0.8, height: { band: 0.6 } },
        encoding: {
          y,
          x: field("q1"),
          x2: { field: "q3" },
          tooltip: [
            { field: "group", title: "model" },
            { field: "n" },
            { field: "lo", format: ".3~g" },
            { field: "q1", format: ".3~g" },
            { field: "median", format: ".3~g" },
            { field: "q3", format: ".3~g" },
            { field: "hi", format: ".3~g" },
          ],
        },
      },
      {
        data: { values: points },
        mark: { type: "tick", color: "#08306b", opacity: 0.35, thickness: 1, bandSize: 8 },
        encoding: { y, x: field("value") },
      },
      {
        data: { values: boxes },
        mark: { type: "tick", color: "#08306b", thickness: 2, bandSize: 11 },
        encoding: { y, x: field("median") },
      },
      {
        data: { values: boxes },
        mark: { type: "text", align: "left", dx: 4, fontSize: 7.5, color: "#333333" },
        encoding: { y, x: field("hi"), text: { field: "n_label" } },
      },
    ],
  };
}

/**
 * Code survival rate per session (its unambiguous units pooled: Σ survived
 * / Σ final), as a box per model with the raw values as ticks where few.
 */
export function sessionSurvivalDistribution(
  units: readonly UnitRow[],
  sessions: readonly SessionRow[],
  { topN = 8, maxPoints = 200 }: DistributionOptions = {},
): Chart {
  const sums = new Map<string, { survived: number; final: number }>();
  for (const u of units) {
    if (!isHeadlineUnit(u)) continue;
    const s = sums.get(u.session_id) ?? { survived: 0, final: 0 };
    s.survived += u.agent_lines_survived ?? 0;
    s.final += u.agent_lines_final ?? 0;
    sums.set(u.session_id, s);
  }
  const modelOf = new Map(sessions.map((s) => [s.session_id, s.model]));
  const items = [...sums.entries()]
    .filter(([, s]) => s.final > 0)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([id, s]) => ({ key: modelOf.get(id) ?? "(unknown)", value: (100 * s.survived) / s.final }));
  const subset = headlineSubset(units);
  const noFinal = sums.size - items.length;
  const caption =
    `Code survival rate per session (its unambiguous units pooled) by the session's model (most output tokens); boxes: quartiles, whiskers 1.5 IQR, ticks: sessions where a model has ≤ ${maxPoints}; ` +
    `${plural(items.length, "session")} from ${formatCount(subset.units)} unambiguous units; ${plural(noFinal, "session")} with no agent line in the final state left out. ${excludedText(subset)}`;
  const title = "Code survival rate per session, by model";
  return {
    name: "session-survival-distribution",
    title,
    caption,
    spec: frame(
      title,
      caption,
      items.length === 0
        ? emptyBody("No session with agent lines in an unambiguous unit.")
        : boxSpec(
            grouped(items, topN),
            { type: "quantitative", scale: { domain: [0, 100] }, title: "code survival rate (%)" },
            maxPoints,
          ),
    ),
  };
}

/** Cost per session (US$, log scale) as a box per model; sessions with unknown or zero cost are counted and left out. */
export function sessionCostDistribution(
  sessions: readonly SessionRow[],
  { topN = 8, maxPoints = 200 }: DistributionOptions = {},
): Chart {
  const items = sessions
    .filter((s) => s.cost_usd !== null && s.cost_usd > 0)
    .map((s) => ({ id: s.session_id, key: s.model ?? "(unknown)", value: s.cost_usd as number }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const unknown = sessions.filter((s) => s.cost_usd === null).length;
  const zero = sessions.filter((s) => s.cost_usd === 0).length;
  const caption =
    `Cost per session at list prices (whole transcript, sub-agents included) by the session's model (most output tokens), log scale; boxes: quartiles, whiskers 1.5 IQR, ticks where a model has ≤ ${maxPoints} sessions. ` +
    `${plural(items.length, "session")} of ${formatCount(sessions.length)}; left out: ${formatCount(unknown)} with unknown cost (unpriced model), ${formatCount(zero)} with zero cost.`;
  const title = "Cost per session, by model";
  return {
    name: "session-cost-distribution",
    title,
    caption,
    spec: frame(
      title,
      caption,
      items.length === 0
        ? emptyBody("No session with a known, non-zero cost.")
        : boxSpec(
            grouped(items, topN),
            {
              type: "quantitative",
              scale: { type: "log" },
              title: "cost per session (US$, log scale)",
              axis: { format: "$.2~r" },
            },
            maxPoints,
          ),
    ),
  };
}
