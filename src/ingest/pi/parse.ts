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
 * (file-edits.ts). A fork's copied history is not counted (fork.ts); an
 * entry appended after a line cut off by a crash is recovered (recover.ts);
 * a `pi -p --mode json` stream is read from its `message_end` events. Codes
 * and sources in README.md.
 */
import {
  type DiagnosticSink,
  SESSION_FORMAT_VERSION,
  type ApiCall,
  type Session,
  type ToolCall,
  type Turn,
  isoTime,
} from "../../model";
import { readJsonl } from "../jsonl";
import { emptyPiEditNotes, PI_FILE_TOOLS, piFileEdits } from "./file-edits";
import { copiedHistory } from "./fork";
import { recoverEntriesAfterCuts } from "./recover";
import {
  entrySchema,
  headerSchema,
  KNOWN_ENTRY_TYPES,
  messageSchema,
  partSchema,
  type PiHeader,
  type PiMessage,
} from "./schema";
import { branchReport, type TreeNode } from "./tree";
import { normalisePiUsage } from "./usage";

export interface PiSessionInput {
  text: string | Uint8Array;
  file: string | null;
}

/** The tools Pi ships (packages/coding-agent/src/core/tools/index.ts); extensions may register others. */
export const PI_BUILTIN_TOOLS = new Set(["read", "bash", "edit", "write", "grep", "find", "ls"]);
/** Pi's own text for the calls it skipped because the person typed while they were queued (agent-loop.ts `skipToolCall`). */
const SKIPPED = "Skipped due to queued user message.";
/**
 * Events `pi -p --mode json` prints after the session header (modes/print-mode.ts: every AgentSessionEvent).
 * The messages are read from `message_end` (complete, once each); the others repeat them or say nothing new.
 */
const PRINT_MODE_EVENTS = new Set([
  "agent_start",
  "agent_end",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_compaction_start",
  "auto_compaction_end",
  "auto_retry_start",
  "auto_retry_end",
]);
const ERROR_MAX = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const shorten = (s: string): string => (s.length > ERROR_MAX ? `${s.slice(0, ERROR_MAX - 1)}…` : s);
const isoOf = isoTime;

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
  const base = file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.jsonl?$/, "");
  const under = base.lastIndexOf("_");
  return under >= 0 && under < base.length - 1 ? base.slice(under + 1) : base;
}

