import { type Chart, formatCount, formatInterval, formatNumber, formatPct, MODE_ORDER, RATIO_TITLES, toolCategoryTable } from "../charts";
import { isHeadlineUnit, RATIO_NAMES, type RatioName, type SliceSummary } from "../tables";
import type { AnalysisSummaries } from "./build-charts";
import { diagnosticsByCode, EXCLUSION_REASONS } from "./method-notes";
import type { ReportRows } from "./rows";
import type { SessionLink } from "./session-pages";

/** A table cell: its text, and the value the sortable table sorts on (numbers sort as numbers). */
export interface Cell {
  text: string;
  sort?: string;
  num?: boolean;
}

const num = (value: number | null | undefined, text: string): Cell => ({ text, sort: value === null || value === undefined || !Number.isFinite(value) ? "" : String(value), num: true });
const txt = (text: string): Cell => ({ text });

export const RATIO_DEFINITIONS: Record<RatioName, string> = {
  code_survival_rate: "agent lines that reach the commit, of the agent lines left in its final file states (Σ survived / Σ final)",
  coding_efficiency: "agent lines that reach the commit, of all lines the agent's edits inserted, rewrites included (Σ survived / Σ produced)",
  agent_authored_pct: "committed lines written by the agent, of all lines the commit adds (Σ survived / Σ committed)",
};

const RATIO_LABELS: Record<RatioName, string> = {
  code_survival_rate: "Code survival rate",
  coding_efficiency: "Coding efficiency",
  agent_authored_pct: "Agent-authored share",
};

/** The share of all units a figure covers, as the CLI summary prints it ("10 of 15 (67 %)"). */
function coverageText(n: number, of: number): string {
  return `${formatCount(n)} of ${formatCount(of)} (${of === 0 ? "n/a" : `${((100 * n) / of).toFixed(0)} %`})`;
}

/** The headline figures with groups (metrics.md §1b) beside the strict ones, and the units each covers. */
function groupsHeadline(rows: ReportRows, summaries: AnalysisSummaries) {
  const g = summaries.groups;
  const { units, strict, groups } = summaries.coverage;
  return {
    strictCoverage: coverageText(strict, units),
    coverage: coverageText(groups, units),
    groupCount: formatCount(new Set((rows.group_units ?? []).filter((r) => isHeadlineUnit(r)).map((r) => r.group_id)).size),
    pooled: (name: RatioName) => (g ? formatPct(g.ratios[name].pooled) : "–"),
    interval: (name: RatioName) => (g ? formatInterval(g.ratios[name].ci_low, g.ratios[name].ci_high) : ""),
  };
}

function headline(rows: ReportRows, summaries: AnalysisSummaries) {
  const o = summaries.overall;
  const groups = groupsHeadline(rows, summaries);
  const unitsAll = rows.units.length;
  const modeCounts = new Map<string, number>();
  for (const u of rows.units) if (isHeadlineUnit(u) && u.coding_mode) modeCounts.set(u.coding_mode, (modeCounts.get(u.coding_mode) ?? 0) + 1);
  const withMode = [...modeCounts.values()].reduce((s, v) => s + v, 0);
  return {
    units: formatCount(summaries.subset.units),
    sessionsWithUnits: formatCount(summaries.subset.sessions),
    unitsAll: formatCount(unitsAll),
    sessionsAll: formatCount(rows.sessions.length),
    unambiguousShare: unitsAll > 0 ? formatPct((100 * summaries.subset.units) / unitsAll) : "–",
    committedLines: formatCount(o?.committed_lines ?? 0),
    ratios: RATIO_NAMES.map((name) => ({
      label: RATIO_LABELS[name],
      definition: RATIO_DEFINITIONS[name],
      pooled: formatPct(o?.ratios[name].pooled),
      interval: formatInterval(o?.ratios[name].ci_low, o?.ratios[name].ci_high),
      mean: formatPct(o?.ratios[name].mean),
      median: formatPct(o?.ratios[name].median),
      n: formatCount(o?.ratios[name].n ?? 0),
      groupsPooled: groups.pooled(name),
      groupsInterval: groups.interval(name),
    })),
    groups: { coverage: groups.coverage, strictCoverage: groups.strictCoverage, count: groups.groupCount },
    modes: MODE_ORDER.map((mode) => ({ mode, units: formatCount(modeCounts.get(mode) ?? 0), share: withMode > 0 ? formatPct((100 * (modeCounts.get(mode) ?? 0)) / withMode) : "–" })),
    effort: [
      { label: "tokens per committed line", value: formatNumber(o?.tokens_per_line) },
      { label: "US$ per committed line", value: o?.cost_per_line === null || o?.cost_per_line === undefined ? "–" : `$${formatNumber(o.cost_per_line)}` },
      { label: "active seconds per committed line", value: formatNumber(o?.active_s_per_line) },
    ],
  };
}

