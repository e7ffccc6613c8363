import { codingMode } from "../attribution/rates";
import type { UnitRow } from "../model";
import { isHeadlineUnit } from "../tables/summarize";
import { formatPct } from "./format";
import { headlineSubset, unitCaption } from "./subset";
import { emptyBody, FIGURE, frame, MODE_ORDER, modeScale, MUTED } from "./theme";
import type { Chart } from "./types";

export interface HistogramOptions {
  /** Bin width in percentage points; 100 must be a multiple. Default 5. */
  binWidth?: number;
}

/**
 * SWE-chat's Figure 5: the distribution of agent-authored % over units,
 * each bar stacked by coding mode (exactly 0 % is human-only, ≥ 99 % vibe),
 * a dashed rule at the vibe threshold, and each mode's share of units in
 * the legend. The last bin is closed ([95, 100]). Counts are aggregated
 * here, so the spec holds at most 3 rows per bin whatever the corpus size.
 */
export function agentAuthoredHistogram(units: readonly UnitRow[], { binWidth = 5 }: HistogramOptions = {}): Chart {
  const bins = Math.round(100 / binWidth);
  const counts = new Map<string, number>();
  const modes = new Map<string, number>();
  let n = 0;
  for (const u of units) {
    if (!isHeadlineUnit(u) || u.agent_authored_pct === null) continue;
    const pct = u.agent_authored_pct;
    const mode = codingMode(pct) ?? "collaborative";
    const bin = Math.min(bins - 1, Math.floor(pct / binWidth));
    counts.set(`${bin}|${mode}`, (counts.get(`${bin}|${mode}`) ?? 0) + 1);
    modes.set(mode, (modes.get(mode) ?? 0) + 1);
    n++;
  }
  // Stacked here (y0, y1) rather than by Vega-Lite, so each bar spans x and x2 from the axis up.
  const values: { bin_start: number; bin_end: number; mode: string; units: number; y0: number; y1: number }[] = [];
  for (let bin = 0; bin < bins; bin++) {
    let y = 0;
    for (const mode of MODE_ORDER) {
      const k = counts.get(`${bin}|${mode}`) ?? 0;
      if (k === 0) continue;
      values.push({ bin_start: bin * binWidth, bin_end: (bin + 1) * binWidth, mode, units: k, y0: y, y1: y + k });
      y += k;
    }
  }
  const share = (mode: string) => (n > 0 ? (100 * (modes.get(mode) ?? 0)) / n : null);
  // The legend label carries the share; the expression holds only our mode names and numbers, never data text.
  const labelExpr =
    MODE_ORDER.map((m) => `datum.label === '${m}' ? '${m} ${formatPct(share(m))}'`).join(" : ") + " : datum.label";
  const subset = headlineSubset(units);
  const caption = unitCaption(
    "Agent-authored % per unit (agent lines surviving / lines the commit adds), stacked by coding mode: 0 % human-only, ≥ 99 % vibe, else collaborative; legend: share of units",
    subset,
  );
  const title = "Agent-authored share of committed lines";
  return {
    name: "agent-authored-histogram",
    title,
    caption,
    spec: frame(
      title,
      caption,
      n === 0
        ? emptyBody("No unambiguous unit with committed lines.")
        : {
            width: FIGURE.width,
            height: FIGURE.height,
            layer: [
              {
                data: { values },
                mark: { type: "bar", stroke: "white", strokeWidth: 0.5 },
                encoding: {
                  x: {
                    field: "bin_start",
                    type: "quantitative",
                    scale: { domain: [0, 100] },
                    title: "agent-authored lines (% of committed lines)",
                    axis: { values: [0, 20, 40, 60, 80, 100] },
                  },
                  x2: { field: "bin_end" },
                  y: { field: "y0", type: "quantitative", title: "units", axis: { tickMinStep: 1 } },
                  y2: { field: "y1" },
                  color: { field: "mode", type: "nominal", scale: modeScale, title: null, legend: { labelExpr } },
                  tooltip: [
                    { field: "mode", title: "mode" },
                    { field: "bin_start", title: "from %" },
                    { field: "bin_end", title: "to %" },
                    { field: "units", title: "units" },
                  ],
                },
              },
              {
                data: { values: [{ x: 99, label: "vibe ≥ 99 %" }] },
                mark: { type: "rule", strokeDash: [3, 2], color: MUTED },
                encoding: { x: { field: "x", type: "quantitative" } },
              },
              {
                data: { values: [{ x: 95, label: "vibe ≥ 99 %" }] },
                mark: { type: "text", align: "right", baseline: "top", dx: -3, y: 2, color: MUTED },
                encoding: { x: { field: "x", type: "quantitative" }, text: { field: "label" } },
              },
            ],
          },
    ),
  };
}
