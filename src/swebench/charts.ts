/**
 * Pure Vega-Lite spec builders for SWE-bench runs: rows in, spec out, no
 * loading and no rendering. Every chart names its subset and denominator.
 * Kept apart from src/charts (another module's); the spec type is a plain
 * record so notebooks compiled without vega-lite's types can import this.
 */
import type { Comparison } from "./compare";
import { INSTANCE_CLASSES } from "./grade";
import type { RunRow, SystemRow } from "./rows";

export type VegaLiteSpec = Record<string, unknown> & { $schema: string };

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** One colour per class, fixed so every chart and report reads the same. */
export const CLASS_COLORS: Record<(typeof INSTANCE_CLASSES)[number], string> = {
  resolved: "#2ca02c",
  unresolved: "#ff7f0e",
  regression: "#d62728",
  not_applied: "#9467bd",
  empty_patch: "#7f7f7f",
  error: "#8c564b",
  missing: "#c7c7c7",
};

/** Thousands with commas, independent of the machine's locale. */
const fmtInt = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** `Verified (n = 500)`: the subset and its denominator, for titles. */
export function subsetCaption(label: string, total: number): string {
  return `${label}, n = ${fmtInt(total)}`;
}

/**
 * Resolve rate against mean cost per issue, one point per system (the mean
 * of its runs) with min–max whiskers on both axes, as the SWE-TaskFlow pilot
 * plots it. Systems without a cost are left out and named in the subtitle.
 */
export function resolveVsCostSpec(
  systems: readonly SystemRow[],
  subset: { label: string; total: number },
): VegaLiteSpec {
  const shown = systems.filter((s) => s.mean_cost_usd !== null && s.mean_resolve_rate !== null);
  const left = systems.filter((s) => !shown.includes(s)).map((s) => s.system);
  const subtitle = [`${subsetCaption(subset.label, subset.total)}; mean of runs, whiskers min–max`];
  if (left.length > 0) subtitle.push(`not shown (no cost recorded): ${left.join(", ")}`);
  const x = { field: "mean_cost_usd", type: "quantitative", title: "mean cost per issue (USD)", scale: { zero: true } };
  const y = {
    field: "mean_resolve_rate",
    type: "quantitative",
    title: "resolve rate (%)",
    scale: { domain: [0, 100] },
  };
  const color = { field: "system", type: "nominal", title: "system" };
  return {
    $schema: SCHEMA,
    title: { text: "Resolve rate vs mean cost per issue", subtitle },
    width: 420,
    height: 300,
    data: { values: shown.map((s) => ({ ...s })) },
    layer: [
      {
        mark: { type: "rule" },
        encoding: {
          x,
          y: { field: "min_resolve_rate", type: "quantitative" },
          y2: { field: "max_resolve_rate" },
          color,
        },
      },
      {
        mark: { type: "rule" },
        encoding: { x: { field: "min_cost_usd", type: "quantitative" }, x2: { field: "max_cost_usd" }, y, color },
      },
      {
        mark: { type: "point", filled: true, size: 80 },
        encoding: {
          x,
          y,
          color,
          tooltip: [
            { field: "system", type: "nominal" },
            { field: "runs", type: "quantitative" },
            { field: "mean_resolve_rate", type: "quantitative", format: ".1f", title: "mean resolve rate (%)" },
            { field: "min_resolve_rate", type: "quantitative", format: ".1f", title: "min (%)" },
            { field: "max_resolve_rate", type: "quantitative", format: ".1f", title: "max (%)" },
            { field: "mean_cost_usd", type: "quantitative", format: "$.3f", title: "mean cost per issue" },
          ],
        },
      },
      { mark: { type: "text", align: "left", dx: 7, dy: -7 }, encoding: { x, y, text: { field: "system" } } },
    ],
  };
}

