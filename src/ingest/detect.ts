/**
 * Which agent wrote a transcript, by content only (never by file name or by a
 * label such as Entire's `agent` field: Entire stores Gemini sessions as
 * `full.jsonl`, and one folder can mix Codex rollout generations).
 *
 * Looks at a bounded prefix: the first few lines of a JSONL file, or the head
 * of a single JSON document.
 */

export type TranscriptFormat = "claude-code" | "codex" | "gemini" | "opencode" | "pi" | "entire-compact" | "unknown";

/** How much of the input is read. Codex's first line (session_meta with base instructions) runs to ~30 KB. */
const PREFIX_CHARS = 256 * 1024;
/** How many JSONL lines are looked at before giving up. */
const MAX_LINES = 25;

const CLAUDE_TYPES = new Set([
  "user",
  "assistant",
  "progress",
  "summary",
  "system",
  "file-history-snapshot",
  "queue-operation",
  "pr-link",
]);
const CODEX_ENVELOPE_TYPES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);
const CODEX_BARE_ITEM_TYPES = new Set([
  "message",
  "function_call",
  "function_call_output",
  "reasoning",
  "local_shell_call",
  "custom_tool_call",
  "custom_tool_call_output",
  "web_search_call",
]);
const GEMINI_MESSAGE_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);

type Verdict = TranscriptFormat | null;

export function detectTranscriptFormat(text: string | Uint8Array): TranscriptFormat {
  let prefix: string;
  let complete: boolean;
  if (typeof text === "string") {
    complete = text.length <= PREFIX_CHARS;
    prefix = complete ? text : text.slice(0, PREFIX_CHARS);
  } else {
    complete = text.length <= PREFIX_CHARS;
    prefix = new TextDecoder("utf-8").decode(complete ? text : text.subarray(0, PREFIX_CHARS));
  }
  return detectTranscriptFormatOfPrefix(prefix, complete);
}

/** {@link detectTranscriptFormat} on text already decoded (at most `PREFIX_CHARS` of it); `complete`: the prefix is the whole input. */
export function detectTranscriptFormatOfPrefix(decoded: string, complete: boolean): TranscriptFormat {
  return detectInPrefix(decoded, complete, false) as TranscriptFormat;
}

/**
 * The same verdict from the first lines of the prefix only (`head`: whole lines, ending with a line break,
 * more text after), or null when the verdict may depend on the rest (then decode the whole prefix).
 */
export function detectTranscriptFormatOfHead(head: string): TranscriptFormat | null {
  return detectInPrefix(head, false, true);
}

