import type { SliceSummary } from "../tables/summarize";
import { formatCount } from "./format";
import { excludedText, type Subset } from "./subset";
import { emptyBody, FIGURE, frame, MODE_ORDER, modeScale } from "./theme";
import type { Chart } from "./types";

const METRICS = [
  { key: "tokens_per_line", title: "tokens / line", format: ",.0f" },
  { key: "cost_per_line", title: "US$ / line", format: "$.2~r" },
  { key: "active_s_per_line", title: "active s / line", format: ".2~r" },
] as const;

/**
 * Tokens, dollars and active time per committed line by coding mode
 * (SWE-chat's Figures 7 and 29; metrics.md §5): each mode's sessions' totals
 * over the lines its units commit. `summaries` are sliced by `coding_mode`.
 * A session with units in two modes counts in both, as in `summarizeUnits`.
 */
export function effortByMode(summaries: readonly SliceSummary[], subset: Subset): Chart {
  const byMode = new Map(summaries.map((s) => [s.slice, s]));
  const values = METRICS.flatMap((metric, m) =>
    MODE_ORDER.filter((mode) => byMode.has(mode)).map((mode) => {
      const s = byMode.get(mode)!;
      return {
        mode,
        metric: metric.title,
        metric_rank: m,
        value: s[metric.key],
        units: s.units,
        sessions: s.sessions,
        committed_lines: s.committed_lines,
        n_label: `n=${formatCount(s.units)}`,
      };
    }),
  );
  const unknownCost = values.some((v) => v.metric === METRICS[1].title && v.value === null);
  const caption =
    `Effort per committed line by coding mode: the mode's sessions' tokens (input, output, cache write and read), cost and active time (idle gaps capped) ` +
    `over the lines their units commit; n = units. ${formatCount(subset.units)} unambiguous units from ${formatCount(subset.sessions)} sessions. ${excludedText(subset)}` +
    (unknownCost ? " A missing cost bar: some session's model has no price." : "");
  const title = "Effort per committed line by coding mode";
  const y = { field: "mode", type: "nominal", sort: [...MODE_ORDER], title: null };
  return {
    name: "effort-by-mode",
    title,
    caption,
    spec: frame(
      title,
      caption,
      values.length === 0
        ? emptyBody("No unambiguous unit with committed lines.")
        : {
            data: { values },
            spacing: 12,
            hconcat: METRICS.map((metric, m) => ({
              transform: [{ filter: { field: "metric_rank", equal: m } }],
              width: FIGURE.panelWidth,
              height: { step: FIGURE.step + 4 },
              layer: [
                {
                  mark: { type: "bar", height: { band: 0.75 } },
                  encoding: {
                    y: m === 0 ? y : { ...y, axis: null },
                    // A metric no mode has (e.g. every model unpriced) gets a fixed, unlabelled axis instead of an empty scale.
                    x: values.some((v) => v.metric_rank === m && v.value !== null)
                      ? {
                          field: "value",
                          type: "quantitative",
                          title: metric.title,
                          axis: { tickCount: 3, format: metric.format },
                        }
                      : {
                          field: "value",
                          type: "quantitative",
                          title: `${metric.title}: unknown`,
                          scale: { domain: [0, 1] },
                          axis: { labels: false, ticks: false, grid: false },
                        },
                    color: { field: "mode", type: "nominal", scale: modeScale, legend: null },
                    tooltip: [
                      { field: "mode" },
                      { field: "metric" },
                      { field: "value", format: ".4~g" },
                      { field: "units" },
                      { field: "sessions" },
                      { field: "committed_lines", title: "committed lines" },
                    ],
                  },
                },
                {
                  mark: { type: "text", align: "left", dx: 2, fontSize: 7.5, color: "#1a1a1a" },
                  encoding: {
                    y: m === 0 ? y : { ...y, axis: null },
                    x: { datum: 0, type: "quantitative" },
                    text: { field: "n_label" },
                  },
                },
              ],
            })),
          },
    ),
  };
}