/** Resolve rate per system: mean point, min–max rule, one tick per run. */
export function resolveRateSpec(
  systems: readonly SystemRow[],
  runs: readonly RunRow[],
  subset: { label: string; total: number },
): VegaLiteSpec {
  const y = { field: "system", type: "nominal", title: null, sort: systems.map((s) => s.system) };
  return {
    $schema: SCHEMA,
    title: {
      text: "Resolve rate by system",
      subtitle: `${subsetCaption(subset.label, subset.total)}; ticks are runs, rule min–max, dot the mean`,
    },
    width: 420,
    layer: [
      {
        data: { values: systems.map((s) => ({ ...s })) },
        layer: [
          {
            mark: "rule",
            encoding: {
              y,
              x: {
                field: "min_resolve_rate",
                type: "quantitative",
                title: "resolve rate (%)",
                scale: { domain: [0, 100] },
              },
              x2: { field: "max_resolve_rate" },
            },
          },
          {
            mark: { type: "point", filled: true, size: 70 },
            encoding: {
              y,
              x: { field: "mean_resolve_rate", type: "quantitative" },
              tooltip: [{ field: "system" }, { field: "runs" }, { field: "mean_resolve_rate", format: ".1f" }],
            },
          },
        ],
      },
      {
        data: { values: runs.map((r) => ({ system: r.system, run: r.run, resolve_rate: r.resolve_rate })) },
        mark: { type: "tick", thickness: 1.5, opacity: 0.6 },
        encoding: {
          y,
          x: { field: "resolve_rate", type: "quantitative" },
          tooltip: [{ field: "run" }, { field: "resolve_rate", format: ".1f" }],
        },
      },
    ],
  };
}

/** Every run's instances by class, stacked: the bars' lengths are the subset size, so the totals show they add up. */
export function classCountsSpec(runs: readonly RunRow[], subset: { label: string; total: number }): VegaLiteSpec {
  const values = runs.flatMap((r) =>
    INSTANCE_CLASSES.map((c, order) => ({ run: r.run, class: c, order, count: r[c] })),
  );
  return {
    $schema: SCHEMA,
    title: {
      text: "Instances by class",
      subtitle: `${subsetCaption(subset.label, subset.total)}; missing counts as unresolved`,
    },
    width: 420,
    data: { values },
    mark: "bar",
    encoding: {
      y: { field: "run", type: "nominal", title: null },
      x: { field: "count", type: "quantitative", title: "instances", stack: "zero" },
      color: {
        field: "class",
        type: "nominal",
        scale: { domain: [...INSTANCE_CLASSES], range: INSTANCE_CLASSES.map((c) => CLASS_COLORS[c]) },
        title: "class",
      },
      order: { field: "order", type: "quantitative" },
      tooltip: [{ field: "run" }, { field: "class" }, { field: "count", type: "quantitative" }],
    },
  };
}

/** Two runs' resolve rates per repository on the instances both attempted. */
export function compareByRepoSpec(comparison: Comparison): VegaLiteSpec {
  const values = comparison.by_repo.flatMap((r) => [
    { repo: r.group, run: comparison.a, rate: r.a_rate, n: r.n },
    { repo: r.group, run: comparison.b, rate: r.b_rate, n: r.n },
  ]);
  return {
    $schema: SCHEMA,
    title: {
      text: `${comparison.a} vs ${comparison.b} by repository`,
      subtitle: `${comparison.subset}: the ${fmtInt(comparison.n)} instances both attempted`,
    },
    width: 420,
    data: { values },
    mark: { type: "point", filled: true, size: 60 },
    encoding: {
      y: { field: "repo", type: "nominal", title: null },
      yOffset: { field: "run", type: "nominal" },
      x: { field: "rate", type: "quantitative", title: "resolve rate (%)", scale: { domain: [0, 100] } },
      color: { field: "run", type: "nominal", title: "run" },
      tooltip: [
        { field: "repo" },
        { field: "run" },
        { field: "rate", format: ".1f" },
        { field: "n", title: "instances" },
      ],
    },
  };
}
