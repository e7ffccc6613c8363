/**
 * One generated Claude Code session read back: its lines, timestamps, prompt
 * boundaries, API calls, and every successful file edit as a pre- and
 * post-image. The repository's commits are built from these images.
 */
import { type GeneratedSession, generateSession } from "../generate-corpus";
import { applyPatch, baseFromPatch } from "./patch";

export interface Edit {
  line: number;
  /** Repo-relative path; null outside the session's cwd (the plan file). */
  rel: string | null;
  /** null: the call created the file. */
  pre: string | null;
  post: string;
}

export interface SessionLog {
  index: number;
  id: string;
  lines: string[];
  bytes: number;
  cwd: string;
  user: string;
  model: string;
  branch: string;
  firstTs: number;
  lastTs: number;
  /** Timestamp (ms) of each line, NaN when it has none. */
  ts: Float64Array;
  /** The line where each prompt's part begins (its file-history-snapshot). */
  promptStarts: number[];
  prompts: string[];
  edits: Edit[];
  /** Main-transcript API calls: line of the first block, usage of the block with the most output. */
  calls: { line: number; input: number; output: number; cacheCreate: number; cacheRead: number }[];
  commit: { path: string; patch: string }[];
}

/** Claude Code's Edit: one occurrence; an empty new string also takes the newline after the old one. */
function replaceOnce(text: string, oldS: string, newS: string, all: boolean, what: string): string {
  if (all) return text.split(oldS).join(newS);
  const at = text.indexOf(oldS);
  if (at < 0) throw new Error(`generator bug: ${what}: old string not found`);
  const dropNl = newS === "" && !oldS.endsWith("\n") && text[at + oldS.length] === "\n";
  return text.slice(0, at) + newS + text.slice(at + oldS.length + (dropNl ? 1 : 0));
}

/** A successful file-changing tool result → pre and post image; null for anything else. */
function toEdit(tur: Record<string, any>, what: string): { abs: string; pre: string | null; post: string } | null {
  if (typeof tur.filePath !== "string") return null;
  if (typeof tur.oldString === "string" && typeof tur.originalFile === "string") {
    return {
      abs: tur.filePath,
      pre: tur.originalFile,
      post: replaceOnce(tur.originalFile, tur.oldString, tur.newString, tur.replaceAll === true, what),
    };
  }
  if (Array.isArray(tur.edits) && typeof tur.originalFileContents === "string") {
    let post: string = tur.originalFileContents;
    for (const e of tur.edits) post = replaceOnce(post, e.old_string, e.new_string, e.replace_all === true, what);
    return { abs: tur.filePath, pre: tur.originalFileContents, post };
  }
  if ((tur.type === "create" || tur.type === "update") && typeof tur.content === "string") {
    return { abs: tur.filePath, pre: tur.type === "create" ? null : (tur.originalFile as string), post: tur.content };
  }
  return null;
}

export function readSession(seed: number, index: number): SessionLog {
  return sessionLogOf(index, generateSession(seed, index));
}

/** A generated session read back from its text. */
export function sessionLogOf(index: number, s: GeneratedSession): SessionLog {
  const lines = s.text.split("\n");
  lines.pop(); // the text ends with "\n"
  const log: SessionLog = {
    index,
    id: s.id,
    lines,
    bytes: Buffer.byteLength(s.text),
    cwd: "",
    user: "dev",
    model: "",
    branch: "main",
    firstTs: NaN,
    lastTs: NaN,
    ts: new Float64Array(lines.length).fill(NaN),
    promptStarts: [],
    prompts: [],
    edits: [],
    calls: [],
    commit: s.commit,
  };
  const byMessage = new Map<string, SessionLog["calls"][number]>();
  for (let i = 0; i < lines.length; i++) {
    const r = JSON.parse(lines[i]);
    if (typeof r.timestamp === "string") {
      log.ts[i] = Date.parse(r.timestamp);
      if (Number.isNaN(log.firstTs)) log.firstTs = log.ts[i];
      log.lastTs = log.ts[i];
    }
    if (!log.cwd && typeof r.cwd === "string") {
      log.cwd = r.cwd;
      log.user = /^\/Users\/([^/]+)/.exec(r.cwd)?.[1] ?? "dev";
      log.branch = r.gitBranch ?? "main";
    }
    if (r.type === "user" && typeof r.message?.content === "string") {
      log.promptStarts.push(i > 0 && lines[i - 1].startsWith('{"type":"file-history-snapshot"') ? i - 1 : i);
      log.prompts.push(r.message.content);
    }
    if (r.type === "assistant" && r.message?.usage) {
      if (!log.model) log.model = r.message.model;
      const u = r.message.usage;
      const call = {
        line: i,
        input: u.input_tokens ?? 0,
        output: u.output_tokens ?? 0,
        cacheCreate: u.cache_creation_input_tokens ?? 0,
        cacheRead: u.cache_read_input_tokens ?? 0,
      };
      const prev = byMessage.get(r.message.id);
      if (!prev) byMessage.set(r.message.id, call);
      else if (call.output > prev.output) Object.assign(prev, { ...call, line: prev.line });
    }
    const holder =
      r.type === "user" && r.toolUseResult && typeof r.toolUseResult === "object"
        ? r
        : r.type === "progress" &&
            r.data?.type === "agent_progress" &&
            r.data.message?.type === "user" &&
            r.data.message.toolUseResult &&
            typeof r.data.message.toolUseResult === "object"
          ? r.data.message
          : null;
    if (holder === null) continue;
    const blocks = holder.message?.content;
    if (Array.isArray(blocks) && blocks.some((b: any) => b?.is_error === true)) continue;
    const e = toEdit(holder.toolUseResult, `session ${index} line ${i}`);
    if (e === null) continue;
    const rel = e.abs.startsWith(log.cwd + "/") ? e.abs.slice(log.cwd.length + 1) : null;
    log.edits.push({ line: i, rel, pre: e.pre, post: e.post });
  }
  log.calls = [...byMessage.values()];
  return log;
}

/** Each repo file's first pre-image in the log (null: created by the log). */
export function firstPres(log: SessionLog): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const e of log.edits) if (e.rel !== null && !out.has(e.rel)) out.set(e.rel, e.pre);
  return out;
}

/** Each repo file's content after the agent's last edit before `line`. */
export function statesBefore(log: SessionLog, line: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of log.edits) if (e.rel !== null && e.line < line) out.set(e.rel, e.post);
  return out;
}

/** Repo files the agent edited in lines [from, to), sorted. */
export const touched = (s: SessionLog, from: number, to: number) =>
  [...new Set(s.edits.filter((e) => e.rel !== null && e.line >= from && e.line < to).map((e) => e.rel!))].sort();

/** Base (prepare) and final (committed) text of every file of the session's commit. */
export function commitFiles(s: SessionLog): { prepare: Map<string, string | null>; final: Map<string, string> } {
  const pres = firstPres(s);
  const prepare = new Map<string, string | null>(pres);
  const final = new Map<string, string>();
  for (const { path, patch } of s.commit) {
    let base: string;
    if (pres.has(path)) base = pres.get(path) ?? "";
    else {
      base = baseFromPatch(patch, path);
      prepare.set(path, base);
    }
    final.set(path, applyPatch(base, patch, path));
  }
  return { prepare, final };
}
