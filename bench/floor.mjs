#!/usr/bin/env node
/**
 * The floor of the benches (bench/README.md): read every `.jsonl` file under
 * the given paths as bytes, decode each line and `JSON.parse` it, nothing
 * else. Plain JavaScript (no tsx), so the process starts as fast as Node does.
 * With `--threads N` (N ≥ 2), N worker threads take the files from one shared
 * counter, largest first. Prints `{"files","bytes","records"}` as JSON.
 *
 *   node bench/floor.mjs [--threads N] PATH...
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { TextDecoder } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

/** Records of one file: each non-empty line decoded and parsed. */
function parseFile(path, decoder) {
  const bytes = readFileSync(path);
  let records = 0;
  let pos = 0;
  const n = bytes.length;
  while (pos < n) {
    let end = bytes.indexOf(10, pos);
    if (end === -1) end = n;
    if (end > pos) {
      try {
        JSON.parse(decoder.decode(bytes.subarray(pos, end)));
        records++;
      } catch {
        // a damaged line (the Entire bench plants a NUL-filled transcript): the product reports it, the floor skips it
      }
    }
    pos = end + 1;
  }
  return records;
}

/** Takes files from the shared counter until none is left. */
function drain(files, counter) {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let records = 0;
  for (let i = Atomics.add(counter, 0, 1); i < files.length; i = Atomics.add(counter, 0, 1))
    records += parseFile(files[i], decoder);
  return records;
}

function jsonlFiles(path, out) {
  if (!statSync(path).isDirectory()) {
    out.push(path);
    return out;
  }
  for (const e of readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(path, e.name);
    if (e.isDirectory()) jsonlFiles(p, out);
    else if (e.name.endsWith(".jsonl")) out.push(p);
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const t = args.indexOf("--threads");
  const threads = t >= 0 ? Number(args.splice(t, 2)[1]) : 1;
  const sized = args.flatMap((p) => jsonlFiles(p, [])).map((f) => ({ f, size: statSync(f).size }));
  sized.sort((a, b) => b.size - a.size);
  const files = sized.map((x) => x.f);
  const bytes = sized.reduce((n, x) => n + x.size, 0);
  const counter = new Int32Array(new SharedArrayBuffer(4));
  let records = 0;
  if (threads <= 1) records = drain(files, counter);
  else {
    const workers = Array.from(
      { length: threads },
      () => new Worker(new URL(import.meta.url), { workerData: { files, counter } }),
    );
    const counts = await Promise.all(
      workers.map((w) => new Promise((res, rej) => (w.once("message", res), w.once("error", rej)))),
    );
    records = counts.reduce((a, b) => a + b, 0);
  }
  process.stdout.write(`${JSON.stringify({ files: files.length, bytes, records })}\n`);
}

if (isMainThread) await main();
else parentPort.postMessage(drain(workerData.files, workerData.counter));
