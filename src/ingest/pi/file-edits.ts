/**
 * Pi's file-changing tool calls → {@link FileEdit}s (successful calls only).
 *
 * - `write {path, content}` (tools/write.ts): writes `content` as given
 *   (creating parent folders): post-image = content. The earlier content is
 *   not logged, so the pre-image is unknown.
 * - `edit`: until 0.63 `{path, oldText, newText}`; from 0.64.0
 *   `{path, edits: [{oldText, newText}, …]}`, with the old form still
 *   accepted (`prepareEditArguments` appends a top-level oldText/newText to
 *   `edits`, and parses `edits` sent as a JSON string). Pi matches each
 *   oldText exactly first, then after a "fuzzy" normalisation (NFKC, trailing
 *   whitespace of each line, smart quotes, Unicode dashes and spaces); it
 *   must occur once (counted in the normalised text); several edits are all
 *   matched against the original file and must not overlap; CRLF files are
 *   edited as LF and written back as CRLF; a BOM is kept (edit-diff.ts).
 *   Newer versions log the change itself as `details.patch`, a unified diff
 *   of the LF text (tools/edit.ts `generateUnifiedPatch`): the tool's own
 *   record, preferred. Else the edits are re-applied by replay, in order,
 *   exactly: a fuzzy match Pi made cannot be found again and the call is
 *   reported unreplayable. `details.diff` is a display diff with line
 *   numbers in its lines, never used.
 * Paths: Pi drops a leading `@` (path-utils.ts `normalizeAtPrefix`); relative
 * paths are resolved against the session cwd by replay's path mapper.
 */
import type { FileEdit, StringEdit } from "../../model";
import { newFileEdit } from "../../model";
import { editDetailsSchema, replaceEditSchema } from "./schema";

export const PI_FILE_TOOLS = new Set(["write", "edit"]);

export interface PiEditNotes {
  /** Calls whose edits were taken from `details.patch`. */
  fromPatch: number;
  /** Multi-edit calls whose order matters when re-applied one by one (an earlier newText holds a later oldText). */
  orderSensitive: number;
  /** Patches with a body line starting `---`/`+++` (a removed `--…` or added `++…` line), which patch readers take for headers: edits used instead. */
  patchHeaderLike: number;
}

export const emptyPiEditNotes = (): PiEditNotes => ({ fromPatch: 0, orderSensitive: 0, patchHeaderLike: 0 });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** The path a Pi tool call names (`path`; `file_path` is accepted by newer renderers), without Pi's `@` prefix. */
export function piPathOf(args: unknown): string | null {
  if (!isObject(args)) return null;
  const raw = str(args.path) ?? str(args.file_path);
  if (raw === null || raw.trim() === "") return null;
  return raw.startsWith("@") ? raw.slice(1) : raw;
}

/** The replacements of an `edit` call, as Pi's `prepareEditArguments` assembles them; null when unusable. */
export function piReplacements(args: unknown): { oldText: string; newText: string }[] | null {
  if (!isObject(args)) return null;
  let list: unknown = args.edits;
  if (typeof list === "string") {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      list = undefined;
    }
  }
  const out: { oldText: string; newText: string }[] = [];
  if (Array.isArray(list)) {
    for (const e of list) {
      const r = replaceEditSchema.safeParse(e);
      if (!r.success) return null;
      out.push({ oldText: r.data.oldText, newText: r.data.newText });
    }
  } else if (list !== undefined && list !== null) return null;
  if (typeof args.oldText === "string" && typeof args.newText === "string") out.push({ oldText: args.oldText, newText: args.newText });
  return out.length > 0 ? out : null;
}

/** Edits of one successful `write`/`edit` call; `details` is its tool result's. */
export function piFileEdits(tool: string, args: unknown, details: unknown, notes: PiEditNotes): { edits: FileEdit[]; problem: string | null } {
  const path = piPathOf(args);
  if (tool === "write") {
    if (path === null) return { edits: [], problem: "write without path" };
    const content = isObject(args) ? str(args.content) : null;
    return { edits: [newFileEdit(path, "write", { post_image: content })], problem: content === null ? "write without content" : null };
  }
  if (tool !== "edit") return { edits: [], problem: null };
  if (path === null) return { edits: [], problem: "edit without path" };
  const patch = patchOf(details);
  const replacements = piReplacements(args);
  if (patch !== null) {
    if (!hasHeaderLikeBody(patch)) {
      notes.fromPatch++;
      return { edits: [newFileEdit(path, "patch", { patch })], problem: null };
    }
    notes.patchHeaderLike++;
  }
  if (replacements === null) return { edits: [newFileEdit(path, "edit")], problem: "edit without usable oldText/newText or edits[]" };
  const edits: StringEdit[] = replacements.map((r) => ({ old_string: r.oldText, new_string: r.newText, replace_all: false }));
  if (isOrderSensitive(replacements)) notes.orderSensitive++;
  return { edits: [newFileEdit(path, edits.length > 1 ? "multi-edit" : "edit", { edits })], problem: null };
}

/** `details.patch` from its first hunk on (the `---`/`+++` file header dropped), when it has one. */
function patchOf(details: unknown): string | null {
  const d = editDetailsSchema.safeParse(details);
  const patch = d.success ? d.data.patch : undefined;
  if (typeof patch !== "string") return null;
  const at = patch.startsWith("@@") ? 0 : patch.indexOf("\n@@");
  return at < 0 ? null : patch.slice(at === 0 ? 0 : at + 1);
}

/** A hunk line `---x` or `+++x` (the file's line `--x` removed, `++x` added): unified-diff readers skip such lines as file headers. */
function hasHeaderLikeBody(patch: string): boolean {
  return patch.split("\n").some((l) => l.startsWith("---") || l.startsWith("+++"));
}

/**
 * Pi matches every edit against the original text; replay applies them one
 * after the other. The two agree unless an earlier replacement puts a later
 * oldText into the text before its original place: possible only when a
 * newText holds a later oldText (or a join across its edges makes one).
 */
function isOrderSensitive(replacements: readonly { oldText: string; newText: string }[]): boolean {
  for (let j = 0; j < replacements.length; j++) {
    for (let k = j + 1; k < replacements.length; k++) if (replacements[j].newText.includes(replacements[k].oldText)) return true;
  }
  return false;
}
