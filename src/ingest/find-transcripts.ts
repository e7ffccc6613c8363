/**
 * Finding agent transcripts on disk (a folder, searched recursively, or one
 * file), each format recognised by content, and reading one with its adapter.
 */
import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { checkSessionTimes, type DiagnosticSink, type Session } from "../model";
import { type ClaudeCodeTranscriptFiles, readClaudeCodeTranscript, subagentFilesOf } from "./claude-code";
import { type CodexRolloutFiles, groupCodexRollouts, readCodexRollout } from "./codex";
import { readEntireCompactTranscript } from "./entire-compact";
import { readGeminiSession } from "./gemini";
import { listDir, realPathOf } from "./list-dir";
import { isOpenCodeStorage, listOpenCodeStorageSessions, type OpenCodeSource, readOpenCodeSession } from "./opencode";
import { readPiSession } from "./pi";
import { FormatProbe } from "./probe-format";
import { specialFileKind, specialFileMessage } from "./read-regular";

/** One session found on disk, with what its adapter needs to read it. */
export type FoundTranscript =
  | { format: "claude-code"; file: string; files: ClaudeCodeTranscriptFiles }
  | { format: "codex"; file: string; files: CodexRolloutFiles }
  | { format: "gemini"; file: string }
  | { format: "opencode"; file: string; source: OpenCodeSource }
  | { format: "pi"; file: string }
  | { format: "entire-compact"; file: string };

const SKIP_DIRS = new Set(["node_modules", ".git"]);

/**
 * Every agent transcript under a path (a folder, searched recursively, or
 * one file), each format recognised by content (detect.ts), never by name:
 * Claude Code transcripts with their `subagents/` files, Codex rollouts
 * grouped with their sub-agent threads, Gemini CLI sessions (document or
 * log), OpenCode exports and OpenCode storage folders, Pi session files.
 * Sorted by path.
 * `.jsonl` files of no known format are reported (info), other files are not.
 * `probe`: the file heads already read by this analysis (the export search reads the same ones).
 */
export function findTranscripts(path: string, sink: DiagnosticSink, probe = new FormatProbe()): FoundTranscript[] {
  const byFormat = {
    "claude-code": [] as string[],
    codex: [] as string[],
    gemini: [] as string[],
    opencode: [] as string[],
    pi: [] as string[],
    "entire-compact": [] as string[],
  };
  const storage: OpenCodeSource[] = [];
  const subagentDirs: string[] = [];
  // One file reached twice through links is read once.
  const seenFiles = new Map<string, string>();
  const sniff = (file: string, explicit: boolean) => {
    const real = realPathOf(file);
    const first = seenFiles.get(real);
    if (first !== undefined) {
      sink.add("info", "transcript-same-file", `the same file as ${first} (reached through a link): read once`, null, {
        file,
      });
      return;
    }
    seenFiles.set(real, file);
    const formats = probe.formatsOf(file);
    const format = formats.transcript;
    if (format !== "unknown") byFormat[format].push(file);
    else if (file.endsWith(".jsonl") && formats.prettyPrinted) {
      sink.add(
        "warning",
        "jsonl-pretty-printed",
        "a JSON document spread over several lines, not JSON Lines (one record per line): no transcript format reads it, so it is skipped",
        null,
        { file },
      );
    } else if (explicit || file.endsWith(".jsonl"))
      sink.add("info", "not-a-transcript", "skipped: the content looks like no known transcript format", null, {
        file,
      });
  };
  const walking = new Set<string>();
  const walk = (dir: string) => {
    if (isOpenCodeStorage(dir)) {
      for (const session of listOpenCodeStorageSessions(dir, sink)) storage.push({ kind: "storage", session });
      return;
    }
    const real = realPathOf(dir);
    walking.add(real);
    for (const entry of listDir(dir, "transcript", sink, walking) ?? []) {
      if (entry.kind === "dir") {
        if (SKIP_DIRS.has(entry.name)) continue;
        if (entry.name === "subagents") subagentDirs.push(entry.path);
        else walk(entry.path);
      } else if (entry.name.endsWith(".jsonl") || entry.name.endsWith(".json")) {
        sniff(entry.path, false);
      } else if (entry.name === "opencode.db" && !isOpenCodeStorage(join(dir, "storage"))) {
        sink.add(
          "info",
          "opencode-sqlite-not-read",
          "an OpenCode 1.2+ SQLite session database: not read by this version (only the JSON storage folder and exports are)",
          null,
          { file: entry.path },
        );
      }
    }
    walking.delete(real);
  };
  try {
    const stat = statSync(path);
    if (stat.isFile()) sniff(path, true);
    else if (stat.isDirectory()) walk(path);
    else
      sink.add(
        "warning",
        "transcript-special-file",
        specialFileMessage(specialFileKind(stat) ?? "a special file"),
        null,
        { file: path },
      );
  } catch (e) {
    sink.error("transcript-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }

  const out: FoundTranscript[] = [];
  const claimed = new Set<string>();
  for (const file of byFormat["claude-code"]) {
    claimed.add(join(dirname(file), basename(file, ".jsonl"), "subagents"));
    out.push({ format: "claude-code", file, files: { file, subagents: subagentFilesOf(file) } });
  }
  for (const dir of subagentDirs.sort()) {
    if (!claimed.has(dir))
      sink.add(
        "info",
        "claude-orphan-subagents",
        `sub-agent logs in ${dir} have no session transcript next to them; skipped`,
        null,
        { file: dir },
      );
  }
  for (const files of groupCodexRollouts(byFormat.codex.sort(), sink))
    out.push({ format: "codex", file: files.file, files });
  for (const file of byFormat.gemini) out.push({ format: "gemini", file });
  for (const file of byFormat.opencode) out.push({ format: "opencode", file, source: { kind: "export", file } });
  for (const file of byFormat.pi) out.push({ format: "pi", file });
  for (const file of byFormat["entire-compact"]) out.push({ format: "entire-compact", file });
  for (const source of storage)
    if (source.kind === "storage") out.push({ format: "opencode", file: source.session.file, source });
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Reads one found transcript with its format's adapter; its times checked against their domain. */
export function readFoundTranscript(found: FoundTranscript, sink: DiagnosticSink): Session | null {
  const session = readWithAdapter(found, sink);
  if (session) checkSessionTimes(session, sink);
  return session;
}

function readWithAdapter(found: FoundTranscript, sink: DiagnosticSink): Session | null {
  switch (found.format) {
    case "claude-code":
      return readClaudeCodeTranscript(found.files, sink);
    case "codex":
      return readCodexRollout(found.files, sink);
    case "gemini":
      return readGeminiSession(found.file, sink);
    case "opencode":
      return readOpenCodeSession(found.source, sink);
    case "pi":
      return readPiSession(found.file, sink);
    case "entire-compact":
      return readEntireCompactTranscript(found.file, sink);
  }
}
