import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Chart, renderSvg, svgToPng } from "../charts";
import { buildCharts, summarize } from "./build-charts";
import { jsonForScript } from "./escape";
import { indexModel } from "./index-page";
import { maskRows, type ReportRows } from "./rows";
import { vegaRuntime } from "./runtime";
import { EMBED_SCRIPT, SORT_SCRIPT } from "./scripts";
import { type SessionPageLimits, sessionPages } from "./session-pages";
import { swechatSection } from "./swechat-figures";
import { loadTemplates, trusted } from "./templates";

export interface ReportOptions {
  title?: string;
  /** Bootstrap seed and resamples (as `analyze --seed`). */
  seed?: number;
  iterations?: number;
  /** Names kept per slicing before pooling the rest into "other". Default 10. */
  topN?: number;
  /** Render `figures/<chart>.svg` (default true) and `.png` (default false). */
  svg?: boolean;
  png?: boolean;
  /** Shown in the footer when given; otherwise the report has no date, so reruns are byte-identical. */
  timestamp?: string;
  /** Named in the method notes. */
  inputs?: { path: string; kind: string }[];
  /** Sessions listed on index.html; all of them are on sessions/index.html. Default 300. */
  maxSessionsInIndex?: number;
  /** Write one page per session (default true). */
  sessionPages?: boolean;
  sessionPageLimits?: SessionPageLimits;
  templatesDir?: string;
  version?: string;
  /** Receives chart-rendering warnings. */
  onWarning?: (message: string) => void;
}

export interface ReportFile {
  /** Relative to the report folder, `/`-separated. */
  path: string;
  content: string | Uint8Array;
}

const sha256b64 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

/**
 * The policy of every page: nothing from the network or from files (no
 * `default-src`), scripts only when their hash is listed (so an injected
 * `<script>` or `onerror=` attribute would not run even if escaping failed),
 * no `eval`/`Function` (Vega's expressions run in vega-interpreter), inline
 * styles allowed (Vega and the page set them; styles cannot run code and
 * cannot load anything under `default-src 'none'`). Session pages may also
 * load the report's own `sessions/style.css` (a file beside them, or the
 * same server when the folder is served): 20,000 pages need not each carry
 * the style sheet.
 */
