/**
 * The streaming plan for the conversations table (never held whole).
 *
 * Pass 1 (this file) reads only `session_id`, `repo_id`, `checkpoint_pk` and
 * `agent` (cheap, dictionary-encoded columns), row group by row group, and records
 * for each session its row count and the rows' spread, and cuts the table
 * into JOBS: row ranges of about `targetRows` rows inside one row group, cut
 * where the session id changes, so a job usually holds whole sessions.
 *
 * Pass 2 reads each job's rows with all needed columns (workers may read
 * jobs in parallel). A session whose rows all lie in one job is built and
 * analysed there. A session spread over several jobs (it crosses a row
 * group boundary, or the table is not sorted by session) is SPANNING: each
 * job hands its rows back and the session is analysed once its last piece
 * has arrived. Pieces wait in a buffer; pass 1 simulates that buffer, and if
 * it would exceed `maxBufferedRows`, the most widely spread sessions are
 * DEFERRED instead: pass 3 gathers them in batches of at most
 * `maxBufferedRows` rows by re-reading only the jobs that hold them. Memory
 * is therefore bounded by one job plus the buffer, whatever the row order;
 * the price of a badly shuffled table is re-reading, not memory.
 */
import type { ParquetPart } from "./parquet";
import { readColumns } from "./parquet";
import { INDEX_COLUMNS, str } from "./schema";

export interface SessionSpan {
  rows: number;
  firstJob: number;
  lastJob: number;
  repo: string | null;
  /** The canonical checkpoint named by the rows (first non-null). */
  checkpoint: string | null;
  /** The agent label the rows carry (first non-null). */
  agent: string | null;
}

export interface ConversationJob {
  index: number;
  /** The row group (counted over all parts) the job lies in: the jobs of one row group go to one worker together. */
  group: number;
  part: number;
  /** The row group's index within its part. */
  rowGroup: number;
  rowStart: number;
  rowEnd: number;
  /** Rows per session within this job. */
  sessions: Map<string, number>;
}

export interface ConversationPlan {
  jobs: ConversationJob[];
  spans: Map<string, SessionSpan>;
  /** Sessions handled by pass 3, in batches (each a list of session ids). */
  deferredBatches: string[][];
  deferred: Set<string>;
  rows: number;
  rowsWithoutSession: number;
}

export interface PlanOptions {
  targetRows?: number;
  maxBufferedRows?: number;
}

/** Pass 1 over one row group: its jobs (ranges cut where the session id changes) and each session's first labels. Plain data, so a worker can make it. */
export interface RowGroupIndex {
  part: number;
  rowGroup: number;
  jobs: { rowStart: number; rowEnd: number; sessions: [string, number][] }[];
  /** Per session of the row group: the first non-null repository, checkpoint and agent of its rows here. */
  labels: [string, string | null, string | null, string | null][];
  rows: number;
  rowsWithoutSession: number;
}

export async function indexRowGroup(
  part: ParquetPart,
  p: number,
  g: number,
  targetRows = 65_536,
): Promise<RowGroupIndex> {
  const rg = part.rowGroups[g];
  const cols = await readColumns(part, INDEX_COLUMNS, rg.start, rg.start + rg.rows);
  const out: RowGroupIndex = { part: p, rowGroup: g, jobs: [], labels: [], rows: rg.rows, rowsWithoutSession: 0 };
  const labels = new Map<string, [string, string | null, string | null, string | null]>();
  let job: { rowStart: number; rowEnd: number; counts: Map<string, number> } | null = null;
  const close = (end: number) => {
    if (job) out.jobs.push({ rowStart: job.rowStart, rowEnd: end, sessions: [...job.counts] });
  };
  let prev: string | null = null;
  for (let i = 0; i < rg.rows; i++) {
    const id = str(cols.session_id[i]);
    const row = rg.start + i;
    if (job === null || (row - job.rowStart >= targetRows && id !== prev)) {
      close(row);
      job = { rowStart: row, rowEnd: row, counts: new Map() };
    }
    prev = id;
    if (id === null || id === "") {
      out.rowsWithoutSession++;
      continue;
    }
    job.counts.set(id, (job.counts.get(id) ?? 0) + 1);
    let l = labels.get(id);
    if (!l) labels.set(id, (l = [id, null, null, null]));
    if (l[1] === null) l[1] = str(cols.repo_id[i]);
    if (l[2] === null) l[2] = str(cols.checkpoint_pk[i]);
    if (l[3] === null) l[3] = str(cols.agent[i]);
  }
  close(rg.start + rg.rows);
  out.labels = [...labels.values()];
  return out;
}

