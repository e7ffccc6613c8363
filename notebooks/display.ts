/**
 * Showing tables and charts in a tslab notebook.
 *
 * Each call sends one display bundle with several mimetypes, through the
 * same channel `tslab.display.*` writes to, and the frontend picks the best
 * one it can show: JupyterLab draws the Vega-Lite chart (interactive
 * tooltips); GitHub, nbconvert's HTML and VS Code without a Vega renderer
 * show the SVG; a terminal shows the text. `tslab.display.raw` sends a
 * single mimetype per call, so two calls would show every chart twice
 * in JupyterLab.
 */
import * as tslab from "tslab";
import { cachedText, type ColumnTable, maskSecrets } from "../src";
import { renderSvg } from "../src/charts";

const VEGA_LITE = "application/vnd.vegalite.v5+json";

interface DisplayMessage {
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  transient: Record<string, unknown>;
}
type WriteDisplayData = (message: DisplayMessage, update: boolean) => void;

/** Sends one bundle (mimetype → content) as a display_data output. */
export function displayBundle(data: Record<string, unknown>): void {
  // The kernel (and the headless runner) sets this before every cell; tslab.display.raw uses it too.
  const jupyter = require("tslab/dist/jupyter") as { lastWriteDisplayData: WriteDisplayData | null };
  if (jupyter.lastWriteDisplayData === null) throw new Error("displayBundle: not running inside a tslab kernel");
  jupyter.lastWriteDisplayData({ data, metadata: {}, transient: {} }, false);
}

export interface ShowTableOptions {
  /** Rows shown (default 20; Infinity for all). */
  limit?: number;
  /** Digits after the point for non-integer numbers (default 1). */
  digits?: number;
}

/**
 * An Arquero table as HTML (GitHub and Jupyter show it) and Markdown text; nulls as "–", numbers rounded,
 * credential-looking text masked (the rule the tables and the report follow: a notebook's outputs are shared too).
 */
export function showTable(table: ColumnTable, { limit = 20, digits = 1 }: ShowTableOptions = {}): void {
  const format: Record<string, (v: unknown) => string> = {};
  const mask = cachedText(maskSecrets);
  for (const name of table.columnNames()) {
    format[name] = (v: unknown) =>
      v === null || v === undefined
        ? "–"
        : typeof v === "number" && !Number.isInteger(v)
          ? v.toFixed(digits)
          : mask(String(v));
  }
  const shown = Math.min(limit, table.numRows());
  const note = shown < table.numRows() ? `\n(${shown} of ${table.numRows()} rows)` : "";
  displayBundle({
    "text/html": table.toHTML({ limit, format }) + (note ? `<p><em>${note.trim()}</em></p>` : ""),
    "text/plain": table.toMarkdown({ limit, format }) + note,
  });
}

/** What `showChart` needs: a `Chart` of src/charts, or any titled Vega-Lite spec (e.g. src/taskflow's). */
export interface Showable {
  title: string;
  caption?: string;
  spec: Record<string, unknown>;
}

/** A chart as its Vega-Lite spec, an SVG rendering of the same spec, and its title and caption as text. */
export async function showChart(chart: Showable): Promise<void> {
  const svg = await renderSvg(chart.spec);
  displayBundle({
    [VEGA_LITE]: chart.spec,
    "image/svg+xml": svg,
    "text/plain": chart.caption ? `${chart.title}\n${chart.caption}` : chart.title,
  });
}

/** A heading and a line of Markdown, for results computed in a cell. */
export function showMarkdown(markdown: string): void {
  tslab.display.markdown(markdown);
}
