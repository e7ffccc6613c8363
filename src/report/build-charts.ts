import {
  agentAuthoredHistogram,
  type Chart,
  effortByMode,
  headlineSubset,
  modeShareOverTime,
  ratiosBySlice,
  sessionCostDistribution,
  sessionSurvivalDistribution,
  type SliceDimension,
  type Slicing,
  slicing,
  type Subset,
  toolCategories,
} from "../charts";
import type { AnalysisRows, SliceSummary } from "../tables";
import { summarizeUnits, unitCoverage } from "../tables";

export interface AnalysisSummaries {
  subset: Subset;
  /** The whole headline subset as one slice ("all"); undefined when no unit is unambiguous. */
  overall: SliceSummary | undefined;
  /** Per dimension: the slicing and its summaries, in display order; `groups`: the same slicing over group_units (unordered). */
  slices: { slicing: Slicing; summaries: SliceSummary[]; groups: SliceSummary[] }[];
  byMode: SliceSummary[];
  /** The coding-mode slicing, and its summaries over group_units. */
  modes: { slicing: Slicing; groups: SliceSummary[] };
  /** The same pooled figures with groups (metrics.md §1b: group_units, resampled as whole groups); undefined without any. */
  groups: SliceSummary | undefined;
  /** Units in all, and how many the strict figures and those with groups cover (as the CLI summary prints them). */
  coverage: { units: number; strict: number; groups: number };
}

export interface SummaryOptions {
  seed?: number;
  iterations?: number;
  /** Names kept per dimension before pooling the rest into "other". Default 10. */
  topN?: number;
}

export const SLICED_DIMENSIONS: SliceDimension[] = ["model", "agent", "repo", "length_bin"];

/** Every aggregate the report shows, computed once (the charts, the tables and the headline read these). */
export function summarize(
  rows: AnalysisRows,
  { seed = 1, iterations = 1000, topN = 10 }: SummaryOptions = {},
): AnalysisSummaries {
  const boot = { seed, iterations };
  // The slice tables set each slice's figures with groups beside its strict ones: the same slicing, over group_units.
  const groupsBy = (s: Slicing) => summarizeUnits(rows.group_units ?? [], rows.sessions, s.sliceOf, boot);
  const overall = summarizeUnits(rows.units, rows.sessions, () => "all", boot)[0];
  const slices = SLICED_DIMENSIONS.map((dimension) => {
    const s = slicing(dimension, rows.units, rows.sessions, topN);
    const rank = new Map(s.order.map((k, i) => [k, i]));
    const summaries = summarizeUnits(rows.units, rows.sessions, s.sliceOf, boot).sort(
      (a, b) =>
        (rank.get(a.slice) ?? 1e9) - (rank.get(b.slice) ?? 1e9) || (a.slice < b.slice ? -1 : a.slice > b.slice ? 1 : 0),
    );
    return { slicing: s, summaries, groups: groupsBy(s) };
  });
  const mode = slicing("coding_mode", rows.units, rows.sessions);
  const byMode = summarizeUnits(rows.units, rows.sessions, mode.sliceOf, boot);
  const groups = summarizeUnits(rows.group_units ?? [], rows.sessions, () => "all", boot)[0];
  const coverage = unitCoverage(rows.units, rows.group_units ?? []);
  return {
    subset: headlineSubset(rows.units),
    overall,
    slices,
    byMode,
    modes: { slicing: mode, groups: groupsBy(mode) },
    groups,
    coverage,
  };
}

/** The report's charts, in the order the page shows them. */
export function buildCharts(
  rows: AnalysisRows,
  summaries: AnalysisSummaries,
  { seed = 1, iterations = 1000 }: SummaryOptions = {},
): Chart[] {
  return [
    agentAuthoredHistogram(rows.units),
    ...summaries.slices.map(({ slicing: s, summaries: list }) =>
      ratiosBySlice(list, s, summaries.subset, { seed, iterations }),
    ),
    effortByMode(summaries.byMode, summaries.subset),
    modeShareOverTime(rows.units, rows.sessions),
    sessionSurvivalDistribution(rows.units, rows.sessions),
    sessionCostDistribution(rows.sessions),
    toolCategories(rows.tool_calls),
  ];
}
