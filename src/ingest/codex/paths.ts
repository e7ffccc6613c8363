/**
 * Finding Codex rollouts on disk:
 * `${CODEX_HOME:-~/.codex}/sessions/YYYY/MM/DD/rollout-<ISO-ts>-<uuid>.jsonl`
 * (and `archived_sessions/`, same layout). Files are recognised by content
 * (detect.ts), not by name: Entire stores them as `full.jsonl`.
 *
 * Sub-agent threads are rollouts of their own whose `session_meta.source`
 * is `{subagent: {thread_spawn: {parent_thread_id}}}`; they are grouped
 * under their parent when the parent's rollout is among the files found,
 * else read as sessions of their own (`codex-orphan-subagent`).
 */
import { closeSync, existsSync, readSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { readTranscriptBytes } from "../read-files";
import type { DiagnosticSink, Session } from "../../model";
import { listDir, realPathOf } from "../list-dir";
import { detectTranscriptFormat } from "../detect";
import { parseCodexRollout } from "./parse";
import { parentThreadOf } from "./records";
import { openRegularFile } from "../read-regular";

export interface CodexRolloutFiles {
  file: string;
  /** Rollouts of sub-agent threads this session spawned, sorted. */
  subagents: string[];
}

const PROBE_BYTES = 256 * 1024;
/** A first line (session_meta with the base instructions) longer than this is not read for grouping. */
const MAX_FIRST_LINE = 8 * 1024 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/** Where Codex keeps rollouts: `$CODEX_HOME/{sessions,archived_sessions}`, else `~/.codex/…` (those that exist). */
export function defaultCodexSessionRoots(env: Record<string, string | undefined> = process.env): string[] {
  const home = env.CODEX_HOME && env.CODEX_HOME.trim() !== "" ? env.CODEX_HOME.trim() : join(homedir(), ".codex");
  return [join(home, "sessions"), join(home, "archived_sessions")].map((p) => resolve(p)).filter(isDir);
}

/** Codex rollouts under a directory (recursively) or the one file given, grouped with their sub-agent rollouts, sorted by path. */
export function findCodexRollouts(path: string, sink?: DiagnosticSink): CodexRolloutFiles[] {
  const files: string[] = [];
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    sink?.error("codex-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
  if (st.isFile()) files.push(path);
  else walk(path, files, sink);
  const rollouts = files
    .sort(byCodeUnit)
    .filter((f) => detectTranscriptFormat(readHead(f, PROBE_BYTES) ?? new Uint8Array()) === "codex");
  return groupCodexRollouts(rollouts, sink);
}

/** Groups rollout files: each sub-agent rollout goes with the rollout of its parent thread, when that is among `files`. */
export function groupCodexRollouts(files: readonly string[], sink?: DiagnosticSink): CodexRolloutFiles[] {
  const meta = files.map((file) => ({ file, ...firstMeta(file) }));
  const byId = new Map<string, CodexRolloutFiles>();
  const out: CodexRolloutFiles[] = [];
  for (const m of meta) {
    if (m.parent !== null) continue;
    const entry = { file: m.file, subagents: [] as string[] };
    out.push(entry);
    if (m.id !== null && !byId.has(m.id)) byId.set(m.id, entry);
  }
  for (const m of meta) {
    if (m.parent === null) continue;
    const parent = byId.get(m.parent);
    if (parent) parent.subagents.push(m.file);
    else {
      sink?.add(
        "info",
        "codex-orphan-subagent",
        `sub-agent rollout of thread ${m.parent}, whose rollout is not among the inputs: read as a session of its own`,
        null,
        { file: m.file },
      );
      out.push({ file: m.file, subagents: [] });
    }
  }
  for (const e of out) e.subagents.sort(byCodeUnit);
  return out.sort((a, b) => byCodeUnit(a.file, b.file));
}

/** Reads a rollout and its sub-agent rollouts and parses them. */
export function readCodexRollout(files: CodexRolloutFiles, sink: DiagnosticSink): Session | null {
  const bytes = readTranscriptBytes(files, "codex", sink);
  return bytes === null ? null : parseCodexRollout({ ...bytes, file: files.file }, sink);
}

/** Session id and parent thread from the first line (session_meta, or the bare header of a pre-envelope rollout). */
function firstMeta(file: string): { id: string | null; parent: string | null } {
  const first = readFirstLine(file);
  if (first === null) return { id: null, parent: null };
  const line = new TextDecoder().decode(first);
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    const p = (typeof v.payload === "object" && v.payload !== null ? v.payload : v) as Record<string, unknown>;
    return { id: typeof p.id === "string" ? p.id : null, parent: parentThreadOf(p.source) };
  } catch {
    return { id: null, parent: null };
  }
}

/** The bytes of the first line, read in chunks (a session_meta line is about 30 KB); null when unreadable or longer than the cap. */
function readFirstLine(file: string): Uint8Array | null {
  try {
    const fd = openRegularFile(file);
    try {
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const buf = Buffer.alloc(PROBE_BYTES);
        const n = readSync(fd, buf, 0, PROBE_BYTES, total);
        const nl = buf.subarray(0, n).indexOf(10);
        chunks.push(buf.subarray(0, nl < 0 ? n : nl));
        total += n;
        if (nl >= 0 || n === 0) return Buffer.concat(chunks);
        if (total > MAX_FIRST_LINE) return null;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

export function readHead(file: string, bytes: number): Uint8Array | null {
  try {
    const fd = openRegularFile(file);
    try {
      const buf = Buffer.alloc(Math.min(bytes, Math.max(0, statSync(file).size)));
      const n = readSync(fd, buf, 0, buf.length, 0);
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function walk(dir: string, files: string[], sink: DiagnosticSink | undefined, walking = new Set<string>()): void {
  const real = realPathOf(dir);
  walking.add(real);
  const entries = listDir(dir, "codex", sink, walking) ?? [];
  for (const entry of entries) {
    if (entry.kind === "dir") {
      if (!SKIP_DIRS.has(entry.name)) walk(entry.path, files, sink, walking);
    } else if (entry.name.endsWith(".jsonl")) {
      files.push(entry.path);
    }
  }
  walking.delete(real);
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
