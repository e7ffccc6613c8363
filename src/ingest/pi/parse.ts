/**
 * A Pi session file (`~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl`,
 * or Entire's `full.jsonl` for Pi) → normalised {@link Session}.
 *
 * Line 1 is the header `{type: "session", version, id, timestamp, cwd}`; every
 * other line is an entry of the conversation tree (`id`, `parentId`). Records
 * are lines (`record` = 1-based line). Everything is read in file order,
 * whichever branch it is on (tree.ts): prompts are the `user` messages'
 * text; an assistant message is one API call (its `usage`) and holds the
 * `toolCall` parts; a `toolResult` message (matched by `toolCallId`) gives
 * the outcome (`isError`) and, for write/edit, the file edits
 * (file-edits.ts). Codes and sources in README.md.
 */
import { DiagnosticSink, SESSION_FORMAT_VERSION, type ApiCall, type Session, type ToolCall, type Turn } from "../../model";
import { readJsonl } from "../jsonl";
import { emptyPiEditNotes, PI_FILE_TOOLS, piFileEdits } from "./file-edits";
import { entrySchema, headerSchema, KNOWN_ENTRY_TYPES, messageSchema, partSchema, type PiHeader, type PiMessage } from "./schema";
import { activeBranch, type TreeNode } from "./tree";
import { normalisePiUsage } from "./usage";

export interface PiSessionInput {
  text: string | Uint8Array;
  file: string | null;
}

/** The tools Pi ships (packages/coding-agent/src/core/tools/index.ts); extensions may register others. */
export const PI_BUILTIN_TOOLS = new Set(["read", "bash", "edit", "write", "grep", "find", "ls"]);
/** Pi's own text for the calls it skipped because the person typed while they were queued (agent-loop.ts `skipToolCall`). */
const SKIPPED = "Skipped due to queued user message.";
const ERROR_MAX = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const shorten = (s: string): string => (s.length > ERROR_MAX ? `${s.slice(0, ERROR_MAX - 1)}…` : s);
const isoOf = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Text parts of a content value (a string, or an array of `{type: "text", text}` parts), joined by newlines; images counted. */
function textOf(content: unknown): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: "", images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const raw of content) {
    const p = partSchema.safeParse(raw).data;
    if (p?.type === "text" && typeof p.text === "string") texts.push(p.text);
    else if (p?.type === "image") images++;
  }
  return { text: texts.join("\n"), images };
}

/** `<timestamp>_<uuid>.jsonl` → the uuid (Pi's file name; Entire's `extractSessionIDFromPath` does the same). */
export function piSessionIdFromFileName(file: string): string {
  const base = file.split(/[\\/]/).pop()!.replace(/\.jsonl?$/, "");
  const under = base.lastIndexOf("_");
  return under >= 0 && under < base.length - 1 ? base.slice(under + 1) : base;
}

