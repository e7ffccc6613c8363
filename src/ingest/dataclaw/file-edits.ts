/**
 * The file edits a tool input describes, across the agents DataClaw exports
 * (it keeps each agent's own tool names and argument keys):
 * Claude Code `Write`/`Edit`/`MultiEdit` (`file_path`, `content`,
 * `old_string`/`new_string`, `edits[]`); Gemini CLI `write_file`/`replace`;
 * OpenCode `write`/`edit` (`filePath`, `oldString`/`newString`); Cursor
 * `search_replace`; Codex `apply_patch` (the patch text in `input.patch`, or
 * inside a shell call; parsed by the Codex adapter's `fileEditsFromPatchText`). Only inputs are exported, so every edit is a string
 * edit, a whole content, or a patch: never a post-image the tool confirmed.
 */
import type { FileEdit, StringEdit } from "../../model";
import { newFileEdit } from "../../model";
import { emptyPatchNotes, extractPatchText, fileEditsFromPatchText } from "../codex";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (r: Record<string, unknown>, ...keys: string[]): string | null => {
  for (const k of keys) if (typeof r[k] === "string") return r[k] as string;
  return null;
};

const WRITE_TOOLS = new Set(["write", "write_file", "create_file", "save_file"]);
const EDIT_TOOLS = new Set(["edit", "replace", "search_replace", "str_replace", "edit_file", "mcp__acp__edit"]);
const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "target_file", "notebook_path"];

export type EditsOf =
  | { kind: "edits"; edits: FileEdit[] }
  /** A file-changing tool whose input is a summary string (early DataClaw): nothing to replay. */
  | { kind: "summarized" }
  /** A file-changing tool whose input lacks the text (e.g. Cursor `edit_file` sketches). */
  | { kind: "unusable"; reason: string }
  | { kind: "none" };

const edit = newFileEdit;

export function fileEditsOf(tool: string, input: unknown): EditsOf {
  const name = tool.toLowerCase();
  const patchText = applyPatchText(name, input);
  if (patchText !== null) {
    // The Codex adapter's apply_patch grammar (Add → write, Update → context-located hunks, Delete, Move to).
    const edits = fileEditsFromPatchText(patchText, emptyPatchNotes());
    return edits.length > 0 ? { kind: "edits", edits } : { kind: "unusable", reason: "apply_patch text names no file" };
  }
  const changing = WRITE_TOOLS.has(name) || EDIT_TOOLS.has(name) || name === "multiedit" || name === "mcp__acp__write";
  if (!changing) return { kind: "none" };
  if (!isObject(input)) return { kind: "summarized" };
  const path = str(input, ...PATH_KEYS);
  if (path === null) return { kind: "unusable", reason: "no file path in the input" };
  if (WRITE_TOOLS.has(name) || name === "mcp__acp__write") {
    const content = str(input, "content", "file_text", "text", "contents");
    return content === null
      ? { kind: "unusable", reason: "no content in the input" }
      : { kind: "edits", edits: [edit(path, "write", { post_image: content })] };
  }
  if (name === "multiedit") {
    const list = Array.isArray(input.edits) ? input.edits : [];
    const edits = list.flatMap((e) => (isObject(e) ? stringEdit(e) : [])).filter((e): e is StringEdit => e !== null);
    return edits.length === 0
      ? { kind: "unusable", reason: "no edits in the input" }
      : { kind: "edits", edits: [edit(path, "multi-edit", { edits })] };
  }
  const one = stringEdit(input);
  if (one === null)
    return { kind: "unusable", reason: `no old/new text in the input (${Object.keys(input).join(", ")})` };
  return { kind: "edits", edits: [edit(path, "edit", { edits: [one] })] };
}

function stringEdit(r: Record<string, unknown>): StringEdit | null {
  const oldString = str(r, "old_string", "oldString", "old_str", "old_text");
  const newString = str(r, "new_string", "newString", "new_str", "new_text");
  if (oldString === null || newString === null) return null;
  return { old_string: oldString, new_string: newString, replace_all: r.replace_all === true || r.replaceAll === true };
}

/** The `*** Begin Patch` text of an apply_patch call, whether given as the tool's input or inside a shell command. */
function applyPatchText(name: string, input: unknown): string | null {
  if (typeof input === "string")
    return name.includes("apply_patch") || name === "applypatch" ? input : extractPatchText(input);
  if (!isObject(input)) return null;
  if (name === "apply_patch" || name === "applypatch") {
    const text = str(input, "patch", "input", "raw");
    if (text !== null) return text;
  }
  const command = input.command ?? input.cmd;
  const joined = Array.isArray(command)
    ? command.filter((w) => typeof w === "string").join("\n")
    : typeof command === "string"
      ? command
      : null;
  return joined === null ? null : extractPatchText(joined);
}
