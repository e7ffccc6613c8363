import type { VegaLiteSpec } from "./types";

/**
 * The shared look of every chart: sized for one column of a two-column
 * paper (about 3.4 in), small type, no chart border, the three coding modes
 * in one fixed palette. DejaVu Sans comes first because resvg and headless
 * Chromium find it on Debian (fonts-dejavu-core); other machines fall back.
 */
export const FONT = "DejaVu Sans, Helvetica, Arial, sans-serif";

export const FIGURE = {
  /** Plot width of a single-panel chart, in px (SVG units). */
  width: 300,
  /** Plot width of one panel of a three-panel chart. */
  panelWidth: 92,
  /** Band height per category on a horizontal bar chart. */
  step: 16,
  height: 150,
  fontSize: 9,
  titleFontSize: 11,
  /** Characters per caption line (subtitle), for the width above at 8.5 px type. */
  captionChars: 64,
  /** PNG pixels per SVG unit: 340 units ≈ 3.4 in at 300 dpi. */
  pngScale: 3,
} as const;

export const MODE_ORDER = ["human-only", "collaborative", "vibe"] as const;
/** Colour-blind-safe (Okabe–Ito): blue, orange, reddish purple. */
export const MODE_COLORS = ["#0072B2", "#E69F00", "#CC79A7"] as const;
export const BAR_COLOR = "#4C78A8";
export const CI_COLOR = "#222222";
export const MUTED = "#666666";

export const modeScale = { domain: [...MODE_ORDER], range: [...MODE_COLORS] };

/** The Vega-Lite `config` every builder puts on its spec. */
export const THEME_CONFIG: VegaLiteSpec = {
  font: FONT,
  background: "white",
  padding: 6,
  view: { stroke: null },
  title: {
    fontSize: FIGURE.titleFontSize,
    fontWeight: "bold",
    anchor: "start",
    subtitleFontSize: 8.5,
    subtitleColor: MUTED,
    subtitlePadding: 3,
    offset: 8,
  },
  axis: {
    labelFontSize: FIGURE.fontSize,
    titleFontSize: FIGURE.fontSize,
    titleFontWeight: "normal",
    gridColor: "#e6e6e6",
    domainColor: "#888888",
    tickColor: "#888888",
    labelLimit: 150,
  },
  legend: {
    labelFontSize: FIGURE.fontSize,
    titleFontSize: FIGURE.fontSize,
    titleFontWeight: "normal",
    orient: "bottom",
    direction: "horizontal",
    symbolSize: 60,
  },
  header: { labelFontSize: FIGURE.fontSize, titleFontSize: FIGURE.fontSize, labelFontWeight: "bold" },
  text: { fontSize: 8 },
  bar: { color: BAR_COLOR },
  range: { category: [...MODE_COLORS, "#009E73", "#56B4E9", "#D55E00", "#F0E442", "#999999"] },
};

export const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** Wraps a caption into lines of at most `width` characters (Vega-Lite subtitles do not wrap by themselves). */
export function wrapText(text: string, width: number = FIGURE.captionChars): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** The frame every chart shares: schema, title with the caption as its subtitle, description, theme. */
export function frame(title: string, caption: string, body: VegaLiteSpec): VegaLiteSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: title, subtitle: wrapText(caption) },
    description: `${title}. ${caption}`,
    ...body,
    config: THEME_CONFIG,
  };
}

/**
 * The body of a chart with nothing to draw: one line of text where the plot
 * would be, so the figure still carries its title and caption (and Vega does
 * not warn about the infinite extent of an empty scale).
 */
export function emptyBody(message: string): VegaLiteSpec {
  return {
    width: FIGURE.width,
    height: 30,
    data: { values: [{ message }] },
    mark: { type: "text", align: "left", baseline: "middle", fontSize: FIGURE.fontSize, color: MUTED, x: 0, y: 15 },
    encoding: { text: { field: "message", type: "nominal" } },
  };
}