export function parsePiSession(input: PiSessionInput, sink: DiagnosticSink): Session | null {
  const fileExtra = input.file !== null ? { file: input.file } : {};
  const { records, stats } = readJsonl(input.text, sink);
  if (records.length === 0 || stats.prettyPrinted) {
    sink.add("error", "pi-no-records", "no Pi session entries (one JSON object per line) in the file", null, fileExtra);
    return null;
  }
  const counts = new Map<string, { count: number; first: number | null; what: string; severity: "info" | "warning" }>();
  const note: Note = (code, record, what, severity = "info", by = 1) => {
    if (by <= 0) return;
    const c = counts.get(code);
    if (c) c.count += by;
    else counts.set(code, { count: by, first: record, what, severity });
  };
  let header: PiHeader | null = null;
  const turns: Turn[] = [];
  const calls: ToolCall[] = [];
  const apiCalls: ApiCall[] = [];
  const times: number[] = [];
  const nodes: TreeNode[] = [];
  /** Entry ids of the prompts and of each call's assistant message, for the active-branch report. */
  const promptEntries: string[] = [];
  const callEntries = new Map<ToolCall, string>();
  /** Calls waiting for their result, by toolCallId, in file order. */
  const open = new Map<string, ToolCall[]>();
  const unknownTypes = new Map<string, number>();
  let firstUnknown: number | null = null;
  const unknownTools = new Set<string>();
  const editNotes = emptyPiEditNotes();
  let model: string | null = null;

  for (const [i, { line, value }] of records.entries()) {
    const h = headerSchema.safeParse(value);
    if (h.success) {
      if (header === null && i === 0) header = h.data;
      else note("pi-extra-header", line, "session header(s) after line 1 (files joined together?): ignored", "warning");
      const t = Date.parse(h.data.timestamp ?? "");
      if (Number.isFinite(t)) times.push(t);
      continue;
    }
    const e = entrySchema.parse(value);
    const msg = e.type === "message" && isObject(e.message) ? messageSchema.parse(e.message) : null;
    let ms = Date.parse(e.timestamp ?? "");
    if (!Number.isFinite(ms)) ms = typeof msg?.timestamp === "number" && Number.isFinite(msg.timestamp) ? msg.timestamp : NaN;
    const at = Number.isFinite(ms) ? ms : null;
    if (at !== null) times.push(at);
    if (typeof e.id === "string") nodes.push({ id: e.id, parentId: typeof e.parentId === "string" ? e.parentId : null });
    const type = e.type ?? "(none)";
    if (!KNOWN_ENTRY_TYPES.has(type)) {
      unknownTypes.set(type, (unknownTypes.get(type) ?? 0) + 1);
      firstUnknown ??= line;
      continue;
    }
    if (type === "model_change") {
      if (typeof e.modelId === "string") model = e.modelId;
      continue;
    }
    if (type === "compaction") note("pi-compaction", line, "compaction entr(ies): a model-written summary of earlier messages, not a prompt (the earlier entries stay in the file and are counted once)");
    if (type === "branch_summary") note("pi-branch-summary", line, "branch summar(ies) written when the person went back in the conversation: not prompts");
    if (type === "custom_message") note("pi-custom-message", line, "extension message(s) sent to the model as context (custom_message): not prompts");
    if (type !== "message") continue;
    if (msg === null) {
      note("pi-invalid-message", line, "message entr(ies) without a message object: skipped", "warning");
      continue;
    }
    const role = msg.role ?? "(none)";
    if (role === "user") {
      const { text, images } = textOf(msg.content);
      if (text.trim() === "" && images === 0) note("pi-empty-prompt", line, "user message(s) with no text: not counted as prompts");
      else {
        turns.push({ index: turns.length, text, timestamp: isoOf(at), record: line });
        if (typeof e.id === "string") promptEntries.push(e.id);
      }
    } else if (role === "assistant") {
      assistant(msg, e.id, line, at);
    } else if (role === "toolResult") {
      toolResult(msg, line);
    } else if (role === "bashExecution") {
      note("pi-user-bash", line, "shell command(s) the person ran with `!` (bashExecution): not agent calls; files they change show as outside or human lines");
    } else if (role === "custom" || role === "hookMessage" || role === "branchSummary" || role === "compactionSummary") {
      note("pi-context-message", line, "message(s) of role custom, hookMessage, branchSummary or compactionSummary (written by Pi or an extension, not typed): not prompts");
    } else note("pi-unknown-role", line, `message(s) of a role this adapter does not know (${role}): skipped`, "warning");
  }

  function assistant(msg: PiMessage, entryId: string | undefined, line: number, at: number | null): void {
    const callModel = msg.model ?? model;
    if (msg.model === undefined && model !== null) note("pi-model-from-change", line, "assistant message(s) without a model: the last model_change names it");
    if (msg.stopReason === "error" || msg.stopReason === "aborted") note("pi-assistant-stopped", line, `assistant message(s) that ended in an error or were aborted (first: ${shorten(msg.errorMessage ?? msg.stopReason)}): their tool calls did not run`);
    if (msg.usage) {
      const { usage, cacheInInput } = normalisePiUsage(msg.usage);
      if (cacheInInput) note("pi-input-includes-cache", line, "usage(s) whose input includes the cache reads (totalTokens = input + output: Pi's google/google-vertex providers): cache reads subtracted from input");
      if (usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_creation_tokens === 0) note("pi-zero-usage", line, "assistant message(s) with all token counts 0 (a failed or aborted request): not counted as API calls");
      else apiCalls.push({ id: entryId ?? `line:${line}`, model: callModel, timestamp: isoOf(at), record: line, sidechain: false, usage, speed: null });
    } else note("pi-no-usage", line, "assistant message(s) without usage: no API call counted", "warning");
    if (!Array.isArray(msg.content)) return;
    for (const raw of msg.content) {
      const p = partSchema.safeParse(raw).data;
      if (p?.type !== "toolCall") continue;
      const name = p.name ?? "(unnamed)";
      if (!PI_BUILTIN_TOOLS.has(name)) unknownTools.add(name);
      const call: ToolCall = { id: p.id ?? `${line}:${calls.length}`, name, input: p.arguments ?? null, timestamp: isoOf(at), record: line, result_record: null, success: null, error: null, sidechain: false, file_edits: [] };
      calls.push(call);
      if (entryId !== undefined) callEntries.set(call, entryId);
      const waiting = open.get(call.id);
      if (waiting) waiting.push(call);
      else open.set(call.id, [call]);
    }
  }

  function toolResult(msg: PiMessage, line: number): void {
    const call = msg.toolCallId === undefined ? undefined : open.get(msg.toolCallId)?.shift();
    if (!call) {
      note("pi-orphan-result", line, "tool result(s) with no earlier call of that toolCallId: skipped", "warning");
      return;
    }
    call.result_record = line;
    const { text } = textOf(msg.content);
    if (msg.isError === undefined) {
      note("pi-result-without-status", line, "tool result(s) without isError: outcome unknown", "warning");
      return;
    }
    call.success = !msg.isError;
    if (msg.isError) {
      call.error = shorten(text);
      if (text === SKIPPED) note("pi-tool-skipped", line, "tool call(s) Pi skipped because the person typed a message meanwhile (failed, never run)");
      return;
    }
    if (!PI_FILE_TOOLS.has(call.name)) return;
    const { edits, problem } = piFileEdits(call.name, call.input, msg.details, editNotes);
    call.file_edits = edits;
    if (problem) note("pi-edit-incomplete", line, `successful write/edit call(s) with missing fields (first: ${problem}): not replayable`, "warning");
  }

  for (const waiting of open.values()) for (const c of waiting) note("pi-tool-no-result", c.record, "tool call(s) with no tool result in the file (aborted, or the file ends first): outcome unknown, not replayed", "warning");
  if (unknownTools.size > 0) note("pi-unknown-tool", null, `call(s) of tools Pi does not ship (${[...unknownTools].sort().join(", ")}; from extensions): kept as calls, any files they change are not replayed`);
  note("pi-edit-from-patch", null, "edit call(s) replayed from the unified diff Pi logged (details.patch)", "info", editNotes.fromPatch);
  note("pi-multi-edit-order", null, "multi-edit call(s) where a newText holds a later oldText: Pi matches all edits on the original text, replay applies them in order and may place a later one inside an earlier replacement", "warning", editNotes.orderSensitive);
  note("pi-patch-not-used", null, "edit call(s) whose logged patch has a line starting ---/+++ (read as a file header by diff readers): the edits were re-applied instead", "info", editNotes.patchHeaderLike);
  if (unknownTypes.size > 0) {
    const list = [...unknownTypes].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([t, k]) => `${t} ×${k}`);
    let total = 0;
    for (const k of unknownTypes.values()) total += k;
    note("pi-unknown-entry-type", firstUnknown, `entr(ies) of a type this adapter does not know (${list.join(", ")}): skipped`, "warning", total);
  }

  const version = header?.version ?? null;
  if (header === null) note("pi-no-header", null, "no session header on line 1: session id from the file name, no cwd", "warning");
  else if (version === null || version < 2) note("pi-old-version", 1, `session format version ${version ?? 1} (no conversation tree; Pi migrates such files when it opens them)`);
  if (header?.parentSession) note("pi-forked-session", 1, `a session forked from ${header.parentSession}: its copied history is counted here too (and again in that file, when both are read)`, "warning");
  for (const [code, c] of counts) sink.add(c.severity, code, `${c.count} ${c.what}${c.first !== null ? `; first at line ${c.first}` : ""}`, c.first, fileExtra);
  const branched = branchReport(nodes, promptEntries, callEntries, apiCalls);
  if (branched !== null) sink.add("info", "pi-branched", branched, null, fileExtra);

  const sessionId = header?.id ?? piSessionIdFromFileName(input.file ?? "pi-session");
  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: "pi",
    agent: "Pi",
    agent_version: null,
    transcript: input.file,
    cwds: header?.cwd ? [header.cwd] : [],
    branch: null,
    turns,
    tool_calls: calls,
    api_calls: apiCalls,
    record_times: times.sort((a, b) => a - b),
    record_count: stats.lines,
  };
}

type Note = (code: string, record: number | null, what: string, severity?: "info" | "warning", by?: number) => void;

/** How much lies off the active branch (tree.ts), counted all the same; null when nothing does. */
function branchReport(nodes: readonly TreeNode[], prompts: readonly string[], calls: Map<ToolCall, string>, api: readonly ApiCall[]): string | null {
  const active = activeBranch(nodes);
  if (active === null) return null;
  const off = nodes.filter((n) => !active.has(n.id)).length;
  if (off === 0) return null;
  const offPrompts = prompts.filter((id) => !active.has(id)).length;
  let offCalls = 0;
  for (const id of calls.values()) if (!active.has(id)) offCalls++;
  const offApi = api.filter((c) => !active.has(c.id)).length;
  return `branched conversation: ${off} of ${nodes.length} entries lie off the active branch (the path from the last entry to the root), among them ${offPrompts} prompt(s), ${offCalls} tool call(s) and ${offApi} API call(s); all are counted (files written there stay written, every call was billed), while Entire's Pi agent counts prompts and tokens on the active branch only`;
}
