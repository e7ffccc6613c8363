/**
 * The floor of the SWE-chat bench: a bare Parquet scan of one row group of
 * the conversations table, with the columns the analysis reads, decoded and
 * dropped (no row objects, no analysis). Worker module for ./run.ts.
 */
import { openParquet, type ParquetPart, readColumns } from "../../src/ingest/swechat/parquet";
import { CONVERSATION_COLUMNS } from "../../src/ingest/swechat/schema";

export interface ScanJob {
  file: string;
  rowStart: number;
  rowEnd: number;
}

const parts = new Map<string, Promise<ParquetPart>>();

export async function runJob(job: ScanJob): Promise<{ rows: number; chars: number }> {
  let part = parts.get(job.file);
  if (!part) parts.set(job.file, (part = openParquet(job.file)));
  const cols = await readColumns(await part, CONVERSATION_COLUMNS, job.rowStart, job.rowEnd);
  // Touch every value so nothing is optimised away.
  let chars = 0;
  for (const c of CONVERSATION_COLUMNS) {
    const values = cols[c];
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === "string") chars += v.length;
    }
  }
  return { rows: job.rowEnd - job.rowStart, chars };
}
