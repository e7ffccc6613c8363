import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AnalysisRows, DiagnosticSink, TABLE_NAMES, type TableName } from "../model";

/** The tables of one `analyze --out` folder, as read back; `missing` names the tables the folder does not hold. */
export interface AnalysisFolder {
  rows: AnalysisRows;
  missing: TableName[];
}

/**
 * Reads the tables `analyze` wrote to `dir`: `<table>.parquet` where present (`--format parquet`), else
 * `<table>.json`. Values come back as they were written (numbers, strings, booleans, null).
 */
export async function readAnalysisFolder(dir: string): Promise<AnalysisFolder> {
  const rows: Record<string, unknown[]> = {};
  const missing: TableName[] = [];
  for (const name of TABLE_NAMES) {
    const parquet = join(dir, `${name}.parquet`);
    const json = join(dir, `${name}.json`);
    if (existsSync(parquet)) rows[name] = await readParquetRows(parquet);
    else if (existsSync(json)) rows[name] = JSON.parse(readFileSync(json, "utf8")) as unknown[];
    else {
      rows[name] = [];
      missing.push(name);
    }
  }
  return { rows: rows as unknown as AnalysisRows, missing };
}

async function readParquetRows(file: string): Promise<unknown[]> {
  const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
  const { compressors } = await import("hyparquet-compressors");
  return parquetReadObjects({ file: await asyncBufferFromFile(file), compressors });
}

/** The tables of several folders (the shards of one corpus) as one set of rows; a folder without tables is a diagnostic. */
export async function readShardTables(dirs: readonly string[]): Promise<AnalysisRows> {
  const all: Record<string, unknown[]> = Object.fromEntries(TABLE_NAMES.map((n) => [n, []]));
  const notes: AnalysisRows["diagnostics"] = [];
  for (const dir of dirs) {
    const { rows, missing } = await readAnalysisFolder(dir);
    if (missing.length === TABLE_NAMES.length) {
      const sink = new DiagnosticSink("summarize", dir);
      sink.error("tables-missing", `${dir} holds none of the tables analyze writes (units.json or units.parquet, ...)`);
      notes.push(...sink.rows);
      continue;
    }
    for (const name of TABLE_NAMES) for (const r of (rows[name] ?? []) as unknown[]) all[name].push(r);
  }
  (all.diagnostics as AnalysisRows["diagnostics"]).push(...notes);
  return all as unknown as AnalysisRows;
}
