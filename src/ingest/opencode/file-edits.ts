/**
 * OpenCode's file-changing tool parts → {@link FileEdit}s.
 *
 * - `write` (`input {filePath, content}`): post-image = content; pre-image
 *   "" when `metadata.exists` is false (a new file).
 * - `edit` (`input {filePath, oldString, newString, replaceAll}`): older
 *   versions keep `metadata.filediff.{before, after}` (exact images); newer
 *   ones keep only a display diff. OpenCode's edit falls back to fuzzy
 *   matches (trimmed lines, block anchors, whitespace- and
 *   indentation-insensitive), so re-applying oldString → newString can fail
 *   where the tool succeeded: replay then reports the call unreplayable.
 *   `metadata.diff` / `filediff.patch` are NOT used: `trimDiff` strips the
 *   common indentation from every line, so they do not apply to the file.
 * - `multiedit` (`input {filePath, edits[]}`): the edits in order.
 * - `patch` / `apply_patch` (`input {patchText}`, Codex's grammar):
 *   `metadata.files[].{before, after}` where logged, else the patch text.
 */
import type { FileEdit, StringEdit } from "../../model";
import { newFileEdit } from "../../model";
import { emptyPatchNotes, fileEditsFromPatchText, type PatchNotes } from "../codex/file-edits";
import { fileDiffSchema, patchFileSchema } from "./schema";

export const OPENCODE_FILE_TOOLS = new Set(["write", "edit", "multiedit", "patch", "apply_patch"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

const edit = newFileEdit;

/** Edits of one successful tool part; `directory` resolves relative patch paths. */
export function openCodeFileEdits(
  tool: string,
  input: unknown,
  metadata: Record<string, unknown> | undefined,
  directory: string | null,
  notes: PatchNotes = emptyPatchNotes(),
): { edits: FileEdit[]; problem: string | null } {
  const inp = isObject(input) ? input : {};
  const meta = metadata ?? {};
  const fd = fileDiffSchema.safeParse(meta.filediff).data;
  const path = str(inp.filePath) ?? str(inp.file_path) ?? fd?.file ?? null;
  if (tool === "write") {
    if (path === null) return { edits: [], problem: "write without filePath" };
    const content = str(inp.content) ?? fd?.after ?? null;
    const pre = meta.exists === false ? "" : (fd?.before ?? null);
    return {
      edits: [edit(path, "write", { pre_image: pre, post_image: content })],
      problem: content === null ? "write without content" : null,
    };
  }
  if (tool === "edit") {
    if (path === null) return { edits: [], problem: "edit without filePath" };
    if (fd && typeof fd.before === "string" && typeof fd.after === "string")
      return { edits: [edit(path, "edit", { pre_image: fd.before, post_image: fd.after })], problem: null };
    const oldString = str(inp.oldString);
    const newString = str(inp.newString);
    if (oldString === null || newString === null)
      return { edits: [edit(path, "edit")], problem: "edit without oldString/newString" };
    if (oldString === "") return { edits: [edit(path, "write", { post_image: newString })], problem: null };
    return {
      edits: [
        edit(path, "edit", {
          edits: [{ old_string: oldString, new_string: newString, replace_all: inp.replaceAll === true }],
        }),
      ],
      problem: null,
    };
  }
  if (tool === "multiedit") {
    const list = Array.isArray(inp.edits) ? inp.edits : [];
    const edits: StringEdit[] = [];
    for (const e of list) {
      if (!isObject(e) || typeof e.oldString !== "string" || typeof e.newString !== "string")
        return { edits: [], problem: "multiedit with an unusable edit" };
      edits.push({ old_string: e.oldString, new_string: e.newString, replace_all: e.replaceAll === true });
    }
    if (path === null) return { edits: [], problem: "multiedit without filePath" };
    return { edits: [edit(path, "multi-edit", { edits })], problem: null };
  }
  if (tool === "patch" || tool === "apply_patch") {
    const files = Array.isArray(meta.files) ? meta.files : [];
    const out: FileEdit[] = [];
    let complete = files.length > 0;
    for (const raw of files) {
      const f = patchFileSchema.safeParse(raw).data;
      const p = f?.filePath ?? null;
      if (!f || p === null) {
        complete = false;
        continue;
      }
      if (f.type === "delete") out.push(edit(p, "delete", { pre_image: f.before ?? null, post_image: "" }));
      else if (typeof f.after === "string") {
        if (f.movePath) out.push(edit(p, "delete", { pre_image: f.before ?? null, post_image: "" }));
        out.push(
          edit(f.movePath ?? p, "write", {
            pre_image: f.type === "add" ? "" : f.movePath ? null : (f.before ?? null),
            post_image: f.after,
          }),
        );
      } else complete = false;
    }
    if (complete) return { edits: out, problem: null };
    const text = str(inp.patchText) ?? str(inp.patch) ?? str(inp.input);
    if (text === null) return { edits: [], problem: "patch without patchText" };
    const fromText = fileEditsFromPatchText(text, notes).map((e) => ({
      ...e,
      path: resolvePath(e.path, directory),
      ...(e.moved_from ? { moved_from: resolvePath(e.moved_from, directory) } : {}),
    }));
    return { edits: fromText, problem: null };
  }
  return { edits: [], problem: null };
}

function resolvePath(path: string, directory: string | null): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || directory === null) return path;
  return `${directory.replace(/\/$/, "")}/${path.replace(/^\.\//, "")}`;
}
