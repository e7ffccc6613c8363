/**
 * The Entire path's one worker module: session jobs and group jobs (metrics.md §1b) go through one pool, so the
 * workers start once and the first group jobs take the threads the last session jobs leave free, instead of a
 * second pool started, and waited for, after the first has drained.
 */
import type { GitRepository } from "../ingest/git/repo";
import { type EntireGroupJob, type EntireGroupResult, runEntireGroupJob } from "./entire-group-job";
import { type EntireSessionJob, type EntireSessionResult, runEntireSessionJob } from "./entire-session-job";

/** A session job carries its group's job when the session is alone in its group (the common case). */
export type EntireJob =
  | { kind: "session"; job: EntireSessionJob; group?: EntireGroupJob }
  | { kind: "group"; job: EntireGroupJob };
export type EntireJobResult =
  | { kind: "session"; result: EntireSessionResult; group?: EntireGroupResult }
  | { kind: "group"; result: EntireGroupResult };

export async function runEntireJob(job: EntireJob, given?: GitRepository): Promise<EntireJobResult> {
  if (job.kind === "group") return { kind: "group", result: await runEntireGroupJob(job.job, given) };
  const lone = job.group;
  if (lone === undefined) return { kind: "session", result: await runEntireSessionJob(job.job, given) };
  // The group's work reads the copies the session job has parsed, instead of reading them from git again.
  let group: EntireGroupResult | undefined;
  const result = await runEntireSessionJob(job.job, given, async (read, repo) => {
    group = await runEntireGroupJob(lone, repo, read);
  });
  // A session job that failed did not get that far: the group is worked out on its own, as for any other.
  return { kind: "session", result, group: group ?? (await runEntireGroupJob(lone, given)) };
}

/** What a worker thread runs (parallel.ts): the repository is the worker's own, opened by each job kind. */
export const runJob = (job: EntireJob) => runEntireJob(job);
