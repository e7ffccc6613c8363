import { lineDiff } from "./line-diff";
import { isBinaryText, noLines, splitLines, splitWithoutFinalNewline } from "./lines";

/** Who a line belongs to (metrics.md §2). */
export type Origin = "base" | "agent" | "outside" | "human";

export interface LineOwner {
  readonly origin: Origin;
  /** The tool call that inserted an `agent` line. */
  readonly call: string | null;
}

export const BASE: LineOwner = Object.freeze({ origin: "base", call: null });
export const OUTSIDE: LineOwner = Object.freeze({ origin: "outside", call: null });
export const HUMAN: LineOwner = Object.freeze({ origin: "human", call: null });
export const agentOwner = (call: string): LineOwner => Object.freeze({ origin: "agent", call });

/** A file's exact text plus one owner per line. */
export interface FileState {
  readonly text: string;
  readonly lines: readonly string[];
  readonly owners: readonly LineOwner[];
  /** Where each line starts in `text`, plus `text.length` at the end (filled by `transition`; computed when absent). */
  readonly starts?: Int32Array;
}

/**
 * Every FileState is made here, with all four fields in one order (`starts`
 * undefined when not known), so all of them share one V8 object shape: a
 * second shape appearing late in a run made V8 throw away the optimized code
 * of the whole replay (measured).
 */
export function fileState(
  text: string,
  lines: readonly string[],
  owners: readonly LineOwner[],
  starts?: Int32Array,
): FileState {
  return { text, lines, owners, starts };
}

export function stateFromText(text: string, owner: LineOwner): FileState {
  const lines = splitLines(text);
  // Pushed, not `new Array(n).fill`: a packed array like every other owners array (one shape for V8).
  const owners: LineOwner[] = [];
  for (let i = 0; i < lines.length; i++) owners.push(owner);
  return fileState(text, lines, owners);
}

export interface Transition {
  state: FileState;
  inserted: number;
  deleted: number;
}

/**
 * Moves a state to new text through a line diff: equal lines keep their
 * owner, deleted lines vanish, inserted lines take `owner`.
 */
export function transition(state: FileState, text: string, owner: LineOwner): Transition {
  // Unchanged text: every line equal, every owner kept (what the diff would give).
  if (text === state.text)
    return { state: fileState(text, state.lines, state.owners.slice(), state.starts), inserted: 0, deleted: 0 };
  return transitionAroundChange(state, text, owner) ?? transitionWhole(state, text, owner);
}

/** The diff of the whole line arrays (the definition; `transitionAroundChange` must agree with it). */
export function transitionWhole(state: FileState, text: string, owner: LineOwner): Transition {
  const next = splitLines(text);
  const owners: LineOwner[] = [];
  let i = 0;
  let inserted = 0;
  let deleted = 0;
  for (const run of lineDiff(state.lines, next)) {
    if (run.kind === "equal") {
      for (let k = 0; k < run.count; k++) owners.push(state.owners[i + k]);
      i += run.count;
    } else if (run.kind === "delete") {
      i += run.count;
      deleted += run.count;
    } else {
      for (let k = 0; k < run.count; k++) owners.push(owner);
      inserted += run.count;
    }
  }
  return { state: fileState(text, next, owners), inserted, deleted };
}

/** Below this size splitting the whole text is as cheap as finding the change. */
const LOCAL_MIN_CHARS = 2048;

/**
 * The same result as `transitionWhole`, computed from the first change on:
 * an edit rewrites a few lines of a long file, so the lines wholly inside
 * the two texts' common character prefix are carried over (with their
 * owners) without splitting or comparing them again; the rest is split and
 * diffed. Equal to the whole diff because `lineDiff` (like jsdiff) consumes
 * the common line prefix first and the carried lines are part of it. (The
 * common suffix cannot be carried the same way: jsdiff does not match it
 * first, and doing so changes which of several equal lines is kept.) Texts
 * with `\r` (lines compare without it) or binary texts go the whole way (null).
 */
function transitionAroundChange(state: FileState, text: string, owner: LineOwner): Transition | null {
  const old = state.text;
  if (old.length < LOCAL_MIN_CHARS || text.length < LOCAL_MIN_CHARS) return null;
  if (isBinaryText(old) || isBinaryText(text) || old.indexOf("\r") !== -1 || text.indexOf("\r") !== -1) return null;
  const starts = state.starts ?? lineStarts(old, state.lines.length);
  if (starts === null) return null;
  const n = state.lines.length;
  const prefixChars = commonPrefixLength(old, text);

  // Carried lines: those whose "\n" lies inside the common prefix.
  let a = upperBound(starts, prefixChars) - 1;
  if (a >= n) a = old.endsWith("\n") ? n : n - 1;
  if (a <= 0) return null; // nothing to carry

  const midStart = starts[a];
  // Split as plain text: the whole text is not binary, whatever the rest holds.
  const rest = midStart < text.length ? splitWithoutFinalNewline(text.slice(midStart)) : noLines();

  const lines: string[] = state.lines.slice(0, a);
  const owners: LineOwner[] = state.owners.slice(0, a);
  let i = a;
  let k = 0;
  let inserted = 0;
  let deleted = 0;
  for (const run of lineDiff(a < n ? state.lines.slice(a) : [], rest)) {
    if (run.kind === "equal") {
      for (let c = 0; c < run.count; c++) {
        lines.push(rest[k + c]);
        owners.push(state.owners[i + c]);
      }
      i += run.count;
      k += run.count;
    } else if (run.kind === "delete") {
      i += run.count;
      deleted += run.count;
    } else {
      for (let c = 0; c < run.count; c++) {
        lines.push(rest[k + c]);
        owners.push(owner);
      }
      k += run.count;
      inserted += run.count;
    }
  }

  const nextStarts = new Int32Array(lines.length + 1);
  nextStarts.set(starts.subarray(0, a + 1));
  let at = midStart;
  for (let t = 0; t < rest.length; t++) {
    at = text.indexOf("\n", at) + 1;
    if (at === 0) at = text.length;
    nextStarts[a + t + 1] = at;
  }
  nextStarts[lines.length] = text.length;
  return { state: fileState(text, lines, owners, nextStarts), inserted, deleted };
}

/** Start offsets of the lines of `text` (`splitLines` lines, no `\r`), plus the end; null if the count disagrees. */
function lineStarts(text: string, count: number): Int32Array | null {
  const starts = new Int32Array(count + 1);
  let at = 0;
  for (let t = 0; t < count; t++) {
    starts[t] = at;
    const nl = text.indexOf("\n", at);
    at = nl === -1 ? text.length : nl + 1;
  }
  starts[count] = text.length;
  return at === text.length ? starts : null;
}

/** The first index whose value is greater than `x` (values ascending). */
function upperBound(values: Int32Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const BLOCK = 256;

/*
 * The common prefix by comparing substrings (the engine compares
 * flat memory) in blocks, then a binary search inside the last block: a
 * character loop with charCodeAt is about ten times slower, most of all on
 * the concatenated strings an edit produces.
 */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i + BLOCK <= n && a.substring(i, i + BLOCK) === b.substring(i, i + BLOCK)) i += BLOCK;
  let lo = i;
  let hi = Math.min(n, i + BLOCK);
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a.substring(i, mid) === b.substring(i, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function countOwned(state: FileState, origin: Origin): number {
  let n = 0;
  for (const owner of state.owners) if (owner.origin === origin) n++;
  return n;
}
