import {
  type Chart,
  formatCount,
  formatInterval,
  formatNumber,
  formatPct,
  MODE_ORDER,
  RATIO_TITLES,
  type SlicedRow,
  type Slicing,
  toolCategoryTable,
} from "../charts";
import { isHeadlineUnit, RATIO_NAMES, type RatioName, type SliceSummary, unitCoverage } from "../tables";
import type { AnalysisSummaries } from "./build-charts";
import { diagnosticsByCode, EXCLUSION_REASONS } from "./method-notes";
import type { ReportRows } from "./rows";
import type { SessionLink } from "./session-pages";

/** A table cell: its text, and the value the sortable table sorts on (numbers sort as numbers). */
export interface Cell {
  text: string;
  sort?: string;
  num?: boolean;
  /** A second line under the text (a ratio's interval), so wide tables stay narrow. */
  sub?: string;
}

const num = (value: number | null | undefined, text: string): Cell => ({
  text,
  sort: value === null || value === undefined || !Number.isFinite(value) ? "" : String(value),
  num: true,
});
const txt = (text: string): Cell => ({ text });

export const RATIO_DEFINITIONS: Record<RatioName, string> = {
  code_survival_rate:
    "agent lines that reach the commit, of the agent lines left in its final file states (Σ survived / Σ final)",
  coding_efficiency:
    "agent lines that reach the commit, of all lines the agent's edits inserted, rewrites included (Σ survived / Σ produced)",
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
    groupCount: formatCount(
      new Set((rows.group_units ?? []).filter((r) => isHeadlineUnit(r)).map((r) => r.group_id)).size,
    ),
    pooled: (name: RatioName) => (g ? formatPct(g.ratios[name].pooled) : "–"),
    interval: (name: RatioName) => (g ? formatInterval(g.ratios[name].ci_low, g.ratios[name].ci_high) : ""),
  };
}

function headline(rows: ReportRows, summaries: AnalysisSummaries) {
  const o = summaries.overall;
  const groups = groupsHeadline(rows, summaries);
  const unitsAll = rows.units.length;
  const modeCounts = new Map<string, number>();
  for (const u of rows.units)
    if (isHeadlineUnit(u) && u.coding_mode) modeCounts.set(u.coding_mode, (modeCounts.get(u.coding_mode) ?? 0) + 1);
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
    modes: MODE_ORDER.map((mode) => ({
      mode,
      units: formatCount(modeCounts.get(mode) ?? 0),
      share: withMode > 0 ? formatPct((100 * (modeCounts.get(mode) ?? 0)) / withMode) : "–",
    })),
    effort: [
      { label: "tokens per committed line", value: formatNumber(o?.tokens_per_line) },
      {
        label: "US$ per committed line",
        value: o?.cost_per_line === null || o?.cost_per_line === undefined ? "–" : `$${formatNumber(o.cost_per_line)}`,
      },
      { label: "active seconds per committed line", value: formatNumber(o?.active_s_per_line) },
    ],
  };
}

const dash = (): Cell => num(null, "–");

/** A view's units in a slice and their share of all the slice's units ("12 (40 %)"), sorting on the count. */
const unitsCell = (n: number, of: number): Cell =>
  num(n, `${formatCount(n)} (${of === 0 ? "n/a" : `${((100 * n) / of).toFixed(0)} %`})`);

/** A pooled ratio and its interval, or a dash where the view has no unit in the slice. */
function ratioCells(s: SliceSummary | undefined): Cell[] {
  return RATIO_NAMES.map((name) => {
    if (!s) return dash();
    const r = s.ratios[name];
    const interval = formatInterval(r.ci_low, r.ci_high);
    return { ...num(r.pooled, formatPct(r.pooled)), ...(interval ? { sub: interval } : {}) };
  });
}

/** One slice's strict figures, then its figures with groups, each with the share of the slice's units it covers. */
function sliceRow(
  slice: string,
  strict: SliceSummary | undefined,
  groups: SliceSummary | undefined,
  coverage: Coverage,
): Cell[] {
  return [
    txt(slice),
    unitsCell(coverage.strict, coverage.units),
    strict ? num(strict.sessions, formatCount(strict.sessions)) : dash(),
    strict ? num(strict.committed_lines, formatCount(strict.committed_lines)) : dash(),
    ...ratioCells(strict),
    unitsCell(coverage.groups, coverage.units),
    ...ratioCells(groups),
    strict ? num(strict.tokens_per_line, formatNumber(strict.tokens_per_line)) : dash(),
    strict?.cost_per_line === null || strict?.cost_per_line === undefined
      ? dash()
      : num(strict.cost_per_line, `$${formatNumber(strict.cost_per_line)}`),
  ];
}

const SLICE_HEADERS = [
  "slice",
  "strict: units (share)",
  "sessions",
  "committed lines",
  ...RATIO_NAMES.map((n) => RATIO_TITLES[n]),
  "with groups: units (share)",
  ...RATIO_NAMES.map((n) => `with groups: ${RATIO_TITLES[n]}`),
  "tokens / line",
  "US$ / line",
];

type Coverage = ReturnType<typeof unitCoverage>;

