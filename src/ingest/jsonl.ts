/**
 * A robust JSONL record reader. It gives one `{ line, value }` per JSON
 * object and turns every line it cannot use into a diagnostic row, never a
 * silent drop and never a throw.
 *
 * Bytes are split on `\n` and decoded one line at a time (faster than
 * decoding the whole file first; stack.md "Reading transcripts fast").
 *
 * Diagnostic codes (all with the 1-based line in `record`):
 * - `jsonl-truncated`: the last line is cut off (no final newline, or the
 *   JSON ends early); typical of a transcript copied while being written.
 * - `jsonl-nul-bytes`: NUL bytes were stripped from a line before parsing
 *   (crash-padded files); the message says whether the line then parsed.
 * - `jsonl-concatenated-objects`: two or more JSON values on one line; all
 *   are kept, with the same line number.
 * - `jsonl-invalid-line`: a line that is not JSON.
 * - `jsonl-not-object`: valid JSON that is not an object (array, string, …).
 * - `jsonl-pretty-printed`: the input is one (pretty-printed) JSON document,
 *   not JSONL; nothing is returned line-wise and the caller decides.
 * - `jsonl-empty` (no content), `jsonl-bom`, `jsonl-crlf`, `jsonl-blank-lines`,
 *   `jsonl-invalid-utf8` (info: what was tolerated), and
 *   `jsonl-diagnostics-capped` (more bad lines than `maxLineDiagnostics`).
 */
import { checkRecordTokenCounts, type DiagnosticSink } from "../model";

export interface JsonlRecord {
  /** 1-based physical line of the input. */
  line: number;
  value: Record<string, unknown>;
}

export interface JsonlStats {
  /** Physical lines that hold something other than whitespace (the transcript's records, good or bad). */
  lines: number;
  /** Objects yielded. */
  records: number;
  /** Non-blank lines that yielded nothing. */
  badLines: number;
  /** Whitespace-only lines before a line with content (a final newline is not one, nor are blank lines at the end). */
  blankLines: number;
  crlfLines: number;
  /** The input was one JSON document spread over several lines (see `jsonl-pretty-printed`). */
  prettyPrinted: boolean;
}

export interface JsonlOptions {
  /** Per code, at most this many per-line diagnostics; the rest are summed in one `jsonl-diagnostics-capped` row. Default 100. */
  maxLineDiagnostics?: number;
}

export const emptyJsonlStats = (): JsonlStats => ({
  lines: 0,
  records: 0,
  badLines: 0,
  blankLines: 0,
  crlfLines: 0,
  prettyPrinted: false,
});

/** Reads all records at once; see {@link forEachJsonl}. */
export function readJsonl(
  input: string | Uint8Array,
  sink: DiagnosticSink,
  options: JsonlOptions = {},
): { records: JsonlRecord[]; stats: JsonlStats } {
  const stats = emptyJsonlStats();
  const records: JsonlRecord[] = [];
  forEachJsonl(input, sink, (record) => records.push(record), options, stats);
  return { records, stats };
}

/** The records as an iterable (read whole first); streaming callers use {@link forEachJsonl}. */
export function iterateJsonl(
  input: string | Uint8Array,
  sink: DiagnosticSink,
  options: JsonlOptions = {},
  stats: JsonlStats = emptyJsonlStats(),
): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  forEachJsonl(input, sink, (record) => records.push(record), options, stats);
  return records;
}

const NL = 10;
const CR = 13;

function isWsByte(b: number): boolean {
  return b === 32 || b === 9 || b === 10 || b === 13;
}

