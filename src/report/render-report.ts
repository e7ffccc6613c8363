import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Chart, renderSvg, svgToPng } from "../charts";
import type { SecretsPolicy } from "../model";
import { REPORT_TEXT_CAP } from "./bounded-text";
import { buildCharts, summarize } from "./build-charts";
import { jsonForScript } from "./escape";
import { indexModel } from "./index-page";
import { maskRows, type ReportRows } from "./rows";
import { vegaRuntime } from "./runtime";
import { EMBED_SCRIPT, OPEN_TARGET_SCRIPT, SORT_SCRIPT } from "./scripts";
import { type LineData, type SessionPageLimits, sessionPages } from "./session-pages";
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
  /** The committed lines' texts and commit subjects for the session pages' blame view (`readLineTexts`, `readCommitInfo`). */
  lineData?: LineData;
  templatesDir?: string;
  version?: string;
  /** Receives chart-rendering warnings. */
  onWarning?: (message: string) => void;
  /** Credential-looking text masked (default) or kept (`--keep-secrets`); the footer says which. */
  secrets?: SecretsPolicy;
}

/** The footer's word on secrets and cut texts. */
function secretsNote(policy: SecretsPolicy): string {
  const cut = `Texts longer than ${REPORT_TEXT_CAP.toLocaleString("en-US")} characters are cut here, with a note; the tables hold them whole.`;
  return policy === "kept"
    ? `Secrets kept (--keep-secrets): credential-looking text from the inputs is shown as it is, here and in the tables. Do not share them. ${cut}`
    : `Text that looks like a credential (API keys, tokens, private keys) is shown as [masked], here and in the tables. ${cut}`;
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
  const secrets = options.secrets ?? "masked";
  const rows = maskRows(input, secrets);
  const templates = loadTemplates(options.templatesDir);
  const summaries = summarize(rows, { seed, iterations, topN });
  const charts = buildCharts(rows, summaries, { seed, iterations });
  // SWE-chat's figures (their own partial), shown when the input holds the dataset's labels.
  const paper = swechatSection(rows);
  const pages = sessionPages(rows, options.sessionPageLimits, secrets, options.lineData);
  const common = { version, timestamp: options.timestamp ?? null, secretsNote: secretsNote(secrets) };

  const specs: Script = {
    type: "application/json",
    id: "chart-specs",
    code: jsonForScript([...charts, ...paper.charts].map((c) => ({ name: c.name, spec: c.spec }))),
  };
  const runtime = vegaRuntime().map((b): Script => ({ code: b.code }));
  const index = indexModel({
    rows,
    summaries,
    charts,
    sessionLinks: pages.links,
    maxSessions: options.maxSessionsInIndex ?? 300,
    seed,
    iterations,
    inputs: options.inputs ?? [],
  });
  (index.sessionTable as Record<string, unknown>).allHref = "sessions/index.html";
  yield {
    path: "index.html",
    content: templates.index({
      ...common,
      ...index,
      swechatFigures: paper.model,
      pageTitle: title,
      hasCharts: charts.length > 0,
      linkBase: "sessions/",
      ...pageScripts([specs, ...runtime, { code: EMBED_SCRIPT }, { code: SORT_SCRIPT }, { code: OPEN_TARGET_SCRIPT }]),
    }),
  };

  if (options.sessionPages !== false) {
    const all = indexModel({
      rows,
      summaries,
      charts: [],
      sessionLinks: pages.links,
      maxSessions: Infinity,
      seed,
      iterations,
      inputs: [],
    });
    yield { path: "sessions/style.css", content: templates.stylesheet };
    yield {
      path: "sessions/index.html",
      content: templates.sessionsIndex({
        ...common,
        sessionTable: all.sessionTable,
        pageTitle: `${title}: all sessions`,
        hasCharts: false,
        linkBase: "",
        ...pageScripts([{ code: SORT_SCRIPT }], "style.css"),
      }),
    };
    const noScripts = pageScripts([], "style.css");
    for (const page of pages.pages()) {
      yield {
        path: `sessions/${page.stem}.html`,
        content: templates.session({
          ...common,
          session: page.model,
          pageTitle: `Session ${String(page.model.id)}`,
          hasCharts: false,
          ...noScripts,
        }),
      };
    }
  }

  if (options.svg !== false || options.png) yield* figureFiles([...charts, ...paper.charts], options);
}

/** `figures/<name>.svg` (and `.png`) for each chart, from the same spec the page embeds. */
export async function renderFigures(
  charts: readonly Chart[],
  options: Pick<ReportOptions, "svg" | "png" | "onWarning"> = {},
): Promise<ReportFile[]> {
  const out: ReportFile[] = [];
  for await (const f of figureFiles(charts, options)) out.push(f);
  return out;
}

async function* figureFiles(
  charts: readonly Chart[],
  { svg = true, png = false, onWarning }: Pick<ReportOptions, "svg" | "png" | "onWarning">,
): AsyncGenerator<ReportFile> {
  for (const chart of charts) {
    const doc = await renderSvg(chart.spec, { onWarning: onWarning && ((m) => onWarning(`${chart.name}: ${m}`)) });
    if (svg) yield { path: `figures/${chart.name}.svg`, content: doc };
    if (png) yield { path: `figures/${chart.name}.png`, content: await svgToPng(doc) };
  }
}

/** The pages that link to the others: written last, so a failure part-way leaves no index pointing at pages not written. */
const INDEX_PAGES = new Set(["index.html", "sessions/index.html"]);

/**
 * Writes the files under `dir` as they come, creating folders; returns the
 * paths written, in order. The index pages of an earlier report there are
 * removed first and the new ones written after every other file: if
 * anything fails, the folder has no index at all, never one whose links
 * lead to missing pages.
 */
export async function writeReport(
  dir: string,
  files: Iterable<ReportFile> | AsyncIterable<ReportFile>,
): Promise<string[]> {
  const made = new Set<string>();
  const paths: string[] = [];
  const deferred: ReportFile[] = [];
  const write = (f: ReportFile) => {
    const path = join(dir, ...f.path.split("/"));
    const folder = dirname(path);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    writeFileSync(path, f.content);
  };
  for (const index of INDEX_PAGES) rmSync(join(dir, ...index.split("/")), { force: true });
  for await (const f of files) {
    if (INDEX_PAGES.has(f.path)) deferred.push(f);
    else write(f);
    paths.push(f.path);
  }
  for (const f of deferred) write(f);
  return paths;
}
