/**
 * A compact tool_use block → the files it changed. The compact format keeps
 * only the tool's `input` (no `toolUseResult`: no original file, no
 * structured patch, no `userModified`), so every edit here is the agent's
 * request: a Write's content is a post-image, an Edit's strings are re-applied
 * by replay to the replayed state, a Codex apply_patch is located by its
 * context lines. Pre-images are never known.
 */
import type { FileEdit, Severity, StringEdit } from "../../model";
import { newFileEdit } from "../../model";
import { emptyPatchNotes, fileEditsFromPatchText, parseArguments, patchTextOfCall, type PatchNotes } from "../codex";
import { parseFileToolInput, type CompactResult, type FileToolInput, type RawStringEdit } from "./schema";

/** Claude Code's file tools, and the names other agents' compacted calls carry for the same kinds of change. */
const WRITE_TOOLS = new Set(["Write", "mcp__acp__Write", "write_file", "save_file", "write"]);
const EDIT_TOOLS = new Set(["Edit", "mcp__acp__Edit", "replace", "edit_file", "smart_edit", "edit"]);
const MULTI_EDIT_TOOLS = new Set(["MultiEdit", "multiedit"]);
const NOTEBOOK_TOOLS = new Set(["NotebookEdit"]);

/** What went wrong reading one call's edits; the parser counts each kind in one diagnostic. */
export type EditProblem = "no-path" | "no-content" | "no-strings" | "notebook" | "patch-without-text" | "patch-empty";

/** The counted diagnostic of each problem. */
export const EDIT_PROBLEM_NOTES: Record<EditProblem, { code: string; severity: Severity; what: string }> = {
  "no-path": {
    code: "entire-compact-edit-without-path",
    severity: "warning",
    what: "file-changing call(s) naming no file: no file edit recorded",
  },
  "no-content": {
    code: "entire-compact-write-without-content",
    severity: "warning",
    what: "write call(s) without `content`: unreplayable",
  },
  "no-strings": {
    code: "entire-compact-edit-without-strings",
    severity: "warning",
    what: "edit call(s) without old/new strings: unreplayable",
  },
  notebook: {
    code: "entire-compact-notebook-edit",
    severity: "info",
    what: "NotebookEdit call(s): one notebook cell changed, no post-image (unreplayable as lines)",
  },
  "patch-without-text": {
    code: "entire-compact-patch-without-text",
    severity: "warning",
    what: "apply_patch call(s) whose input holds no patch text: the files they changed are unknown",
  },
  "patch-empty": {
    code: "entire-compact-patch-empty",
    severity: "warning",
    what: "apply_patch call(s) whose patch names no file",
  },
};

export interface CallEdits {
  edits: FileEdit[];
  problems: EditProblem[];
  patchNotes: PatchNotes;
}

/** Whether a call of this tool changes files (before its input is looked at). */
export function isCompactFileTool(name: string): boolean {
  return (
    WRITE_TOOLS.has(name) ||
    EDIT_TOOLS.has(name) ||
    MULTI_EDIT_TOOLS.has(name) ||
    NOTEBOOK_TOOLS.has(name) ||
    /^apply_?patch$/i.test(name)
  );
}

// user_modified stays false: the compact format drops `toolUseResult.userModified`, so a person's rewrite of a proposed edit cannot be seen.
const fileEdit = newFileEdit;

/** The file edits of one call; null when the call changes no file. */
export function fileEditsOfCall(name: string, input: unknown, result: CompactResult | undefined): CallEdits | null {
  const patchNotes = emptyPatchNotes();
  // Codex: apply_patch as a custom tool (the patch text) or inside a shell command.
  const args = typeof input === "string" && !/^apply_?patch$/i.test(name) ? parseArguments(input).value : input;
  const patchText = patchTextOfCall(name, args);
  if (patchText !== null) {
    const edits = fileEditsFromPatchText(patchText, patchNotes);
    return { edits, problems: edits.length === 0 ? ["patch-empty"] : [], patchNotes };
  }
  if (/^apply_?patch$/i.test(name)) return { edits: [], problems: ["patch-without-text"], patchNotes };
  if (!isCompactFileTool(name)) return null;

  const parsed = parseFileToolInput(input);
  const inp: FileToolInput = parsed.success ? parsed.data : {};
  const path = inp.file_path ?? inp.abs_path ?? inp.notebook_path ?? inp.path ?? inp.filePath ?? result?.file?.filePath;
  if (path === undefined || path === "") return { edits: [], problems: ["no-path"], patchNotes };

  if (NOTEBOOK_TOOLS.has(name)) return { edits: [fileEdit(path, "notebook")], problems: ["notebook"], patchNotes };

  if (WRITE_TOOLS.has(name)) {
    const content = inp.content ?? null;
    return {
      edits: [fileEdit(path, "write", { post_image: content })],
      problems: content === null ? ["no-content"] : [],
      patchNotes,
    };
  }

  const multi =
    MULTI_EDIT_TOOLS.has(name) ||
    (inp.old_string === undefined && inp.oldString === undefined && inp.edits !== undefined);
  const edits = multi ? toEdits(inp.edits) : singleEdit(inp);
  return {
    edits: [fileEdit(path, multi ? "multi-edit" : "edit", { edits })],
    problems: edits === null ? ["no-strings"] : [],
    patchNotes,
  };
}

function singleEdit(inp: FileToolInput): StringEdit[] | null {
  const oldString = inp.old_string ?? inp.oldString;
  const newString = inp.new_string ?? inp.newString;
  if (oldString === undefined || newString === undefined) return null;
  // Gemini's replace asks for `expected_replacements` matches; more than one means every match.
  const replaceAll =
    inp.replace_all ?? inp.replaceAll ?? (inp.expected_replacements !== undefined && inp.expected_replacements > 1);
  return [{ old_string: oldString, new_string: newString, replace_all: replaceAll }];
}

function toEdits(raw: RawStringEdit[] | undefined): StringEdit[] | null {
  if (raw === undefined || raw.length === 0) return null;
  const out: StringEdit[] = [];
  for (const e of raw) {
    const oldString = e.old_string ?? e.oldString;
    const newString = e.new_string ?? e.newString;
    if (oldString === undefined || newString === undefined) return null;
    out.push({ old_string: oldString, new_string: newString, replace_all: e.replace_all ?? e.replaceAll ?? false });
  }
  return out;
}
