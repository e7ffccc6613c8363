import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  isSpooledTable,
  rowsForOutput,
  type SecretsPolicy,
  TABLE_COLUMNS,
  TABLE_NAMES,
  type TableName,
  TABLES_FORMAT_VERSION,
} from "../model";
import type { AnalysisRows } from "./from-rows";
import type { TableSpool } from "./table-spool";

/** The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection"). */
const FORMULA_START = new Set(["=", "+", "-", "@", "\t", "\r"]);

/**
 * RFC 4180 field: quoted when it holds a comma, quote, CR or LF; null is
 * empty. A text cell that starts like a formula (`=`, `+`, `-`, `@`, tab,
 * CR) gets a leading `'` and is quoted, as OWASP recommends against CSV
 * injection: opened in a spreadsheet it shows as text, never runs
 * (docs/security-notes.md). Numbers are written as numbers (`-3` stays `-3`).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  const text = String(value);
  if (text.length > 0 && FORMULA_START.has(text[0])) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes the chunks to `path`; rejects (never an unhandled 'error' event) when the file cannot be opened or written. */
async function writeStream(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path, { encoding: "utf8" });
  let failure: Error | null = null;
  const failed = new Promise<never>((_, reject) => out.once("error", (err) => reject((failure = err))));
  failed.catch(() => {});
  for (const chunk of chunks) {
    if (failure) break;
    if (!out.write(chunk))
      await Promise.race([new Promise<void>((resolve) => out.once("drain", () => resolve())), failed]);
  }
  if (failure) throw failure;
  await Promise.race([
    new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve()))),
    failed,
  ]);
}

function* csvLines(name: TableName, rows: Iterable<object>, counted: { rows: number }): Iterable<string> {
  const columns = TABLE_COLUMNS[name] as readonly string[];
  yield columns.join(",") + "\n";
  for (const row of rows) {
    counted.rows++;
    const r = row as Record<string, unknown>;
    yield columns.map((c) => csvField(r[c])).join(",") + "\n";
  }
}

function* jsonLines(name: TableName, rows: Iterable<object>): Iterable<string> {
  const columns = TABLE_COLUMNS[name] as readonly string[];
  yield "[";
  let first = true;
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    const ordered: Record<string, unknown> = {};
    for (const c of columns) ordered[c] = r[c] ?? null;
    yield (first ? "\n" : ",\n") + JSON.stringify(ordered);
    first = false;
  }
  yield first ? "]\n" : "\n]\n";
}

export interface TablesWritten {
  files: string[];
  /** Rows written per table. */
  rows: Record<TableName, number>;
}

/**
 * A table's rows as they are written: those in `spool` (already masked there, unless kept), in place order,
 * then those in memory.
 */
export function* tableRows(name: TableName, rows: AnalysisRows, spool?: TableSpool): Iterable<object> {
  if (spool && isSpooledTable(name)) yield* spool.rows(name);
  yield* (rows[name] ?? []) as readonly object[];
}

/**
 * Writes `<table>.csv` and `<table>.json` (an array of row objects) for every
 * table, plus `manifest.json` (which says whether secrets were masked). With
 * a spool, the spooled tables' rows are read from it, one batch at a time.
 */
export async function writeTables(
  dir: string,
  input: AnalysisRows,
  meta: Record<string, unknown> = {},
  secrets: SecretsPolicy = "masked",
  spool?: TableSpool,
): Promise<TablesWritten> {
  const rows = rowsForOutput(input, secrets);
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const counts = new Map<TableName, number>();
  for (const name of TABLE_NAMES) {
    const counted = { rows: 0 };
    await writeStream(join(dir, `${name}.csv`), csvLines(name, tableRows(name, rows, spool), counted));
    await writeStream(join(dir, `${name}.json`), jsonLines(name, tableRows(name, rows, spool)));
    counts.set(name, counted.rows);
    written.push(`${name}.csv`, `${name}.json`);
  }
  const manifest = {
    tables_format_version: TABLES_FORMAT_VERSION,
    tables: Object.fromEntries(TABLE_NAMES.map((n) => [n, { rows: counts.get(n), columns: TABLE_COLUMNS[n] }])),
    secrets,
    ...meta,
  };
  await writeStream(join(dir, "manifest.json"), [JSON.stringify(manifest, null, 2) + "\n"]);
  written.push("manifest.json");
  return { files: written, rows: Object.fromEntries(counts) as Record<TableName, number> };
}
