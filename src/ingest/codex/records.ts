/**
 * The two generations of Codex rollout lines, brought to one shape
 * `{kind, payload, timestamp}`:
 *
 * - current (since about September 2025): `{timestamp, type, payload}` with
 *   `type` ∈ session_meta, turn_context, response_item, event_msg, compacted;
 * - pre-envelope: a bare header `{id, timestamp, instructions, git}`, then
 *   `{"record_type": "state"}` markers and bare response items
 *   (`{"type": "message", …}`, `{"type": "function_call", …}`) without a
 *   payload wrapper and usually without a timestamp. Those rollouts logged no
 *   events (no user_message, patch_apply_end or token_count).
 */
import { type Payload, payloadSchema } from "./schema";

export type RecordKind = "session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted";

export interface CodexRecord {
  kind: RecordKind;
  /** The payload (the whole line for pre-envelope records). */
  payload: Payload;
  raw: Record<string, unknown>;
  timestamp: string | null;
  /** True for a pre-envelope line. */
  bare: boolean;
}

export type Classified = { record: CodexRecord } | { skip: "state-marker" | "unknown"; type: string | null };

const ENVELOPE = new Set<string>(["session_meta", "turn_context", "response_item", "event_msg", "compacted"]);
const BARE_ITEMS = new Set([
  "message",
  "reasoning",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "local_shell_call",
  "web_search_call",
]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function classifyRecord(value: Record<string, unknown>): Classified {
  const type = typeof value.type === "string" ? value.type : null;
  const timestamp = typeof value.timestamp === "string" ? value.timestamp : null;
  if ("record_type" in value) return { skip: "state-marker", type: null };
  if (type !== null && ENVELOPE.has(type) && isObject(value.payload)) {
    const p = payloadSchema.safeParse(value.payload);
    if (!p.success) return { skip: "unknown", type };
    return { record: { kind: type as RecordKind, payload: p.data, raw: value.payload, timestamp, bare: false } };
  }
  if (type === null && typeof value.id === "string" && typeof value.timestamp === "string") {
    const p = payloadSchema.safeParse(value);
    if (p.success) return { record: { kind: "session_meta", payload: p.data, raw: value, timestamp, bare: true } };
  }
  if (type !== null && BARE_ITEMS.has(type)) {
    const p = payloadSchema.safeParse(value);
    if (p.success) return { record: { kind: "response_item", payload: p.data, raw: value, timestamp, bare: true } };
  }
  return { skip: "unknown", type };
}

/** Text of a message's `content`: a string, or the `text` of its parts joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const c of content) if (isObject(c) && typeof c.text === "string") parts.push(c.text);
  return parts.join("\n");
}

/**
 * User-role text that Codex injects rather than the person types: the
 * environment context, AGENTS.md / user instructions, and turn-abort
 * notices. Real prompts come from `event_msg` `user_message`; this filter
 * is for pre-envelope rollouts (which have no events) and for
 * `user_message` events of the versions that also emitted injected text
 * (`kind` other than `plain`).
 */
export function isInjectedUserText(text: string): boolean {
  const t = text.trimStart();
  return (
    t.startsWith("<environment_context>") ||
    t.startsWith("<user_instructions>") ||
    t.startsWith("# AGENTS.md instructions") ||
    t.startsWith("<INSTRUCTIONS>") ||
    t.startsWith("<turn_aborted>") ||
    t.startsWith("<permissions instructions>")
  );
}

/** `<cwd>…</cwd>` of an environment-context block (the only cwd a pre-envelope rollout records). */
export function cwdOfEnvironmentContext(text: string): string | null {
  const m = /<cwd>([^<]+)<\/cwd>/.exec(text);
  return m ? m[1].trim() : null;
}

/** `session_meta.source.subagent.thread_spawn.parent_thread_id`: the thread that spawned this sub-agent. */
export function parentThreadOf(source: unknown): string | null {
  if (!isObject(source)) return null;
  const sub = source.subagent;
  if (!isObject(sub)) return null;
  const spawn = sub.thread_spawn;
  if (isObject(spawn) && typeof spawn.parent_thread_id === "string") return spawn.parent_thread_id;
  return null;
}
