/**
 * A Vega-Lite spec as plain JSON. Typed loosely on purpose: vega-lite's own
 * `TopLevelSpec` is not visible to notebooks (tslab resolves modules the
 * node10 way, where vega-lite has no types), and builders only write JSON.
 */
export type VegaLiteSpec = { [key: string]: unknown };

/** One chart: a stable file name, its title and caption as text (for HTML), and the spec. */
export interface Chart {
  /** File-name stem for `figures/<name>.svg` and the snapshot `<name>.vl.json`: `[a-z0-9-]+`. */
  name: string;
  title: string;
  /** Names the subset, the number of units and what was excluded. */
  caption: string;
  spec: VegaLiteSpec;
}
