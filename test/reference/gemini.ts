/**
 * Gemini CLI sessions, read independently (metrics.md §3 and §5; formats.md §1.2, §1.5, §4; the
 * public gemini-cli source `packages/core/src/services/chatRecordingService.ts`, `tools/write-file.ts`,
 * `tools/edit.ts` where formats.md is silent; the real sample `ab/2b9748b105/0/full.jsonl`).
 *
 * Two forms, told apart by content, never by name (formats.md §1.7: Entire names both `full.jsonl`):
 * - the document: one JSON object `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`,
 *   pretty-printed;
 * - the log (newer Gemini CLI, `.jsonl`): a metadata line `{sessionId, projectHash, …}`, then one line
 *   per message written whole each time it changes (the same `id` again replaces it in place),
 *   `{"$set": {…}}` metadata updates (a `messages` array among them replaces the whole list) and
 *   `{"$rewindTo": id}` (drops that message and every later one; an unknown id drops them all).
 * Either way the session is a list of messages; a position in it is what Entire's offsets count
 * (`GetTranscriptPosition` is the message count), so a call's "result record" is its message.
 */
import { createHash } from "node:crypto";
import type { RefApiCall } from "./effort";
import type { CallCounts } from "./tool-calls";
import type { FileChange, ParsedTranscript } from "./transcripts";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** metrics.md §3 "Calls that count as file changes" (Gemini), formats.md §1.5. */
export const GEMINI_FILE_TOOLS = new Set(["write_file", "replace", "edit_file", "save_file"]);
const MESSAGE_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);

export interface GeminiConversation {
  form: "document" | "log";
  sessionId: string | null;
  projectHash: string | null;
  /** The conversation's messages, in order, each in its latest version. */
  messages: Json[];
  /** Log lines that are not JSON objects. */
  badLines: number;
}

function isMessage(r: Json): boolean {
  return (
    typeof r.id === "string" &&
    typeof r.type === "string" &&
    MESSAGE_TYPES.has(r.type) &&
    !("uuid" in r) &&
    !("payload" in r) &&
    !("message" in r)
  );
}
const isMeta = (r: Json): boolean =>
  typeof r.sessionId === "string" && typeof r.projectHash === "string" && !("type" in r);
const isOp = (r: Json): boolean => typeof r.$rewindTo === "string" || isObj(r.$set);

function readDocument(text: string): GeminiConversation | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(trimmed);
  } catch {
    return null;
  }
  if (!isObj(doc) || !Array.isArray(doc.messages)) return null;
  const messages = doc.messages.filter(isObj);
  // A ConversationRecord names its session and project; without them, every message must look like Gemini's.
  const gemini =
    (typeof doc.sessionId === "string" && typeof doc.projectHash === "string") ||
    (messages.length > 0 && messages.every(isMessage));
  if (!gemini) return null;
  return { form: "document", sessionId: str(doc.sessionId), projectHash: str(doc.projectHash), messages, badLines: 0 };
}

function readLog(text: string): GeminiConversation | null {
  const records: Json[] = [];
  let bad = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line);
      if (isObj(v)) records.push(v);
      else bad += 1;
    } catch {
      bad += 1;
    }
  }
  const messagesSeen = records.filter(isMessage).length;
  const others = records.filter((r) => !isMessage(r) && !isMeta(r) && !isOp(r)).length;
  if (!(records.some(isMeta) || records.some(isOp) || (messagesSeen > 0 && messagesSeen >= others))) return null;
  // Replayed as gemini-cli's loader does: upsert by id (a Map keeps an updated message in its place).
  let byId = new Map<string, Json>();
  let sessionId: string | null = null;
  let projectHash: string | null = null;
  for (const r of records) {
    if (typeof r.$rewindTo === "string") {
      const ids = [...byId.keys()];
      const at = ids.indexOf(r.$rewindTo);
      for (const id of at < 0 ? ids : ids.slice(at)) byId.delete(id);
    } else if (typeof r.id === "string") {
      byId.set(r.id, r);
    } else if (isObj(r.$set)) {
      const set = r.$set;
      if (Array.isArray(set.messages)) {
        byId = new Map();
        for (const m of set.messages) if (isObj(m) && typeof m.id === "string") byId.set(m.id, m);
      }
      sessionId = str(set.sessionId) ?? sessionId;
      projectHash = str(set.projectHash) ?? projectHash;
    } else if (typeof r.sessionId === "string") {
      sessionId = r.sessionId;
      projectHash = str(r.projectHash) ?? projectHash;
    }
  }
  return { form: "log", sessionId, projectHash, messages: [...byId.values()], badLines: bad };
}

