/**
 * Reading one compact transcript from disk (a `transcript.jsonl` copied out
 * of an Entire checkpoint). Inside a repository Entire's reader hands the
 * bytes over itself; this is for folder inputs.
 */
import type { DiagnosticSink, Session } from "../../model";
import { parseEntireCompactTranscript } from "./parse";
import { readRegularFile } from "../read-regular";

export function readEntireCompactTranscript(file: string, sink: DiagnosticSink): Session | null {
  let text: Uint8Array;
  try {
    text = readRegularFile(file);
  } catch (e) {
    sink.add(
      "error",
      "entire-compact-transcript-unreadable",
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file },
    );
    return null;
  }
  return parseEntireCompactTranscript({ text, file }, sink);
}