/** The plan from every row group's index, in table order. */
export function assemblePlan(indexes: readonly RowGroupIndex[], options: PlanOptions = {}): ConversationPlan {
  const maxBuffered = options.maxBufferedRows ?? 1_000_000;
  const jobs: ConversationJob[] = [];
  const spans = new Map<string, SessionSpan>();
  let rows = 0;
  let rowsWithoutSession = 0;
  for (const [group, index] of indexes.entries()) {
    rows += index.rows;
    rowsWithoutSession += index.rowsWithoutSession;
    for (const j of index.jobs) {
      const job: ConversationJob = {
        index: jobs.length,
        group,
        part: index.part,
        rowGroup: index.rowGroup,
        rowStart: j.rowStart,
        rowEnd: j.rowEnd,
        sessions: new Map(j.sessions),
      };
      jobs.push(job);
      for (const [id, n] of j.sessions) {
        let span = spans.get(id);
        if (!span)
          spans.set(
            id,
            (span = { rows: 0, firstJob: job.index, lastJob: job.index, repo: null, checkpoint: null, agent: null }),
          );
        span.rows += n;
        span.lastJob = job.index;
      }
    }
    for (const [id, repo, checkpoint, agent] of index.labels) {
      const span = spans.get(id)!;
      span.repo ??= repo;
      span.checkpoint ??= checkpoint;
      span.agent ??= agent;
    }
  }
  const deferred = chooseDeferred(jobs, spans, maxBuffered);
  return {
    jobs,
    spans,
    deferred,
    deferredBatches: batches([...deferred].sort(), spans, maxBuffered),
    rows,
    rowsWithoutSession,
  };
}

/** Pass 1 on this thread, row group by row group. */
export async function planConversations(
  parts: readonly ParquetPart[],
  options: PlanOptions = {},
): Promise<ConversationPlan> {
  const indexes: RowGroupIndex[] = [];
  for (const [p, part] of parts.entries())
    for (const g of part.rowGroups.keys()) indexes.push(await indexRowGroup(part, p, g, options.targetRows));
  return assemblePlan(indexes, options);
}

/** Whether a session is built inside a single job. */
export const isWhole = (span: SessionSpan): boolean => span.firstJob === span.lastJob;

/**
 * Simulates the buffer of spanning sessions over the jobs in order; while
 * its peak exceeds the limit, defers the session that stays longest.
 */
function chooseDeferred(jobs: readonly ConversationJob[], spans: Map<string, SessionSpan>, limit: number): Set<string> {
  const deferred = new Set<string>();
  const spanning = [...spans.entries()]
    .filter(([, s]) => !isWhole(s))
    .sort((a, b) => b[1].lastJob - b[1].firstJob - (a[1].lastJob - a[1].firstJob) || (a[0] < b[0] ? -1 : 1));
  for (;;) {
    const peak = simulate(jobs, spans, deferred);
    if (peak <= limit) return deferred;
    const next = spanning.find(([id]) => !deferred.has(id));
    if (!next) return deferred;
    // Defer in chunks so that a shuffled table does not cost one simulation per session.
    const step = Math.max(1, Math.ceil(spanning.length / 64));
    for (const [id] of spanning.filter(([id]) => !deferred.has(id)).slice(0, step)) deferred.add(id);
  }
}

function simulate(jobs: readonly ConversationJob[], spans: Map<string, SessionSpan>, deferred: Set<string>): number {
  let buffered = 0;
  let peak = 0;
  const held = new Map<string, number>();
  for (const job of jobs) {
    for (const [id, n] of job.sessions) {
      const span = spans.get(id)!;
      if (isWhole(span) || deferred.has(id)) continue;
      held.set(id, (held.get(id) ?? 0) + n);
      buffered += n;
    }
    peak = Math.max(peak, buffered);
    for (const [id] of job.sessions) {
      const span = spans.get(id)!;
      if (span.lastJob === job.index && held.has(id)) {
        buffered -= held.get(id)!;
        held.delete(id);
      }
    }
  }
  return peak;
}

function batches(ids: readonly string[], spans: Map<string, SessionSpan>, limit: number): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  let rows = 0;
  for (const id of ids) {
    const n = spans.get(id)!.rows;
    if (cur.length > 0 && rows + n > limit) {
      out.push(cur);
      cur = [];
      rows = 0;
    }
    cur.push(id);
    rows += n;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
