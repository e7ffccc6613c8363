/**
 * Vega-Lite spec → SVG in Node (compile, then a headless `vega.View`; no
 * canvas package needed: stack.md). vega cannot be `require()`d (top-level
 * await in vega-canvas), so it is loaded with a dynamic import here and this
 * file is kept out of index.ts, which notebooks import.
 */
import type { VegaLiteSpec } from "./charts";

export interface RenderResult {
  svg: string | null;
  error: string | null;
  /** What vega-lite and vega warned about (an invalid encoding is a warning, not an error). */
  warnings: string[];
}

/** Renders one spec; null (and the reason) when vega cannot render it. */
export async function renderSvg(spec: VegaLiteSpec): Promise<RenderResult> {
  const warnings: string[] = [];
  interface Logger {
    level(): Logger;
    error(...args: unknown[]): Logger;
    warn(...args: unknown[]): Logger;
    info(): Logger;
    debug(): Logger;
  }
  const logger: Logger = {
    level: () => logger,
    error: (...args) => (warnings.push(args.map(String).join(" ")), logger),
    warn: (...args) => (warnings.push(args.map(String).join(" ")), logger),
    info: () => logger,
    debug: () => logger,
  };
  try {
    const vl = await import("vega-lite");
    const vega = await import("vega");
    const compiled = vl.compile(spec as never, { logger: logger as never }).spec;
    const view = new vega.View(vega.parse(compiled), { renderer: "none", logger: logger as never });
    const svg = await view.toSVG();
    view.finalize();
    return { svg, error: null, warnings };
  } catch (err) {
    return { svg: null, error: (err as Error).message, warnings };
  }
}
