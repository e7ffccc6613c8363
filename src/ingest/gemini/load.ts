/**
 * A Gemini CLI session file → its conversation record, in either form:
 *
 * - the document (`session-<ts>-<id8>.json`, Gemini CLI up to about 0.3x):
 *   one JSON object `{sessionId, projectHash, startTime, lastUpdated,
 *   messages[]}` rewritten in place on every update; Entire stores it as
 *   `full.jsonl` although it is pretty-printed JSON (`ab/2b9748b105`);
 * - the log (`session-….jsonl`, newer releases): a metadata line
 *   `{sessionId, projectHash, startTime, …}`, then appended records: a
 *   message (`{id, …}`; a later line with the same id replaces it in place),
 *   `{"$rewindTo": id}` (drops that message and all after it), and
 *   `{"$set": {...}}` metadata updates (a `$set.messages` replaces the whole
 *   list). This mirrors `loadConversationRecord` in gemini-cli's
 *   `chatRecordingService.ts`.
 */
import { type DiagnosticSink, checkRecordTokenCounts } from "../../model";
import { emptyJsonlStats, iterateJsonl } from "../jsonl";
import { type RawConversation, conversationSchema } from "./schema";

export interface LoadedConversation {
  form: "document" | "log";
  conversation: RawConversation;
  /** Messages as raw objects, in conversation order (after rewinds and replacements). */
  messages: unknown[];
  /** Lines (log form) or 1 (document form). */
  lines: number;
  rewinds: number;
  replaced: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function loadGeminiConversation(text: string | Uint8Array, sink: DiagnosticSink): LoadedConversation | null {
  const str = (typeof text === "string" ? text : new TextDecoder("utf-8").decode(text)).replace(/^\uFEFF/, "");
  const trimmed = str.replace(/\u0000/g, "").trim();
  if (trimmed.startsWith("{")) {
    try {
      const doc: unknown = JSON.parse(trimmed);
      checkRecordTokenCounts(doc, {}, sink);
      if (isObject(doc) && Array.isArray(doc.messages)) {
        const conversation = conversationSchema.parse(doc);
        return { form: "document", conversation, messages: doc.messages, lines: 1, rewinds: 0, replaced: 0 };
      }
    } catch {
      // not one document: read as the log form
    }
  }
  const stats = emptyJsonlStats();
  let meta: Record<string, unknown> = {};
  const order: string[] = [];
  const byId = new Map<string, unknown>();
  let rewinds = 0;
  let replaced = 0;
  let sawHeader = false;
  for (const rec of iterateJsonl(str, sink, {}, stats)) {
    const v = rec.value;
    if (typeof v.$rewindTo === "string") {
      rewinds++;
      const at = order.indexOf(v.$rewindTo);
      const removed = at < 0 ? order.splice(0) : order.splice(at);
      for (const id of removed) byId.delete(id);
    } else if (typeof v.id === "string") {
      if (!byId.has(v.id)) order.push(v.id);
      else replaced++;
      byId.set(v.id, v);
    } else if (isObject(v.$set)) {
      meta = { ...meta, ...v.$set };
      if (Array.isArray(v.$set.messages)) {
        order.splice(0);
        byId.clear();
        for (const m of v.$set.messages) {
          if (isObject(m) && typeof m.id === "string") {
            if (!byId.has(m.id)) order.push(m.id);
            byId.set(m.id, m);
          }
        }
      }
    } else if (typeof v.sessionId === "string" && typeof v.projectHash === "string") {
      sawHeader = true;
      meta = { ...meta, ...v };
    } else {
      sink.info(
        "gemini-unknown-record",
        `line ${rec.line}: neither a message, a rewind, a metadata update nor the session header; skipped`,
        rec.line,
      );
    }
  }
  if (!sawHeader && order.length === 0) return null;
  const conversation = conversationSchema.parse({ ...meta, messages: undefined });
  return {
    form: "log",
    conversation,
    messages: order.map((id) => byId.get(id)),
    lines: stats.lines,
    rewinds,
    replaced,
  };
}
