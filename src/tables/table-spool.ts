/**
 * The spool of src/model/row-spool.ts on disk: each batch of rows is written at once to one temporary file in
 * the output folder as JSON (masked first, unless secrets are kept), and only its place, offset and length stay
 * in memory. The table writers read the batches back in place order, one at a time, so writing a table holds
 * one batch, not the table.
 */
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import {
  cachedText,
  maskSecrets,
  maskTable,
  type RowSpool,
  type SecretsPolicy,
  SPOOLED_TABLES,
  type SpooledRows,
  type SpooledTable,
} from "../model";

interface Batch {
  offset: number;
  length: number;
  rows: number;
}

export class TableSpool implements RowSpool {
  readonly path: string;
  /** Opened at the first batch: a run that stops before (a usage error) leaves no folder behind. */
  private fd: number | null = null;
  private end = 0;
  private next = 0;
  private readonly batches = new Map<SpooledTable, Map<number, Batch>>(SPOOLED_TABLES.map((t) => [t, new Map()]));
  private keep: ((sessionId: string | null) => boolean) | null = null;

  /** A spool file in `dir` (created, with `dir`, at the first batch); `close` removes it. */
  constructor(
    private readonly dir: string,
    private readonly secrets: SecretsPolicy = "masked",
  ) {
    this.path = join(dir, `.spool-${process.pid}-${Date.now()}.json`);
  }

  private file(): number {
    if (this.fd === null) {
      mkdirSync(this.dir, { recursive: true });
      this.fd = openSync(this.path, "wx+");
    }
    return this.fd;
  }

  reserve(count: number): number {
    const first = this.next;
    this.next += count;
    return first;
  }

  put(place: number, rows: SpooledRows): void {
    // One masking cache per batch: repeated names and paths within a session are masked once, and nothing is kept after.
    const mask = this.secrets === "masked" ? cachedText(maskSecrets) : null;
    for (const table of SPOOLED_TABLES) {
      const list = rows[table];
      if (list === undefined || list.length === 0) {
        this.batches.get(table)!.delete(place);
        continue;
      }
      const bytes = Buffer.from(JSON.stringify(mask ? maskTable(list as object[], mask) : list));
      writeSync(this.file(), bytes, 0, bytes.length, this.end);
      this.batches.get(table)!.set(place, { offset: this.end, length: bytes.length, rows: list.length });
      this.end += bytes.length;
    }
  }

  move(from: number, to: number): void {
    for (const batches of this.batches.values()) {
      const batch = batches.get(from);
      if (batch === undefined) continue;
      batches.delete(from);
      batches.set(to, batch);
    }
  }

  keepSessions(keep: (sessionId: string | null) => boolean): void {
    this.keep = keep;
  }

  /** The table's rows, in place order, one batch in memory at a time. */
  *rows<T extends SpooledTable>(table: T): Generator<NonNullable<SpooledRows[T]>[number]> {
    const batches = [...this.batches.get(table)!].sort((a, b) => a[0] - b[0]);
    for (const [, batch] of batches) {
      const bytes = Buffer.allocUnsafe(batch.length);
      readSync(this.file(), bytes, 0, batch.length, batch.offset);
      const list = JSON.parse(bytes.toString("utf8")) as { session_id: string | null }[];
      for (const row of list) if (this.keep === null || this.keep(row.session_id)) yield row as never;
    }
  }

  /** Rows written for the table (before `keepSessions` cuts any). */
  written(table: SpooledTable): number {
    let n = 0;
    for (const batch of this.batches.get(table)!.values()) n += batch.rows;
    return n;
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    rmSync(this.path, { force: true });
  }
}
