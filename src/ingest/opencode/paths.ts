/**
 * Finding OpenCode sessions on disk: export documents (`opencode export`,
 * Entire's `full.jsonl`), recognised by content, and storage folders
 * (storage.ts), recognised by their `session/`, `message/`, `part/`
 * subfolders, whose JSON pieces are not read one by one.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { DiagnosticSink, Session } from "../../model";
import { readHead } from "../codex/paths";
import { detectTranscriptFormat } from "../detect";
import { parseOpenCodeSession } from "./parse";
import { isOpenCodeStorage, listOpenCodeStorageSessions, type OpenCodeStorageSession, readOpenCodeStorageSession } from "./storage";

export type OpenCodeSource = { kind: "export"; file: string } | { kind: "storage"; session: OpenCodeStorageSession };

const PROBE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** OpenCode sessions under a directory (recursively) or the one export file given. */
export function findOpenCodeSessions(path: string, sink?: DiagnosticSink): OpenCodeSource[] {
  const out: OpenCodeSource[] = [];
  try {
    if (statSync(path).isFile()) {
      if (detectTranscriptFormat(readHead(path, PROBE_BYTES) ?? new Uint8Array()) === "opencode") out.push({ kind: "export", file: path });
      return out;
    }
  } catch (e) {
    sink?.error("opencode-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return out;
  }
  walk(path, out, sink);
  return out;
}

function walk(dir: string, out: OpenCodeSource[], sink: DiagnosticSink | undefined): void {
  if (isOpenCodeStorage(dir)) {
    for (const session of listOpenCodeStorageSessions(dir, sink)) out.push({ kind: "storage", session });
    return;
  }
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (e) {
    sink?.add("warning", "opencode-path-unreadable", `cannot list: ${e instanceof Error ? e.message : String(e)}`, null, { file: dir });
    return;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(full, out, sink);
    } else if (entry.isFile() && (entry.name.endsWith(".json") || entry.name.endsWith(".jsonl"))) {
      if (detectTranscriptFormat(readHead(full, PROBE_BYTES) ?? new Uint8Array()) === "opencode") out.push({ kind: "export", file: full });
    }
  }
}

/** Reads and parses one OpenCode session, from an export file or a storage folder. */
export function readOpenCodeSession(source: OpenCodeSource, sink: DiagnosticSink): Session | null {
  if (source.kind === "storage") {
    const document = readOpenCodeStorageSession(source.session, sink);
    return document === null ? null : parseOpenCodeSession({ document, file: source.session.file }, sink);
  }
  let text: Uint8Array;
  try {
    text = readFileSync(source.file);
  } catch (e) {
    sink.add("error", "opencode-transcript-unreadable", `cannot read: ${e instanceof Error ? e.message : String(e)}`, null, { file: source.file });
    return null;
  }
  return parseOpenCodeSession({ text, file: source.file }, sink);
}
