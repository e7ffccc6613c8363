import { lineDiff } from "./line-diff";
import { splitLines } from "./lines";

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
}

export function stateFromText(text: string, owner: LineOwner): FileState {
  const lines = splitLines(text);
  return { text, lines, owners: new Array<LineOwner>(lines.length).fill(owner) };
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
  if (text === state.text) return { state: { text, lines: state.lines, owners: state.owners.slice() }, inserted: 0, deleted: 0 };
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
  return { state: { text, lines: next, owners }, inserted, deleted };
}

export function countOwned(state: FileState, origin: Origin): number {
  let n = 0;
  for (const owner of state.owners) if (owner.origin === origin) n++;
  return n;
}