/** The conversation when `text` is a Gemini CLI session (either form), else null. */
export function readGemini(text: string): GeminiConversation | null {
  return readDocument(text) ?? readLog(text);
}

/**
 * `inferSliceStart` for Gemini: the number of messages of `earlier` when it is an earlier copy of `later`
 * and holds fewer messages (the start counts messages): for the log (JSONL, appended to) a byte prefix, as
 * for the other JSONL formats; for the document (rewritten whole) its messages are, by id and in order, the
 * first ones of `later`. Else null. (After a compression a log's byte prefix can hold more messages.)
 */
export function geminiPrefixLength(earlier: string, later: string): number | null {
  const a = readGemini(earlier);
  const b = readGemini(later);
  if (!a || !b || a.form !== b.form || a.messages.length >= b.messages.length) return null;
  if (a.form === "log") return earlier.length < later.length && later.startsWith(earlier) ? a.messages.length : null;
  return a.messages.every((m, i) => m.id === b.messages[i].id) ? a.messages.length : null;
}

const toolCalls = (m: Json): Json[] =>
  m.type === "gemini" && Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObj) : [];

/** The text the tool returned to the model (`result[].functionResponse.response.output`, or `error`). */
function resultText(tc: Json): string {
  const out: string[] = [];
  for (const part of Array.isArray(tc.result) ? tc.result : []) {
    const response =
      isObj(part) && isObj(part.functionResponse) && isObj(part.functionResponse.response)
        ? part.functionResponse.response
        : null;
    if (response && typeof response.output === "string") out.push(response.output);
    if (response && typeof response.error === "string") out.push(response.error);
  }
  return out.join("\n");
}

/**
 * Where relative paths start. Gemini resolves a relative `file_path` against the project root
 * (`path.resolve(targetDir, file_path)`), whose SHA-256 is the session's `projectHash` (formats.md §4:
 * the folder `~/.gemini/tmp/<sha256(project root)>`; checked on the real sample). The root is the
 * folder of an absolute path the session names whose hash is `projectHash`, else the one a relative
 * call's own record resolved it against; null when neither is known.
 */