function detectInPrefix(decoded: string, complete: boolean, head: boolean): TranscriptFormat | null {
  let prefix = decoded;
  if (prefix.charCodeAt(0) === 0xfeff) prefix = prefix.slice(1);
  prefix = prefix.replace(/^[\s\u0000]+/, "");
  if (prefix === "" && head) return null;
  if (prefix === "" || (prefix[0] !== "{" && prefix[0] !== "[")) return "unknown";

  const lines = prefix.split("\n");
  const first = lines[0].trim();
  const firstIsWholeLine = lines.length > 1 || complete;

  // One JSON document spread over lines (Gemini session, OpenCode export).
  if (
    first === "{" ||
    first === "[" ||
    (firstIsWholeLine && !parses(first) && lines.length > 1 && !looksLikeRecordFragment(first))
  ) {
    if (head) return null;
    const doc = classifyDocumentPrefix(prefix, complete ? prefix : null);
    if (doc !== "unknown" || first === "{" || first === "[") return doc;
    // A broken first line of a JSONL file: look at the lines after it.
  }

  let seen = 0;
  for (let i = 0; i < lines.length && seen < MAX_LINES; i++) {
    const raw = lines[i].replace(/\u0000/g, "").trim();
    if (raw === "") continue;
    seen++;
    const isWhole = i < lines.length - 1 || complete;
    let verdict: Verdict = null;
    if (isWhole) {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        value = undefined;
      }
      verdict = value === undefined ? classifyFragment(raw) : classifyTranscriptRecord(value);
    } else {
      verdict = classifyFragment(raw);
    }
    if (verdict !== null) return verdict;
  }
  // The head's lines ran out before the lines looked at did: the next ones decide.
  return head && seen < MAX_LINES ? null : "unknown";
}

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * A parsed JSONL line, or a one-line JSON document: its format, or null when the line alone does not tell. The
 * first line that tells decides a JSONL file (the probe asks this of a file's first line, ./probe-format.ts).
 */
export function classifyTranscriptRecord(v: unknown): Verdict {
  if (!isObject(v)) return null;
  const type = typeof v.type === "string" ? v.type : null;

  // Entire's compact transcript (`transcript.jsonl`): every line says its format version, agent and writer.
  if (
    typeof v.v === "number" &&
    typeof v.agent === "string" &&
    typeof v.cli_version === "string" &&
    (type === "user" || type === "assistant")
  ) {
    return "entire-compact";
  }

  // Whole documents written on one line.
  if (Array.isArray(v.messages)) {
    if (isObject(v.info)) return "opencode";
    if (typeof v.sessionId === "string" && isGeminiMessages(v.messages)) return "gemini";
  }

  // Codex rollouts: envelope, and the older bare items.
  if (type !== null && CODEX_ENVELOPE_TYPES.has(type) && "payload" in v) return "codex";
  if ("record_type" in v) return "codex";
  if (type !== null && CODEX_BARE_ITEM_TYPES.has(type) && isCodexBareItem(type, v)) return "codex";
  if (type === null && typeof v.id === "string" && "instructions" in v && "timestamp" in v) return "codex";

  // Pi sessions: the header, or tree entries only Pi writes.
  if (type !== null && isPiRecord(type, v)) return "pi";

  // Claude Code records.
  if (type !== null && CLAUDE_TYPES.has(type)) {
    if ("sessionId" in v || "uuid" in v || "parentUuid" in v) return "claude-code";
    if (type === "summary" && "leafUuid" in v) return "claude-code";
    if (type === "file-history-snapshot" && ("snapshot" in v || "messageId" in v)) return "claude-code";
    if (type === "queue-operation" && "operation" in v) return "claude-code";
  }

  // Gemini CLI JSONL (newer releases write the session as lines): a header, then messages.
  if (typeof v.sessionId === "string" && typeof v.projectHash === "string" && typeof v.startTime === "string")
    return "gemini";
  if (type === "gemini") return "gemini";
  return null;
}

/**
 * An item of a pre-envelope Codex rollout: the item's fields at the top level
 * (`{"type":"message","role":"user","content":[…]}`). Pi and Factory Droid
 * sessions also write `{"type":"message", …}` lines, but nest the message
 * (`"message":{"role":…}`): those are not Codex.
 */
function isCodexBareItem(type: string, v: Record<string, unknown>): boolean {
  if ("sessionId" in v || "uuid" in v || isObject(v.message)) return false;
  if (type === "message") return typeof v.role === "string";
  return true;
}

/** Roles Pi stores in `message` entries (pi-ai `Message`, coding-agent `messages.ts`). */
const PI_ROLES = new Set([
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom",
  "hookMessage",
  "branchSummary",
  "compactionSummary",
]);

/**
 * A line of a Pi session (badlogic/pi-mono session-manager.ts): the header
 * `{type: "session", id, version | cwd}`; a `model_change` or
 * `thinking_level_change` entry; or a `message` entry whose nested message
 * has a Pi role and either names its tree parent (`parentId`, v2+), is a
 * `toolResult`/`bashExecution`, or holds a `toolCall` part. Factory Droid
 * also writes `{type: "message", id, timestamp, message: {role, content}}`
 * lines, but with no `parentId`, `tool_use`/`tool_result` parts and a
 * `session_start` header: none of these match.
 */
function isPiRecord(type: string, v: Record<string, unknown>): boolean {
  if (type === "session")
    return (
      typeof v.id === "string" && (typeof v.version === "number" || typeof v.cwd === "string") && !("payload" in v)
    );
  if (type === "model_change") return typeof v.modelId === "string" && typeof v.provider === "string";
  if (type === "thinking_level_change") return typeof v.thinkingLevel === "string" && "parentId" in v;
  if (type !== "message" || !isObject(v.message)) return false;
  const role = v.message.role;
  if (typeof role !== "string" || !PI_ROLES.has(role)) return false;
  if ("parentId" in v || role === "toolResult" || role === "bashExecution") return true;
  const content = v.message.content;
  return Array.isArray(content) && content.some((p) => isObject(p) && p.type === "toolCall");
}

function isGeminiMessages(messages: unknown[]): boolean {
  if (messages.length === 0) return true;
  const m = messages[0];
  return isObject(m) && typeof m.type === "string" && GEMINI_MESSAGE_TYPES.has(m.type);
}

/** A line cut off by the prefix (or too broken to parse): key patterns only. */
function classifyFragment(s: string): Verdict {
  // Entire's compact lines begin with their fields in this order (compact.go writes them so).
  if (
    /^\{\s*"v"\s*:\s*\d+\s*,\s*"agent"\s*:\s*"[^"]*"\s*,\s*"cli_version"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(user|assistant)"/.test(
      s,
    )
  )
    return "entire-compact";
  if (
    /^\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted)"/.test(
      s,
    )
  )
    return "codex";
  if (/"payload"\s*:/.test(s) && /"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context)"/.test(s))
    return "codex";
  // Pi writes its entries with these keys first (session-manager.ts builds them in this order).
  if (
    /^\{\s*"type"\s*:\s*"message"\s*,\s*"id"\s*:\s*"[^"]*"\s*,\s*"parentId"\s*:\s*(null|"[^"]*")\s*,\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"message"\s*:\s*\{\s*"role"\s*:/.test(
      s,
    )
  )
    return "pi";
  if (
    /"(sessionId|parentUuid|leafUuid)"\s*:/.test(s) &&
    /"type"\s*:\s*"(user|assistant|progress|summary|system|file-history-snapshot|queue-operation)"/.test(s) &&
    !/"projectHash"\s*:/.test(s)
  ) {
    return "claude-code";
  }
  return null;
}

