/**
 * Finding Gemini CLI sessions on disk:
 * `~/.gemini/tmp/<sha256(project root)>/chats/session-<YYYY-MM-DDTHH-MM>-<id8>.json`
 * (the document form) or `.jsonl` (the log form of newer releases; sub-agent
 * sessions sit in `chats/<parent session id>/<id>.jsonl`). Files are
 * recognised by content (detect.ts): Entire stores the document as
 * `full.jsonl`. `logs.json` beside `chats/` holds prompts only and is not a
 * session (its content does not look like one).
 */
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { DiagnosticSink, Session } from "../../model";
import { listDir, realPathOf } from "../list-dir";
import { detectTranscriptFormat } from "../detect";
import { readHead } from "../codex/paths";
import { parseGeminiSession } from "./parse";
import { readRegularFile } from "../read-regular";

const PROBE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** `$GEMINI_CLI_HOME/.gemini/tmp` or `~/.gemini/tmp`, when it exists. */
export function defaultGeminiRoots(env: Record<string, string | undefined> = process.env): string[] {
  const home = env.GEMINI_CLI_HOME && env.GEMINI_CLI_HOME.trim() !== "" ? env.GEMINI_CLI_HOME.trim() : homedir();
  const root = resolve(join(home, ".gemini", "tmp"));
  return existsSync(root) && statSync(root).isDirectory() ? [root] : [];
}

/** Gemini session files under a directory (recursively) or the one file given, sorted by path. */
export function findGeminiSessions(path: string, sink?: DiagnosticSink): string[] {
  const files: string[] = [];
  try {
    if (statSync(path).isFile()) files.push(path);
    else walk(path, files, sink);
  } catch (e) {
    sink?.error("gemini-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  return files.sort().filter((f) => detectTranscriptFormat(readHead(f, PROBE_BYTES) ?? new Uint8Array()) === "gemini");
}

export function readGeminiSession(file: string, sink: DiagnosticSink): Session | null {
  let text: Uint8Array;
  try {
    text = readRegularFile(file);
  } catch (e) {
    sink.add(
      "error",
      "gemini-transcript-unreadable",
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file },
    );
    return null;
  }
  return parseGeminiSession({ text, file }, sink);
}

function walk(dir: string, files: string[], sink: DiagnosticSink | undefined, walking = new Set<string>()): void {
  const real = realPathOf(dir);
  walking.add(real);
  const entries = listDir(dir, "gemini", sink, walking) ?? [];
  for (const entry of entries) {
    if (entry.kind === "dir") {
      if (!SKIP_DIRS.has(entry.name)) walk(entry.path, files, sink, walking);
    } else if (entry.name.endsWith(".json") || entry.name.endsWith(".jsonl")) {
      files.push(entry.path);
    }
  }
  walking.delete(real);
}
