/**
 * Just enough of Claude Code and Codex transcripts (Gemini CLI sessions: gemini.ts) to list the successful file-changing calls in
 * the order of their result records (metrics.md §3; formats.md §2.4–2.6, §3.1–3.2).
 *
 * Nothing here computes a line: a call keeps what the log says (pre-image, post-image, string edits,
 * unified diff) and replay.ts decides.
 */
import { parseGeminiTranscript } from "./gemini";
import { isPiSession, parsePiTranscript } from "./pi";

export interface StringEdit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
  /** Gemini's `replace`: the text read with CRLF as LF, every occurrence replaced literally (gemini-cli edit.ts). */
  gemini?: boolean;
}

export interface FileChange {
  callId: string;
  tool: string;
  /** 0-based line of the record that carries the call's result: the slice test and the order (metrics.md §3). */
  resultLine: number;
  /** Position of the change inside its result record (several tool_result blocks, several files in one patch). */
  order: number;
  /** The path as logged (absolute, or relative to `cwd`). */
  path: string;
  cwd: string | null;
  /** Content before the call when the log records it (Claude `originalFile`, `originalFileContents`; "" for Write create). */
  preImage: string | null;
  /** Content after the call when the log records it (Claude Write `content`, Codex `add`). */
  postImage: string | null;
  /** Edits to re-apply to the pre-image (or to the replayed state when there is none). */
  stringEdits: StringEdit[] | null;
  /** Codex `patch_apply_end` update: a unified diff without file headers. */
  unifiedDiff: string | null;
  deleted: boolean;
  /** Codex rename target. */
  movePath: string | null;
  /** Claude `userModified: true`: the person rewrote the proposed edit, so the inserted text is human (metrics.md §3). */
  userModified: boolean;
  /** Set when the log has no way to replay the call at all. */
  unreplayable: string | null;
  /** Pi's edit: the post-image from the replayed text (null: it does not apply), pi.ts. */
  apply?: (before: string) => string | null;
  /** Groups (metrics.md §1b) order sessions' calls by the time of their result: the result record's timestamp (Claude Code, Codex). */
  resultTime?: string | null;
  /** The tool_use record's timestamp (Claude Code): the time when the result has none. */
  callTime?: string | null;
}

