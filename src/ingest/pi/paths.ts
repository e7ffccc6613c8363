/**
 * Finding Pi sessions on disk. Pi keeps one JSONL file per session in
 * `<agent dir>/sessions/--<cwd with / \ : as ->--/<ISO time with : . as ->_<uuid>.jsonl`
 * (session-manager.ts `getDefaultSessionDir`, `newSession`), the agent dir
 * being `$PI_CODING_AGENT_DIR` or `~/.pi/agent` (config.ts `getAgentDir`).
 * Files are recognised by content (detect.ts): Entire stores the same file
 * as `full.jsonl`.
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { DiagnosticSink, Session } from "../../model";
import { readHead } from "../codex/paths";
import { detectTranscriptFormat } from "../detect";
import { listDir, realPathOf } from "../list-dir";
import { parsePiSession } from "./parse";
import { readRegularFile } from "../read-regular";

const PROBE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** `$PI_CODING_AGENT_DIR/sessions` or `~/.pi/agent/sessions`, when it exists. */
export function defaultPiSessionRoots(env: Record<string, string | undefined> = process.env): string[] {
  const dir =
    env.PI_CODING_AGENT_DIR && env.PI_CODING_AGENT_DIR.trim() !== ""
      ? env.PI_CODING_AGENT_DIR.trim().replace(/^~(?=$|[\\/])/, homedir())
      : join(homedir(), ".pi", "agent");
  const root = resolve(join(dir, "sessions"));
  return existsSync(root) && statSync(root).isDirectory() ? [root] : [];
}

/** Pi session files under a directory (recursively) or the one file given, sorted by path. */
export function findPiSessions(path: string, sink?: DiagnosticSink): string[] {
  const files: string[] = [];
  try {
    if (statSync(path).isFile()) files.push(path);
    else walk(path, files, sink);
  } catch (e) {
    sink?.error("pi-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  return files.sort().filter((f) => detectTranscriptFormat(readHead(f, PROBE_BYTES) ?? new Uint8Array()) === "pi");
}

/** Reads and parses one Pi session file. */
export function readPiSession(file: string, sink: DiagnosticSink): Session | null {
  let text: Uint8Array;
  try {
    text = readRegularFile(file);
  } catch (e) {
    sink.add("error", "pi-transcript-unreadable", `cannot read: ${e instanceof Error ? e.message : String(e)}`, null, {
      file,
    });
    return null;
  }
  return parsePiSession({ text, file }, sink);
}

function walk(dir: string, files: string[], sink: DiagnosticSink | undefined, walking = new Set<string>()): void {
  const real = realPathOf(dir);
  walking.add(real);
  for (const entry of listDir(dir, "pi", sink, walking) ?? []) {
    if (entry.kind === "dir") {
      if (!SKIP_DIRS.has(entry.name)) walk(entry.path, files, sink, walking);
    } else if (entry.name.endsWith(".jsonl")) files.push(entry.path);
  }
  walking.delete(real);
}
