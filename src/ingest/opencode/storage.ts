/**
 * OpenCode's storage folder (`~/.local/share/opencode/storage`, layout in
 * parse.ts) → the export document `{info, messages: [{info, parts}]}` of
 * one session, so one parser reads both. Messages are ordered by id (OpenCode
 * ids are time-ordered, as OpenCode itself sorts them), parts likewise.
 * Unreadable files become diagnostics; the session is read without them.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { DiagnosticSink } from "../../model";
import { readRegularFile } from "../read-regular";

export interface OpenCodeStorageSession {
  /** The storage root (the folder holding session/, message/, part/). */
  root: string;
  sessionId: string;
  /** `session/<projectID>/<sessionID>.json`. */
  file: string;
}

const isDir = (p: string): boolean => {
  try {
    return existsSync(p) && statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** Whether a folder is an OpenCode storage root (it holds `session/`, `message/` and `part/`). */
export function isOpenCodeStorage(dir: string): boolean {
  return isDir(join(dir, "session")) && isDir(join(dir, "message")) && isDir(join(dir, "part"));
}

/** `$XDG_DATA_HOME/opencode/storage` or `~/.local/share/opencode/storage`, when it exists. */
export function defaultOpenCodeStorageRoots(env: Record<string, string | undefined> = process.env): string[] {
  const data =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.trim() !== ""
      ? env.XDG_DATA_HOME.trim()
      : join(homedir(), ".local", "share");
  const root = resolve(join(data, "opencode", "storage"));
  return isOpenCodeStorage(root) ? [root] : [];
}

/** Sessions of a storage root, sorted by session id. */
export function listOpenCodeStorageSessions(root: string, sink?: DiagnosticSink): OpenCodeStorageSession[] {
  const out: OpenCodeStorageSession[] = [];
  for (const project of sortedNames(join(root, "session"), sink)) {
    const dir = join(root, "session", project);
    if (!isDir(dir)) continue;
    for (const name of sortedNames(dir, sink)) {
      if (name.endsWith(".json")) out.push({ root, sessionId: basename(name, ".json"), file: join(dir, name) });
    }
  }
  if (existsSync(join(root, "..", "opencode.db"))) {
    sink?.add(
      "info",
      "opencode-sqlite-not-read",
      "an opencode.db (OpenCode 1.2+ keeps sessions in SQLite) sits beside this storage folder: sessions only in the database are not read",
      null,
      { file: join(root, "..", "opencode.db") },
    );
  }
  return out.sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));
}

/** The export document of one stored session, or null when its info file cannot be read. */
export function readOpenCodeStorageSession(
  s: OpenCodeStorageSession,
  sink: DiagnosticSink,
): { info: unknown; messages: { info: unknown; parts: unknown[] }[] } | null {
  const info = readJson(s.file, sink);
  if (info === undefined) return null;
  const messages: { info: unknown; parts: unknown[] }[] = [];
  const messageDir = join(s.root, "message", s.sessionId);
  for (const name of sortedNames(messageDir, sink)) {
    if (!name.endsWith(".json")) continue;
    const mi = readJson(join(messageDir, name), sink);
    if (mi === undefined) continue;
    const messageId = basename(name, ".json");
    const partDir = join(s.root, "part", messageId);
    const parts: unknown[] = [];
    for (const pn of isDir(partDir) ? sortedNames(partDir, sink) : []) {
      if (!pn.endsWith(".json")) continue;
      const part = readJson(join(partDir, pn), sink);
      if (part !== undefined) parts.push(part);
    }
    messages.push({ info: mi, parts });
  }
  if (messages.length === 0)
    sink.add("info", "opencode-no-messages", `session ${s.sessionId} has no stored messages`, null, { file: s.file });
  return { info, messages };
}

function readJson(file: string, sink: DiagnosticSink): unknown {
  try {
    return JSON.parse(readRegularFile(file, "utf8")) as unknown;
  } catch (e) {
    sink.add(
      "warning",
      "opencode-storage-file-unreadable",
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file },
    );
    return undefined;
  }
}

function sortedNames(dir: string, sink?: DiagnosticSink): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (e) {
    if (isDir(dir))
      sink?.add(
        "warning",
        "opencode-storage-file-unreadable",
        `cannot list: ${e instanceof Error ? e.message : String(e)}`,
        null,
        { file: dir },
      );
    return [];
  }
}
