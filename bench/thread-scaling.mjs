// How far does this machine scale code that is already compiled, from 1 to 2 worker threads?
// `node bench/thread-scaling.mjs int|alloc|json`: the same total work (an integer loop, small-object
// allocation, or JSON.parse of a 200-record document) split over 1 and then 2 workers, best of 5 runs each,
// interleaved. Plain JavaScript on purpose: no tsx, no project code, nothing to compile beyond the loop.
import { Worker, isMainThread, workerData, parentPort } from "node:worker_threads";
if (!isMainThread) {
  const { kind, n } = workerData;
  let acc = 0;
  const t0 = performance.now();
  if (kind === "int") {
    for (let i = 0; i < n * 4e7; i++) acc = (acc * 31 + i) | 0;
  } else if (kind === "alloc") {
    for (let i = 0; i < n * 4e7; i++) {
      const o = { a: i, b: [i, i + 1], c: "x" + (i & 1023) };
      acc += o.b.length;
    }
  } else if (kind === "json") {
    const s = JSON.stringify(
      Array.from({ length: 200 }, (_, i) => ({
        id: i,
        text: "line ".repeat(20) + i,
        nested: { a: [1, 2, 3], b: true },
      })),
    );
    for (let i = 0; i < n * 1500; i++) acc += JSON.parse(s).length;
  }
  parentPort.postMessage({ acc, ms: performance.now() - t0 });
} else {
  const kind = process.argv[2];
  const run = (threads) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      let done = 0;
      for (let t = 0; t < threads; t++) {
        const w = new Worker(new URL(import.meta.url), { workerData: { kind, n: 4 / threads } });
        w.on("message", () => {
          if (++done === threads) resolve(performance.now() - t0);
        });
      }
    });
  let one = Infinity,
    two = Infinity;
  for (let k = 0; k < 5; k++) {
    one = Math.min(one, await run(1));
    two = Math.min(two, await run(2));
  }
  console.log(`${kind}: one ${one.toFixed(0)} ms, two ${two.toFixed(0)} ms, speed-up ${(one / two).toFixed(2)}x`);
}
