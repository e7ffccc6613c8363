/**
 * The replacements of a Pi `edit` call, shaped so that replay (which applies
 * string edits one after the other, exactly: replay/apply-edit.ts) gets the
 * file Pi wrote.
 *
 * - Assembled as Pi's `prepareEditArguments` does (0.64.0+, edit.ts at
 *   `d409bbe1`): `edits` sent as a JSON string is parsed, a top-level
 *   oldText/newText is appended last; before 0.64 only oldText/newText exist.
 * - Line endings normalised to LF, as Pi does before matching
 *   (edit-diff.ts `normalizeToLF`: `\r\n` and a lone `\r` → `\n`); replay
 *   matches LF text on a CRLF file and writes CRLF back, as Pi does.
 * - Ordered. Pi matches every edit against the ORIGINAL text and applies them
 *   together (edit-diff.ts `applyEditsToNormalizedContent`); one after the
 *   other, a later oldText may be found inside an earlier newText (moving a
 *   line: edits[0] writes "b" higher up, edits[1] removes the old "b").
 *   Applying an edit before every edit whose newText holds its oldText gives
 *   Pi's result; only a cycle (or an occurrence made across an edit's edges)
 *   cannot be ordered so, and is reported.
 */
import { replaceEditSchema } from "./schema";

export interface Replacement {
  oldText: string;
  newText: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const toLF = (s: string): string => s.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

/** The replacements of an `edit` call, as Pi's `prepareEditArguments` assembles them, LF-normalised; null when unusable. */
export function piReplacements(args: unknown): Replacement[] | null {
  if (!isObject(args)) return null;
  let list: unknown = args.edits;
  if (typeof list === "string") {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      list = undefined;
    }
  }
  const out: Replacement[] = [];
  if (Array.isArray(list)) {
    for (const e of list) {
      const r = replaceEditSchema.safeParse(e);
      if (!r.success) return null;
      out.push({ oldText: toLF(r.data.oldText), newText: toLF(r.data.newText) });
    }
  } else if (list !== undefined && list !== null) return null;
  if (typeof args.oldText === "string" && typeof args.newText === "string")
    out.push({ oldText: toLF(args.oldText), newText: toLF(args.newText) });
  return out.length > 0 ? out : null;
}

/**
 * An order in which applying the replacements one by one gives Pi's all-at-once result: each edit before every
 * edit whose newText holds its oldText (Kahn's algorithm, the logged order among equals). `sensitive` when the
 * logged order may not give it (an earlier newText holds a later oldText); `reordered` when the order found
 * differs from the logged one; `cyclic` when no such order exists (the logged order is kept).
 */
export function orderReplacements(list: readonly Replacement[]): {
  ordered: Replacement[];
  sensitive: boolean;
  reordered: boolean;
  cyclic: boolean;
} {
  const n = list.length;
  // before[k]: the edits that must come before k (their oldText is inside k's newText).
  const before: number[][] = list.map(() => []);
  // sensitive: an earlier newText holds a later oldText, so the logged order, one by one, may not give Pi's result.
  let sensitive = false;
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      if (j !== k && list[k].newText.includes(list[j].oldText)) {
        before[k].push(j);
        if (k < j) sensitive = true;
      }
    }
  }
  if (!sensitive) return { ordered: list.slice(), sensitive, reordered: false, cyclic: false };
  const done = new Array<boolean>(n).fill(false);
  const order: number[] = [];
  while (order.length < n) {
    let next = -1;
    for (let k = 0; k < n && next < 0; k++) if (!done[k] && before[k].every((j) => done[j])) next = k;
    if (next < 0) return { ordered: list.slice(), sensitive, reordered: false, cyclic: true };
    done[next] = true;
    order.push(next);
  }
  return { ordered: order.map((k) => list[k]), sensitive, reordered: order.some((k, i) => k !== i), cyclic: false };
}

/**
 * Whether Pi matched every oldText exactly, read from its logged patch (the hunks' old side is a run of the
 * file's LF lines): an oldText found there is in the file, and Pi tries the exact match first. The string
 * edits then give the same file as the patch, and are placed whatever the file's BOM (the patch is of the
 * BOM-less text: its first line does not match a BOM file's). An oldText not found there was matched fuzzily
 * (trailing whitespace, quotes, dashes, NFKC): only the patch shows what Pi wrote.
 */
export function allExactInPatch(list: readonly Replacement[], patch: string): boolean {
  const olds: string[] = [];
  let current: string[] | null = null;
  for (const line of patch.split("\n")) {
    if (line.startsWith("@@")) {
      current = [];
      olds.push("");
      continue;
    }
    if (current === null) continue;
    if (line.startsWith(" ") || line.startsWith("-")) {
      current.push(line.slice(1));
      olds[olds.length - 1] = current.join("\n") + "\n";
    }
  }
  return list.every((r) => r.oldText !== "" && olds.some((o) => o.includes(r.oldText)));
}
