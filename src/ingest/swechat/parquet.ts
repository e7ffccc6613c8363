/**
 * Column-projected, row-range reads of one Parquet file with hyparquet.
 * Values come back column by column (no row objects), and only the pages
 * that hold the requested rows are decompressed. A range may cross row
 * groups; it is read group by group and concatenated.
 */
import { type FileHandle, open } from "node:fs/promises";
import {
  type AsyncBuffer,
  type FileMetaData,
  type OffsetIndex,
  parquetMetadataAsync,
  parquetSchema,
  parquetScan,
} from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";

type PageLocation = OffsetIndex["page_locations"][number];
import { compressors } from "hyparquet-compressors";

export interface ParquetPart {
  file: string;
  metadata: FileMetaData;
  buffer: AsyncBuffer;
  /** Top-level column names. */
  columns: Set<string>;
  /** Row groups: first row (within the file) and row count. */
  rowGroups: { start: number; rows: number }[];
  rows: number;
  close(): Promise<void>;
}

export type Columns = Record<string, ArrayLike<unknown>>;

/** Timestamps as epoch milliseconds, not Date objects (a million Dates per row group cost memory and time for nothing). */
const PARSERS = {
  timestampFromMilliseconds: (ms: bigint) => Number(ms),
  timestampFromMicroseconds: (us: bigint) => Number(us / 1000n),
  timestampFromNanoseconds: (ns: bigint) => Number(ns / 1000000n),
};

/** One read per slice through an open file handle (hyparquet's own file buffer streams in 64 KB chunks). */
async function fileBuffer(file: string): Promise<{ buffer: AsyncBuffer; handle: FileHandle }> {
  const handle = await open(file, "r");
  const { size } = await handle.stat();
  return {
    handle,
    buffer: {
      byteLength: size,
      async slice(start: number, end?: number): Promise<ArrayBuffer> {
        const stop = end === undefined ? size : Math.min(end, size);
        const length = Math.max(0, stop - start);
        const bytes = new Uint8Array(new ArrayBuffer(length));
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(bytes, done, length - done, start + done);
          if (bytesRead === 0) break;
          done += bytesRead;
        }
        return bytes.buffer;
      },
    },
  };
}

