/**
 * Shards (`analyze --shard K/N`): a deterministic share of the work, so a corpus too large for one machine runs
 * as N independent jobs whose tables, put together (`summarize`), are one run's. A session's share is decided by
 * a hash of its key: its group's id when it is in a group (metrics.md §1b: a group's sessions are attributed
 * together, so they stay together), else its id in the normalised form (without the dated prefix), so both
 * recorded forms of one session land in the same shard. Rows about no session go to shard 1.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { AnalysisRows } from "../model";

export const shardSchema = z
  .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
  .refine((s) => s.index <= s.count, { message: "K must be between 1 and N" });
export type Shard = z.infer<typeof shardSchema>;

/** `K/N` → a shard; null when the text is not of that form. */
export function parseShard(text: string): Shard | null {
  const m = /^(\d{1,6})\/(\d{1,6})$/.exec(text.trim());
  if (m === null) return null;
  const parsed = shardSchema.safeParse({ index: Number(m[1]), count: Number(m[2]) });
  return parsed.success ? parsed.data : null;
}

const DATED = /^\d{4}-\d{2}-\d{2}-/;

/** A session id without Entire's dated prefix (metrics.md §1 "Identity"). */
export const normalisedSessionId = (id: string): string => id.replace(DATED, "");

/** The 1-based shard of a key: the first 32 bits of its SHA-1, modulo N. */
export function shardOfKey(key: string, count: number): number {
  const hash = createHash("sha1").update(key).digest();
  return (hash.readUInt32BE(0) % count) + 1;
}

/** Decides membership by session id, given the session → group map (normalised ids) known so far. */
export function sessionFilter(
  shard: Shard,
  groupOf: ReadonlyMap<string, string>,
): (sessionId: string | null) => boolean {
  return (sessionId) => {
    if (sessionId === null) return shard.index === 1;
    const id = normalisedSessionId(sessionId);
    return shardOfKey(groupOf.get(id) ?? id, shard.count) === shard.index;
  };
}

/**
 * Which sessions' rows are the shard's. A session's group is taken from `known` (the whole input's groups,
 * found before the work was cut, as the Entire path does) and from `group_units` (inputs read whole).
 */
export function shardFilterOf(
  rows: AnalysisRows,
  shard: Shard,
  known: ReadonlyMap<string, string> = new Map(),
): (sessionId: string | null) => boolean {
  if (shard.count === 1) return () => true;
  const groupOf = new Map(known);
  for (const g of rows.group_units ?? []) groupOf.set(normalisedSessionId(g.session_id), g.group_id);
  return sessionFilter(shard, groupOf);
}

/** Every table's rows of the sessions `keep` accepts. */
export function keepSessions(rows: AnalysisRows, keep: (sessionId: string | null) => boolean): AnalysisRows {
  // Every table has a session_id column (TABLE_COLUMNS): one filter serves them all, tables added later too.
  const out: Record<string, unknown> = {};
  for (const [name, list] of Object.entries(rows)) {
    out[name] = Array.isArray(list)
      ? (list as { session_id: string | null }[]).filter((r) => keep(r.session_id))
      : list;
  }
  return out as unknown as AnalysisRows;
}

/** Every table's rows of the shard's sessions (see {@link shardFilterOf}). */
export function keepShard(
  rows: AnalysisRows,
  shard: Shard,
  known: ReadonlyMap<string, string> = new Map(),
): AnalysisRows {
  return shard.count === 1 ? rows : keepSessions(rows, shardFilterOf(rows, shard, known));
}
