/**
 * Writes the SWE-bench tables as `<table>.csv` and `<table>.json` (an array
 * of row objects, columns in the schema's order) plus `manifest.json` with
 * the format version, the subset, and each table's row count.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Diagnostic, maskTable } from "../model";
import { csvField } from "../tables";
import type { InstanceRow, RunRow, SystemRow } from "./rows";
import { SWEBENCH_FORMAT_VERSION, SWEBENCH_TABLE_COLUMNS, type SwebenchTableName } from "./rows";
import type { Subset } from "./subsets";

export interface SwebenchTables {
  instances: readonly InstanceRow[];
  runs: readonly RunRow[];
  systems: readonly SystemRow[];
  diagnostics: readonly Diagnostic[];
}

/** The analysis tables' CSV field (RFC 4180, formula-looking text neutralised): one rule for every CSV the tool writes. */
export { csvField };

export function toCsv(name: SwebenchTableName, rows: readonly object[]): string {
  const columns = SWEBENCH_TABLE_COLUMNS[name] as readonly string[];
  const lines = [columns.join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField((row as Record<string, unknown>)[c])).join(","));
  return lines.join("\n") + "\n";
}

export function toJson(name: SwebenchTableName, rows: readonly object[]): string {
  const columns = SWEBENCH_TABLE_COLUMNS[name] as readonly string[];
  const ordered = rows.map((row) => {
    const o: Record<string, unknown> = {};
    for (const c of columns) o[c] = (row as Record<string, unknown>)[c] ?? null;
    return JSON.stringify(o);
  });
  return ordered.length === 0 ? "[]\n" : `[\n${ordered.join(",\n")}\n]\n`;
}

/** Writes the four tables and the manifest into `dir`; returns the file names written. */
export function writeSwebenchTables(
  dir: string,
  tables: SwebenchTables,
  subset: Subset,
  meta: Record<string, unknown> = {},
): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const names = Object.keys(SWEBENCH_TABLE_COLUMNS) as SwebenchTableName[];
  for (const name of names) {
    // Run files are untrusted too (system names, logs quoted in diagnostics): the one masking rule applies.
    const rows = maskTable(tables[name] as readonly object[]);
    writeFileSync(join(dir, `${name}.csv`), toCsv(name, rows));
    writeFileSync(join(dir, `${name}.json`), toJson(name, rows));
    written.push(`${name}.csv`, `${name}.json`);
  }
  const manifest = {
    swebench_format_version: SWEBENCH_FORMAT_VERSION,
    subset: {
      name: subset.name,
      label: subset.label,
      size: subset.size,
      source: subset.source,
      ids_known: subset.ids !== null,
    },
    tables: Object.fromEntries(
      names.map((n) => [n, { rows: (tables[n] as readonly object[]).length, columns: SWEBENCH_TABLE_COLUMNS[n] }]),
    ),
    ...meta,
  };
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  written.push("manifest.json");
  return written;
}
