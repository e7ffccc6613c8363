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
