/**
 * The Entire path's one worker module: session jobs and group jobs (metrics.md §1b) go through one pool, so the
 * workers start once and the first group jobs take the threads the last session jobs leave free, instead of a
 * second pool started, and waited for, after the first has drained.
 */
import type { GitRepository } from "../ingest/git/repo";
import { type EntireGroupJob, type EntireGroupResult, runEntireGroupJob } from "./entire-group-job";
import { type EntireSessionJob, type EntireSessionResult, runEntireSessionJob } from "./entire-session-job";

export type EntireJob = { kind: "session"; job: EntireSessionJob } | { kind: "group"; job: EntireGroupJob };
export type EntireJobResult =
  | { kind: "session"; result: EntireSessionResult }
  | { kind: "group"; result: EntireGroupResult };

export async function runEntireJob(job: EntireJob, given?: GitRepository): Promise<EntireJobResult> {
  return job.kind === "session"
    ? { kind: "session", result: await runEntireSessionJob(job.job, given) }
    : { kind: "group", result: await runEntireGroupJob(job.job, given) };
}

/** What a worker thread runs (parallel.ts): the repository is the worker's own, opened by each job kind. */
export const runJob = (job: EntireJob) => runEntireJob(job);
