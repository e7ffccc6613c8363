/**
 * Vega-Lite spec builders: pure functions from rows (or their summaries) to
 * a `Chart` (name, title, caption, spec). They never load data and never
 * import vega; `render.ts` turns a spec into SVG or PNG on demand.
 */
export * from "./agent-authored-histogram";
export * from "./effort-by-mode";
export * from "./format";
export * from "./mode-share-over-time";
export * from "./ratios-by-slice";
export * from "./render";
export * from "./session-distributions";
export * from "./slices";
export * from "./subset";
export * from "./theme";
export * from "./tool-categories";
export * from "./types";
export * from "./swechat-paper";