function isWsChar(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Hands every JSON object of a JSONL input to `onRecord`, in order, as it is
 * read. `stats`, when given, is filled as the reading runs (complete once it
 * ends). A plain loop rather than a generator: V8 cannot optimize a
 * generator's loop while it runs (no on-stack replacement), and one call
 * reads a whole transcript.
 */
export function forEachJsonl(
  input: string | Uint8Array,
  sink: DiagnosticSink,
  onRecord: (record: JsonlRecord) => void,
  options: JsonlOptions = {},
  stats: JsonlStats = emptyJsonlStats(),
): void {
  const cap = options.maxLineDiagnostics ?? 100;
  const emitted = new Map<string, number>();
  const suppressed = new Map<string, number>();
  const lineDiag = (severity: "info" | "warning" | "error", code: string, message: string, line: number): void => {
    const n = emitted.get(code) ?? 0;
    if (n >= cap) {
      suppressed.set(code, (suppressed.get(code) ?? 0) + 1);
      return;
    }
    emitted.set(code, n + 1);
    sink.add(severity, code, message, line);
  };

  const isBytes = typeof input !== "string";
  const bytes = isBytes ? (input as Uint8Array) : null;
  const text = isBytes ? null : (input as string);
  const decoder = isBytes ? new TextDecoder("utf-8", { ignoreBOM: true }) : null;
  let strictDecoder: { decode(input: Uint8Array): string } | null = null;

  // BOM.
  let pos = 0;
  if (bytes) {
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) pos = 3;
  } else if (text!.charCodeAt(0) === 0xfeff) {
    pos = 1;
  }
  if (pos > 0) sink.info("jsonl-bom", "a UTF-8 byte-order mark at the start was removed", 1);

  const total = bytes ? bytes.length : text!.length;
  // The last non-whitespace position decides which line is the last one with content.
  let lastContent = total - 1;
  if (bytes) {
    while (lastContent >= pos && (isWsByte(bytes[lastContent]) || bytes[lastContent] === 0)) lastContent--;
  } else {
    while (lastContent >= pos && (isWsChar(text!.charCodeAt(lastContent)) || text!.charCodeAt(lastContent) === 0))
      lastContent--;
  }
  if (lastContent < pos) {
    sink.warn(
      "jsonl-empty",
      total === 0 ? "the file is empty" : "the file holds no content (only whitespace or NUL bytes)",
    );
    return;
  }
  const endsWithNewline = bytes ? bytes[total - 1] === NL : text!.charCodeAt(total - 1) === NL;

  let lineNo = 0;
  let firstContentSeen = false;
  let blankRun = 0;
  let crlfFirst = 0;

  while (pos < total) {
    let end = bytes ? bytes.indexOf(NL, pos) : text!.indexOf("\n", pos);
    if (end === -1) end = total;
    lineNo++;
    let stop = end;
    const hasCr = stop > pos && (bytes ? bytes[stop - 1] === CR : text!.charCodeAt(stop - 1) === CR);
    if (hasCr) stop--;
    const isLast = end > lastContent;
    const lineStart = pos;
    pos = end + 1;

    // Blank line?
    let s = lineStart;
    if (bytes) while (s < stop && isWsByte(bytes[s])) s++;
    else while (s < stop && isWsChar(text!.charCodeAt(s))) s++;
    if (s >= stop) {
      blankRun++;
      continue;
    }
    if (hasCr) {
      stats.crlfLines++;
      if (crlfFirst === 0) crlfFirst = lineNo;
    }
    stats.blankLines += blankRun;
    blankRun = 0;

    // Decode.
    let line: string;
    let nulCount = 0;
    if (bytes) {
      const slice = bytes.subarray(lineStart, stop);
      if (slice.indexOf(0) !== -1) {
        const kept: number[] = [];
        for (let i = 0; i < slice.length; i++) {
          if (slice[i] === 0) nulCount++;
          else kept.push(slice[i]);
        }
        line = decoder!.decode(Uint8Array.from(kept));
      } else {
        line = decoder!.decode(slice);
      }
      if (line.indexOf("\uFFFD") !== -1) {
        strictDecoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
        try {
          strictDecoder.decode(slice);
        } catch {
          lineDiag("info", "jsonl-invalid-utf8", `line ${lineNo} is not valid UTF-8; bad bytes became U+FFFD`, lineNo);
        }
      }
    } else {
      line = text!.slice(lineStart, stop);
      if (line.indexOf("\u0000") !== -1) {
        const stripped = line.split("\u0000").join("");
        nulCount = line.length - stripped.length;
        line = stripped;
      }
    }

    if (nulCount > 0 && line.trim() === "") {
      stats.lines++;
      stats.badLines++;
      lineDiag("warning", "jsonl-nul-bytes", `line ${lineNo} held only NUL bytes (${nulCount}); skipped`, lineNo);
      continue;
    }
    stats.lines++;

    // A whole pretty-printed JSON document is not JSONL: decide on the first line with content.
    if (!firstContentSeen) {
      firstContentSeen = true;
      const trimmed = line.trim();
      if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && !isLast && !parses(trimmed)) {
        const whole = bytes
          ? decoder!.decode(bytes.subarray(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0))
          : text!.slice(text!.charCodeAt(0) === 0xfeff ? 1 : 0);
        const wholeParses = parses(whole);
        if (wholeParses || trimmed === "{" || trimmed === "[") {
          stats.prettyPrinted = true;
          stats.lines = 0;
          sink.warn(
            "jsonl-pretty-printed",
            wholeParses
              ? "the input is one pretty-printed JSON document, not JSONL; no records were read line by line"
              : "the input looks like one pretty-printed JSON document (its first line is a lone bracket) but does not parse as a whole either (cut off?); no records were read",
            1,
          );
          return;
        }
      }
    }

    if (nulCount > 0) {
      const ok = parses(line.trim());
      lineDiag(
        "warning",
        "jsonl-nul-bytes",
        `line ${lineNo}: ${nulCount} NUL byte(s) stripped; the line ${ok ? "parsed after stripping" : "still does not parse"}`,
        lineNo,
      );
    }

    // Parse.
    let value: unknown;
    let error: string | null = null;
    try {
      value = JSON.parse(line);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }

    if (error === null) {
      if (isPlainObject(value)) {
        stats.records++;
        checkRecordTokenCounts(value, { record: lineNo }, sink);
        onRecord({ line: lineNo, value });
      } else {
        stats.badLines++;
        lineDiag(
          "warning",
          "jsonl-not-object",
          `line ${lineNo} is JSON but not an object (${describe(value)}); skipped`,
          lineNo,
        );
      }
      continue;
    }

    // Several values on one line?
    const pieces = splitConcatenated(line);
    if (pieces !== null && pieces.length >= 2) {
      const values: unknown[] = [];
      let allParse = true;
      for (const piece of pieces) {
        try {
          values.push(JSON.parse(piece));
        } catch {
          allParse = false;
          break;
        }
      }
      if (allParse) {
        let kept = 0;
        for (const v of values) {
          if (isPlainObject(v)) {
            kept++;
            stats.records++;
            checkRecordTokenCounts(v, { record: lineNo }, sink);
            onRecord({ line: lineNo, value: v });
          }
        }
        lineDiag(
          "warning",
          "jsonl-concatenated-objects",
          `line ${lineNo} holds ${values.length} JSON values written without a newline between them; kept ${kept} object(s)${kept < values.length ? `, skipped ${values.length - kept} non-object value(s)` : ""}`,
          lineNo,
        );
        if (kept === 0) stats.badLines++;
        continue;
      }
    }

    stats.badLines++;
    const truncated = isLast && (!endsWithNewline || /end of JSON|Unterminated/i.test(error) || atEnd(error, line));
    if (truncated) {
      lineDiag(
        "warning",
        "jsonl-truncated",
        `the last line (${lineNo}) is cut off (${line.length} characters, ${endsWithNewline ? "ends early" : "no final newline"}): ${error}`,
        lineNo,
      );
    } else {
      lineDiag(
        "warning",
        "jsonl-invalid-line",
        `line ${lineNo} is not valid JSON (${error}): ${snippet(line)}`,
        lineNo,
      );
    }
  }

  if (stats.crlfLines > 0) {
    sink.info("jsonl-crlf", `${stats.crlfLines} line(s) end with CRLF; the \\r was ignored`, crlfFirst);
  }
  if (stats.blankLines > 0) {
    sink.info("jsonl-blank-lines", `${stats.blankLines} blank line(s) between records were skipped`, null);
  }
  for (const [code, n] of suppressed) {
    sink.warn(
      "jsonl-diagnostics-capped",
      `${n} more line(s) with code ${code} were not listed one by one (limit ${cap} per code)`,
      null,
    );
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function snippet(line: string): string {
  const s = line.length > 80 ? `${line.slice(0, 80)}…` : line;
  return JSON.stringify(s);
}

/** V8 says "… at position N"; N at or past the end means the text stopped early. */
function atEnd(error: string, line: string): boolean {
  const m = /at position (\d+)/.exec(error);
  return m !== null && Number(m[1]) >= line.trimEnd().length;
}

/**
 * Splits a line into top-level JSON values (`{…}{…}`, `{…} {…}`, `[…]{…}`)
 * by bracket depth outside strings. Returns null when the line does not
 * start with a bracket or brackets do not balance.
 */
export function splitConcatenated(line: string): string[] | null {
  const pieces: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (depth === 0) {
      if (isWsChar(c)) continue;
      if (c !== 123 /* { */ && c !== 91 /* [ */) return null;
      start = i;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) pieces.push(line.slice(start, i + 1));
    }
  }
  if (depth !== 0 || inString) return null;
  return pieces;
}

/**
 * Whether a file's first bytes look like one JSON document reformatted over
 * several lines rather than JSON Lines: its first line with content is a lone
 * `{` or `[`. For callers that only probe a file's head (`readJsonl` decides
 * on the whole input, see `jsonl-pretty-printed` above).
 */
export function startsLikePrettyPrintedJson(head: Uint8Array): boolean {
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, "");
  const first = text.split("\n").find((l) => l.trim() !== "");
  return first !== undefined && /^\s*[[{]\s*$/.test(first);
}
