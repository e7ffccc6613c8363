/**
 * OpenCode session export → normalised {@link Session}.
 *
 * Where OpenCode keeps sessions (read from its source, `packages/opencode/
 * src/storage/storage.ts` and `json-migration.ts`; see README.md): JSON
 * files under `${XDG_DATA_HOME:-~/.local/share}/opencode/storage/`:
 *   session/<projectID>/<sessionID>.json   session info {id, projectID, directory, parentID?, title, version, time}
 *   message/<sessionID>/<messageID>.json   message info {id, sessionID, role, time, modelID, tokens, cost, path, …}
 *   part/<messageID>/<partID>.json         parts {id, messageID, sessionID, type, …} (text, reasoning, tool, step-start, step-finish, patch, …)
 *   session_diff/<sessionID>.json, project/<projectID>.json, todo/, permission/, session_share/
 * Message and part ids sort by creation time. OpenCode 1.2.0 (2026-02-14)
 * moved these rows into SQLite, `~/.local/share/opencode/opencode.db`
 * (tables session, message, part, the same JSON in a `data` column; the
 * JSON store is migrated once and then frozen), which this version does not
 * read. `opencode export <id>` (and Entire, as
 * `full.jsonl`) writes one document `{info, messages: [{info, parts}]}`:
 * storage.ts turns the folder layout into that document.
 *
 * Records are messages: `record` is the 1-based message index. Prompts
 * are user messages' text parts that are not `synthetic` (an `@file`
 * expansion) or `ignored`; tool parts carry their own input, output,
 * status and metadata; tokens and cost are per assistant message (one
 * API call per `step-finish` part, else per message).
 */
import {
  type DiagnosticSink,
  SESSION_FORMAT_VERSION,
  type ApiCall,
  type Session,
  type ToolCall,
  type Turn,
  type Usage,
  checkRecordTokenCounts,
  isoTime,
} from "../../model";
import { emptyPatchNotes } from "../codex/file-edits";
import { OPENCODE_FILE_TOOLS, openCodeFileEdits } from "./file-edits";
import {
  type RawExport,
  type RawTokens,
  exportSchema,
  messageInfoSchema,
  partSchema,
  sessionInfoSchema,
  toolStateSchema,
} from "./schema";

export interface OpenCodeSessionInput {
  /** The export document as text, or already parsed (storage.ts). */
  text?: string | Uint8Array;
  document?: unknown;
  file: string | null;
}

const ERROR_MAX = 200;
const n = (v: number | undefined): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
const iso = isoTime;
const shorten = (s: string): string => (s.length > ERROR_MAX ? `${s.slice(0, ERROR_MAX - 1)}…` : s);

/**
 * OpenCode tokens → the model's Usage. `input` is already uncached; cache
 * reads and writes are separate. Whether `output` includes `reasoning`
 * depends on the provider and version; `total` tells: in the real sample
 * (gpt-5.3-codex) total = input + output + cache.read with reasoning 365 of
 * output 387, so reasoning is inside output. When total instead equals
 * input + output + reasoning + cache, reasoning is added to output.
 */
export function normaliseOpenCodeUsage(t: RawTokens): { usage: Usage; reasoningAdded: boolean } {
  const input = n(t.input);
  const output = n(t.output);
  const reasoning = n(t.reasoning);
  const read = n(t.cache?.read);
  const write = n(t.cache?.write);
  const reasoningAdded =
    reasoning > 0 && t.total !== undefined && n(t.total) === input + output + reasoning + read + write;
  return {
    usage: {
      input_tokens: input,
      output_tokens: output + (reasoningAdded ? reasoning : 0),
      cache_creation_tokens: write,
      cache_creation_1h_tokens: 0,
      cache_read_tokens: read,
      reasoning_tokens: reasoning,
    },
    reasoningAdded,
  };
}

