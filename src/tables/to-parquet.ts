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

/** Writes `<table>.parquet` for the four tables (SNAPPY), with the contract's columns and types; secrets masked unless kept. */
export async function writeParquetTables(
  dir: string,
  input: AnalysisRows,
  secrets: SecretsPolicy = "masked",
): Promise<string[]> {
  const rows = rowsForOutput(input, secrets);
  // hyparquet-writer is ESM-only: a dynamic import keeps this module loadable from CommonJS (notebooks).
  const { parquetWriteFile } = await import("hyparquet-writer");
  const written: string[] = [];
  for (const name of TABLE_NAMES) {
    const list = (rows[name] ?? []) as readonly Record<string, unknown>[];
    const shape = SCHEMAS[name].shape as Record<string, z.ZodType>;
    const columnData = (TABLE_COLUMNS[name] as readonly string[]).map((column) => ({
      name: column,
      type: parquetTypeOf(shape[column]),
      nullable: true,
      data: list.map((r) => (r[column] === undefined ? null : r[column])) as never,
    }));
    parquetWriteFile({
      filename: join(dir, `${name}.parquet`),
      columnData,
      kvMetadata: [{ key: "swe-chat-eval.table", value: name }],
    });
    written.push(`${name}.parquet`);
  }
  return written;
}
