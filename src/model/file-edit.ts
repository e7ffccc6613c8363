import { z } from "zod";

export const stringEditSchema = z.object({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().default(false),
});
export type StringEdit = z.infer<typeof stringEditSchema>;

/**
 * What a file-changing tool call did to one file, as the log records it.
 * Replay prefers `post_image` (the tool's own result), then `pre_image` plus
 * `edits`, then `edits` applied to the replayed state, then `patch`.
 */
export const fileEditSchema = z.object({
  /** The path as logged (often absolute); mapped to repo-relative during replay. */
  path: z.string(),
  kind: z.enum(["write", "edit", "multi-edit", "patch", "notebook", "delete"]),
  /** File content before the call, when the log records it; `""` for a create. */
  pre_image: z.string().nullable(),
  /** File content after the call, when the log records it. */
  post_image: z.string().nullable(),
  /** String replacements, in order. */
  edits: z.array(stringEditSchema).nullable(),
  /** A unified diff (Codex `patch_apply_end.changes[].unified_diff`, apply_patch hunks). */
  patch: z.string().nullable(),
  /** The person changed the proposed edit before accepting it: inserted text is human. */
  user_modified: z.boolean(),
  /**
   * A rename (Codex `*** Move to:`): the file's content, with its lines' provenance, moves here
   * from this path (as logged) before the edit applies, and the old path is left empty.
   */
  moved_from: z.string().nullable().optional(),
});
export type FileEdit = z.infer<typeof fileEditSchema>;

/** A file edit with only what the log says; the rest unknown (null) and not user-modified. */
export function newFileEdit(path: string, kind: FileEdit["kind"], fields: Partial<FileEdit> = {}): FileEdit {
  return { path, kind, pre_image: null, post_image: null, edits: null, patch: null, user_modified: false, ...fields };
}
