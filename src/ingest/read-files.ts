import type { DiagnosticSink } from "../model";
import { readRegularFile } from "./read-regular";

export interface TranscriptBytes {
  text: Uint8Array;
  subagents: { file: string; text: Uint8Array }[];
}

/**
 * Reads a transcript and its sub-agent files as bytes (decoded line by line
 * later). An unreadable transcript is an error row and null; an unreadable
 * sub-agent file is a warning row and is left out.
 */
export function readTranscriptBytes(
  files: { file: string; subagents: readonly string[] },
  source: string,
  sink: DiagnosticSink,
): TranscriptBytes | null {
  let text: Uint8Array;
  try {
    text = readRegularFile(files.file);
  } catch (e) {
    sink.add(
      "error",
      `${source}-transcript-unreadable`,
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file: files.file },
    );
    return null;
  }
  const subagents: { file: string; text: Uint8Array }[] = [];
  for (const file of files.subagents) {
    try {
      subagents.push({ file, text: readRegularFile(file) });
    } catch (e) {
      sink.add(
        "warning",
        `${source}-subagent-unreadable`,
        `cannot read: ${e instanceof Error ? e.message : String(e)}`,
        null,
        { file },
      );
    }
  }
  return { text, subagents };
}
