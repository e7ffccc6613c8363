/**
 * Codex file edits → {@link FileEdit}s, from the authoritative
 * `patch_apply_end.changes` (per-file unified diffs with real line numbers,
 * full `add` content) or, when a rollout has no such event (pre-envelope
 * rollouts logged no events), from the apply_patch text itself.
 *
 * The apply_patch grammar (formats.md §3.2): `*** Begin Patch` …
 * `*** End Patch`; per file `*** Add File: p` (all lines `+`),
 * `*** Delete File: p`, or `*** Update File: p` optionally followed by
 * `*** Move to: q`; update chunks start with `@@` or `@@ <anchor line>` and
 * carry no line numbers; `*** End of File` pins a chunk to the file's end.
 * OpenCode's apply_patch tool takes the same grammar, so its adapter uses
 * this parser too.
 */
import type { FileEdit } from "../../model";
import { newFileEdit } from "../../model";
import { fileChangeSchema, shellArgumentsSchema } from "./schema";

const SHELL_TOOLS = new Set(["shell", "container.exec", "exec_command", "shell_command", "local_shell"]);

export interface PatchNotes {
  /** `@@ <anchor>` lines dropped: the hunk is then located by its own context lines only. */
  anchorsDropped: number;
  /** Updates with `*** Move to`: one edit on the new path with `moved_from` (replay carries the old path's lines over). */
  moves: number;
  /** Lines that fit no part of the grammar. */
  strayLines: number;
}

export const emptyPatchNotes = (): PatchNotes => ({ anchorsDropped: 0, moves: 0, strayLines: 0 });

const edit = newFileEdit;

/**
 * `patch_apply_end.changes` (`{<path>: change}`) → file edits, in the
 * object's key order. An `add` is a write whose post-image is the logged
 * content (pre-image unknown: Add File also overwrites an existing file); an
 * `update` is a unified diff; a `delete` empties the file (its `content`,
 * when logged, is the pre-image). An update with `move_path` is one edit on
 * the new path with `moved_from` naming the old one: replay moves the old
 * path's lines (with their provenance) there, then applies the diff
 * (counted in `notes.moves`).
 */
export function fileEditsFromChanges(changes: unknown, notes: PatchNotes): { edits: FileEdit[]; invalid: number } {
  const edits: FileEdit[] = [];
  let invalid = 0;
  if (typeof changes !== "object" || changes === null || Array.isArray(changes))
    return { edits, invalid: changes === undefined || changes === null ? 0 : 1 };
  for (const [path, raw] of Object.entries(changes as Record<string, unknown>)) {
    const parsed = fileChangeSchema.safeParse(raw);
    if (!parsed.success) {
      invalid++;
      continue;
    }
    const c = parsed.data;
    const type = c.type ?? (c.add ? "add" : c.update ? "update" : "delete" in c ? "delete" : undefined);
    if (type === "add") {
      const content = c.content ?? c.add?.content;
      if (content === undefined) invalid++;
      else edits.push(edit(path, "write", { post_image: content }));
    } else if (type === "delete") {
      const content = c.content ?? (c.delete && typeof c.delete === "object" ? c.delete.content : undefined);
      edits.push(edit(path, "delete", { pre_image: content ?? null, post_image: "" }));
    } else if (type === "update") {
      const diff = c.unified_diff ?? c.update?.unified_diff;
      const move = c.move_path ?? c.update?.move_path ?? null;
      if (diff === undefined) {
        invalid++;
        continue;
      }
      if (move) {
        notes.moves++;
        edits.push(edit(move, "patch", { patch: diff, moved_from: path }));
      } else {
        edits.push(edit(path, "patch", { patch: diff }));
      }
    } else {
      invalid++;
    }
  }
  return { edits, invalid };
}

/** The patch text inside an apply_patch invocation (a bare patch, a heredoc, or a command argument); null when there is none. */
export function extractPatchText(text: string): string | null {
  const begin = text.indexOf("*** Begin Patch");
  if (begin < 0) return null;
  const end = text.indexOf("*** End Patch", begin);
  return end < 0 ? text.slice(begin) : text.slice(begin, end + "*** End Patch".length);
}

