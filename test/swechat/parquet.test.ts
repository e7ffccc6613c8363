import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { parquetWriteFile } from "hyparquet-writer";
import { openParquet, pageLocations, readColumns, rowGroupReader } from "../../src/ingest/swechat";

/**
 * A file like pyarrow's (no offset index) with small pages: 2 row groups of 1,000 rows, a text
 * column of ~100-byte values in ~1 KB pages (so ~100 pages per chunk) and a small int column.
 * Page locations read from the page headers must cover each chunk's rows in order, and a range
 * read through them must equal the same rows read whole.
 */
test("page locations from page headers; range reads equal whole reads", async () => {
  const dir = mkdtempSync(join(tmpdir(), "swechat-pq-"));
  try {
    const file = join(dir, "t.parquet");
    const n = 2000;
    const text = Array.from({ length: n }, (_, i) =>
      i % 7 === 0 ? null : `row ${i} ` + "abcdefghij".repeat(1 + (i % 10)),
    );
    const num = Array.from({ length: n }, (_, i) => i);
    parquetWriteFile({
      filename: file,
      rowGroupSize: 1000,
      pageSize: 1024,
      columnData: [
        { name: "content", data: text, type: "STRING", offsetIndex: false },
        { name: "n", data: num, type: "INT32", offsetIndex: false },
      ],
    });
    const part = await openParquet(file);
    assert.deepEqual(part.rowGroups, [
      { start: 0, rows: 1000 },
      { start: 1000, rows: 1000 },
    ]);
    const pages = await pageLocations(part, 1, "content");
    assert.ok(pages && pages.length > 10, `several pages (${pages?.length})`);
    assert.equal(Number(pages[0].first_row_index), 0);
    for (let i = 1; i < pages.length; i++) {
      assert.ok(pages[i].first_row_index > pages[i - 1].first_row_index);
      // Pages are contiguous: each starts where the previous one (header included) ends.
      assert.equal(Number(pages[i].offset), Number(pages[i - 1].offset) + pages[i - 1].compressed_page_size);
    }
    const whole = await readColumns(part, ["content", "n"], 1000, 2000);
    // Threshold 0: every column is read by range through the page locations.
    const read = rowGroupReader(part, 1, ["content", "n"], 0);
    const got = await read(1333, 1777);
    assert.deepEqual(Array.from(got.content), Array.from(whole.content).slice(333, 777));
    assert.deepEqual(Array.from(got.n), num.slice(1333, 1777));
    // Default threshold: these small chunks are read whole once and sliced; same values.
    const sliced = await rowGroupReader(part, 0, ["content", "n"])(10, 20);
    assert.deepEqual(Array.from(sliced.content), text.slice(10, 20));
    await part.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
