import { FIGURE } from "./theme";
import type { VegaLiteSpec } from "./types";

/**
 * Spec → SVG (Vega's headless View, renderer "none": no canvas package) and
 * SVG → PNG (resvg). vega and vega-lite are ESM with a top-level await
 * inside, so they cannot be `require()`d; notebooks compile this file to
 * CommonJS, where TypeScript would turn a plain `import()` into `require()`.
 * A dynamic import built with `Function` survives that compilation, so the
 * pure builders (and this file) load anywhere and vega only loads when a
 * chart is rendered.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const importModule = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<any>;

interface VegaModules {
  vega: any;
  vegaLite: any;
}
let modules: Promise<VegaModules> | null = null;
function loadVega(): Promise<VegaModules> {
  modules ??= Promise.all([importModule("vega"), importModule("vega-lite")]).then(([vega, vegaLite]) => ({
    vega,
    vegaLite,
  }));
  return modules;
}

export interface RenderOptions {
  /** Receives Vega-Lite's and Vega's warnings (nothing is printed). */
  onWarning?: (message: string) => void;
}

function collector(onWarning: (message: string) => void, vega: any) {
  const send = (...args: unknown[]) => onWarning(args.map(String).join(" "));
  let level = vega.Warn ?? 2;
  return {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return this;
    },
    error: send,
    warn: send,
    info: () => undefined,
    debug: () => undefined,
  };
}

/** Compiles a Vega-Lite spec to a Vega spec. */
export async function compileToVega(
  spec: VegaLiteSpec,
  { onWarning = () => undefined }: RenderOptions = {},
): Promise<VegaLiteSpec> {
  const { vega, vegaLite } = await loadVega();
  return vegaLite.compile(spec, { logger: collector(onWarning, vega) }).spec;
}

/** The chart as an SVG document (same spec the HTML report embeds). */
export async function renderSvg(spec: VegaLiteSpec, options: RenderOptions = {}): Promise<string> {
  const { vega } = await loadVega();
  const vgSpec = await compileToVega(spec, options);
  const view = new vega.View(vega.parse(vgSpec), {
    renderer: "none",
    logger: collector(options.onWarning ?? (() => undefined), vega),
  });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

export interface PngOptions {
  /** Pixels per SVG unit; default 3 (about 300 dpi for a paper column). */
  scale?: number;
}

/** Debian's fonts-dejavu-core files: loading just these is much faster than scanning every system font per figure. */
const DEJAVU = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"].map((f) => `/usr/share/fonts/truetype/dejavu/${f}`);

/**
 * An SVG document as PNG bytes, text set in DejaVu Sans: from Debian's font
 * files when they are there (the same pixels on every such machine), else
 * from whatever system fonts resvg finds.
 */
export async function svgToPng(svg: string, { scale = FIGURE.pngScale }: PngOptions = {}): Promise<Uint8Array> {
  const [{ Resvg }, { existsSync }] = await Promise.all([importModule("@resvg/resvg-js"), importModule("node:fs")]);
  const dejavu = DEJAVU.every((f) => existsSync(f));
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: scale },
    background: "white",
    font: dejavu
      ? { loadSystemFonts: false, fontFiles: DEJAVU, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" }
      : { loadSystemFonts: true, defaultFontFamily: "DejaVu Sans", sansSerifFamily: "DejaVu Sans" },
  });
  return resvg.render().asPng();
}