/** Whether a shell command runs apply_patch (Codex intercepts it and applies the patch itself). */
export function isApplyPatchCommand(command: string): boolean {
  return /(^|[\s;&|(])(apply_patch|applypatch)\b/.test(command) && command.includes("*** Begin Patch");
}

/** `function_call.arguments` (a JSON string) → a value; kept as text when it is not JSON. */
export function parseArguments(raw: unknown): { value: unknown; invalid: boolean } {
  if (typeof raw !== "string") return { value: raw ?? null, invalid: false };
  try {
    return { value: JSON.parse(raw), invalid: false };
  } catch {
    return { value: raw, invalid: true };
  }
}

/** The apply_patch text of a call, when the call is one: the `apply_patch` function tool (`{input}`), or a shell command running apply_patch (`command: string[]`, `cmd`). */
export function patchTextOfCall(name: string, input: unknown): string | null {
  if (/^apply_?patch$/i.test(name)) {
    if (typeof input === "string") return input;
    const a = shellArgumentsSchema.safeParse(input);
    return a.success && typeof a.data.input === "string" ? a.data.input : null;
  }
  if (!SHELL_TOOLS.has(name)) return null;
  const a = shellArgumentsSchema.safeParse(input);
  if (!a.success) return null;
  const command = a.data.cmd ?? (Array.isArray(a.data.command) ? a.data.command.join(" ") : a.data.command);
  return typeof command === "string" && isApplyPatchCommand(command) ? extractPatchText(command) : null;
}

/**
 * apply_patch text → file edits, for rollouts that log no
 * `patch_apply_end`. Update chunks become unified-diff hunks without line
 * numbers (`@@` then ` `/`-`/`+` lines), which replay locates by their
 * context; an Add File becomes a write of its `+` lines, each ending in a
 * newline as apply_patch writes them.
 */
export function fileEditsFromPatchText(text: string, notes: PatchNotes): FileEdit[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const edits: FileEdit[] = [];
  let current: { kind: "add" | "delete" | "update"; path: string; move: string | null; body: string[] } | null = null;
  const flush = () => {
    if (!current) return;
    const c = current;
    current = null;
    if (c.kind === "add")
      edits.push(edit(c.path, "write", { post_image: c.body.length === 0 ? "" : `${c.body.join("\n")}\n` }));
    else if (c.kind === "delete") edits.push(edit(c.path, "delete", { post_image: "" }));
    else {
      const patch = c.body.join("\n");
      if (c.move) {
        notes.moves++;
        edits.push(edit(c.move, "patch", { patch, moved_from: c.path }));
      } else {
        edits.push(edit(c.path, "patch", { patch }));
      }
    }
  };
  for (const line of lines) {
    const header = /^\*\*\* (Add|Delete|Update) File: (.+)$/.exec(line);
    if (header) {
      flush();
      current = {
        kind: header[1].toLowerCase() as "add" | "delete" | "update",
        path: header[2].trim(),
        move: null,
        body: [],
      };
      continue;
    }
    if (line === "*** Begin Patch" || line === "*** End Patch" || line === "") {
      // An empty line inside an update chunk is an empty context line (Codex accepts it).
      if (line === "" && current?.kind === "update" && current.body.length > 0) current.body.push(" ");
      continue;
    }
    if (!current) {
      notes.strayLines++;
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current.kind === "update") {
      current.move = move[1].trim();
      continue;
    }
    if (line === "*** End of File") continue;
    if (current.kind === "add") {
      if (line.startsWith("+")) current.body.push(line.slice(1));
      else notes.strayLines++;
    } else if (current.kind === "update") {
      if (line.startsWith("@@")) {
        if (line.trim() !== "@@") notes.anchorsDropped++;
        current.body.push("@@");
      } else if (line.startsWith(" ") || line.startsWith("-") || line.startsWith("+")) {
        if (current.body.length === 0) current.body.push("@@");
        current.body.push(line);
      } else {
        notes.strayLines++;
      }
    } else {
      notes.strayLines++;
    }
  }
  flush();
  return edits;
}
