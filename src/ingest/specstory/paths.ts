/**
 * Finding SpecStory exports on disk (`<project>/.specstory/history/*.md`).
 * Recognised by content (`detectExportFormat`: the generator comment, or
 * `_**User**_` / `_**Agent**_` turn headers), not by the `.md` name.
 */
import type { DiagnosticSink } from "../../model";
import { findExportFiles } from "../detect-export";
import { parseSpecStory, type SpecStorySession } from "./parse";
import { readRegularFile } from "../read-regular";

/** SpecStory exports at a path (a file, or a folder searched recursively), sorted. */
export function findSpecStoryFiles(path: string, sink?: DiagnosticSink): string[] {
  return findExportFiles(path, sink)
    .filter((f) => f.format === "specstory")
    .map((f) => f.file);
}

/** Reads and parses one export; null (with a diagnostic) when it has no turns. */
export function readSpecStoryFile(file: string, sink: DiagnosticSink): SpecStorySession | null {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file);
  } catch (e) {
    sink.error("specstory-unreadable", `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  return parseSpecStory({ text: bytes, file }, sink);
}
