/**
 * Lines, provenance and the three ways the reference changes a text: string edits, a unified diff,
 * and moving provenance through a Myers line diff (metrics.md §2).
 */
import { diffArrays } from "diff";

export type Provenance = "base" | "agent" | "outside" | "human";

export interface Line {
  text: string;
  prov: Provenance;
  /** The agent call that inserted the line (metrics.md §2 "remembering which tool call"). */
  call: string | null;
}

/** metrics.md §2: a file with a NUL byte in its first 8000 bytes is binary and has no lines. */
export function isBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8000).includes(0);
}

/**
 * metrics.md §2: split on `\n`; a last line without `\n` is a line; the empty text has 0 lines; a
 * trailing `\r` is dropped before lines are compared.
 */
export function toLines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (text.endsWith("\n")) parts.pop();
  return parts.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

type Part = { value: string[]; count?: number; added?: boolean; removed?: boolean };

/**
 * How ties are broken. metrics.md §2 says "Myers, the diff package": by default the reference runs
 * jsdiff's `diffArrays` on the whole line arrays. `trim-common` first matches the common prefix and
 * suffix and runs jsdiff between them (what `swe-chat-eval` did before session 2; it now matches only
 * the prefix first, which is what jsdiff does anyway, so it agrees with `whole`): the two differ
 * only in which of several equal lines (`}`, blank lines) is kept, e.g. ["x"] → ["}", "x", "x"]
 * inserts line 3 with jsdiff on the whole arrays, line 2 after trimming the common suffix.
 */
export type LineDiffMode = "whole" | "trim-common";
let mode: LineDiffMode = "whole";

export function setLineDiffMode(next: LineDiffMode): void {
  mode = next;
}

/** The one line diff of the reference. */
function myers(old: string[], next: string[]): Part[] {
  if (mode === "whole") return diffArrays(old, next);
  let p = 0;
  while (p < old.length && p < next.length && old[p] === next[p]) p++;
  let s = 0;
  while (s < old.length - p && s < next.length - p && old[old.length - 1 - s] === next[next.length - 1 - s]) s++;
  const out: Part[] = [];
  if (p > 0) out.push({ value: old.slice(0, p), count: p });
  out.push(...diffArrays(old.slice(p, old.length - s), next.slice(p, next.length - s)));
  if (s > 0) out.push({ value: old.slice(old.length - s), count: s });
  return out;
}

/**
 * Moves provenance from `old` to the texts `next` through jsdiff's Myers diff (metrics.md §2): equal
 * lines keep theirs, deleted lines vanish, inserted lines take `prov` (and `call`).
 */
export function carry(
  old: Line[],
  next: string[],
  prov: Provenance,
  call: string | null,
): { lines: Line[]; inserted: number } {
  const parts = myers(
    old.map((l) => l.text),
    next,
  );
  const lines: Line[] = [];
  let i = 0;
  let inserted = 0;
  for (const part of parts) {
    const n = part.count ?? part.value.length;
    if (part.added) {
      for (const text of part.value) lines.push({ text, prov, call });
      inserted += n;
    } else if (part.removed) {
      i += n;
    } else {
      for (let k = 0; k < n; k++) lines.push(old[i + k]);
      i += n;
    }
  }
  return { lines, inserted };
}

/** Indices of `next` that a Myers diff old → next keeps as equal (used to anchor to git's base → commit view, §4). */
export function keptIndices(old: string[], next: string[]): Set<number> {
  const kept = new Set<number>();
  let j = 0;
  for (const part of myers(old, next)) {
    const n = part.count ?? part.value.length;
    if (part.removed) continue;
    if (!part.added) for (let k = 0; k < n; k++) kept.add(j + k);
    j += n;
  }
  return kept;
}

export interface StringEditLike {
  oldString: string;
  newString: string;
  replaceAll: boolean;
  /** Gemini's `replace` (see below). */
  gemini?: boolean;
}

/**
 * Re-applies Claude Code string edits in order (metrics.md §3.2). Null when an old string is absent:
 * the call is unreplayable. Splicing by index, never `String.replace`, whose replacement string interprets `$&`.
 */
