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
  PREFIX_BYTES,
  probeFile,
} from "./detect-export";
import { detectTranscriptFormatOfHead, detectTranscriptFormatOfPrefix, type TranscriptFormat } from "./detect";
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
    const head = readPrefix(file, sink);
    if (head === null) return null;
    // One byte more than the prefix is read: the export detector then knows a longer file is cut off. The
    // transcript detector was always given at most the prefix, which it takes as the whole input.
    const prefix = head.length > PREFIX_BYTES ? head.subarray(0, PREFIX_BYTES) : head;
    const complete = head.length <= PREFIX_BYTES;
    // Both detectors look at their first 25 lines or fewer: those lines are decoded first, and the whole
    // prefix only when they do not decide (a line break is one byte in UTF-8, so the lines decode as they do
    // within the prefix).
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

const scratch = Buffer.alloc(PREFIX_BYTES + 1);

/**
 * The first bytes of `file` (one more than the prefix), in a buffer the next call overwrites: one buffer for every
 * probe (the bytes are read and done with before the next file), as a fresh one per file costs as much as the read.
 */
const readPrefix = (file: string, sink?: DiagnosticSink): Uint8Array | null => probeFile(file, sink, scratch);
