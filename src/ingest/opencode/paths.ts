/**
 * Finding OpenCode sessions on disk: export documents (`opencode export`,
 * Entire's `full.jsonl`), recognised by content, and storage folders
 * (storage.ts), recognised by their `session/`, `message/`, `part/`
 * subfolders, whose JSON pieces are not read one by one.
 */
import { statSync } from "node:fs";
import type { DiagnosticSink, Session } from "../../model";
import { listDir, realPathOf } from "../list-dir";
import { readHead } from "../codex/paths";
import { detectTranscriptFormat } from "../detect";
import { parseOpenCodeSession } from "./parse";
import {
  isOpenCodeStorage,
  listOpenCodeStorageSessions,
  type OpenCodeStorageSession,
  readOpenCodeStorageSession,
} from "./storage";
import { readRegularFile } from "../read-regular";

export type OpenCodeSource = { kind: "export"; file: string } | { kind: "storage"; session: OpenCodeStorageSession };

const PROBE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** OpenCode sessions under a directory (recursively) or the one export file given. */
export function findOpenCodeSessions(path: string, sink?: DiagnosticSink): OpenCodeSource[] {
  const out: OpenCodeSource[] = [];
  try {
    if (statSync(path).isFile()) {
      if (detectTranscriptFormat(readHead(path, PROBE_BYTES) ?? new Uint8Array()) === "opencode")
        out.push({ kind: "export", file: path });
      return out;
    }
  } catch (e) {
    sink?.error("opencode-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return out;
  }
  walk(path, out, sink);
  return out;
}

function walk(dir: string, out: OpenCodeSource[], sink: DiagnosticSink | undefined, walking = new Set<string>()): void {
  if (isOpenCodeStorage(dir)) {
    for (const session of listOpenCodeStorageSessions(dir, sink)) out.push({ kind: "storage", session });
    return;
  }
  const real = realPathOf(dir);
  walking.add(real);
  const entries = listDir(dir, "opencode", sink, walking) ?? [];
  for (const entry of entries) {
    if (entry.kind === "dir") {
      if (!SKIP_DIRS.has(entry.name)) walk(entry.path, out, sink, walking);
    } else if (entry.name.endsWith(".json") || entry.name.endsWith(".jsonl")) {
      if (detectTranscriptFormat(readHead(entry.path, PROBE_BYTES) ?? new Uint8Array()) === "opencode")
        out.push({ kind: "export", file: entry.path });
    }
  }
  walking.delete(real);
}

/** Reads and parses one OpenCode session, from an export file or a storage folder. */
export function readOpenCodeSession(source: OpenCodeSource, sink: DiagnosticSink): Session | null {
  if (source.kind === "storage") {
    const document = readOpenCodeStorageSession(source.session, sink);
    return document === null ? null : parseOpenCodeSession({ document, file: source.session.file }, sink);
  }
  let text: Uint8Array;
  try {
    text = readRegularFile(source.file);
  } catch (e) {
    sink.add(
      "error",
      "opencode-transcript-unreadable",
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file: source.file },
    );
    return null;
  }
  return parseOpenCodeSession({ text, file: source.file }, sink);
}
