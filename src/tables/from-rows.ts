import * as aq from "arquero";
import { type AnalysisRows, TABLE_COLUMNS, type TableName } from "../model";

export type { AnalysisRows } from "../model";

export type ColumnTable = ReturnType<typeof aq.table>;
export type AnalysisTables = Record<TableName, ColumnTable>;

/** An Arquero table with exactly the contract's columns, in order, even when there are no rows. */
export function tableFromRows(name: TableName, rows: readonly object[]): ColumnTable {
  const columns: Record<string, unknown[]> = {};
  for (const column of TABLE_COLUMNS[name]) columns[column] = [];
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (const column of TABLE_COLUMNS[name]) columns[column].push(r[column] ?? null);
  }
  return aq.table(columns);
}

export function toTables(rows: AnalysisRows): AnalysisTables {
  return {
    units: tableFromRows("units", rows.units),
    sessions: tableFromRows("sessions", rows.sessions),
    tool_calls: tableFromRows("tool_calls", rows.tool_calls),
    diagnostics: tableFromRows("diagnostics", rows.diagnostics),
    checkpoint_sessions: tableFromRows("checkpoint_sessions", rows.checkpoint_sessions ?? []),
    prompts: tableFromRows("prompts", rows.prompts ?? []),
    unit_files: tableFromRows("unit_files", rows.unit_files ?? []),
    group_units: tableFromRows("group_units", rows.group_units ?? []),
    line_ranges: tableFromRows("line_ranges", rows.line_ranges ?? []),
  };
}