function contentSecurityPolicy(scripts: readonly string[], localStylesheet: boolean): string {
  const scriptSrc = scripts.length === 0 ? "'none'" : scripts.map((s) => `'sha256-${sha256b64(s)}'`).join(" ");
  return [
    "default-src 'none'",
    `script-src ${scriptSrc}`,
    localStylesheet ? "style-src 'self' file: 'unsafe-inline'" : "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src 'none'",
    "connect-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

interface Script {
  code: string;
  type?: string;
  id?: string;
}

function pageScripts(scripts: readonly Script[], stylesheet: string | null = null) {
  const executable = scripts.filter((s) => s.type === undefined).map((s) => s.code);
  return {
    stylesheet,
    csp: trusted(contentSecurityPolicy(executable, stylesheet !== null)),
    scripts: scripts.map((s) => ({ type: s.type, id: s.id, code: trusted(s.code) })),
  };
}

/**
 * The whole report as files: `index.html` (one self-contained page),
 * `sessions/<id>.html`, `sessions/index.html` and the pages' shared
 * `sessions/style.css`, `figures/<chart>.svg`
 * (and `.png`). Pure apart from reading the templates and the Vega bundles:
 * the same rows and options give byte-identical files.
 */
export async function renderReport(input: ReportRows, options: ReportOptions = {}): Promise<ReportFile[]> {
  const files: ReportFile[] = [];
  for await (const file of reportFiles(input, options)) files.push(file);
  return files;
}

/**
 * Renders the report into `dir` page by page (a corpus of 20,000 sessions
 * never holds its 20,000 session pages in memory at once) and returns the
 * paths written, in the order `renderReport` lists them.
 */
export async function writeReportTo(dir: string, input: ReportRows, options: ReportOptions = {}): Promise<string[]> {
  return writeReport(dir, reportFiles(input, options));
}

/** The files of the report, one at a time: index.html, the session pages, then the figures. */
export async function* reportFiles(input: ReportRows, options: ReportOptions = {}): AsyncGenerator<ReportFile> {
  const { seed = 1, iterations = 1000, topN = 10, title = "swe-chat-eval report", version = "0.1.0" } = options;
  const rows = maskRows(input);
  const templates = loadTemplates(options.templatesDir);
  const summaries = summarize(rows, { seed, iterations, topN });
  const charts = buildCharts(rows, summaries, { seed, iterations });
  // SWE-chat's figures (their own partial), shown when the input holds the dataset's labels.
  const paper = swechatSection(rows);
  const pages = sessionPages(rows, options.sessionPageLimits);
  const common = { version, timestamp: options.timestamp ?? null };

  const specs: Script = { type: "application/json", id: "chart-specs", code: jsonForScript([...charts, ...paper.charts].map((c) => ({ name: c.name, spec: c.spec }))) };
  const runtime = vegaRuntime().map((b): Script => ({ code: b.code }));
  const index = indexModel({ rows, summaries, charts, sessionLinks: pages.links, maxSessions: options.maxSessionsInIndex ?? 300, seed, iterations, inputs: options.inputs ?? [] });
  (index.sessionTable as Record<string, unknown>).allHref = "sessions/index.html";
  yield {
    path: "index.html",
    content: templates.index({ ...common, ...index, swechatFigures: paper.model, pageTitle: title, hasCharts: charts.length > 0, linkBase: "sessions/", ...pageScripts([specs, ...runtime, { code: EMBED_SCRIPT }, { code: SORT_SCRIPT }]) }),
  };

  if (options.sessionPages !== false) {
    const all = indexModel({ rows, summaries, charts: [], sessionLinks: pages.links, maxSessions: Infinity, seed, iterations, inputs: [] });
    yield { path: "sessions/style.css", content: templates.stylesheet };
    yield {
      path: "sessions/index.html",
      content: templates.sessionsIndex({ ...common, sessionTable: all.sessionTable, pageTitle: `${title}: all sessions`, hasCharts: false, linkBase: "", ...pageScripts([{ code: SORT_SCRIPT }], "style.css") }),
    };
    const noScripts = pageScripts([], "style.css");
    for (const page of pages.pages()) {
      yield { path: `sessions/${page.stem}.html`, content: templates.session({ ...common, session: page.model, pageTitle: `Session ${String(page.model.id)}`, hasCharts: false, ...noScripts }) };
    }
  }

  if (options.svg !== false || options.png) yield* figureFiles([...charts, ...paper.charts], options);
}

/** `figures/<name>.svg` (and `.png`) for each chart, from the same spec the page embeds. */
export async function renderFigures(charts: readonly Chart[], options: Pick<ReportOptions, "svg" | "png" | "onWarning"> = {}): Promise<ReportFile[]> {
  const out: ReportFile[] = [];
  for await (const f of figureFiles(charts, options)) out.push(f);
  return out;
}

async function* figureFiles(charts: readonly Chart[], { svg = true, png = false, onWarning }: Pick<ReportOptions, "svg" | "png" | "onWarning">): AsyncGenerator<ReportFile> {
  for (const chart of charts) {
    const doc = await renderSvg(chart.spec, { onWarning: onWarning && ((m) => onWarning(`${chart.name}: ${m}`)) });
    if (svg) yield { path: `figures/${chart.name}.svg`, content: doc };
    if (png) yield { path: `figures/${chart.name}.png`, content: await svgToPng(doc) };
  }
}

/** Writes the files under `dir` as they come, creating folders; returns the paths written, in order. */
export async function writeReport(dir: string, files: Iterable<ReportFile> | AsyncIterable<ReportFile>): Promise<string[]> {
  const made = new Set<string>();
  const paths: string[] = [];
  for await (const f of files) {
    const path = join(dir, ...f.path.split("/"));
    const folder = dirname(path);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(path, f.content);
    paths.push(f.path);
  }
  return paths;
}
