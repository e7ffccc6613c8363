/**
 * Rows that leave memory as the work delivers them. The tables that grow with a corpus's calls and lines
 * (tool calls, prompts, per-file counts, line runs) are handed to a spool in batches, each at a place in the
 * tables' final order, so a run's memory does not grow with them; the tables are then written from the spool
 * (src/tables/table-spool.ts). Units, sessions and group units stay in memory: the headline is worked out from
 * them, and they grow with sessions, not with calls.
 */
import type { AnalysisRows, TableName } from "./rows";

export const SPOOLED_TABLES = [
  "tool_calls",
  "prompts",
  "unit_files",
  "line_ranges",
] as const satisfies readonly TableName[];
export type SpooledTable = (typeof SPOOLED_TABLES)[number];
export type SpooledRows = { [T in SpooledTable]?: NonNullable<AnalysisRows[T]> };

export interface RowSpool {
  /** `count` consecutive places, after every place reserved before; returns the first. */
  reserve(count: number): number;
  /** The rows of one place (copied out at once: the caller may reuse the arrays). A later batch for the same place replaces the earlier one. */
  put(place: number, rows: SpooledRows): void;
  /** The batches at place `from` are now at place `to` (nothing happens when `from` holds none): rows spooled before their place in the tables was known. */
  move(from: number, to: number): void;
  /** From now on only the rows of sessions `keep` accepts are read back (`--shard`): rows are cut as they are written. */
  keepSessions(keep: (sessionId: string | null) => boolean): void;
}

export function isSpooledTable(name: TableName): name is SpooledTable {
  return (SPOOLED_TABLES as readonly TableName[]).includes(name);
}

/**
 * Moves the spooled tables' rows of `rows` into the spool's next place (emptied where they were). Everything
 * spilled earlier comes before them in the tables, so spilling at points where `rows` is in its final order keeps
 * the tables as they would be in memory. Without a spool, nothing moves.
 */
export function spillRows(rows: SpooledRows, spool: RowSpool | undefined): void {
  if (spool === undefined) return;
  if (SPOOLED_TABLES.every((name) => (rows[name]?.length ?? 0) === 0)) return;
  spillRowsAt(rows, spool, spool.reserve(1));
}

/** Moves the spooled tables' rows of `rows` to `place` (replacing what it held), emptied where they were. */
export function spillRowsAt(rows: SpooledRows, spool: RowSpool, place: number): void {
  spool.put(place, rows);
  for (const name of SPOOLED_TABLES) rows[name]?.splice(0);
}