function looksLikeRecordFragment(s: string): boolean {
  return classifyFragment(s) !== null;
}

/** Head of a multi-line JSON document. */
function classifyDocumentPrefix(prefix: string, whole: string | null): TranscriptFormat {
  if (whole !== null) {
    try {
      const v: unknown = JSON.parse(whole);
      if (isObject(v) && Array.isArray(v.messages)) {
        if (isObject(v.info)) return "opencode";
        if (typeof v.sessionId === "string" && isGeminiMessages(v.messages)) return "gemini";
      }
      if (isObject(v)) return "unknown";
    } catch {
      // fall through to the key patterns
    }
  }
  if (/^\{\s*"info"\s*:\s*\{/.test(prefix) && /"messages"\s*:\s*\[\s*(\]|\{\s*"(info|parts)"\s*:)/.test(prefix))
    return "opencode";
  if (
    /^\{\s*"sessionId"\s*:\s*"/.test(prefix) ||
    (/"sessionId"\s*:\s*"/.test(prefix) && /"projectHash"\s*:/.test(prefix))
  ) {
    if (
      /"messages"\s*:\s*\[\s*(\]|\{[^{}]*"type"\s*:\s*"(user|gemini|info|error|warning)")/.test(prefix) ||
      /"messages"\s*:\s*\[\s*\{\s*"id"/.test(prefix)
    ) {
      return "gemini";
    }
  }
  return "unknown";
}
