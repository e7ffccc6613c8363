/**
 * Finding DataClaw exports on disk. The export is `conversations.jsonl` (a
 * Hugging Face dataset tagged `dataclaw` holds one or more such files), but
 * files are recognised by content (`detectExportFormat`): a line must be a
 * session object with `session_id` and `messages`.
 */
import type { DiagnosticSink } from "../../model";
import { findExportFiles } from "../detect-export";
import { type DataClawSession, parseDataClawFile } from "./parse";
import { readRegularFile } from "../read-regular";

/** DataClaw export files at a path (a file, or a folder searched recursively), sorted. */
export function findDataClawFiles(path: string, sink?: DiagnosticSink): string[] {
  return findExportFiles(path, sink)
    .filter((f) => f.format === "dataclaw")
    .map((f) => f.file);
}

/** Reads one export file: its sessions, bad lines as diagnostics. */
export function readDataClawFile(file: string, sink: DiagnosticSink): DataClawSession[] {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file);
  } catch (e) {
    sink.error("dataclaw-unreadable", `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  return parseDataClawFile({ text: bytes, file }, sink);
}
