/**
 * Numbers from logs checked against their domain at ingest, in one place for
 * every adapter. A value outside its domain (a negative or non-finite token
 * count, `1e20` output tokens, a timestamp in year 99999) is named in a
 * diagnostic (file, record, field, value) and left out: removed from the
 * record, so the adapter reads it as absent and it adds nothing to any sum,
 * never turned into 0 unsaid and never priced.
 */
import type { DiagnosticSink } from "./diagnostic";
import type { Session } from "./session";

/** No single API call reads or writes ten billion tokens (the largest context windows are about 10^7). */
export const TOKEN_COUNT_MAX = 1e10;
/** Counts of calls, lines or records in one session or checkpoint. */
export const COUNT_MAX = 1e9;
/** Times a session can have: from 2000-01-01 to 2100-01-01 (UTC), in milliseconds. */
export const TIME_MIN_MS = Date.UTC(2000, 0, 1);
export const TIME_MAX_MS = Date.UTC(2100, 0, 1);

export interface NumberSite {
  file?: string | null;
  /** 1-based line or record of the value. */
  record?: number | null;
}

/** Per sink, at most this many `number-out-of-domain` rows (a hostile file can have a bad count on every line). */
const ROWS_PER_SINK = 100;
const rowsBySink = new WeakMap<DiagnosticSink, number>();

/** Adds one out-of-domain row, the file's own when the site names one; the last allowed row says the rest are not listed. */
function addOutOfDomain(sink: DiagnosticSink, code: string, message: string, site: NumberSite): void {
  const n = (rowsBySink.get(sink) ?? 0) + 1;
  rowsBySink.set(sink, n);
  if (n > ROWS_PER_SINK) return;
  const more =
    n === ROWS_PER_SINK
      ? ` (${ROWS_PER_SINK} such rows for this input: further ones are left out the same way, without a row each)`
      : "";
  sink.add("warning", code, message + more, site.record ?? null, site.file ? { file: site.file } : {});
}

const shown = (value: unknown): string =>
  typeof value === "number" ? String(value) : (JSON.stringify(value)?.slice(0, 80) ?? String(value));

/** Why a count is outside [0, max], or null when it is inside. */
function countProblem(value: number, max: number): string | null {
  if (!Number.isFinite(value)) return "not a finite number";
  if (value < 0) return "negative";
  if (value > max) return `above ${max.toExponential(0)}, more than any session can hold`;
  return null;
}

/**
 * A count from a log (`max` = TOKEN_COUNT_MAX for tokens): the value when it
 * is a number in [0, max]; null when absent; null with a `number-out-of-domain`
 * warning when it is anything else.
 */
export function checkedCount(
  value: unknown,
  field: string,
  site: NumberSite,
  sink: DiagnosticSink,
  max: number = COUNT_MAX,
): number | null {
  if (value === undefined || value === null) return null;
  const problem = typeof value === "number" ? countProblem(value, max) : "not a number";
  if (problem === null) return value as number;
  addOutOfDomain(
    sink,
    "number-out-of-domain",
    `${field} = ${shown(value)} is ${problem}: left out (null), not counted in any sum`,
    site,
  );
  return null;
}

/** Which numbers of a record a check covers, and their domain's upper bound. */
export interface RecordNumberRule {
  /** Numbers under this key are checked... */
  key: RegExp;
  /** ...and every number directly inside an object under a key matching this (none when absent). */
  parent?: RegExp;
  max: number;
  what: string;
  /** What takes an out-of-domain value's place: nothing (the key removed, read as absent; default) or null (read as unknown). */
  replaceWith?: "absent" | "null";
}

/** Token counts: any key naming tokens, and every number directly inside a usage or tokens object. */
export const TOKEN_COUNTS: RecordNumberRule = {
  key: /tokens?(?:_|$)|tokencount/i,
  parent: /^(?:usage|tokens|usageMetadata|cache|cache_creation)$|token/i,
  max: TOKEN_COUNT_MAX,
  what: "token count",
};
/** Usage objects sit a few levels down a record (message.usage.cache_creation.x, payload.info.total_token_usage.x). */
const RECORD_DEPTH = 6;

/**
 * Checks the numbers a rule covers in one parsed record (JSONL line or JSON
 * document) and deletes the ones outside [0, max], with a diagnostic each,
 * so the adapter reads them as absent. Walks at most `RECORD_DEPTH` levels,
 * with an explicit stack (a record nested ten thousand deep cannot overflow it).
 */
