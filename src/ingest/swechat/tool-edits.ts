/**
 * File edits from a tool call's INPUT alone (the conversations table keeps
 * `tool_input_json` but not the tool's own result record), for the agents
 * SWE-chat holds:
 * - Claude Code `Write` {file_path, content}, `Edit` {file_path, old_string,
 *   new_string, replace_all}, `MultiEdit` {file_path, edits[]},
 *   `NotebookEdit` {notebook_path} (no text: not replayable), and the ACP
 *   variants `mcp__acp__Write` / `mcp__acp__Edit`;
 * - Gemini CLI `write_file` / `save_file` {file_path, content}, `replace` /
 *   `edit_file` {file_path, old_string, new_string};
 * - OpenCode `write` {filePath, content}, `edit` {filePath, oldString,
 *   newString, replaceAll};
 * - Codex `apply_patch` (its input is the patch text, or {input|patch}),
 *   also inside a shell call whose command starts with `apply_patch`.
 * A `Write`'s content is the file after the call (`post_image`); nothing
 * here knows the file before the call (`pre_image` stays null).
 */
import type { FileEdit, StringEdit } from "../../model";
import { newFileEdit } from "../../model";

const WRITE_TOOLS = new Set(["write", "mcp__acp__write", "write_file", "save_file"]);
const EDIT_TOOLS = new Set(["edit", "mcp__acp__edit", "replace", "edit_file"]);
const SHELL_TOOLS = new Set([
  "bash",
  "shell",
  "exec_command",
  "run_shell_command",
  "shell_command",
  "local_shell",
  "exec",
]);

/** Tool names (lowercased) whose calls change files, for `isFileChangingCall`-style counts. */
export const SWECHAT_FILE_TOOLS = new Set([
  ...WRITE_TOOLS,
  ...EDIT_TOOLS,
  "multiedit",
  "notebookedit",
  "apply_patch",
  "applypatch",
]);

export type EditsOutcome = { ok: true; edits: FileEdit[] } | { ok: false; reason: string };

const edit = newFileEdit;

const s = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The file edits one call's input describes; `ok: true` with no edits for tools that change no file. */
export function editsFromInput(toolName: string, input: unknown): EditsOutcome {
  const name = toolName.toLowerCase();
  const r = (input && typeof input === "object" && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const path =
    s(r.file_path) ?? s(r.filePath) ?? s(r.path) ?? s(r.notebook_path) ?? s(r.absolute_path) ?? s(r.filename);
  if (WRITE_TOOLS.has(name)) {
    const content = s(r.content) ?? s(r.text);
    if (path === null || content === null) return { ok: false, reason: `${toolName} input without a path and content` };
    return { ok: true, edits: [edit(path, "write", { post_image: content })] };
  }
  if (EDIT_TOOLS.has(name)) {
    const old = s(r.old_string) ?? s(r.oldString);
    const neu = s(r.new_string) ?? s(r.newString);
    if (path === null || old === null || neu === null)
      return { ok: false, reason: `${toolName} input without a path, old and new text` };
    const all = r.replace_all === true || r.replaceAll === true;
    return {
      ok: true,
      edits: [edit(path, "edit", { edits: [{ old_string: old, new_string: neu, replace_all: all }] })],
    };
  }
  if (name === "multiedit") {
    const raw = Array.isArray(r.edits) ? r.edits : null;
    if (path === null || raw === null) return { ok: false, reason: "MultiEdit input without a path and edits" };
    const edits: StringEdit[] = [];
    for (const e of raw) {
      const x = (e ?? {}) as Record<string, unknown>;
      const old = s(x.old_string);
      const neu = s(x.new_string);
      if (old === null || neu === null) return { ok: false, reason: "MultiEdit edit without old and new text" };
      edits.push({ old_string: old, new_string: neu, replace_all: x.replace_all === true });
    }
    return { ok: true, edits: [edit(path, "multi-edit", { edits })] };
  }
  if (name === "notebookedit") {
    if (path === null) return { ok: false, reason: "NotebookEdit input without a path" };
    return { ok: true, edits: [edit(path, "notebook")] };
  }
  if (name === "apply_patch" || name === "applypatch") {
    const text = typeof input === "string" ? input : (s(r.input) ?? s(r.patch) ?? s(r.content));
    if (text === null) return { ok: false, reason: `${toolName} input without patch text` };
    return parseCodexPatch(text);
  }
  if (SHELL_TOOLS.has(name)) {
    const patch = applyPatchInShell(r.command ?? r.cmd);
    if (patch !== null) return parseCodexPatch(patch);
  }
  return { ok: true, edits: [] };
}

/** The patch text of a shell call running `apply_patch` (["apply_patch", text], or a here-document). */
function applyPatchInShell(command: unknown): string | null {
  if (Array.isArray(command)) {
    const words = command.filter((w): w is string => typeof w === "string");
    if (words[0] === "apply_patch" && words[1]) return words[1];
    const script = words.length >= 3 && (words[1] === "-lc" || words[1] === "-c") ? words[2] : null;
    return script ? applyPatchInShell(script) : null;
  }
  if (typeof command !== "string" || !/^\s*apply_patch\b/.test(command)) return null;
  const begin = command.indexOf("*** Begin Patch");
  const end = command.indexOf("*** End Patch");
  return begin >= 0 ? command.slice(begin, end >= 0 ? end + "*** End Patch".length : undefined) : null;
}

/**
 * Codex's patch envelope: `*** Add File: p` (+ lines: the new file),
 * `*** Update File: p` (optional `*** Move to: q`; `@@` hunks with context,
 * `-` and `+` lines), `*** Delete File: p`.
 */
export function parseCodexPatch(text: string): EditsOutcome {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  const edits: FileEdit[] = [];
  let current: { path: string; kind: "add" | "update"; body: string[]; movedFrom: string | null } | null = null;
  const flush = () => {
    if (!current) return;
    if (current.kind === "add") {
      const added = current.body.filter((l) => l.startsWith("+")).map((l) => l.slice(1));
      edits.push(edit(current.path, "write", { post_image: added.length ? added.join("\n") + "\n" : "" }));
    } else {
      const body = current.body.map((l) => (l.startsWith("@@") ? "@@" : l)).filter((l) => l !== "*** End of File");
      if (body.length > 0 && body[0] !== "@@") body.unshift("@@");
      edits.push(
        edit(current.path, "patch", {
          patch: body.join("\n") + "\n",
          ...(current.movedFrom !== null ? { moved_from: current.movedFrom } : {}),
        }),
      );
    }
    current = null;
  };
  for (const line of lines) {
    let m: RegExpExecArray | null;
    if ((m = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line))) {
      flush();
      const path = m[2].trim();
      if (m[1] === "Delete") edits.push(edit(path, "delete"));
      else current = { path, kind: m[1] === "Add" ? "add" : "update", body: [], movedFrom: null };
    } else if ((m = /^\*\*\* Move to: (.+)$/.exec(line)) && current) {
      // One edit on the new path: replay carries the old path's lines over, then applies the hunks.
      current.movedFrom = current.path;
      current.path = m[1].trim();
    } else if (line.startsWith("*** Begin Patch") || line.startsWith("*** End Patch")) {
      flush();
    } else if (current) current.body.push(line);
  }
  flush();
  if (edits.length === 0) return { ok: false, reason: "apply_patch text without a file section" };
  return { ok: true, edits };
}