export function parseOpenCodeSession(input: OpenCodeSessionInput, sink: DiagnosticSink): Session | null {
  const fileExtra = input.file !== null ? { file: input.file } : {};
  let doc: unknown = input.document;
  if (doc === undefined) {
    const text = typeof input.text === "string" ? input.text : new TextDecoder().decode(input.text ?? new Uint8Array());
    try {
      doc = JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch (e) {
      sink.add(
        "error",
        "opencode-invalid-json",
        `not one JSON document: ${e instanceof Error ? e.message : String(e)}`,
        null,
        fileExtra,
      );
      return null;
    }
  }
  checkRecordTokenCounts(doc, fileExtra, sink);
  const parsed = exportSchema.safeParse(doc);
  if (!parsed.success) {
    sink.add(
      "error",
      "opencode-not-an-export",
      "not an OpenCode session export ({info, messages: [{info, parts}]})",
      null,
      fileExtra,
    );
    return null;
  }
  const ex: RawExport = parsed.data;
  const info = sessionInfoSchema.safeParse(ex.info).data ?? {};
  const counts = new Map<string, { count: number; first: number | null; what: string; severity: "info" | "warning" }>();
  const note = (code: string, record: number | null, what: string, severity: "info" | "warning" = "info") => {
    const c = counts.get(code);
    if (c) c.count++;
    else counts.set(code, { count: 1, first: record, what, severity });
  };
  const turns: Turn[] = [];
  const calls: ToolCall[] = [];
  const apiCalls: ApiCall[] = [];
  const times: number[] = [];
  const cwds: string[] = [];
  const addCwd = (d: string | undefined) => {
    if (d && !cwds.includes(d)) cwds.push(d);
  };
  addCwd(info.directory);
  const patchNotes = emptyPatchNotes();
  const time = (ms: number | undefined) => {
    if (typeof ms === "number" && Number.isFinite(ms)) times.push(ms);
  };

  for (const [i, m] of ex.messages.entries()) {
    const record = i + 1;
    const mi = messageInfoSchema.safeParse(m.info).data;
    if (!mi) {
      note("opencode-invalid-message", record, "message(s) with an unusable info skipped", "warning");
      continue;
    }
    time(mi.time?.created);
    time(mi.time?.completed);
    addCwd(mi.path?.cwd);
    const parts = (m.parts ?? [])
      .map((p) => partSchema.safeParse(p).data)
      .filter((p): p is NonNullable<typeof p> => p !== undefined);
    if (mi.role === "user") {
      if (parts.some((p) => p.type === "compaction")) {
        note("opencode-compaction", record, "compaction request(s) not counted as prompts");
        continue;
      }
      const typed = parts.filter((p) => p.type === "text" && !p.synthetic && !p.ignored && typeof p.text === "string");
      const synthetic = parts.filter((p) => p.type === "text" && (p.synthetic || p.ignored)).length;
      if (synthetic > 0)
        note(
          "opencode-synthetic-text",
          record,
          "user message(s) with synthetic or ignored text parts (file expansions), left out of the prompt text",
        );
      const text = typed.map((p) => p.text).join("\n");
      if (text.trim() === "")
        note("opencode-empty-prompt", record, "user message(s) without typed text not counted as prompts");
      else turns.push({ index: turns.length, text, timestamp: iso(mi.time?.created), record });
      continue;
    }
    if (mi.role !== "assistant") {
      note("opencode-unknown-role", record, `message(s) of another role (${mi.role ?? "none"}) skipped`);
      continue;
    }
    // API calls: one per step-finish part, else one per message.
    const steps = parts.filter((p) => p.type === "step-finish" && p.tokens);
    const usages =
      steps.length > 0
        ? steps.map((p, k) => ({ id: `${mi.id ?? record}:${p.id ?? k}`, tokens: p.tokens! }))
        : mi.tokens
          ? [{ id: mi.id ?? `message:${record}`, tokens: mi.tokens }]
          : [];
    for (const u of usages) {
      const { usage, reasoningAdded } = normaliseOpenCodeUsage(u.tokens);
      if (reasoningAdded)
        note(
          "opencode-reasoning-added",
          record,
          "usage(s) whose total counts reasoning beside output: reasoning added to output",
        );
      if (usage.input_tokens + usage.output_tokens + usage.cache_read_tokens + usage.cache_creation_tokens === 0) {
        note(
          "opencode-zero-tokens",
          record,
          "assistant step(s) with no token counts (an aborted or failed request): not counted as API calls",
        );
        continue;
      }
      apiCalls.push({
        id: u.id,
        model: mi.modelID ?? null,
        timestamp: iso(mi.time?.created),
        record,
        sidechain: false,
        usage,
        speed: null,
      });
    }
    for (const p of parts) {
      if (p.type !== "tool") continue;
      const st = toolStateSchema.safeParse(p.state).data ?? {};
      time(st.time?.start);
      time(st.time?.end);
      const name = p.tool ?? "(unnamed)";
      const success = st.status === "completed" ? true : st.status === "error" ? false : null;
      if (success === null)
        note(
          "opencode-tool-unfinished",
          record,
          `tool part(s) still ${st.status ?? "without status"}: outcome unknown`,
          "warning",
        );
      let fileEdits: ToolCall["file_edits"] = [];
      if (success === true && OPENCODE_FILE_TOOLS.has(name)) {
        const { edits, problem } = openCodeFileEdits(name, st.input, st.metadata, info.directory ?? null, patchNotes);
        fileEdits = edits;
        if (problem)
          note(
            "opencode-edit-incomplete",
            record,
            `file-changing part(s) with missing fields (first: ${problem})`,
            "warning",
          );
      }
      if (name === "task")
        note(
          "opencode-subagent",
          record,
          "task call(s): the sub-agent's own session is not in this export (its edits are not replayed here)",
        );
      calls.push({
        id: p.callID ?? p.id ?? `${record}:${calls.length}`,
        name,
        input: st.input ?? null,
        timestamp: iso(st.time?.start) ?? iso(mi.time?.created),
        record,
        result_record: success === null ? null : record,
        success,
        error:
          success === false
            ? shorten(String(typeof st.error === "string" ? st.error : JSON.stringify(st.error ?? "")))
            : null,
        sidechain: false,
        file_edits: fileEdits,
      });
    }
  }
  if (patchNotes.moves > 0)
    note(
      "opencode-patch-move",
      null,
      "file move(s) in apply_patch text: the old path's lines (with their provenance) move to the new path, then the diff applies there",
      "info",
    );
  if (patchNotes.anchorsDropped > 0)
    note("opencode-patch-anchor-dropped", null, "`@@ <anchor>` line(s) of patch text dropped");
  if (info.parentID)
    note(
      "opencode-child-session",
      null,
      `a child (sub-agent) session of ${info.parentID}: read as a session of its own`,
    );
  for (const [code, c] of counts)
    sink.add(
      c.severity,
      code,
      `${c.count} ${c.what}${c.first !== null ? `; first at message ${c.first}` : ""}`,
      c.first,
      fileExtra,
    );

  const sessionId =
    info.id ??
    (input.file ?? "opencode-session")
      .split(/[\\/]/)
      .pop()!
      .replace(/\.jsonl?$/, "");
  if (!info.id)
    sink.add(
      "warning",
      "opencode-no-session-id",
      `no session id in info: id taken from the file name (${sessionId})`,
      null,
      fileExtra,
    );
  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: "opencode",
    agent: "OpenCode",
    agent_version: info.version ?? null,
    transcript: input.file,
    cwds,
    branch: null,
    turns,
    tool_calls: calls,
    api_calls: apiCalls,
    record_times: times.sort((a, b) => a - b),
    record_count: ex.messages.length,
  };
}