export function applyStringEdits(text: string, edits: StringEditLike[]): string | null {
  let cur = text;
  for (const e of edits) {
    if (e.gemini) {
      // gemini-cli edit.ts reads the file with CRLF turned into LF, then replaces every occurrence literally
      // (`safeLiteralReplace`), and writes the result; Claude Code's newline rule below is not Gemini's.
      cur = cur.split("\r\n").join("\n");
      if (e.oldString === "") {
        if (cur !== "") return null;
        cur = e.newString;
      } else if (!cur.includes(e.oldString)) return null;
      else cur = cur.split(e.oldString).join(e.newString);
      continue;
    }
    if (e.oldString === "") {
      // Claude Code creates a file from an empty old_string; on a non-empty file there is nothing to locate.
      if (cur !== "") return null;
      cur = e.newString;
      continue;
    }
    // Claude Code's Edit: deleting text (new_string "") also deletes the newline right after old_string
    // when old_string does not end with one. Not in metrics.md; seen in the dev mirror
    // (24/4c84dd9136/0/full.jsonl, Edit toolu_014VJcBUgV71sMU8AqSJLRWm: its structuredPatch and the next
    // call's originalFile both lack the newline), so the literal replacement is not what the tool wrote.
    const target =
      e.newString === "" && !e.oldString.endsWith("\n") && cur.includes(`${e.oldString}\n`)
        ? `${e.oldString}\n`
        : e.oldString;
    const at = cur.indexOf(target);
    if (at < 0) return null;
    cur = e.replaceAll
      ? cur.split(target).join(e.newString)
      : cur.slice(0, at) + e.newString + cur.slice(at + target.length);
  }
  return cur;
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  oldLines: string[];
  newLines: string[];
}

function parseHunks(diff: string): { hunks: Hunk[]; oldNoEol: boolean; newNoEol: boolean } | null {
  const hunks: Hunk[] = [];
  let oldNoEol = false;
  let newNoEol = false;
  let last = "";
  const rows = diff.split("\n");
  if (rows[rows.length - 1] === "") rows.pop();
  for (const row of rows) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(row);
    if (m) {
      hunks.push({
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        oldLines: [],
        newLines: [],
      });
      continue;
    }
    const h = hunks[hunks.length - 1];
    if (!h) {
      if (row.startsWith("---") || row.startsWith("+++") || row.startsWith("diff ") || row.startsWith("index "))
        continue;
      return null;
    }
    if (row.startsWith("\\")) {
      if (last === "-" || last === " ") oldNoEol = true;
      if (last === "+" || last === " ") newNoEol = true;
      continue;
    }
    const tag = row[0] ?? " ";
    const body = row.slice(1);
    if (tag === " ") {
      h.oldLines.push(body);
      h.newLines.push(body);
    } else if (tag === "-") h.oldLines.push(body);
    else if (tag === "+") h.newLines.push(body);
    else return null;
    last = tag;
  }
  return { hunks, oldNoEol, newNoEol };
}

function matchesAt(lines: string[], at: number, want: string[]): boolean {
  if (at < 0 || at + want.length > lines.length) return false;
  for (let k = 0; k < want.length; k++) if (lines[at + k] !== want[k]) return false;
  return true;
}

/**
 * Applies a unified diff without file headers (Codex `patch_apply_end.changes[].unified_diff`) to
 * `text`: each hunk at its stated line, or else at the nearest place its old side matches exactly.
 * Null when a hunk matches nowhere (the replayed state is not what Codex patched: unreplayable).
 */
export function applyUnifiedDiff(text: string, diff: string): string | null {
  const parsed = parseHunks(diff);
  if (!parsed) return null;
  const hadEol = text === "" || text.endsWith("\n");
  const lines = text === "" ? [] : text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  let shift = 0;
  let floor = 0;
  for (const h of parsed.hunks) {
    const expected = (h.oldCount === 0 ? h.oldStart : h.oldStart - 1) + shift;
    let at = -1;
    // Nearest to the stated line; on a tie the later place first, as GNU patch and git apply try it. The window
    // reaches every line, also when the stated line lies past the end of a file that has shrunk since.
    for (let d = 0; d <= lines.length + Math.abs(expected) && at < 0; d++) {
      if (expected + d >= floor && matchesAt(lines, expected + d, h.oldLines)) at = expected + d;
      else if (d > 0 && expected - d >= floor && matchesAt(lines, expected - d, h.oldLines)) at = expected - d;
    }
    if (at < 0) return null;
    lines.splice(at, h.oldLines.length, ...h.newLines);
    shift += at - expected + h.newLines.length - h.oldLines.length;
    floor = at + h.newLines.length;
  }
  if (lines.length === 0) return "";
  const eol = parsed.newNoEol ? false : parsed.oldNoEol ? true : hadEol;
  return lines.join("\n") + (eol ? "\n" : "");
}
