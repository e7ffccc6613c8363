/** A job module for the worker-pool tests (test/analyze/parallel.test.ts). */
import { threadId } from "node:worker_threads";

export interface PoolJob {
  n: number;
  /** Busy-wait this long, so that jobs finish out of order. */
  spinMs?: number;
  fail?: boolean;
}

export function runJob(job: PoolJob): { n: number; square: number; thread: number } {
  if (job.fail) throw new Error(`job ${job.n} was told to fail`);
  const until = performance.now() + (job.spinMs ?? 0);
  while (performance.now() < until) {
    // spin
  }
  return { n: job.n, square: job.n * job.n, thread: threadId };
}

/** Jobs of this thread running now, and the most seen at once (for the `concurrency` tests). */
let running = 0;
let most = 0;

/** Waits `waitMs` (a timer, as a job waits for git), reporting how many of this thread's jobs ran at once. */
export async function waitJob(job: PoolJob & { waitMs: number }): Promise<{ n: number; most: number; thread: number }> {
  running++;
  most = Math.max(most, running);
  await new Promise((r) => setTimeout(r, job.waitMs));
  running--;
  return { n: job.n, most, thread: threadId };
}
