/**
 * What the agent has seen of each file. Line-number edits (`edit 287:295`,
 * `insert … 12`, `str_replace_editor insert`) refer to the file "as last
 * displayed" (formats.md §5): the replaced lines are not in the action, but
 * the windows SWE-agent printed before it show them with their numbers. This
 * module reads those windows and keeps, per file, the lines known by number
 * and, when every line is known (a file the agent created, or a window that
 * covers the whole file), the full text.
 *
 * Window forms (observations, CRLF normalised before):
 * - windowed tools: `[File: <path> (<N> lines total)]`, `(<k> more lines above)`,
 *   `<n>:<text>` lines, `(<m> more lines below)`;
 * - str_replace_editor: "Here's the result of running `cat -n` on <what>:" then
 *   `<spaces><n>\t<text>` lines.
 */

export interface FileWindow {
  /** The path the window names; null for "a snippet of the edited file". */
  path: string | null;
  /** Total lines of the file, when the window says so. */
  total: number | null;
  /** Line number → text. */
  lines: Map<number, string>;
  /** The window shows the whole file. */
  whole: boolean;
}

const FILE_HEADER = /^\[File: (.+?) \((\d+) lines total\)\]$/;
const CAT_HEADER = /^Here's the result of running `cat -n` on (.+):$/;

/** The windows printed in one observation, in order. */
export function windowsOf(observation: string): FileWindow[] {
  const lines = observation.replace(/\r\n?/g, "\n").split("\n");
  const out: FileWindow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = FILE_HEADER.exec(lines[i]);
    if (header) {
      const w: FileWindow = { path: header[1], total: Number(header[2]), lines: new Map(), whole: false };
      let j = i + 1;
      let above = false;
      let below = false;
      if (/^\(\d+ more lines above\)$/.test(lines[j] ?? "")) {
        above = true;
        j++;
      }
      for (; j < lines.length; j++) {
        const m = /^(\d+):(.*)$/.exec(lines[j]);
        if (!m) break;
        w.lines.set(Number(m[1]), m[2]);
      }
      if (/^\(\d+ more lines below\)$/.test(lines[j] ?? "")) below = true;
      w.whole = !above && !below && w.total !== null && w.lines.size === w.total && (w.total === 0 || w.lines.has(1));
      out.push(w);
      i = j - 1;
      continue;
    }
    const cat = CAT_HEADER.exec(lines[i]);
    if (cat) {
      const snippet = cat[1].startsWith("a snippet of ");
      const named = snippet ? cat[1].slice("a snippet of ".length) : cat[1];
      const w: FileWindow = { path: named.startsWith("/") ? named : null, total: null, lines: new Map(), whole: false };
      let j = i + 1;
      for (; j < lines.length; j++) {
        const m = /^ *(\d+)\t(.*)$/.exec(lines[j]);
        if (!m) break;
        w.lines.set(Number(m[1]), m[2]);
      }
      // A whole-file view starts at line 1 and is not clipped. It prints `text.split("\n")`, so a file ending
      // in a newline shows one extra empty line at the end: not a line of the file.
      w.whole = !snippet && w.lines.has(1) && !observation.includes("<response clipped>");
      if (w.whole && w.lines.size > 1 && w.lines.get(w.lines.size) === "") w.lines.delete(w.lines.size);
      if (w.whole) w.total = w.lines.size;
      out.push(w);
      i = j - 1;
    }
  }
  return out;
}

interface Known {
  total: number | null;
  lines: Map<number, string>;
  /** The whole text as lines, when every line is known. */
  full: string[] | null;
}

/** Per-file knowledge, keyed by absolute container path. */
export class FileViews {
  private readonly files = new Map<string, Known>();

  private entry(path: string): Known {
    let k = this.files.get(path);
    if (!k) this.files.set(path, (k = { total: null, lines: new Map(), full: null }));
    return k;
  }

  /** A read-only window: adds what it shows; a different line count means the file changed in between (e.g. a shell command). */
  see(path: string, w: FileWindow): void {
    const k = this.entry(path);
    if (w.total !== null && k.total !== null && w.total !== k.total) this.forget(path);
    const fresh = this.entry(path);
    if (w.whole) {
      this.setFull(path, linesInOrder(w.lines));
      return;
    }
    // A partial window that disagrees with the full text we hold: trust what was printed.
    if (fresh.full !== null && [...w.lines].some(([n, text]) => fresh.full![n - 1] !== text)) fresh.full = null;
    if (w.total !== null) fresh.total = w.total;
    for (const [n, text] of w.lines) fresh.lines.set(n, text);
  }

  /** After an edit the numbers shift: drop the old view, keep only what the edit's own output shows. */
  refresh(path: string, windows: readonly FileWindow[]): void {
    const full = this.files.get(path)?.full ?? null;
    this.forget(path);
    if (full !== null) this.setFull(path, full);
    for (const w of windows) this.see(path, w);
  }

  setFull(path: string, lines: string[]): void {
    this.files.set(path, { total: lines.length, lines: new Map(lines.map((l, i) => [i + 1, l])), full: lines.slice() });
  }

  forget(path: string): void {
    this.files.delete(path);
  }

  full(path: string): string[] | null {
    return this.files.get(path)?.full?.slice() ?? null;
  }

  total(path: string): number | null {
    return this.files.get(path)?.total ?? null;
  }

  /** Lines first..last (1-based, inclusive) when all are known. */
  range(path: string, first: number, last: number): string[] | null {
    const k = this.files.get(path);
    if (!k) return null;
    const out: string[] = [];
    for (let n = first; n <= last; n++) {
      const text = k.lines.get(n);
      if (text === undefined) return null;
      out.push(text);
    }
    return out;
  }

  /**
   * A search/replace on a file known only in parts, widened to whole lines:
   * the tools replace a substring (`edit 'return x' '# c\n        return y'`),
   * so the search text alone lacks the line's indentation. Finds the search in
   * a run of consecutive known lines and returns those lines before and after
   * the (first) replacement; null when no known run holds it.
   */
  widen(path: string, search: string, replace: string): { old: string; now: string } | null {
    const k = this.files.get(path);
    if (!k || search === "") return null;
    const numbers = [...k.lines.keys()].sort((a, b) => a - b);
    let start = 0;
    for (let i = 1; i <= numbers.length; i++) {
      if (i < numbers.length && numbers[i] === numbers[i - 1] + 1) continue;
      const text = numbers
        .slice(start, i)
        .map((n) => k.lines.get(n))
        .join("\n");
      start = i;
      const at = text.indexOf(search);
      if (at < 0) continue;
      const from = text.lastIndexOf("\n", at - 1) + 1;
      const endNl = text.indexOf("\n", at + search.length);
      const to = endNl < 0 ? text.length : endNl;
      const old = text.slice(from, to);
      const now = old.slice(0, at - from) + replace + old.slice(at - from + search.length);
      return { old: old + "\n", now: now === "" ? "" : now + "\n" };
    }
    return null;
  }

  line(path: string, n: number): string | null {
    return this.files.get(path)?.lines.get(n) ?? null;
  }
}

function linesInOrder(lines: Map<number, string>): string[] {
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
}

/** Lines → file text: every line ends with `\n` (SWE-agent's files do; the windows do not show the final newline). */
export const textOf = (lines: readonly string[]): string => lines.map((l) => l + "\n").join("");

/** Text → lines for the windowed tools: one trailing newline is not a line. */
export const linesOf = (text: string): string[] => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