export async function openParquet(file: string): Promise<ParquetPart> {
  const { buffer, handle } = await fileBuffer(file);
  try {
    const metadata = await parquetMetadataAsync(buffer);
    const columns = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
    const rowGroups: { start: number; rows: number }[] = [];
    let start = 0;
    for (const rg of metadata.row_groups) {
      const rows = Number(rg.num_rows);
      rowGroups.push({ start, rows });
      start += rows;
    }
    return { file, metadata, buffer, columns, rowGroups, rows: start, close: () => handle.close() };
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** Page locations per row group and column (an offset index), for `readColumns` to fetch only the pages of a range. */
export type PageIndex = Record<string, PageLocation[]>[];

/**
 * Reads `columns` for rows [rowStart, rowEnd) of the file. Columns the file
 * lacks come back as arrays of nulls (older releases lack some columns).
 */
export async function readColumns(
  part: ParquetPart,
  columns: readonly string[],
  rowStart: number,
  rowEnd: number,
  pages?: PageIndex,
): Promise<Columns> {
  const present = columns.filter((c) => part.columns.has(c));
  const out: Columns = {};
  const n = Math.max(0, rowEnd - rowStart);
  for (const c of columns) if (!part.columns.has(c)) out[c] = new Array<null>(n).fill(null);
  if (n === 0 || present.length === 0) {
    for (const c of present) out[c] = [];
    return out;
  }
  // `pageLocationsByGroup` is how hyparquet's planner takes page locations it did not read from the file itself.
  const scanOptions = {
    file: part.buffer,
    metadata: part.metadata,
    columns: present,
    compressors,
    geoparquet: false,
    parsers: PARSERS,
    pageLocationsByGroup: pages,
  };
  const scan = await parquetScan(scanOptions as Parameters<typeof parquetScan>[0]);
  const pieces: Record<string, ArrayLike<unknown>[]> = {};
  for (const c of present) pieces[c] = [];
  for (const rg of part.rowGroups) {
    const a = Math.max(rowStart, rg.start);
    const b = Math.min(rowEnd, rg.start + rg.rows);
    if (a >= b) continue;
    const arrays = await Promise.all(present.map((c) => scan.readColumn({ column: c, rowStart: a, rowEnd: b })));
    present.forEach((c, i) => pieces[c].push(arrays[i] as ArrayLike<unknown>));
  }
  for (const c of present) out[c] = pieces[c].length === 1 ? pieces[c][0] : concat(pieces[c]);
  return out;
}

/**
 * The page locations of one column chunk, from its page headers (read one
 * by one: a few hundred small reads), for files written without an offset
 * index (pyarrow's default): with them a row range costs only its own pages.
 */
export async function pageLocations(part: ParquetPart, group: number, column: string): Promise<PageLocation[] | null> {
  const chunk = part.metadata.row_groups[group].columns.find(
    (c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === column,
  )?.meta_data;
  if (!chunk) return null;
  const start = Number(chunk.dictionary_page_offset ?? chunk.data_page_offset);
  const end = start + Number(chunk.total_compressed_size);
  const out: PageLocation[] = [];
  let offset = start;
  let rows = 0;
  let probe = 1024;
  while (offset < end) {
    const bytes = await part.buffer.slice(offset, Math.min(end, offset + probe));
    const reader = { view: new DataView(bytes), offset: 0 };
    let header;
    try {
      header = parquetHeader(reader);
    } catch {
      if (probe >= 16 * 1024 * 1024 || offset + probe >= end) return null; // not a header we can read: let hyparquet read whole chunks
      probe *= 4; // a header with long statistics
      continue;
    }
    const size = reader.offset + header.compressed_page_size;
    if (header.type === "DATA_PAGE" || header.type === "DATA_PAGE_V2") {
      out.push({ offset: BigInt(offset), compressed_page_size: size, first_row_index: BigInt(rows) });
      rows += header.data_page_header_v2?.num_rows ?? header.data_page_header?.num_values ?? 0;
    }
    offset += size;
  }
  return out;
}

function concat(parts: ArrayLike<unknown>[]): unknown[] {
  const out: unknown[] = [];
  for (const p of parts) for (let i = 0; i < p.length; i++) out.push(p[i]);
  return out;
}

/** Column chunks at least this big (compressed) are read by row range; smaller ones whole, once per row group. */
export const RANGE_READ_BYTES = 8 * 1024 * 1024;

/**
 * Reads row ranges of one row group. A column chunk is a few pages when its
 * values are small or dictionary-encoded: reading it by range would decode
 * those pages again for every range, so such a chunk is decoded once and
 * sliced. Large text chunks (content, tool inputs) have many pages and are
 * read by range, fetching and decompressing only the pages of the range
 * (from the file's offset index, else from page locations found by reading
 * the page headers once): at most one range of them is in memory.
 */
export function rowGroupReader(
  part: ParquetPart,
  group: number,
  columns: readonly string[],
  rangeReadBytes = RANGE_READ_BYTES,
): (rowStart: number, rowEnd: number) => Promise<Columns> {
  const rg = part.rowGroups[group];
  const sizes = new Map<string, number>();
  const indexed = new Set<string>();
  for (const chunk of part.metadata.row_groups[group].columns) {
    const name = chunk.meta_data?.path_in_schema[0];
    if (name === undefined) continue;
    sizes.set(name, (sizes.get(name) ?? 0) + Number(chunk.meta_data?.total_compressed_size ?? 0));
    if (chunk.offset_index_offset !== undefined) indexed.add(name);
  }
  const ranged = columns.filter((c) => (sizes.get(c) ?? 0) >= rangeReadBytes);
  const whole = columns.filter((c) => !ranged.includes(c));
  let wholeData: Promise<Columns> | null = null;
  let pages: Promise<PageIndex> | null = null;
  // Column by column: one read of several columns coalesces their byte ranges, and would fetch the large chunks lying between them too.
  const readWhole = async (): Promise<Columns> => {
    const out: Columns = {};
    for (const c of whole) Object.assign(out, await readColumns(part, [c], rg.start, rg.start + rg.rows));
    return out;
  };
  const readPages = async (): Promise<PageIndex> => {
    const forGroup: Record<string, PageLocation[]> = {};
    for (const c of ranged) {
      if (indexed.has(c)) continue;
      const found = await pageLocations(part, group, c);
      if (found) forGroup[c] = found;
    }
    const index: PageIndex = part.metadata.row_groups.map(() => ({}));
    index[group] = forGroup;
    return index;
  };
  return async (rowStart, rowEnd) => {
    wholeData ??= readWhole();
    pages ??= readPages();
    const index = await pages;
    const out: Columns = {};
    for (const c of ranged) Object.assign(out, await readColumns(part, [c], rowStart, rowEnd, index));
    const all = await wholeData;
    for (const c of whole) out[c] = Array.prototype.slice.call(all[c], rowStart - rg.start, rowEnd - rg.start);
    return out;
  };
}

/** Every row of a (small) table as objects, group by group, with their position in the table. */
export async function* readRows(
  parts: readonly ParquetPart[],
  columns: readonly string[],
): AsyncGenerator<{ row: Record<string, unknown>; position: number }> {
  let offset = 0;
  for (const part of parts) {
    for (const rg of part.rowGroups) {
      const cols = await readColumns(part, columns, rg.start, rg.start + rg.rows);
      for (let i = 0; i < rg.rows; i++) {
        const row: Record<string, unknown> = {};
        for (const c of columns) row[c] = cols[c][i];
        yield { row, position: offset + rg.start + i };
      }
    }
    offset += part.rows;
  }
}
