/**
 * Chart builders for the SWE-chat paper's figures (notebook 06 and the
 * report's "SWE-chat's figures"): pure functions from the numbers of
 * src/tables/swechat-paper to a Chart. Where the paper publishes a value,
 * it is drawn beside ours as a black tick (bars) or point (lines).
 */
import { CI_COLOR, emptyBody, FIGURE, frame, MUTED } from "./theme";
import type { VegaLiteSpec } from "./types";
import type { Chart } from "./types";

export interface PaperChartOptions {
  /** File-name stem, `[a-z0-9-]+`. */
  name: string;
  title: string;
  caption: string;
  /** A colour scale for the series (e.g. theme's modeScale when the series are coding modes). */
  colors?: VegaLiteSpec;
}

export interface PaperBar {
  label: string;
  value: number | null;
  /** A second series (e.g. "Entire" / "replay"): bars of one label side by side. */
  series?: string;
  /** Count behind the value, for the tooltip. */
  n?: number;
  published?: number | null;
}

/** Horizontal bars in the given order, grouped by series when there are several, with the published values as ticks. */
export function paperBars(
  rows: readonly PaperBar[],
  options: PaperChartOptions & { valueTitle: string; domain?: [number, number] },
): Chart {
  const values = rows.filter((r) => r.value !== null).map((r, rank) => ({ ...r, series: r.series ?? "here", rank }));
  const published = rows
    .filter((r) => typeof r.published === "number")
    .map((r) => ({ label: r.label, published: r.published }));
  const series = new Set(values.map((v) => v.series));
  const y = { field: "label", type: "nominal", sort: { field: "rank", op: "min" }, title: null };
  const x = {
    type: "quantitative",
    title: options.valueTitle,
    ...(options.domain ? { scale: { domain: options.domain } } : {}),
  };
  const body =
    values.length === 0
      ? emptyBody("Nothing to show: the input has none of these values.")
      : {
          width: FIGURE.width - 80,
          // Grouped bars take a fixed height (a band step would conflict with the yOffset scale's own step).
          height: series.size > 1 ? 10 * series.size * new Set(values.map((v) => v.label)).size : { step: 13 },
          layer: [
            {
              data: { values },
              mark: { type: "bar", ...(series.size > 1 ? {} : { height: { band: 0.75 } }) },
              encoding: {
                y,
                x: { field: "value", ...x },
                ...(series.size > 1
                  ? {
                      yOffset: { field: "series" },
                      color: {
                        field: "series",
                        type: "nominal",
                        title: null,
                        ...(options.colors ? { scale: options.colors } : {}),
                      },
                    }
                  : {}),
                tooltip: [{ field: "label" }, { field: "series" }, { field: "value", format: ".2f" }, { field: "n" }],
              },
            },
            ...(published.length === 0
              ? []
              : [
                  {
                    data: { values: published },
                    mark: { type: "tick", color: CI_COLOR, thickness: 2, bandSize: 12 },
                    encoding: {
                      y,
                      x: { field: "published", ...x },
                      tooltip: [{ field: "label" }, { field: "published", title: "published" }],
                    },
                  },
                ]),
          ],
        };
  return {
    name: options.name,
    title: options.title,
    caption: options.caption,
    spec: frame(options.title, options.caption, body),
  };
}

export interface PaperBin {
  series: string;
  bin_start: number;
  bin_end: number;
  count: number;
}

/** Histograms over [0, 100], one row per series (e.g. Entire's agent_percentage above our replay's). */
export function paperHistogram(
  bins: readonly PaperBin[],
  options: PaperChartOptions & { xTitle: string; yTitle: string },
): Chart {
  const values = bins.filter((b) => b.count > 0);
  const body =
    values.length === 0
      ? emptyBody("Nothing to show.")
      : {
          data: { values },
          facet: {
            row: {
              field: "series",
              type: "nominal",
              title: null,
              header: { labelAngle: 0, labelOrient: "top", labelAnchor: "start" },
            },
          },
          spec: {
            width: FIGURE.width,
            height: 70,
            mark: { type: "bar", stroke: "white", strokeWidth: 0.5 },
            encoding: {
              x: { field: "bin_start", type: "quantitative", scale: { domain: [0, 100] }, title: options.xTitle },
              x2: { field: "bin_end" },
              y: { field: "count", type: "quantitative", title: options.yTitle, axis: { tickMinStep: 1 } },
              y2: { datum: 0 },
              tooltip: [
                { field: "series" },
                { field: "bin_start", title: "from" },
                { field: "bin_end", title: "to" },
                { field: "count" },
              ],
            },
          },
        };
  return {
    name: options.name,
    title: options.title,
    caption: options.caption,
    spec: frame(options.title, options.caption, body),
  };
}

export interface PaperPoint {
  day: string;
  series: string;
  value: number;
}

/** Lines over UTC days, one per series, with the published points (day, value) that fall in the data's days marked (others would stretch the axis). */
export function paperLines(
  points: readonly PaperPoint[],
  options: PaperChartOptions & {
    yTitle: string;
    domain?: [number, number];
    published?: { day: string; value: number; label: string }[];
  },
): Chart {
  const x = {
    field: "day",
    type: "temporal",
    timeUnit: "utcyearmonthdate",
    title: "session day (UTC)",
    axis: { labelAngle: 0, tickCount: 5 },
  };
  const days = points.map((p) => p.day).sort();
  const published = (options.published ?? []).filter(
    (p) => days.length > 0 && p.day >= days[0] && p.day <= days[days.length - 1],
  );
  const y = {
    type: "quantitative",
    title: options.yTitle,
    ...(options.domain ? { scale: { domain: options.domain } } : {}),
  };
  const body =
    points.length === 0
      ? emptyBody("No dated session.")
      : {
          width: FIGURE.width,
          height: FIGURE.height,
          layer: [
            {
              data: { values: [...points] },
              mark: { type: "line", strokeWidth: 1.6, point: points.length <= 120 ? { size: 12 } : false },
              encoding: {
                x,
                y: { field: "value", ...y },
                color: {
                  field: "series",
                  type: "nominal",
                  title: null,
                  ...(options.colors ? { scale: options.colors } : {}),
                },
                tooltip: [
                  { field: "day", type: "temporal", timeUnit: "utcyearmonthdate" },
                  { field: "series" },
                  { field: "value", format: ".1f" },
                ],
              },
            },
            ...(published.length === 0
              ? []
              : [
                  {
                    data: { values: published },
                    mark: { type: "point", shape: "diamond", filled: true, color: MUTED, size: 40 },
                    encoding: {
                      x,
                      y: { field: "value", ...y },
                      tooltip: [{ field: "label" }, { field: "value", title: "published" }],
                    },
                  },
                ]),
          ],
        };
  return {
    name: options.name,
    title: options.title,
    caption: options.caption,
    spec: frame(options.title, options.caption, body),
  };
}
