import { RATIO_NAMES, type RatioName, type SliceSummary } from "../tables/summarize";
import { formatCount } from "./format";
import type { Slicing } from "./slices";
import { excludedText, type Subset } from "./subset";
import { CI_COLOR, emptyBody, FIGURE, frame } from "./theme";
import type { Chart } from "./types";

export const RATIO_TITLES: Record<RatioName, string> = {
  code_survival_rate: "survival rate %",
  coding_efficiency: "efficiency %",
  agent_authored_pct: "agent-authored %",
};

export interface RatioChartOptions {
  /** Bootstrap settings used for the summaries, named in the caption. */
  iterations?: number;
  seed?: number;
}

/**
 * The three pooled ratios (metrics.md §6) of each slice as horizontal bars,
 * one panel per ratio, with the 95 % bootstrap interval as an error bar and
 * the number of units at the base of every bar. `summaries` come from
 * `summarizeUnits` (or the report's faster equivalent) with `slicing.sliceOf`.
 */
export function ratiosBySlice(
  summaries: readonly SliceSummary[],
  slicing: Pick<Slicing, "dimension" | "label" | "order" | "folded">,
  subset: Subset,
  { iterations = 1000, seed = 1 }: RatioChartOptions = {},
): Chart {
  const rank = new Map(slicing.order.map((s, i) => [s, i]));
  const sorted = [...summaries].sort(
    (a, b) =>
      (rank.get(a.slice) ?? 1e9) - (rank.get(b.slice) ?? 1e9) || (a.slice < b.slice ? -1 : a.slice > b.slice ? 1 : 0),
  );
  const values = sorted.flatMap((s, i) =>
    RATIO_NAMES.map((name, m) => ({
      slice: s.slice,
      rank: i,
      metric: RATIO_TITLES[name],
      metric_rank: m,
      pooled: s.ratios[name].pooled,
      ci_low: s.ratios[name].ci_low,
      ci_high: s.ratios[name].ci_high,
      units: s.units,
      sessions: s.sessions,
      n_label: `n=${formatCount(s.units)}`,
    })),
  );
  const folded =
    slicing.folded.length > 0
      ? ` "other" pools ${formatCount(slicing.folded.length)} smaller ${slicing.dimension === "repo" ? "repositories" : "groups"}.`
      : "";
  const caption =
    `Pooled ratios (%) by ${slicing.label}: survival = Σ survived / Σ final, efficiency = Σ survived / Σ produced, agent-authored = Σ survived / Σ committed; ` +
    `error bars: 95 % bootstrap intervals over whole sessions (${formatCount(iterations)} resamples, seed ${seed}); n = units. ` +
    `${formatCount(subset.units)} unambiguous units from ${formatCount(subset.sessions)} sessions. ${excludedText(subset)}${folded}`;
  const title = `Survival, efficiency and agent share by ${slicing.label.replace(/ \(.*\)$/, "")}`;
  // No y title: a rotated title longer than the plot pushes the plot down; the chart title names the slicing.
  const y = {
    field: "slice",
    type: "nominal",
    sort: { field: "rank", op: "min" },
    title: null,
    axis: { labelLimit: 220 },
  };
  return {
    name: `ratios-by-${slicing.dimension.replace(/_/g, "-")}`,
    title,
    caption,
    spec: frame(
      title,
      caption,
      values.length === 0
        ? emptyBody("No unambiguous unit with committed lines.")
        : {
            data: { values },
            facet: {
              column: {
                field: "metric",
                type: "nominal",
                sort: { field: "metric_rank", op: "min" },
                title: null,
                header: { labelFontSize: 8.5, labelPadding: 3 },
              },
            },
            spacing: 10,
            spec: {
              width: FIGURE.panelWidth,
              height: { step: FIGURE.step },
              layer: [
                {
                  mark: { type: "bar", color: "#a6c8e4", height: { band: 0.75 } },
                  encoding: {
                    y,
                    x: {
                      field: "pooled",
                      type: "quantitative",
                      scale: { domain: [0, 100] },
                      title: null,
                      axis: { values: [0, 50, 100] },
                    },
                    tooltip: [
                      { field: "slice", title: slicing.label },
                      { field: "metric" },
                      { field: "pooled", format: ".1f", title: "pooled %" },
                      { field: "ci_low", format: ".1f", title: "95 % low" },
                      { field: "ci_high", format: ".1f", title: "95 % high" },
                      { field: "units" },
                      { field: "sessions" },
                    ],
                  },
                },
                {
                  mark: { type: "rule", color: CI_COLOR, strokeWidth: 1.2 },
                  encoding: { y, x: { field: "ci_low", type: "quantitative" }, x2: { field: "ci_high" } },
                },
                {
                  mark: { type: "text", align: "left", dx: 2, fontSize: 7.5, color: "#1a1a1a" },
                  encoding: { y, x: { datum: 0, type: "quantitative" }, text: { field: "n_label" } },
                },
              ],
            },
          },
    ),
  };
}
