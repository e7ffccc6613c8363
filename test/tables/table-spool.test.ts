/**
 * The spool on disk (src/tables/table-spool.ts): batches come back in place order whatever order they were put
 * in, a later batch for a place replaces the earlier one (a resumed session's job run again), an empty batch
 * removes it, a batch moves to a later place, shards cut rows as they are read, secrets are masked as the rows go
 * in, and the file leaves no trace in the output folder.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { type PromptRow, spillRows, type SpooledRows, type ToolCallRow } from "../../src/model";
import { TableSpool } from "../../src/tables";

const call = (session_id: string, file: string): ToolCallRow => ({ session_id, file }) as unknown as ToolCallRow;
const prompt = (session_id: string, text: string): PromptRow => ({ session_id, text }) as unknown as PromptRow;
const files = (spool: TableSpool) => [...spool.rows("tool_calls")].map((r) => `${r.session_id}:${r.file}`);

test("batches come back in place order; a later batch replaces its place, an empty one removes it", () => {
  const dir = join(mkdtempSync(join(tmpdir(), "sce-spool-")), "out");
  const spool = new TableSpool(dir, "kept");
  // Nothing is created before the first batch (a usage error leaves no folder behind).
  assert.equal(existsSync(dir), false);
  const first = spool.reserve(3);
  assert.equal(spool.reserve(1), first + 3, "places are reserved after every earlier one");
  spool.put(first + 2, { tool_calls: [call("c", "c.txt")] });
  spool.put(first, { tool_calls: [call("a", "a1.txt"), call("a", "a2.txt")] });
  spool.put(first + 1, { tool_calls: [call("b", "b.txt")], prompts: [prompt("b", "hello")] });
  spool.put(first + 3, { tool_calls: [call("d", "d.txt")] });
  assert.deepEqual(files(spool), ["a:a1.txt", "a:a2.txt", "b:b.txt", "c:c.txt", "d:d.txt"]);
  // Session a's job ran again without the calls an earlier file holds: its place now holds one call.
  spool.put(first, { tool_calls: [call("a", "a2.txt")] });
  // Session c's rerun has no calls left: its place is empty.
  spool.put(first + 2, { tool_calls: [] });
  assert.deepEqual(files(spool), ["a:a2.txt", "b:b.txt", "d:d.txt"]);
  assert.equal(spool.written("tool_calls"), 3);
  assert.deepEqual([...spool.rows("prompts")], [prompt("b", "hello")]);
  // A batch put before its place was known (a lone group's line runs) moves to the place reserved for it.
  const early = spool.reserve(1);
  spool.put(early, { tool_calls: [call("e", "e.txt")] });
  spool.put(spool.reserve(1), { tool_calls: [call("f", "f.txt")] });
  assert.deepEqual(files(spool).slice(-2), ["e:e.txt", "f:f.txt"]);
  spool.move(early, spool.reserve(1));
  spool.move(early, spool.reserve(1)); // nothing left at `early`: no-op
  assert.deepEqual(files(spool), ["a:a2.txt", "b:b.txt", "d:d.txt", "f:f.txt", "e:e.txt"]);
  spool.put(first + 3, { tool_calls: [call("d", "d2.txt")] });
  assert.deepEqual(files(spool), ["a:a2.txt", "b:b.txt", "d:d2.txt", "f:f.txt", "e:e.txt"]);
  spool.keepSessions((id) => id !== "b");
  assert.deepEqual(
    files(spool),
    ["a:a2.txt", "d:d2.txt", "f:f.txt", "e:e.txt"],
    "a shard's cut applies as rows are read",
  );
  assert.equal(readdirSync(dir).length, 1);
  spool.close();
  assert.deepEqual(readdirSync(dir), [], "close removes the spool file");
});

test("spillRows moves the rows in their order and empties the arrays it took them from; secrets are masked going in", () => {
  const spool = new TableSpool(mkdtempSync(join(tmpdir(), "sce-spool-")), "masked");
  const token = `ghp_${"A1b2C3d4".repeat(5)}`;
  const rows: SpooledRows = { tool_calls: [call("s", `${token}/notes.md`)], prompts: [] };
  const held = rows.tool_calls!;
  spillRows(rows, spool);
  assert.equal(held.length, 0, "the caller's array is emptied, not replaced");
  rows.tool_calls!.push(call("s", "second.txt"));
  spillRows(rows, spool);
  spillRows(rows, spool); // nothing left: no place is used
  assert.deepEqual(files(spool), ["s:ghp_[masked]/notes.md", "s:second.txt"]);
  assert.equal(spool.reserve(1), 2, "two places were used, one per spill that moved rows");
  spool.close();
});
