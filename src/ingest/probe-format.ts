/**
 * One read of a file's head for both content detectors: the export formats
 * (./detect-export.ts) and the agent transcript formats (./detect.ts). A
 * folder given to `analyze` is searched for exports and for transcripts;
 * each search used to read and decode every file's first 256 KiB on its own
 * (an eighth of a run's time on a folder of Claude Code logs). One
 * `FormatProbe` serves one analysis: it keeps each file's verdicts (a few
 * words, never the bytes), so files changed between analyses are read again.
 */
import type { DiagnosticSink } from "../model";
import {
  detectExportFormatOfHead,
  detectExportFormatOfPrefix,
  type ExportFormat,
  isDataClawSession,
  isTrajectory,
  lineIsDataClawSession,
  MAX_LINES,
  parseOrUndefined,
  PREFIX_BYTES,
  probeFile,
  SESSION_ID_HINTS,
  TRAJECTORY_START,
} from "./detect-export";
import {
  classifyTranscriptRecord,
  detectTranscriptFormatOfHead,
  detectTranscriptFormatOfPrefix,
  type TranscriptFormat,
} from "./detect";
import { startsLikePrettyPrintedJson } from "./jsonl";

export interface FileFormats {
  export: ExportFormat;
  transcript: TranscriptFormat;
  /** A `{` or `[` alone on the first line: one JSON document spread over lines (reported for `.jsonl` files). */
  prettyPrinted: boolean;
}

/** What an unreadable file is to the transcript search (which reports nothing for it); the export search skips it. */
const UNREADABLE: FileFormats = { export: "unknown", transcript: "unknown", prettyPrinted: false };

export class FormatProbe {
  private readonly verdicts = new Map<string, FileFormats | null>();
  private readonly decoder = new TextDecoder("utf-8");
  /** For one line of a file: a BOM there is text (only the file's first bytes can be a BOM to drop). */
  private readonly lineDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
  private readonly decodeLine = (bytes: Uint8Array) => this.lineDecoder.decode(bytes);

  /** The file's formats; null when it cannot be read (`export-unreadable` to `sink`, once, when one is given). */
  of(file: string, sink?: DiagnosticSink): FileFormats | null {
    if (this.verdicts.has(file)) return this.verdicts.get(file)!;
    const verdict = this.probe(file, sink);
    this.verdicts.set(file, verdict);
    return verdict;
  }

  /** As {@link of}, an unreadable file being of no format. */
  formatsOf(file: string): FileFormats {
    return this.of(file) ?? UNREADABLE;
  }

  private probe(file: string, sink?: DiagnosticSink): FileFormats | null {
    // Most transcripts are decided by their first lines: the first 64 KiB are read, and the rest of the prefix only
    // when those lines do not decide (reading the whole prefix of every file was most of the probe's time).
    const early: { verdict: FileFormats | null } = { verdict: null };
    const enough = (first: Buffer) => {
      early.verdict = verdictOfRecordLines(first, false, this.decodeLine, "head only");
      return early.verdict !== null;
    };
    const head = probeFile(file, sink, scratch, { after: FIRST_READ_BYTES, enough });
    if (head === null) return null;
    if (early.verdict !== null) return early.verdict;
    // One byte more than the prefix is read: the export detector then knows a longer file is cut off. The
    // transcript detector was always given at most the prefix, which it takes as the whole input.
    const prefix = head.length > PREFIX_BYTES ? head.subarray(0, PREFIX_BYTES) : head;
    const complete = head.length <= PREFIX_BYTES;
    // Both detectors look at their first 25 lines or fewer: those lines are decoded first, and the whole
    // prefix only when they do not decide (a line break is one byte in UTF-8, so the lines decode as they do
    // within the prefix).
    const fromBytes = verdictOfRecordLines(asBuffer(prefix), complete, this.decodeLine);
    if (fromBytes !== null) return fromBytes;
    const end = endOfLines(prefix, HEAD_LINES);
    if (end > 0 && end < prefix.length) {
      const lines = this.decoder.decode(prefix.subarray(0, end));
      const transcript = detectTranscriptFormatOfHead(lines);
      const exported = detectExportFormatOfHead(lines, complete);
      if (transcript !== null && exported !== null)
        return {
          export: exported,
          transcript,
          prettyPrinted: transcript === "unknown" && startsLikePrettyPrintedJson(prefix),
        };
    }
    const text = this.decoder.decode(prefix);
    const transcript = detectTranscriptFormatOfPrefix(text, true);
    return {
      export: detectExportFormatOfPrefix(text, complete),
      transcript,
      prettyPrinted: transcript === "unknown" && startsLikePrettyPrintedJson(prefix),
    };
  }
}