export interface ParsedTranscript {
  format: "claude-code" | "codex" | "gemini" | "pi" | "unknown";
  /** Number of JSONL lines (the unit of `checkpoint_transcript_start`); for Gemini, of messages. */
  lineCount: number;
  badLines: number;
  calls: FileChange[];
  /** Working directories the log names, in order of appearance. */
  cwds: string[];
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** metrics.md §3 "Calls that count as file changes" (Claude Code). */
const CLAUDE_FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__acp__Write", "mcp__acp__Edit"]);

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function parseLines(text: string): { records: (Json | null)[]; bad: number } {
  let bad = 0;
  const records = splitLines(text).map((line) => {
    try {
      const v = JSON.parse(line);
      return isObj(v) ? v : ((bad += 1), null);
    } catch {
      bad += 1;
      return null;
    }
  });
  return { records, bad };
}

/** Format by content, not by Entire's `agent` label (formats.md §1.7, §12.1). */
export function detectFormat(records: (Json | null)[]): "claude-code" | "codex" | "unknown" {
  let codex = 0;
  let claude = 0;
  for (const r of records.slice(0, 200)) {
    if (!r) continue;
    if (isObj(r.payload) && typeof r.type === "string") codex += 1;
    else if (typeof r.type === "string" && ("sessionId" in r || "uuid" in r || "message" in r || "snapshot" in r))
      claude += 1;
  }
  if (codex === 0 && claude === 0) return "unknown";
  return codex > claude ? "codex" : "claude-code";
}

export function parseTranscript(text: string): ParsedTranscript {
  const { records, bad } = parseLines(text);
  // Pi's entries carry `message` as Claude's do: its header tells them apart (pi.ts).
  if (isPiSession(records)) return parsePiTranscript(text)!;
  const format = detectFormat(records);
  const base = { format, lineCount: records.length, badLines: bad };
  if (format === "claude-code") return { ...base, ...claudeCalls(records) };
  if (format === "codex") return { ...base, ...codexCalls(records) };
  return parseGeminiTranscript(text) ?? { ...base, calls: [], cwds: [] };
}

function blankChange(
  callId: string,
  tool: string,
  resultLine: number,
  order: number,
  path: string,
  cwd: string | null,
): FileChange {
  return {
    callId,
    tool,
    resultLine,
    order,
    path,
    cwd,
    preImage: null,
    postImage: null,
    stringEdits: null,
    unifiedDiff: null,
    deleted: false,
    movePath: null,
    userModified: false,
    unreplayable: null,
  };
}

/**
 * Claude Code 1.x and 2.x. Tool uses come from top-level `assistant` records (2.x streams one record
 * per content block: the union of blocks holds each tool_use once) and from sub-agent messages nested
 * in `progress` records with `data.type == "agent_progress"`; 1.x sidechain records are ordinary
 * records with `isSidechain` (metrics.md §3, formats.md §2.4, §2.6).
 */
function claudeCalls(records: (Json | null)[]): { calls: FileChange[]; cwds: string[] } {
  const uses = new Map<string, { name: string; input: Json; time: string | null }>();
  const cwds: string[] = [];
  // The (message record, record holding toolUseResult) pairs, top level and nested.
  const messages = (r: Json): Json[] => {
    const out: Json[] = [r];
    const data = r.data;
    if (r.type === "progress" && isObj(data) && data.type === "agent_progress" && isObj(data.message))
      out.push(data.message);
    return out;
  };
  records.forEach((r) => {
    if (!r) return;
    const cwd = str(r.cwd);
    if (cwd && cwds[cwds.length - 1] !== cwd) cwds.push(cwd);
    for (const m of messages(r)) {
      if (m.type !== "assistant" || !isObj(m.message) || !Array.isArray(m.message.content)) continue;
      for (const b of m.message.content) {
        if (
          isObj(b) &&
          b.type === "tool_use" &&
          typeof b.id === "string" &&
          typeof b.name === "string" &&
          !uses.has(b.id)
        ) {
          uses.set(b.id, {
            name: b.name,
            input: isObj(b.input) ? b.input : {},
            time: str(m.timestamp) ?? str(r.timestamp),
          });
        }
      }
    }
  });

  const seen = new Set<string>();
  const calls: FileChange[] = [];
  let lastCwd: string | null = null;
  records.forEach((r, line) => {
    if (!r) return;
    lastCwd = str(r.cwd) ?? lastCwd;
    let order = 0;
    for (const m of messages(r)) {
      if (m.type !== "user" || !isObj(m.message) || !Array.isArray(m.message.content)) continue;
      const results = m.message.content.filter((b): b is Json => isObj(b) && b.type === "tool_result");
      for (const block of results) {
        const id = str(block.tool_use_id);
        if (!id || seen.has(id)) continue;
        const use = uses.get(id);
        if (!use || !CLAUDE_FILE_TOOLS.has(use.name)) continue;
        seen.add(id);
        const tur = m.toolUseResult;
        // Success only if the result says so: no is_error, no string toolUseResult (metrics.md §3).
        if (block.is_error === true || typeof tur === "string") continue;
        const input = use.input;
        const path = str(input.file_path) ?? str(input.notebook_path) ?? (isObj(tur) ? str(tur.filePath) : null);
        if (!path) continue;
        // toolUseResult belongs to the record; trust it for this call only when it is unambiguous.
        const result = isObj(tur) && (results.length === 1 || str(tur.filePath) === path) ? tur : null;
        const change = claudeChange(id, use.name, input, result, line, order++, path, str(m.cwd) ?? lastCwd);
        change.resultTime = str(m.timestamp) ?? str(r.timestamp);
        change.callTime = use.time;
        calls.push(change);
      }
    }
  });
  return { calls, cwds };
}

function claudeChange(
  id: string,
  tool: string,
  input: Json,
  tur: Json | null,
  line: number,
  order: number,
  path: string,
  cwd: string | null,
): FileChange {
  const c = blankChange(id, tool, line, order, path, cwd);
  c.userModified = tur?.userModified === true;
  if (tool === "Write" || tool === "mcp__acp__Write") {
    // §3.1: "A Write with type: create has the empty pre-image"; 2.x `update` logs originalFile.
    if (tur?.type === "create") c.preImage = "";
    else if (typeof tur?.originalFile === "string") c.preImage = tur.originalFile;
    // §3.2: Write → toolUseResult.content, else the input.
    c.postImage = str(tur?.content) ?? str(input.content);
    if (c.postImage === null) c.unreplayable = "Write without content";
    return c;
  }
  if (tool === "Edit" || tool === "mcp__acp__Edit") {
    if (typeof tur?.originalFile === "string") c.preImage = tur.originalFile;
    // §3.2: toolUseResult.oldString → newString (replaceAll) applied to originalFile; else the input's strings.
    const oldString = str(tur?.oldString) ?? str(input.old_string);
    const newString = str(tur?.newString) ?? str(input.new_string);
    const replaceAll = typeof tur?.replaceAll === "boolean" ? tur.replaceAll : input.replace_all === true;
    if (oldString === null || newString === null) c.unreplayable = "Edit without old/new string";
    else c.stringEdits = [{ oldString, newString, replaceAll }];
    return c;
  }
  if (tool === "MultiEdit") {
    if (typeof tur?.originalFileContents === "string") c.preImage = tur.originalFileContents;
    const edits = Array.isArray(tur?.edits) ? tur.edits : Array.isArray(input.edits) ? input.edits : null;
    const parsed = (edits ?? []).map((e: unknown) =>
      isObj(e) && typeof e.old_string === "string" && typeof e.new_string === "string"
        ? { oldString: e.old_string, newString: e.new_string, replaceAll: e.replace_all === true }
        : null,
    );
    if (!edits || parsed.some((e) => e === null)) c.unreplayable = "MultiEdit without edits";
    else c.stringEdits = parsed as StringEdit[];
    return c;
  }
  // NotebookEdit changes one cell of the notebook JSON; no real sample exists (formats.md §12.10).
  c.unreplayable = `${tool}: the reference does not rebuild notebook JSON`;
  return c;
}

/**
 * Codex rollouts: a successful `apply_patch` is a `patch_apply_end` event with `success: true`; its
 * `changes` are the tool's own record of the result (metrics.md §3.2). Calls that failed
 * verification have no `patch_apply_end` (seen in the dev mirror) and are skipped.
 */
function codexCalls(records: (Json | null)[]): { calls: FileChange[]; cwds: string[] } {
  const cwds: string[] = [];
  const calls: FileChange[] = [];
  const seen = new Set<string>();
  const patchCalls = new Map<string, number>(); // call_id -> line of custom_tool_call
  const outputs = new Map<string, { line: number; text: string }>();
  const callIds = new Set<string>(); // every call's call_id: a FileChange item carrying one is that call's record
  let cwd: string | null = null;
  records.forEach((r, line) => {
    if (!r || !isObj(r.payload)) return;
    const p = r.payload;
    if ((r.type === "session_meta" || r.type === "turn_context") && typeof p.cwd === "string") {
      cwd = p.cwd;
      if (cwds[cwds.length - 1] !== cwd) cwds.push(cwd);
    }
    if (p.type === "custom_tool_call" && p.name === "apply_patch" && typeof p.call_id === "string")
      patchCalls.set(p.call_id, line);
    if (
      (p.type === "custom_tool_call" || p.type === "function_call" || p.type === "local_shell_call") &&
      typeof p.call_id === "string"
    )
      callIds.add(p.call_id);
    if (p.type === "custom_tool_call_output" && typeof p.call_id === "string")
      outputs.set(p.call_id, { line, text: String(p.output ?? "") });
    // Codex 0.149+ writes a file change as an `item_completed` event holding a `FileChange` item
    // ({id, status, changes}): the same record as patch_apply_end, by another name (in Code Mode, one
    // per `tools.apply_patch` inside an `exec` call, each with an id of its own).
    const fc = p.type === "item_completed" && isObj(p.item) && p.item.type === "FileChange" ? p.item : null;
    // A direct apply_patch's item carries its call's id (and may repeat its patch_apply_end: one change);
    // an item nested in a Code Mode call has an id of its own, which need not be unique in the file.
    const id = fc ? (typeof fc.id === "string" && callIds.has(fc.id) ? fc.id : `${String(fc.id)}@${line}`) : p.call_id;
    if ((p.type !== "patch_apply_end" && !fc) || typeof id !== "string" || seen.has(id)) return;
    seen.add(id);
    const ok = fc ? fc.status === "completed" : p.success === true;
    const changes = fc ? fc.changes : p.changes;
    if (!ok || !isObj(changes)) return;
    let order = 0;
    for (const path of Object.keys(changes)) {
      const ch = changes[path];
      if (!isObj(ch)) continue;
      const c = blankChange(id, "apply_patch", line, order++, path, cwd);
      c.resultTime = str(r.timestamp);
      if (ch.type === "add") c.postImage = str(ch.content) ?? "";
      else if (ch.type === "delete") {
        // §3.1: the content a delete logs is the file before the call, a pre-image like Claude Code's originalFile.
        c.deleted = true;
        c.preImage = str(ch.content);
      } else if (ch.type === "update") {
        c.unifiedDiff = str(ch.unified_diff) ?? "";
        c.movePath = str(ch.move_path);
      } else c.unreplayable = `unknown change type ${String(ch.type)}`;
      calls.push(c);
    }
  });
  // An apply_patch reported successful without a patch_apply_end cannot be replayed from its record:
  // count it rather than drop it (the reference does not re-locate patch hunks by context).
  for (const [id] of patchCalls) {
    const out = outputs.get(id);
    if (seen.has(id) || !out || !/Success\. Updated the following files/.test(out.text)) continue;
    const c = blankChange(id, "apply_patch", out.line, 0, "", cwd);
    c.unreplayable = "apply_patch without patch_apply_end";
    calls.push(c);
  }
  calls.sort((a, b) => a.resultLine - b.resultLine || a.order - b.order);
  return { calls, cwds };
}
