/**
 * The sessions table's call counts (architecture.md "Contracts": `tool_calls`, `edit_calls`,
 * `failed_edit_calls`), read from the transcript text with metrics.md §3's rules:
 *
 * - a tool call is one tool use, counted once (Claude Code 2.x streams one record per content
 *   block: §5 "take tool calls from the union of the blocks"), sub-agent calls included (§3 lists
 *   the calls nested in `agent_progress` and in `isSidechain` records among the session's calls);
 * - an edit call is a call of a tool §3 lists under "Calls that count as file changes", whatever
 *   its outcome: `failed_edit_calls` is a part of `edit_calls`, so a failed edit is an edit call;
 * - a failed edit call is one whose result says it failed (§3 "Skipped": Claude Code `is_error`
 *   or a string `toolUseResult`; Codex `patch_apply_end.success == false`, or, without a
 *   `patch_apply_end`, an `apply_patch` output that is not "Success."). A call with no result at
 *   all (the log ends, an interrupt) is not successful, but nothing says it failed: it is counted
 *   in `unresolved_edit_calls`, not in `failed_edit_calls`.
 */

import { geminiCallCounts } from "./gemini";
import { piCallCounts } from "./pi";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

/** metrics.md §3 "Calls that count as file changes" (Claude Code). */
const CLAUDE_FILE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "mcp__acp__Write", "mcp__acp__Edit"]);

export interface CallCounts {
  tool_calls: number;
  edit_calls: number;
  failed_edit_calls: number;
  /** Edit calls without any result record (neither successful nor failed). */
  unresolved_edit_calls: number;
}

/** The message records of one record: itself, and the sub-agent message nested in an `agent_progress` record. */
function messages(r: Json): Json[] {
  const out: Json[] = [r];
  if (r.type === "progress" && isObj(r.data) && r.data.type === "agent_progress" && isObj(r.data.message))
    out.push(r.data.message);
  return out;
}

function claudeCounts(records: Json[]): CallCounts {
  const names = new Map<string, string>(); // tool_use id -> tool name, first block wins (streamed copies repeat it)
  const outcome = new Map<string, boolean>(); // tool_use id -> failed?, first result wins
  for (const r of records) {
    for (const m of messages(r)) {
      if (!isObj(m.message) || !Array.isArray(m.message.content)) continue;
      for (const b of m.message.content) {
        if (!isObj(b)) continue;
        if (
          m.type === "assistant" &&
          b.type === "tool_use" &&
          typeof b.id === "string" &&
          typeof b.name === "string" &&
          !names.has(b.id)
        )
          names.set(b.id, b.name);
        if (
          m.type === "user" &&
          b.type === "tool_result" &&
          typeof b.tool_use_id === "string" &&
          !outcome.has(b.tool_use_id)
        ) {
          outcome.set(b.tool_use_id, b.is_error === true || typeof m.toolUseResult === "string");
        }
      }
    }
  }
  const edits = [...names].filter(([, name]) => CLAUDE_FILE_TOOLS.has(name)).map(([id]) => id);
  return {
    tool_calls: names.size,
    edit_calls: edits.length,
    failed_edit_calls: edits.filter((id) => outcome.get(id) === true).length,
    unresolved_edit_calls: edits.filter((id) => !outcome.has(id)).length,
  };
}

/** Codex tool calls are `response_item`s (formats.md §3.1); these payload types are calls. */
const CODEX_CALL_TYPES = new Set(["function_call", "custom_tool_call", "local_shell_call", "web_search_call"]);

/** §3: `apply_patch` as its own tool, or (older rollouts) inside a shell call's command. */
function isPatchCall(p: Json): boolean {
  if (typeof p.name === "string" && /^apply_?patch$/i.test(p.name)) return true;
  let command: unknown = null;
  if (p.type === "local_shell_call" && isObj(p.action)) command = p.action.command;
  else if (typeof p.arguments === "string") {
    try {
      const a = JSON.parse(p.arguments);
      command = isObj(a) ? (a.command ?? a.cmd) : null;
    } catch {
      command = null;
    }
  }
  const text = Array.isArray(command) ? command.join(" ") : typeof command === "string" ? command : "";
  return /(^|\s|["'])apply_?patch\b/.test(text) && text.includes("*** Begin Patch");
}

function codexCounts(records: Json[]): CallCounts {
  const calls = new Map<string, boolean>(); // call id -> is an edit call
  const patchEnd = new Map<string, boolean>(); // call id -> success
  const output = new Map<string, string>();
  let anonymous = 0;
  for (const r of records) {
    const p = r.payload;
    if (!isObj(p) || typeof p.type !== "string") continue;
    const id = typeof p.call_id === "string" ? p.call_id : typeof p.id === "string" ? p.id : null;
    if (CODEX_CALL_TYPES.has(p.type)) {
      // A call without any id is still a call: give it its own key.
      const key = id ?? `anon:${anonymous++}`;
      if (!calls.has(key)) calls.set(key, isPatchCall(p));
    } else if (p.type === "patch_apply_end" && id !== null && !patchEnd.has(id)) patchEnd.set(id, p.success === true);
    else if (p.type === "item_completed" && isObj(p.item) && p.item.type === "FileChange") {
      // Codex 0.149+: a FileChange item is a patch's record. With its call's id it stands for that call's
      // patch_apply_end (the first record wins); an item of its own (Code Mode: nested in an exec call, or
      // outside any call) is one apply_patch call more.
      const itemId = typeof p.item.id === "string" ? p.item.id : null;
      const ok = p.item.status === "completed";
      const key = itemId !== null && calls.has(itemId) ? itemId : `item:${anonymous++}`;
      calls.set(key, true);
      if (!patchEnd.has(key)) patchEnd.set(key, ok);
    } else if (
      (p.type === "custom_tool_call_output" || p.type === "function_call_output") &&
      id !== null &&
      !output.has(id)
    ) {
      const o = p.output;
      output.set(
        id,
        typeof o === "string" ? o : isObj(o) && typeof o.content === "string" ? o.content : JSON.stringify(o ?? ""),
      );
    }
  }
  // A patch_apply_end whose call is not in the log still is an apply_patch call (it changed files or failed to).
  for (const id of patchEnd.keys()) if (!calls.has(id)) calls.set(id, true);
  const edits = [...calls].filter(([, edit]) => edit).map(([id]) => id);
  const failed = (id: string): boolean | null => {
    if (patchEnd.has(id)) return !patchEnd.get(id);
    const text = output.get(id);
    if (text === undefined) return null;
    // apply_patch's own output (with or without a JSON envelope) starts with "Success." when it applied.
    return !/Success\. Updated the following files/.test(text);
  };
  return {
    tool_calls: calls.size,
    edit_calls: edits.length,
    failed_edit_calls: edits.filter((id) => failed(id) === true).length,
    unresolved_edit_calls: edits.filter((id) => failed(id) === null).length,
  };
}

/** `text` is read for Gemini only (gemini.ts: one JSON document, or a log replayed by message id). */
export function callCounts(records: Json[], format: "claude-code" | "codex" | "gemini" | "pi", text = ""): CallCounts {
  if (format === "gemini") return geminiCallCounts(text);
  if (format === "pi") return piCallCounts(text);
  return format === "codex" ? codexCounts(records) : claudeCounts(records);
}
