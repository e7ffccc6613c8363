import * as aq from "arquero";
import { expandRanges, type LineRow } from "../attribution/line-ranges";
import type { AnalysisRows } from "../model";
import type { ColumnTable } from "./from-rows";

export type { LineRow } from "../attribution/line-ranges";

const LINE_COLUMNS: (keyof LineRow)[] = [
  "session_id",
  "commit_sha",
  "group_id",
  "file",
  "line",
  "owner",
  "tool_call_seq",
  "model",
];

/**
 * The `lines` table: one row per committed line (`line_ranges` expanded), so a notebook can ask
 * `linesOf(rows).filter(d => d.file === "src/app.ts" && d.owner === "agent")`. Empty unless the analysis
 * gathered lines (`analyze --lines`, `AnalyzeRequest.lines`).
 */
export function linesOf(
  result: Pick<AnalysisRows, "line_ranges"> | { rows: Pick<AnalysisRows, "line_ranges"> },
): ColumnTable {
  const rows = "rows" in result ? result.rows : result;
  const columns: Record<string, unknown[]> = {};
  for (const c of LINE_COLUMNS) columns[c] = [];
  for (const line of expandRanges(rows.line_ranges ?? [])) for (const c of LINE_COLUMNS) columns[c].push(line[c]);
  return aq.table(columns);
}