export function checkRecordNumbers(
  record: unknown,
  site: NumberSite,
  sink: DiagnosticSink,
  rule: RecordNumberRule = TOKEN_COUNTS,
): void {
  if (record === null || typeof record !== "object") return;
  const stack: { value: object; path: string; key: string; depth: number }[] = [
    { value: record, path: "", key: "", depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, key: parentKey, depth } = stack.pop()!;
    if (Array.isArray(value)) {
      // Numbers in arrays are not counts; objects in them (messages, content blocks) are walked under the array's key.
      if (depth + 1 < RECORD_DEPTH) {
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (v !== null && typeof v === "object")
            stack.push({ value: v, path: `${path}[${i}]`, key: parentKey, depth: depth + 1 });
        }
      }
      continue;
    }
    const parentIsCounts = rule.parent?.test(parentKey) ?? false;
    const object = value as Record<string, unknown>;
    // for…in, not Object.entries: no array per object on the reader's hot path.
    for (const key in object) {
      const v = object[key];
      if (typeof v === "number") {
        if (!parentIsCounts && !rule.key.test(key)) continue;
        const problem = countProblem(v, rule.max);
        if (problem === null) continue;
        const at = path ? `${path}.${key}` : key;
        const how = rule.replaceWith === "null" ? "null" : "read as absent";
        addOutOfDomain(
          sink,
          "number-out-of-domain",
          `${rule.what} ${at} = ${v} is ${problem}: left out (${how}), not counted in any sum nor priced`,
          site,
        );
        if (rule.replaceWith === "null") object[key] = null;
        else delete object[key];
      } else if (v !== null && typeof v === "object" && depth + 1 < RECORD_DEPTH) {
        stack.push({ value: v, path: path ? `${path}.${key}` : key, key, depth: depth + 1 });
      }
    }
  }
}

/** `checkRecordNumbers` for token counts (every adapter's records go through it). */
export function checkRecordTokenCounts(record: unknown, site: NumberSite, sink: DiagnosticSink): void {
  checkRecordNumbers(record, site, sink, TOKEN_COUNTS);
}

/** The ISO form of a time in milliseconds; null when it is not a number a Date can hold (`toISOString` throws past ±8.64e15). */
export function isoTime(ms: number | null | undefined): string | null {
  return typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : null;
}

/** Whether an ISO time (or milliseconds) lies in [TIME_MIN_MS, TIME_MAX_MS). */
function timeInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= TIME_MIN_MS && ms < TIME_MAX_MS;
}

/**
 * The session's times checked against 2000–2100, in place: record times
 * outside are dropped (they would give start, end and durations of 10^12
 * seconds) and timestamps of prompts, tool calls and API calls set to null,
 * with one `time-out-of-domain` warning per kind naming how many and the
 * first value.
 */
export function checkSessionTimes(session: Session, sink: DiagnosticSink): void {
  const site = { file: session.transcript };
  const report = (what: string, count: number, first: unknown, record: number | null) =>
    addOutOfDomain(
      sink,
      "time-out-of-domain",
      `${count} ${what} outside 2000–2100 (first: ${shown(first)}): left out (null), not used for durations`,
      { ...site, record },
    );
  const badTimes = session.record_times.filter((t) => !timeInRange(t));
  if (badTimes.length > 0) {
    report("record time(s)", badTimes.length, badTimes[0], null);
    session.record_times = session.record_times.filter(timeInRange);
  }
  const clear = <T extends { timestamp: string | null }>(
    items: readonly T[],
    what: string,
    recordOf: (item: T) => number | null,
  ) => {
    let count = 0;
    let first: { timestamp: string; record: number | null } | null = null;
    for (const item of items) {
      if (item.timestamp === null || timeInRange(Date.parse(item.timestamp))) continue;
      count++;
      first ??= { timestamp: item.timestamp, record: recordOf(item) };
      item.timestamp = null;
    }
    if (first !== null) report(what, count, first.timestamp, first.record);
  };
  clear(session.turns, "prompt time(s)", () => null);
  clear(session.tool_calls, "tool call time(s)", () => null);
  clear(session.api_calls, "API call time(s)", (c) => c.record);
}
