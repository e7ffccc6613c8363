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
 *   of the LF, BOM-less text (tools/edit.ts `generateUnifiedPatch`): the
 *   tool's own record. Where it shows that Pi matched every oldText exactly,
 *   the edits give the same file and are used (a patch of BOM-less text does
 *   not place on a BOM file's first lines); where Pi matched fuzzily, the
 *   patch is used. Without a patch the edits are re-applied by replay
 *   (replacements.ts: LF-normalised, ordered as Pi applies them), exactly: a
 *   fuzzy match Pi made cannot be found again and the call is reported
 *   unreplayable. `details.diff` is a display diff with line numbers in its
 *   lines, never used.
 * Paths: as Pi resolves them (tool-path.ts: `@`, Unicode spaces, `~`);
 * relative paths are resolved against the session cwd by replay's path mapper.
 */
import type { FileEdit, StringEdit } from "../../model";
import { newFileEdit } from "../../model";
import { allExactInPatch, orderReplacements, piReplacements } from "./replacements";
import { editDetailsSchema } from "./schema";
import { piPathOf } from "./tool-path";

export { piPathOf } from "./tool-path";
export { piReplacements } from "./replacements";

export const PI_FILE_TOOLS = new Set(["write", "edit"]);

export interface PiEditNotes {
  /** Calls whose edits were taken from `details.patch` (Pi matched fuzzily). */
  fromPatch: number;
  /** Calls with a patch showing Pi matched every oldText exactly: the edits were used (same result). */
  exactOverPatch: number;
  /** Multi-edit calls whose logged order matters when re-applied one by one (an earlier newText holds a later oldText). */
  orderSensitive: number;
  /** Of those, calls re-ordered so that one-by-one application gives Pi's all-at-once result. */
  reordered: number;
  /** Of those, calls no order of which is sure to (each newText holds another's oldText): kept as logged. */
  unorderable: number;
  /** Patches with a body line starting `---`/`+++` (a removed `--…` or added `++…` line), which patch readers take for headers: edits used instead. */
  patchHeaderLike: number;
  /** Paths starting `~` expanded with the home folder of the header cwd. */
  homeExpanded: number;
  /** Paths starting `~` left as logged: the cwd lies in no home folder. */
  homeUnknown: number;
}

export const emptyPiEditNotes = (): PiEditNotes => ({
  fromPatch: 0,
  exactOverPatch: 0,
  orderSensitive: 0,
  reordered: 0,
  unorderable: 0,
  patchHeaderLike: 0,
  homeExpanded: 0,
  homeUnknown: 0,
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Edits of one successful `write`/`edit` call; `details` is its tool result's, `cwd` the session header's. */
export function piFileEdits(
  tool: string,
  args: unknown,
  details: unknown,
  notes: PiEditNotes,
  cwd: string | null = null,
): { edits: FileEdit[]; problem: string | null } {
  if (tool !== "write" && tool !== "edit") return { edits: [], problem: null };
  const path = piPathOf(args, cwd, notes);
  if (tool === "write") {
    if (path === null) return { edits: [], problem: "write without path" };
    const content = isObject(args) && typeof args.content === "string" ? args.content : null;
    return {
      edits: [newFileEdit(path, "write", { post_image: content })],
      problem: content === null ? "write without content" : null,
    };
  }
  if (path === null) return { edits: [], problem: "edit without path" };
  const patch = patchOf(details);
  const replacements = piReplacements(args);
  if (patch !== null) {
    if (hasHeaderLikeBody(patch)) notes.patchHeaderLike++;
    else if (replacements !== null && allExactInPatch(replacements, patch)) notes.exactOverPatch++;
    else {
      notes.fromPatch++;
      return { edits: [newFileEdit(path, "patch", { patch })], problem: null };
    }
  }
  if (replacements === null)
    return { edits: [newFileEdit(path, "edit")], problem: "edit without usable oldText/newText or edits[]" };
  const { ordered, sensitive, reordered, cyclic } = orderReplacements(replacements);
  if (sensitive) notes.orderSensitive++;
  if (reordered) notes.reordered++;
  if (cyclic) notes.unorderable++;
  const edits: StringEdit[] = ordered.map((r) => ({
    old_string: r.oldText,
    new_string: r.newText,
    replace_all: false,
  }));
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
