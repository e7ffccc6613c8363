/**
 * Finding Claude Code transcripts on disk:
 * `~/.claude/projects/<project>/<sessionId>.jsonl` and, since 2.x, the
 * sub-agent logs `<project>/<sessionId>/subagents/agent-<agentId>.jsonl`.
 * Files are recognised by content (detect.ts), not by where they sit.
 */
import { closeSync, type Dirent, existsSync, readSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, extname, join, resolve } from "node:path";
import { readTranscriptBytes } from "../read-files";
import { listDir, realPathOf } from "../list-dir";
import type { DiagnosticSink, Session } from "../../model";
import { detectTranscriptFormat } from "../detect";
import { parseClaudeCodeTranscript } from "./parse";
import { openRegularFile } from "../read-regular";

export interface ClaudeCodeTranscriptFiles {
  /** The session transcript. */
  file: string;
  /** Its sub-agent logs, sorted. */
  subagents: string[];
}

export interface FindOptions {
  /** Keep only files whose first bytes look like Claude Code JSONL (default true). */
  checkContent?: boolean;
}

const PROBE_BYTES = 64 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** `/Users/alex/work/cli/.worktrees/3` → `-Users-alex-work-cli--worktrees-3` (the project folder name). */
export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

/** Where Claude Code keeps projects: `$CLAUDE_CONFIG_DIR/projects`, `~/.claude/projects`, `~/.config/claude/projects` (those that exist). */
export function defaultClaudeProjectRoots(env: Record<string, string | undefined> = process.env): string[] {
  const roots: string[] = [];
  for (const dir of (env.CLAUDE_CONFIG_DIR ?? "").split(","))
    if (dir.trim() !== "") roots.push(join(dir.trim(), "projects"));
  roots.push(join(homedir(), ".claude", "projects"), join(homedir(), ".config", "claude", "projects"));
  const seen = new Set<string>();
  return roots.filter((r) => {
    const abs = resolve(r);
    if (seen.has(abs) || !isDir(abs)) return false;
    seen.add(abs);
    return true;
  });
}

/**
 * Claude Code transcripts under a directory (searched recursively) or the one
 * `.jsonl` file given, each with its sub-agent files, sorted by path.
 * Sub-agent files whose session transcript is missing are reported, not returned.
 */
export function findClaudeCodeTranscripts(
  path: string,
  sink?: DiagnosticSink,
  options: FindOptions = {},
): ClaudeCodeTranscriptFiles[] {
  const checkContent = options.checkContent ?? true;
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    sink?.error("claude-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  if (st.isFile()) {
    if (checkContent && !looksLikeClaudeCode(path, sink)) return [];
    return [{ file: path, subagents: subagentFilesOf(path) }];
  }

  const sessions: string[] = [];
  const subagentDirs: string[] = [];
  walk(path, sessions, subagentDirs, sink);
  const out: ClaudeCodeTranscriptFiles[] = [];
  const claimed = new Set<string>();
  for (const file of sessions.sort(byCodeUnit)) {
    if (checkContent && !looksLikeClaudeCode(file, sink)) continue;
    const subs = subagentFilesOf(file);
    claimed.add(join(dirname(file), basename(file, ".jsonl"), "subagents"));
    out.push({ file, subagents: subs });
  }
  for (const dir of subagentDirs.sort(byCodeUnit)) {
    if (claimed.has(dir)) continue;
    sink?.add(
      "info",
      "claude-orphan-subagents",
      `sub-agent logs in ${dir} have no session transcript next to them; skipped`,
      null,
      { file: dir },
    );
  }
  return out;
}

/** Reads a transcript and its sub-agent files as bytes and parses them. */
export function readClaudeCodeTranscript(files: ClaudeCodeTranscriptFiles, sink: DiagnosticSink): Session | null {
  const bytes = readTranscriptBytes(files, "claude", sink);
  return bytes === null ? null : parseClaudeCodeTranscript({ ...bytes, file: files.file }, sink);
}

/**
 * `<dir>/<id>.jsonl` → its sub-agent logs, sorted: `<dir>/<id>/subagents/agent-*.jsonl` (Task/Agent tool), and
 * one folder deeper those of the Workflow tool's agents, `subagents/workflows/wf_<run>/agent-*.jsonl` (2.1
 * releases of mid-2026; a flat listing misses them and their tokens and edits).
 */
export function subagentFilesOf(file: string): string[] {
  if (extname(file) !== ".jsonl") return [];
  const dir = join(dirname(file), basename(file, ".jsonl"), "subagents");
  if (!isDir(dir)) return [];
  const out: string[] = [];
  collectAgentFiles(dir, out, 0);
  return out.sort(byCodeUnit);
}

/**
 * `agent-*.jsonl` files under `dir`, a few folders deep (workflow runs nest one level). Folders reached through
 * symbolic links are followed once (a loop is not walked twice).
 */
function collectAgentFiles(dir: string, out: string[], depth: number, seen: Set<string> = new Set()): void {
  const real = realPathOf(dir);
  if (seen.has(real)) return;
  seen.add(real);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    const folder = entry.isDirectory() || (entry.isSymbolicLink() && isDir(path));
    if (folder) {
      if (depth < 5) collectAgentFiles(path, out, depth + 1, seen);
    } else if (entry.name.startsWith("agent-") && entry.name.endsWith(".jsonl")) out.push(path);
  }
}

function walk(
  dir: string,
  sessions: string[],
  subagentDirs: string[],
  sink: DiagnosticSink | undefined,
  walking = new Set<string>(),
): void {
  const real = realPathOf(dir);
  walking.add(real);
  const entries = listDir(dir, "claude", sink, walking) ?? [];
  for (const entry of entries) {
    if (entry.kind === "dir") {
      if (SKIP_DIRS.has(entry.name)) continue;
      if (entry.name === "subagents") {
        subagentDirs.push(entry.path);
        continue;
      }
      walk(entry.path, sessions, subagentDirs, sink, walking);
    } else if (entry.name.endsWith(".jsonl")) {
      sessions.push(entry.path);
    }
  }
  walking.delete(real);
}

function looksLikeClaudeCode(file: string, sink: DiagnosticSink | undefined): boolean {
  let head: Uint8Array;
  try {
    const fd = openRegularFile(file);
    try {
      const buf = Buffer.alloc(PROBE_BYTES);
      const n = readSync(fd, buf, 0, PROBE_BYTES, 0);
      head = buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    sink?.add(
      "warning",
      "claude-transcript-unreadable",
      `cannot read: ${e instanceof Error ? e.message : String(e)}`,
      null,
      { file },
    );
    return false;
  }
  const format = detectTranscriptFormat(head);
  if (format === "claude-code") return true;
  sink?.add(
    "info",
    "claude-not-a-transcript",
    `skipped: the content looks like ${format === "unknown" ? "no known transcript format" : format}`,
    null,
    { file },
  );
  return false;
}

function isDir(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