/** Rows of `list` by their slice key (the key `summarizeUnits` gives them). */
function bySlice<T extends SlicedRow>(list: readonly T[], slicing: Slicing): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of list) {
    const key = slicing.sliceOf(r) ?? "(none)";
    let l = out.get(key);
    if (!l) out.set(key, (l = []));
    l.push(r);
  }
  return out;
}

/**
 * A slice table's rows: the strict slices in their order, then slices only groups reach. A slice's share of units is
 * the headline's coverage (`unitCoverage`) taken over that slice's units and group rows.
 */
function sliceRows(
  rows: ReportRows,
  slicing: Slicing,
  strict: readonly SliceSummary[],
  groups: readonly SliceSummary[],
): Cell[][] {
  const units = bySlice(rows.units, slicing);
  const groupRows = bySlice(rows.group_units ?? [], slicing);
  const groupOf = new Map(groups.map((g) => [g.slice, g]));
  const strictOf = new Map(strict.map((g) => [g.slice, g]));
  const rank = new Map(slicing.order.map((k, i) => [k, i]));
  const extra = groups
    .map((g) => g.slice)
    .filter((k) => !strictOf.has(k))
    .sort((a, b) => (rank.get(a) ?? 1e9) - (rank.get(b) ?? 1e9) || (a < b ? -1 : a > b ? 1 : 0));
  return [...strict.map((s) => s.slice), ...extra].map((key) =>
    sliceRow(key, strictOf.get(key), groupOf.get(key), unitCoverage(units.get(key) ?? [], groupRows.get(key) ?? [])),
  );
}

/** "1 reason", "3 reasons": a count with its noun, for the collapsed parts' summaries. */
const counted = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? "" : "s"}`;

/** The summaries of the collapsed parts after the results: each names its part and what it holds. */
function collapsedSummaries(
  exclusions: readonly { units: number }[],
  methods: number,
  inputs: number,
  diagnostics: number,
  codes: number,
) {
  const excluded = exclusions.reduce((sum, e) => sum + e.units, 0);
  return {
    method: `Method notes: what is measured, ${counted(methods, "attribution method")} used${inputs > 0 ? `, ${counted(inputs, "input")}` : ""}`,
    exclusions: `Left out of the headline numbers: ${counted(excluded, "unit")}, ${counted(exclusions.length, "reason")}`,
    diagnostics: `Diagnostics: ${counted(diagnostics, "diagnostic")} in ${counted(codes, "code")}`,
  };
}

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
export function indexModel({
  rows,
  summaries,
  charts,
  sessionLinks,
  maxSessions,
  seed,
  iterations,
  inputs,
}: IndexInput): IndexModel {
  const methods = new Map<string, number>();
  for (const u of rows.units)
    if (isHeadlineUnit(u)) methods.set(u.method ?? "none", (methods.get(u.method ?? "none") ?? 0) + 1);
  const sliceTables = [
    ...summaries.slices.map(({ slicing, summaries: list, groups }) => ({
      title: `By ${slicing.label}`,
      slicing,
      list,
      groups,
    })),
    {
      title: "By coding mode",
      slicing: summaries.modes.slicing,
      list: summaries.byMode,
      groups: summaries.modes.groups,
    },
  ].map((t) => ({
    title: t.title,
    id: `slices-${t.slicing.dimension.replace(/_/g, "-")}`,
    headers: SLICE_HEADERS,
    rows: sliceRows(rows, t.slicing, t.list, t.groups),
  }));
  const tools = toolCategoryTable(rows.tool_calls);
  const shown = sessionLinks.slice(0, maxSessions);
  const diagnostics = diagnosticsByCode(rows.diagnostics);
  return {
    collapsed: collapsedSummaries(
      summaries.subset.excluded,
      methods.size,
      inputs.length,
      rows.diagnostics.length,
      diagnostics.length,
    ),
    headline: headline(rows, summaries),
    bootstrap: { seed, iterations: formatCount(iterations) },
    inputs: inputs.map((i) => ({ path: i.path, kind: i.kind })),
    exclusions: summaries.subset.excluded.map((e) => ({
      reason: e.reason,
      units: formatCount(e.units),
      why: EXCLUSION_REASONS[e.reason] ?? "",
    })),
    methods: [...methods.entries()].sort().map(([method, n]) => ({ method, units: formatCount(n) })),
    diagnostics: diagnostics.map((g) => ({ ...g, count: formatCount(g.count), sessions: formatCount(g.sessions) })),
    diagnosticsTotal: formatCount(rows.diagnostics.length),
    charts: charts.map((c) => ({ name: c.name, title: c.title, caption: c.caption })),
    sliceTables,
    toolTable: {
      headers: ["category", "calls", "% of calls", "failed", "sessions"],
      rows: tools.map((t) => [
        txt(t.category),
        num(t.calls, formatCount(t.calls)),
        num(t.share, formatPct(t.share)),
        num(t.failed, formatCount(t.failed)),
        num(t.sessions, formatCount(t.sessions)),
      ]),
    },
    sessionTable: {
      headers: [
        "session",
        "started (UTC)",
        "agent",
        "model",
        "prompts",
        "tool calls",
        "units",
        "committed lines",
        "agent lines survived",
        "survival %",
        "US$",
      ],
      rows: shown,
      shown: formatCount(shown.length),
      total: formatCount(sessionLinks.length),
      truncated: sessionLinks.length > shown.length,
    },
  };
}