function projectRoot(conv: GeminiConversation): string | null {
  if (!conv.projectHash) return null;
  const candidates = new Set<string>();
  for (const m of conv.messages) {
    for (const tc of toolCalls(m)) {
      const args = isObj(tc.args) ? tc.args : {};
      for (const v of Object.values(args)) if (typeof v === "string" && v.startsWith("/")) candidates.add(v);
      if (isObj(tc.resultDisplay) && typeof tc.resultDisplay.filePath === "string")
        candidates.add(tc.resultDisplay.filePath);
      // The tools name the resolved path in their result ("Successfully created and wrote to new file: /abs/path.").
      for (const m2 of resultText(tc).match(/\/[^\s'"`]+/g) ?? []) candidates.add(m2);
    }
  }
  for (const path of candidates) {
    const segs = path.split("/").filter((s) => s !== "");
    for (let k = segs.length; k >= 1; k--) {
      const dir = `/${segs.slice(0, k).join("/")}`;
      if (createHash("sha256").update(dir).digest("hex") === conv.projectHash) return dir;
    }
  }
  // No folder hashes to projectHash (a root written another way: a symbolic link, another checkout): a call
  // on a relative path whose own record names the resolved absolute path (FileDiff `filePath`, the result
  // text) shows the root it was resolved against (formats.md §12.8: relative to the session's directory).
  for (const m of conv.messages) {
    for (const tc of toolCalls(m)) {
      const args = isObj(tc.args) ? tc.args : {};
      const rel = str(args.file_path) ?? str(args.path);
      if (!GEMINI_FILE_TOOLS.has(str(tc.name) ?? "") || rel === null || rel.startsWith("/")) continue;
      const tail = `/${rel
        .split("/")
        .filter((x) => x !== "" && x !== ".")
        .join("/")}`;
      const own = [
        ...(isObj(tc.resultDisplay) && typeof tc.resultDisplay.filePath === "string"
          ? [tc.resultDisplay.filePath]
          : []),
        ...(resultText(tc).match(/\/[^\s'"`]+/g) ?? []),
      ];
      for (let abs of own) {
        abs = abs.replace(/[.,;:]$/, ""); // "…wrote to new file: /abs/path." ends a sentence
        if (tail !== "/" && abs.endsWith(tail) && abs.length > tail.length)
          return abs.slice(0, abs.length - tail.length);
      }
    }
  }
  return null;
}

function change(
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
 * The successful file-changing calls, in message order then the order of the message's `toolCalls`
 * (metrics.md §3: "Gemini `status != "success"`" is skipped). Post-image: the tool's own record first
 * (§3.2): a FileDiff `resultDisplay` (`originalContent` → `newContent`, what landed, after Gemini's
 * own corrections and the person's changes in the confirmation editor); else the args: `write_file`
 * `content`, `replace` `old_string` → `new_string` (every occurrence, as gemini-cli's
 * `safeLiteralReplace`; it succeeds only when there are exactly `expected_replacements`).
 */
export function geminiCalls(conv: GeminiConversation): { calls: FileChange[]; cwds: string[] } {
  const root = projectRoot(conv);
  const calls: FileChange[] = [];
  const seen = new Set<string>();
  conv.messages.forEach((m, index) => {
    toolCalls(m).forEach((tc, k) => {
      const name = str(tc.name) ?? "";
      const id = str(tc.id) ?? `${String(m.id)}#${k}`;
      if (!GEMINI_FILE_TOOLS.has(name) || seen.has(id)) return;
      seen.add(id);
      if (tc.status !== "success") return;
      const args = isObj(tc.args) ? tc.args : {};
      const diff = isObj(tc.resultDisplay) && typeof tc.resultDisplay.newContent === "string" ? tc.resultDisplay : null;
      const path = str(args.file_path) ?? str(args.path) ?? str(args.filename) ?? (diff ? str(diff.filePath) : null);
      if (!path) return;
      const c = change(id, name, index, k, path, path.startsWith("/") ? null : root);
      // The person edited the proposal in the confirmation editor (write-file.ts, edit.ts): what landed is
      // theirs. formats.md §4: the FileDiff's `diffStat.user_*` counts what the person changed there.
      const stat = diff && isObj(diff.diffStat) ? diff.diffStat : null;
      c.userModified =
        args.modified_by_user === true ||
        (stat !== null && (num(stat.user_added_lines) > 0 || num(stat.user_removed_lines) > 0));
      if (diff) {
        // `originalContent` is null when the file did not exist (edit.ts): the empty pre-image.
        c.preImage =
          typeof diff.originalContent === "string" ? diff.originalContent : diff.originalContent === null ? "" : null;
        c.postImage = diff.newContent as string;
      } else if (typeof args.content === "string") {
        c.postImage = args.content;
        // The tool's own record that the file was absent (write-file.ts): the empty pre-image, as §3.1's Write create.
        if (/^Successfully created and wrote to new file/.test(resultText(tc))) c.preImage = "";
      } else if (args.old_string === "" && typeof args.new_string === "string") {
        // edit.ts succeeds with an empty old_string only when the file does not exist: it creates it.
        c.preImage = "";
        c.postImage = args.new_string;
      } else if (typeof args.old_string === "string" && typeof args.new_string === "string") {
        c.stringEdits = [{ oldString: args.old_string, newString: args.new_string, replaceAll: true, gemini: true }];
      } else c.unreplayable = `${name} without content or old/new string`;
      calls.push(c);
    });
  });
  return { calls, cwds: root ? [root] : [] };
}

/** A Gemini session as transcripts.ts reads a transcript; positions count messages (Entire's unit for Gemini). */
export function parseGeminiTranscript(text: string): ParsedTranscript | null {
  const conv = readGemini(text);
  if (!conv) return null;
  return { format: "gemini", lineCount: conv.messages.length, badLines: conv.badLines, ...geminiCalls(conv) };
}

const time = (v: unknown): number | null => {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
};

/**
 * §5 for Gemini, from `fromMessage` on (a unit's slice; 0 for the session). One API call per `gemini`
 * message with a `tokens` object (formats.md §4 "Tokens are per message"; Entire's own count does the
 * same), also when every count is 0 (the real sample's message 7, which holds a tool call the previous
 * message announced: probably no request of its own, but nothing in the record says so). Usage in Claude's
 * meaning: `cached` is part of `input` (formats.md §4), `thoughts` are reasoning, part of the output
 * (§5 "including reasoning"), `tool` (tool-use prompt tokens) is input outside `input` (the sample:
 * `total = input + output + thoughts + tool`). No cache writes. Times: §5's "records" are the
 * messages and their tool calls (gemini-cli's `MessageRecord` and `ToolCallRecord`, each stamped).
 * Prompts: `user` messages with text (or an image) and no function response.
 */
export function geminiEffortParts(
  text: string,
  fromMessage = 0,
): { calls: RefApiCall[]; prompts: number; times: number[] } {
  const conv = readGemini(text);
  const messages = conv ? conv.messages.slice(fromMessage) : [];
  const calls: RefApiCall[] = [];
  let prompts = 0;
  const times: number[] = [];
  for (const m of messages) {
    const t = time(m.timestamp);
    if (t !== null) times.push(t);
    // A tool call is a record of its own (`ToolCallRecord`, formats.md §4), stamped when it finished.
    for (const tc of toolCalls(m)) {
      const tt = time(tc.timestamp);
      if (tt !== null) times.push(tt);
    }
    if (m.type === "gemini" && isObj(m.tokens)) {
      const k = m.tokens;
      calls.push({
        model: str(m.model),
        timestamp: t,
        input: num(k.input) - num(k.cached) + num(k.tool),
        output: num(k.output) + num(k.thoughts),
        cacheWrite: 0,
        cacheWrite1h: 0,
        cacheRead: num(k.cached),
        speed: null,
      });
    }
    if (m.type === "user") {
      const c = m.content;
      const parts = Array.isArray(c) ? c.filter(isObj) : [];
      const said =
        typeof c === "string"
          ? c.trim() !== ""
          : parts.some(
              (p) => (typeof p.text === "string" && p.text.trim() !== "") || isObj(p.inlineData) || isObj(p.fileData),
            );
      if (said && !parts.some((p) => isObj(p.functionResponse))) prompts += 1;
    }
  }
  return { calls, prompts, times };
}

/**
 * The sessions table's call counts: every tool call of the conversation once (by id); an edit call
 * is one of §3's Gemini tools whatever its outcome; failed: `status` "error" or "cancelled" (the
 * person declined); any other status (a call still running when the copy was stored) is unresolved.
 */
export function geminiCallCounts(text: string): CallCounts {
  const conv = readGemini(text);
  const status = new Map<string, { edit: boolean; status: unknown }>();
  conv?.messages.forEach((m) =>
    toolCalls(m).forEach((tc, k) => {
      const id = str(tc.id) ?? `${String(m.id)}#${k}`;
      if (!status.has(id)) status.set(id, { edit: GEMINI_FILE_TOOLS.has(str(tc.name) ?? ""), status: tc.status });
    }),
  );
  const edits = [...status.values()].filter((c) => c.edit);
  return {
    tool_calls: status.size,
    edit_calls: edits.length,
    failed_edit_calls: edits.filter((c) => c.status === "error" || c.status === "cancelled").length,
    unresolved_edit_calls: edits.filter(
      (c) => c.status !== "success" && c.status !== "error" && c.status !== "cancelled",
    ).length,
  };
}
