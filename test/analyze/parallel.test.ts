import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { mapInWorkers } from "../../src/analyze/parallel";
import type { PoolJob } from "../helpers/pool-job";

const JOB = fileURLToPath(new URL("../helpers/pool-job.ts", import.meta.url));
type Out = { n: number; square: number; thread: number };

/** Even jobs are slow, so on two threads results come back out of order and must be put back in order. */
const jobs = (count: number): PoolJob[] =>
  Array.from({ length: count }, (_, n) => ({ n, spinMs: n % 2 === 0 ? 15 : 0 }));

test("results come back in job order on 2 worker threads, the same as inline, and both threads work", {
  timeout: 30_000,
}, async () => {
  const inline = await mapInWorkers<PoolJob, Out>(jobs(40), JOB, { threads: 1 });
  const order: number[] = [];
  // Jobs held back until both workers are up: otherwise the first one up could finish all 40 alone.
  let release = (): void => {};
  const ready = new Promise<void>((r) => (release = r));
  async function* held(): AsyncGenerator<PoolJob> {
    await ready;
    yield* jobs(40);
  }
  const pooled = await mapInWorkers<PoolJob, Out>(held(), JOB, {
    threads: 2,
    maxInFlight: 6,
    collect: true,
    onReady: () => release(),
    onResult: (_r, i) => void order.push(i),
  });
  assert.deepEqual(
    order,
    Array.from({ length: 40 }, (_, i) => i),
  );
  assert.deepEqual(
    pooled.map((r) => r.square),
    inline.map((r) => r.square),
  );
  assert.deepEqual(
    inline.map((r) => r.n),
    Array.from({ length: 40 }, (_, i) => i),
  );
  assert.equal(new Set(pooled.map((r) => r.thread)).size, 2, "both workers ran jobs");
  assert.ok(!pooled.some((r) => r.thread === 0), "no job ran on the main thread");
});

test("onReady is called once, when every worker is up; jobs held back until then all run", {
  timeout: 30_000,
}, async () => {
  for (const threads of [1, 2, 3]) {
    let calls = 0;
    let release = (): void => {};
    const ready = new Promise<void>((r) => (release = r));
    async function* held(): AsyncGenerator<PoolJob> {
      await ready;
      yield* jobs(9);
    }
    const out = await mapInWorkers<PoolJob, Out>(held(), JOB, {
      threads,
      onReady: () => {
        calls++;
        release();
      },
    });
    assert.equal(calls, 1, `threads ${threads}`);
    assert.deepEqual(
      out.map((r) => r.n),
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
    );
  }
});

test("a job that throws rejects the whole call, naming the job", { timeout: 30_000 }, async () => {
  const list: PoolJob[] = [{ n: 0 }, { n: 1, fail: true }, { n: 2 }];
  await assert.rejects(
    mapInWorkers<PoolJob, Out>(list, JOB, { threads: 2 }),
    /job 1 failed in a worker: .*job 1 was told to fail/s,
  );
  await assert.rejects(mapInWorkers<PoolJob, Out>(list, JOB, { threads: 1 }), /job 1 was told to fail/);
});

test("slow jobs report as they finish, not held for a full batch", { timeout: 30_000 }, async () => {
  // Four jobs of 120 ms (wall clock) on 2 workers: each worker runs two, one after the other. Results of
  // short jobs travel 4 at a time, but one that has waited 50 ms is sent at once: the worker's first
  // result reaches the main thread about 120 ms before its second (held for a batch, they would arrive together).
  const at: number[] = [];
  await mapInWorkers<PoolJob, Out>(
    [0, 1, 2, 3].map((n) => ({ n, spinMs: 120 })),
    JOB,
    { threads: 2, onResult: (_r, i) => void (at[i] = performance.now()) },
  );
  const gaps = [at[2] - at[0], at[3] - at[1]];
  assert.ok(
    Math.max(...gaps) >= 60,
    `results 0 and 2 (or 1 and 3) arrived ${gaps.map((g) => g.toFixed(0)).join(" / ")} ms apart`,
  );
});

test("concurrency: a thread runs that many jobs at once while they wait, results still in job order", {
  timeout: 30_000,
}, async () => {
  // 12 jobs that wait (as a job waits for git): with concurrency 3 each thread has up to 3 waiting at once
  // (the counter in the job module is per thread), never more; with 1, one at a time. The later jobs wait
  // less, so they finish before the earlier ones and must be put back in order.
  const waiting = Array.from({ length: 12 }, (_, n) => ({ n, waitMs: 40 - 3 * n }));
  type Waited = { n: number; most: number; thread: number };
  for (const threads of [1, 2]) {
    const three = await mapInWorkers<(typeof waiting)[number], Waited>(waiting, JOB, {
      threads,
      concurrency: 3,
      exportName: "waitJob",
    });
    assert.deepEqual(
      three.map((r) => r.n),
      waiting.map((j) => j.n),
      `${threads} thread(s): job order`,
    );
    const most = Math.max(...three.map((r) => r.most));
    assert.equal(most, 3, `${threads} thread(s): 3 jobs at once at most, and 3 reached`);
  }
  // Concurrency 1, on fresh workers (the counter of the main thread already saw 3): one job at a time.
  const one = await mapInWorkers<(typeof waiting)[number], Waited>(waiting, JOB, {
    threads: 2,
    concurrency: 1,
    exportName: "waitJob",
  });
  assert.equal(Math.max(...one.map((r) => r.most)), 1);
});
