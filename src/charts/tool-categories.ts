import type { ToolCallRow } from "../model";
import { plural } from "./format";
import { BAR_COLOR, emptyBody, FIGURE, frame } from "./theme";
import type { Chart } from "./types";

export interface ToolCategoryRow {
  category: string;
  calls: number;
  /** Percentage of all calls. */
  share: number;
  /** Calls whose result said they failed. */
  failed: number;
  sessions: number;
}

/** SWE-chat's Table 5: calls per tool category (see src/analyze/tool-category.ts), most calls first, ties by name. */
export function toolCategoryTable(toolCalls: readonly ToolCallRow[]): ToolCategoryRow[] {
  const rows = new Map<string, { calls: number; failed: number; sessions: Set<string> }>();
  for (const c of toolCalls) {
    let r = rows.get(c.category);
    if (!r) rows.set(c.category, (r = { calls: 0, failed: 0, sessions: new Set() }));
    r.calls++;
    if (c.success === false) r.failed++;
    r.sessions.add(c.session_id);
  }
  const total = toolCalls.length;
  return [...rows.entries()]
    .map(([category, r]) => ({
      category,
      calls: r.calls,
      share: total > 0 ? (100 * r.calls) / total : 0,
      failed: r.failed,
      sessions: r.sessions.size,
    }))
    .sort((a, b) => b.calls - a.calls || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0));
}

/** Tool calls per category as horizontal bars with each category's share of all calls. */
export function toolCategories(toolCalls: readonly ToolCallRow[]): Chart {
  const table = toolCategoryTable(toolCalls);
  const sessions = new Set(toolCalls.map((c) => c.session_id)).size;
  const values = table.map((r, rank) => ({ ...r, rank, label: `${r.share.toFixed(1)} %` }));
  const caption =
    `Tool calls by category (SWE-chat's rules: shell commands by their first word, mcp, agent, renames): ` +
    `${plural(toolCalls.length, "call")} from ${plural(sessions, "session")}, all sessions (not only those with an unambiguous unit), sub-agent calls included; label: share of all calls.`;
  const title = "Tool calls by category";
  const y = { field: "category", type: "nominal", sort: { field: "rank", op: "min" }, title: null };
  return {
    name: "tool-categories",
    title,
    caption,
    spec: frame(
      title,
      caption,
      values.length === 0
        ? emptyBody("No tool call.")
        : {
            width: FIGURE.width - 60,
            height: { step: 13 },
            data: { values },
            layer: [
              {
                mark: { type: "bar", color: BAR_COLOR, height: { band: 0.75 } },
                encoding: {
                  y,
                  x: {
                    field: "calls",
                    type: "quantitative",
                    title: "tool calls",
                    axis: { tickMinStep: 1, format: "~s" },
                  },
                  tooltip: [
                    { field: "category" },
                    { field: "calls" },
                    { field: "share", format: ".1f", title: "% of calls" },
                    { field: "failed" },
                    { field: "sessions" },
                  ],
                },
              },
              {
                mark: { type: "text", align: "left", dx: 3, fontSize: 7.5 },
                encoding: { y, x: { field: "calls", type: "quantitative" }, text: { field: "label" } },
              },
            ],
          },
    ),
  };
}
