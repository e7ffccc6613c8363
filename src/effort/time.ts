/**
 * Session time (metrics.md §5, "Time"). Both functions take the epoch
 * milliseconds of the session's timestamped records (`Session.record_times`)
 * and return seconds. Times need not be sorted; non-finite values are ignored.
 *
 * - `durationSeconds`: last minus first timestamp. No timestamp → null (the
 *   duration is unknown, not 0); one timestamp → 0.
 * - `activeSeconds`: Σ gaps between consecutive records (in time order), each
 *   gap capped at the idle limit (default 300 s), so a pause longer than the
 *   limit counts as the limit. No timestamp → null; one → 0. Time before the
 *   first record and after the last is not counted.
 */

export const DEFAULT_IDLE_LIMIT_S = 300;

function finiteSorted(recordTimes: readonly number[]): number[] {
  const t: number[] = [];
  for (const x of recordTimes) if (typeof x === "number" && Number.isFinite(x)) t.push(x);
  t.sort((a, b) => a - b);
  return t;
}

export function durationSeconds(recordTimes: readonly number[]): number | null {
  const t = finiteSorted(recordTimes);
  if (t.length === 0) return null;
  return (t[t.length - 1] - t[0]) / 1000;
}

export function activeSeconds(
  recordTimes: readonly number[],
  idleLimitS: number = DEFAULT_IDLE_LIMIT_S,
): number | null {
  if (!(idleLimitS >= 0)) throw new RangeError(`idle limit must be a number ≥ 0, got ${idleLimitS}`);
  const t = finiteSorted(recordTimes);
  if (t.length === 0) return null;
  const capMs = idleLimitS * 1000;
  let activeMs = 0;
  for (let i = 1; i < t.length; i++) activeMs += Math.min(t[i] - t[i - 1], capMs);
  return activeMs / 1000;
}