export function parsePiSession(input: PiSessionInput, sink: DiagnosticSink): Session | null {
  const fileExtra = input.file !== null ? { file: input.file } : {};
  const before = sink.rows.length;
  const { records, stats } = readJsonl(input.text, sink);
  const unread = sink.rows
    .slice(before)
    .filter((r) => (r.code === "jsonl-invalid-line" || r.code === "jsonl-truncated") && r.record !== null);
  const recovered = stats.prettyPrinted
    ? []
    : recoverEntriesAfterCuts(
        input.text,
        records,
        unread.map((r) => r.record as number),
      );
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
  const callIds = new Set<string>();
  const unknownTypes = new Map<string, number>();
  let firstUnknown: number | null = null;
  const unknownTools = new Set<string>();
  const editNotes = emptyPiEditNotes();
  let model: string | null = null;
  const first = headerSchema.safeParse(records[0].value);
  const copied = copiedHistory(records, first.success ? first.data : null);
  const cwd = first.success ? (first.data.cwd ?? null) : null;

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
    if (copied !== null && i < copied.end) {
      // The parent's history, copied by the fork: part of this file's tree, counted in the parent's file.
      if (typeof e.id === "string")
        nodes.push({ id: e.id, parentId: typeof e.parentId === "string" ? e.parentId : null });
      if (e.type === "model_change" && typeof e.modelId === "string") model = e.modelId;
      continue;
    }
    const isEvent = e.type === "message_end";
    const msg = (e.type === "message" || isEvent) && isObject(e.message) ? messageSchema.parse(e.message) : null;
    let ms = Date.parse(e.timestamp ?? "");
    if (!Number.isFinite(ms))
      ms = typeof msg?.timestamp === "number" && Number.isFinite(msg.timestamp) ? msg.timestamp : NaN;
    const at = Number.isFinite(ms) ? ms : null;
    if (at !== null) times.push(at);
    if (typeof e.id === "string")
      nodes.push({ id: e.id, parentId: typeof e.parentId === "string" ? e.parentId : null });
    const type = isEvent ? "message" : (e.type ?? "(none)");
    if (PRINT_MODE_EVENTS.has(type) || isEvent) {
      note(
        "pi-print-mode-events",
        line,
        "event line(s) of `pi -p --mode json` output: messages read from message_end events, the other events skipped (they repeat them); if Pi also saved the session, its session file holds the same messages: read one of the two",
      );
      if (!isEvent) continue;
    }
    if (!KNOWN_ENTRY_TYPES.has(type)) {
      unknownTypes.set(type, (unknownTypes.get(type) ?? 0) + 1);
      firstUnknown ??= line;
      continue;
    }
    if (type === "model_change") {
      if (typeof e.modelId === "string") model = e.modelId;
      continue;
    }
    if (type === "compaction")
      note(
        "pi-compaction",
        line,
        "compaction entr(ies): a model-written summary of earlier messages, not a prompt (the earlier entries stay in the file and are counted once; the summarising model call's tokens are not logged)",
      );
    if (type === "branch_summary")
      note(
        "pi-branch-summary",
        line,
        "branch summar(ies) written when the person went back in the conversation: not prompts (a summarising model call's tokens, when Pi made one, are not logged)",
      );
    if (type === "custom_message")
      note(
        "pi-custom-message",
        line,
        "extension message(s) sent to the model as context (custom_message): not prompts",
      );
    if (type !== "message") continue;
    if (msg === null) {
      note("pi-invalid-message", line, "message entr(ies) without a message object: skipped", "warning");
      continue;
    }
    const role = msg.role ?? "(none)";
    if (role === "user") {
      const { text, images } = textOf(msg.content);
      if (text.trim() === "" && images === 0)
        note("pi-empty-prompt", line, "user message(s) with no text: not counted as prompts");
      else {
        turns.push({ index: turns.length, text, timestamp: isoOf(at), record: line });
        if (typeof e.id === "string") promptEntries.push(e.id);
      }
    } else if (role === "assistant") {
      assistant(msg, e.id, line, at);
    } else if (role === "toolResult") {
      toolResult(msg, line);
    } else if (role === "bashExecution") {
      note(
        "pi-user-bash",
        line,
        "shell command(s) the person ran with `!` (bashExecution): not agent calls; files they change show as outside or human lines",
      );
    } else if (
      role === "custom" ||
      role === "hookMessage" ||
      role === "branchSummary" ||
      role === "compactionSummary"
    ) {
      note(
        "pi-context-message",
        line,
        "message(s) of role custom, hookMessage, branchSummary or compactionSummary (written by Pi or an extension, not typed): not prompts",
      );
    } else
      note("pi-unknown-role", line, `message(s) of a role this adapter does not know (${role}): skipped`, "warning");
  }

  function assistant(msg: PiMessage, entryId: string | undefined, line: number, at: number | null): void {
    const callModel = msg.model ?? model;
    if (msg.model === undefined && model !== null)
      note("pi-model-from-change", line, "assistant message(s) without a model: the last model_change names it");
    if (msg.stopReason === "error" || msg.stopReason === "aborted")
      note(
        "pi-assistant-stopped",
        line,
        `assistant message(s) that ended in an error or were aborted (first: ${shorten(msg.errorMessage ?? msg.stopReason)}): their tool calls did not run`,
      );
    if (msg.usage) {
      const { usage, cacheInInput } = normalisePiUsage(msg.usage);
      if (cacheInInput)
        note(
          "pi-input-includes-cache",
          line,
          "usage(s) whose input includes the cache reads (totalTokens = input + output: Pi's google/google-vertex providers): cache reads subtracted from input",
        );
      if (usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_creation_tokens === 0)
        note(
          "pi-zero-usage",
          line,
          "assistant message(s) with all token counts 0 (a failed or aborted request): not counted as API calls",
        );
      else
        apiCalls.push({
          id: entryId ?? `line:${line}`,
          model: callModel,
          timestamp: isoOf(at),
          record: line,
          sidechain: false,
          usage,
          speed: null,
        });
    } else note("pi-no-usage", line, "assistant message(s) without usage: no API call counted", "warning");
    if (!Array.isArray(msg.content)) return;
    for (const raw of msg.content) {
      const p = partSchema.safeParse(raw).data;
      if (p?.type !== "toolCall") continue;
      const name = p.name ?? "(unnamed)";
      if (!PI_BUILTIN_TOOLS.has(name)) unknownTools.add(name);
      // Results name their call by toolCallId; replay and the tables key calls by id, which must be unique in the
      // session: an OpenAI-compatible server may send "" or reuse "call_0" (openai-completions.ts `toolCall.id || ""`).
      const key = p.id ?? `${line}:${calls.length}`;
      let id = key;
      if (id === "" || callIds.has(id)) {
        id = `${key}@${line}:${calls.length}`;
        note(
          "pi-tool-call-id-repeated",
          line,
          "tool call(s) whose id is empty or was used by an earlier call: renamed <id>@<line>:<n> (results still matched by the logged id, in order)",
          "warning",
        );
      }
      callIds.add(id);
      const call: ToolCall = {
        id,
        name,
        input: p.arguments ?? null,
        timestamp: isoOf(at),
        record: line,
        result_record: null,
        success: null,
        error: null,
        sidechain: false,
        file_edits: [],
      };
      calls.push(call);
      if (entryId !== undefined) callEntries.set(call, entryId);
      const waiting = open.get(key);
      if (waiting) waiting.push(call);
      else open.set(key, [call]);
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
      if (text === SKIPPED)
        note(
          "pi-tool-skipped",
          line,
          "tool call(s) Pi skipped because the person typed a message meanwhile (failed, never run)",
        );
      return;
    }
    if (!PI_FILE_TOOLS.has(call.name)) return;
    const { edits, problem } = piFileEdits(call.name, call.input, msg.details, editNotes, cwd);
    call.file_edits = edits;
    if (problem)
      note(
        "pi-edit-incomplete",
        line,
        `successful write/edit call(s) with missing fields (first: ${problem}): not replayable`,
        "warning",
      );
  }

  for (const waiting of open.values())
    for (const c of waiting)
      note(
        "pi-tool-no-result",
        c.record,
        "tool call(s) with no tool result in the file (aborted, or the file ends first): outcome unknown, not replayed",
        "warning",
      );
  // Successful file calls of one assistant message (one record), per path.
  const perMessage = new Map<string, { record: number; n: number }>();
  for (const c of calls) {
    for (const e of c.success === true ? c.file_edits : []) {
      const m = perMessage.get(`${c.record} ${e.path}`) ?? { record: c.record, n: 0 };
      m.n++;
      perMessage.set(`${c.record} ${e.path}`, m);
    }
  }
  for (const { record, n } of perMessage.values())
    if (n > 1)
      note(
        "pi-same-file-calls",
        record,
        "assistant message(s) with several successful write/edit calls on one file: Pi 0.58 ran a message's calls at once and the last write could undo the others (Pi issue #2327, fixed by its per-file mutation queue); replay applies each in turn",
      );
  if (unknownTools.size > 0)
    note(
      "pi-unknown-tool",
      null,
      `call(s) of tools Pi does not ship (${[...unknownTools].sort().join(", ")}; from extensions): kept as calls, any files they change are not replayed`,
    );
  note(
    "pi-edit-from-patch",
    null,
    "edit call(s) replayed from the unified diff Pi logged (details.patch)",
    "info",
    editNotes.fromPatch,
  );
  note(
    "pi-multi-edit-order",
    null,
    "multi-edit call(s) whose edits each hold another's oldText in their newText: Pi matches all edits on the original text, replay applies them one by one and no order is sure to give Pi's result",
    "warning",
    editNotes.unorderable,
  );
  note(
    "pi-multi-edit-reordered",
    null,
    "multi-edit call(s) re-ordered for replay (an edit whose oldText is inside another's newText goes first), so that one-by-one application gives Pi's all-at-once result",
    "info",
    editNotes.reordered,
  );
  note(
    "pi-edit-exact-over-patch",
    null,
    "edit call(s) whose logged patch shows Pi matched every oldText exactly: the edits were re-applied (the same file; placed whatever a BOM, which the patch's text lacks)",
    "info",
    editNotes.exactOverPatch,
  );
  note(
    "pi-home-path",
    null,
    "path(s) starting with ~ expanded with the home folder of the session's cwd, as Pi's expandPath does",
    "info",
    editNotes.homeExpanded,
  );
  note(
    "pi-home-unknown",
    null,
    "path(s) starting with ~ left as logged: the session's cwd lies in no home folder (/home/<user>, /Users/<user>, /root), so replay reads them relative to the cwd",
    "warning",
    editNotes.homeUnknown,
  );
  for (const n of recovered)
    note(
      "pi-entry-after-cut-line",
      n,
      "line(s) holding a cut-off entry (Pi stopped while writing it) followed by a whole one appended when the session resumed: the whole entry is read, the cut-off part is lost (as for Pi)",
      "warning",
    );
  note(
    "pi-patch-not-used",
    null,
    "edit call(s) whose logged patch has a line starting ---/+++ (read as a file header by diff readers): the edits were re-applied instead",
    "info",
    editNotes.patchHeaderLike,
  );
  if (unknownTypes.size > 0) {
    const list = [...unknownTypes].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([t, k]) => `${t} ×${k}`);
    let total = 0;
    for (const k of unknownTypes.values()) total += k;
    note(
      "pi-unknown-entry-type",
      firstUnknown,
      `entr(ies) of a type this adapter does not know (${list.join(", ")}): skipped`,
      "warning",
      total,
    );
  }

  const version = header?.version ?? null;
  if (header === null)
    note("pi-no-header", null, "no session header on line 1: session id from the file name, no cwd", "warning");
  else if (version === null || version < 2)
    note(
      "pi-old-version",
      1,
      `session format version ${version ?? 1} (no conversation tree; Pi migrates such files when it opens them)`,
    );
  if (header?.parentSession && copied !== null) {
    const what =
      copied.entries > 0
        ? `its first ${copied.entries} entries (dated before the fork) are copied from there, with ${copied.prompts} prompt(s), ${copied.toolCalls} tool call(s) and ${copied.apiCalls} API call(s): not counted here (they are that session's; lost from the counts when its file is not read)`
        : "no entry was copied";
    note(
      "pi-forked-session",
      1,
      `a session forked from ${header.parentSession}: ${what}`,
      copied.entries > 0 ? "warning" : "info",
    );
  }
  for (const [code, c] of counts)
    sink.add(
      c.severity,
      code,
      `${c.count} ${c.what}${c.first !== null ? `; first at line ${c.first}` : ""}`,
      c.first,
      fileExtra,
    );
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