/**
 * The verdicts of the common case, read from the prefix's bytes: a JSONL file whose first line is an agent's
 * record. The transcript detector decides on that line. The export detector looks at 25 non-blank lines (those
 * of the 26-line head when the prefix holds more, else all of them) for a DataClaw session, and only a line
 * holding one of `SESSION_ID_HINTS` can hold one: the others are counted, never decoded (decoding them was
 * two thirds of the probe's time). Null where the text path must decide. Line breaks are one byte in UTF-8,
 * so a line decodes alone as it does within the prefix. test/ingest/probe-format.test.ts holds these verdicts
 * to the detectors' own.
 */
function verdictOfRecordLines(
  bytes: Buffer,
  complete: boolean,
  decode: (bytes: Uint8Array) => string,
  only?: "head only",
): FileFormats | null {
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (bytes[start] !== 0x7b) return null; // not `{`: leading white space, a document, or no JSON
  const headEnd = endOfLines(bytes, HEAD_LINES);
  const head = headEnd > 0 && headEnd < bytes.length;
  // `bytes` may be only the start of the prefix: the 26 lines and a byte after them decide as the whole prefix would.
  if (only && !head) return null;
  const end = head ? headEnd : bytes.length;
  const firstEnd = lineEnd(bytes, start, end);
  const first = decode(bytes.subarray(start, firstEnd));
  const value = first.includes("\u0000") ? undefined : parseOrUndefined(first);
  // A first line the export detector may take for a trajectory or a DataClaw session: its own text path.
  if (value === undefined || TRAJECTORY_START.test(first) || isTrajectory(value) || isDataClawSession(value))
    return null;
  const transcript = classifyTranscriptRecord(value);
  if (transcript === null) return null;
  let seen = 1;
  for (let from = firstEnd + 1; from <= end && seen < MAX_LINES; ) {
    const to = lineEnd(bytes, from, end);
    const line = bytes.subarray(from, to);
    from = to + 1;
    const blank = blankness(line);
    if (blank === "blank" || (blank === "unsure" && !/[^\s\u0000]/.test(decode(line)))) continue;
    seen++;
    // A line is whole when a line break ends it, or when the prefix is the whole file.
    const whole = to < end || complete;
    if (HINT_BYTES.some((hint) => line.includes(hint)) && lineIsDataClawSession(decode(line), whole))
      return { export: "dataclaw", transcript, prettyPrinted: false };
  }
  // The head's lines ran out before the 25 did: the lines after them decide.
  if (head && seen < MAX_LINES) return null;
  return { export: "unknown", transcript, prettyPrinted: false };
}

/** Where the line starting at `from` ends: its line break, or `end`. */
function lineEnd(bytes: Buffer, from: number, end: number): number {
  const nl = bytes.indexOf(10, from);
  return nl < 0 || nl > end ? end : nl;
}

const HINT_BYTES = SESSION_ID_HINTS.map((hint) => Buffer.from(hint, "utf8"));

/**
 * Whether a line is blank to the detectors (white space and NULs only): "blank" or "text" from its ASCII bytes,
 * "unsure" when it holds only white space, NULs and non-ASCII bytes (Unicode has spaces of its own: decode it).
 */
function blankness(line: Uint8Array): "blank" | "text" | "unsure" {
  for (let k = 0; k < line.length; k++) {
    const c = line[k];
    if (c === 0 || c === 32 || (c >= 9 && c <= 13)) continue;
    return c < 0x80 ? "text" : "unsure";
  }
  return "blank";
}

/** One line more than the detectors look at (25 non-empty ones): the last of them is then whole. */
const HEAD_LINES = 26;

/** The offset just after the `n`-th line break of `bytes`, or -1 when it has fewer. */
function endOfLines(bytes: Uint8Array, n: number): number {
  let at = -1;
  for (let k = 0; k < n; k++) {
    at = bytes.indexOf(10, at + 1);
    if (at < 0) return -1;
  }
  return at + 1;
}

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * One buffer for every probe (the bytes are read and done with before the next file), as a fresh one per file costs
 * as much as the read.
 */
const scratch = Buffer.alloc(PREFIX_BYTES + 1);
const FIRST_READ_BYTES = 64 * 1024;
