import { join } from "node:path";
import type { z } from "zod";
import {
  checkpointSessionRowSchema,
  diagnosticSchema,
  groupUnitRowSchema,
  lineRangeRowSchema,
  promptRowSchema,
  rowsForOutput,
  type SecretsPolicy,
  sessionRowSchema,
  unitFileRowSchema,
  type TableName,
  TABLE_COLUMNS,
  TABLE_NAMES,
  toolCallRowSchema,
  unitRowSchema,
} from "../model";
import type { AnalysisRows } from "./from-rows";
import { tableRows } from "./to-files";
import type { TableSpool } from "./table-spool";

const SCHEMAS: Record<TableName, z.ZodObject> = {
  units: unitRowSchema,
  sessions: sessionRowSchema,
  tool_calls: toolCallRowSchema,
  diagnostics: diagnosticSchema,
  checkpoint_sessions: checkpointSessionRowSchema,
  prompts: promptRowSchema,
  unit_files: unitFileRowSchema,
  group_units: groupUnitRowSchema,
  line_ranges: lineRangeRowSchema,
};

type ParquetType = "STRING" | "DOUBLE" | "BOOLEAN";

/** The Parquet type of a row-schema field: numbers are DOUBLE (exact for integers below 2^53). */
export function parquetTypeOf(field: z.ZodType): ParquetType {
  let def = (field as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  while ((def.type === "nullable" || def.type === "optional" || def.type === "default") && def.innerType) {
    def = (def.innerType as unknown as { _zod: { def: typeof def } })._zod.def;
  }
  if (def.type === "number") return "DOUBLE";
  if (def.type === "boolean") return "BOOLEAN";
  return "STRING";
}

/** Row groups as hyparquet-writer cuts them by default: 1 000 rows, then 100 000 at a time. */
const ROW_GROUP_SIZES = [1000, 100_000];

/**
 * Writes `<table>.parquet` for every table (SNAPPY), with the contract's columns and types; secrets masked
 * unless kept. Rows are written a row group at a time (with a spool, read from it as they go), so memory holds
 * one row group's columns, not the table.
 */
export async function writeParquetTables(
  dir: string,
  input: AnalysisRows,
  secrets: SecretsPolicy = "masked",
  spool?: TableSpool,
): Promise<string[]> {
  const rows = rowsForOutput(input, secrets);
  // hyparquet-writer is ESM-only: a dynamic import keeps this module loadable from CommonJS (notebooks).
  const { fileWriter, ParquetWriter, schemaFromColumnData } = await import("hyparquet-writer");
  const written: string[] = [];
  for (const name of TABLE_NAMES) {
    const shape = SCHEMAS[name].shape as Record<string, z.ZodType>;
    const columns = TABLE_COLUMNS[name] as readonly string[];
    const columnsOf = (group: readonly Record<string, unknown>[]) =>
      columns.map((column) => ({
        name: column,
        type: parquetTypeOf(shape[column]),
        nullable: true,
        data: group.map((r) => (r[column] === undefined ? null : r[column])) as never,
      }));
    const writer = new ParquetWriter({
      writer: fileWriter(join(dir, `${name}.parquet`)),
      schema: schemaFromColumnData({ columnData: columnsOf([]) }),
      kvMetadata: [{ key: "swe-chat-eval.table", value: name }],
    });
    let group: Record<string, unknown>[] = [];
    let groups = 0;
    const flush = () => {
      writer.write({ columnData: columnsOf(group), rowGroupSize: group.length });
      group = [];
      groups++;
    };
    for (const row of tableRows(name, rows, spool)) {
      group.push(row as Record<string, unknown>);
      if (group.length === ROW_GROUP_SIZES[Math.min(groups, ROW_GROUP_SIZES.length - 1)]) flush();
    }
    if (group.length > 0) flush();
    writer.finish();
    written.push(`${name}.parquet`);
  }
  return written;
}