/** One row of a slice table. */
function sliceRow(s: SliceSummary): Cell[] {
  const ratio = (name: RatioName): Cell => {
    const r = s.ratios[name];
    const interval = formatInterval(r.ci_low, r.ci_high);
    return num(r.pooled, `${formatPct(r.pooled)}${interval ? ` ${interval}` : ""}`);
  };
  return [
    txt(s.slice),
    num(s.units, formatCount(s.units)),
    num(s.sessions, formatCount(s.sessions)),
    num(s.committed_lines, formatCount(s.committed_lines)),
    ...RATIO_NAMES.map(ratio),
    num(s.tokens_per_line, formatNumber(s.tokens_per_line)),
    num(s.cost_per_line, s.cost_per_line === null ? "–" : `$${formatNumber(s.cost_per_line)}`),
  ];
}

const SLICE_HEADERS = ["slice", "units", "sessions", "committed lines", ...RATIO_NAMES.map((n) => RATIO_TITLES[n]), "tokens / line", "US$ / line"];

export interface IndexModel {
  [key: string]: unknown;
}

export interface IndexInput {
  rows: ReportRows;
  summaries: AnalysisSummaries;
  charts: Chart[];
  sessionLinks: SessionLink[];
  maxSessions: number;
  seed: number;
  iterations: number;
  inputs: { path: string; kind: string }[];
}

/** Everything the index page's templates print, as strings (escaped by Handlebars). */
export function indexModel({ rows, summaries, charts, sessionLinks, maxSessions, seed, iterations, inputs }: IndexInput): IndexModel {
  const methods = new Map<string, number>();
  for (const u of rows.units) if (isHeadlineUnit(u)) methods.set(u.method ?? "none", (methods.get(u.method ?? "none") ?? 0) + 1);
  const sliceTables = [
    ...summaries.slices.map(({ slicing, summaries: list }) => ({ title: `By ${slicing.label}`, id: `slices-${slicing.dimension.replace(/_/g, "-")}`, rows: list })),
    { title: "By coding mode", id: "slices-coding-mode", rows: summaries.byMode },
  ].map((t) => ({ title: t.title, id: t.id, headers: SLICE_HEADERS, rows: t.rows.map(sliceRow) }));
  const tools = toolCategoryTable(rows.tool_calls);
  const shown = sessionLinks.slice(0, maxSessions);
  return {
    headline: headline(rows, summaries),
    bootstrap: { seed, iterations: formatCount(iterations) },
    inputs: inputs.map((i) => ({ path: i.path, kind: i.kind })),
    exclusions: summaries.subset.excluded.map((e) => ({ reason: e.reason, units: formatCount(e.units), why: EXCLUSION_REASONS[e.reason] ?? "" })),
    methods: [...methods.entries()].sort().map(([method, n]) => ({ method, units: formatCount(n) })),
    diagnostics: diagnosticsByCode(rows.diagnostics).map((g) => ({ ...g, count: formatCount(g.count), sessions: formatCount(g.sessions) })),
    diagnosticsTotal: formatCount(rows.diagnostics.length),
    charts: charts.map((c) => ({ name: c.name, title: c.title, caption: c.caption })),
    sliceTables,
    toolTable: {
      headers: ["category", "calls", "% of calls", "failed", "sessions"],
      rows: tools.map((t) => [txt(t.category), num(t.calls, formatCount(t.calls)), num(t.share, formatPct(t.share)), num(t.failed, formatCount(t.failed)), num(t.sessions, formatCount(t.sessions))]),
    },
    sessionTable: {
      headers: ["session", "started (UTC)", "agent", "model", "prompts", "tool calls", "units", "committed lines", "agent lines survived", "survival %", "US$"],
      rows: shown,
      shown: formatCount(shown.length),
      total: formatCount(sessionLinks.length),
      truncated: sessionLinks.length > shown.length,
    },
  };
}
