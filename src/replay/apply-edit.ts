import { applyClaudeEdits, CLAUDE_STRING_EDIT_TOOLS, type FileEdit, type StringEdit } from "../model";

export type ApplyResult = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Re-applies string replacements the way the agents' tools do: the old text
 * must be present; without `replace_all` the first occurrence is replaced.
 * Claude Code refuses ambiguous replacements before they run, so a logged
 * successful call had exactly one match; we do not second-guess that.
 */
export function applyStringEdits(text: string, edits: readonly StringEdit[]): ApplyResult {
  let current = text;
  for (const [n, edit] of edits.entries()) {
    if (edit.old_string === "") {
      // An empty old string writes into an empty file (Claude Code's create-by-Edit).
      if (current !== "") return { ok: false, reason: `edit ${n + 1}: empty old_string on a non-empty file` };
      current = edit.new_string;
      continue;
    }
    const at = current.indexOf(edit.old_string);
    // An old string that starts with "\n" can match a CRLF file literally right after a "\r",
    // splitting the line break: the tools match CRLF files as LF text, where it takes the whole break.
    const splitsCrlf =
      at > 0 &&
      edit.old_string.charCodeAt(0) === 10 &&
      (edit.replace_all ? current.includes("\r" + edit.old_string) : current.charCodeAt(at - 1) === 13);
    if (splitsCrlf) {
      const crlf = applyOnCrlf(current, edit);
      if (crlf !== null) {
        current = crlf;
        continue;
      }
    }
    if (at < 0) {
      const crlf = applyOnCrlf(current, edit);
      if (crlf !== null) {
        current = crlf;
        continue;
      }
      return {
        ok: false,
        reason: `edit ${n + 1}: old_string not found${edit.old_string.includes("REDACTED") ? " (it holds REDACTED: redacted by Entire)" : ""}`,
      };
    }
    current = edit.replace_all
      ? current.split(edit.old_string).join(edit.new_string)
      : current.slice(0, at) + edit.new_string + current.slice(at + edit.old_string.length);
  }
  return { ok: true, text: current };
}

/**
 * String edits re-applied by the rules of the tool that made them (metrics.md
 * §3: the post-image is what the tool wrote): Claude Code's own rules for its
 * Edit and MultiEdit (a deleted text takes its following newline with it,
 * curly quotes in the file match straight ones in the edit), the plain rules
 * above for every other tool.
 */
export function applyToolStringEdits(tool: string, text: string, edits: readonly StringEdit[]): ApplyResult {
  if (!CLAUDE_STRING_EDIT_TOOLS.includes(tool)) return applyStringEdits(text, edits);
  // Claude Code edits a CRLF file as LF text and writes CRLF back (so a deletion takes its CRLF with it).
  const crlf = text.includes("\r\n") && !edits.some((e) => e.old_string.includes("\r"));
  const r = applyClaudeEdits(crlf ? text.split("\r\n").join("\n") : text, edits);
  if (r.ok) return { ok: true, text: crlf ? r.text.split("\n").join("\r\n") : r.text };
  const redacted = edits.some((e) => e.old_string.includes("REDACTED"));
  return { ok: false, reason: `${r.reason}${redacted ? " (an old_string holds REDACTED: redacted by Entire)" : ""}` };
}

/** Tools show CRLF files with LF; match on LF and write back CRLF. */
function applyOnCrlf(text: string, edit: StringEdit): string | null {
  if (!text.includes("\r\n") || edit.old_string.includes("\r")) return null;
  const lf = text.split("\r\n").join("\n");
  if (!lf.includes(edit.old_string)) return null;
  const replaced = edit.replace_all
    ? lf.split(edit.old_string).join(edit.new_string)
    : lf.replace(edit.old_string, () => edit.new_string);
  return replaced.split("\n").join("\r\n");
}

/**
 * Applies a unified diff to one file. Each hunk goes where its context and
 * removed lines match: at the line its `@@ -a,b` header names (shifted by
 * what earlier hunks added or removed) when they match there, else at the
 * nearest place they match, as `git apply` and `patch` do; a short context
 * such as `}` matches in many places, so the header decides (metrics.md §3:
 * the tool's own record). Hunks without line numbers (`apply_patch`'s `@@`
 * lines) are searched from the end of the previous hunk. `*** Add File` style
 * patches are given as all-`+` hunks.
 */
export function applyUnifiedDiff(text: string, patch: string): ApplyResult {
  const hunks = parseHunks(patch);
  if (hunks.length === 0) return { ok: false, reason: "patch has no hunks" };
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const hadFinalNewline = text === "" || text.endsWith("\n");
  const lines =
    text === ""
      ? []
      : eol === "\n" && !text.includes("\r")
        ? (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n")
        : text.replace(/\r?\n$/, "").split(/\r?\n/);
  // Hunks of one diff are ordered and do not overlap: each is placed at or after the end of the previous one, and
  // where one applied away from its stated line the next is looked for at the same offset first (as GNU patch and
  // git apply do).
  let cursor = 0;
  let shift = 0;
  for (const [n, hunk] of hunks.entries()) {
    const at =
      hunk.oldStart === null
        ? findSequence(lines, hunk.before, cursor)
        : findNearest(lines, hunk.before, Math.max(cursor, hunk.oldStart + shift), cursor);
    if (at < 0) return { ok: false, reason: `hunk ${n + 1} does not apply` };
    lines.splice(at, hunk.before.length, ...hunk.after);
    cursor = at + hunk.after.length;
    shift =
      hunk.oldStart === null
        ? shift + hunk.after.length - hunk.before.length
        : at - hunk.oldStart + hunk.after.length - hunk.before.length;
  }
  if (lines.length === 0) return { ok: true, text: "" };
  return { ok: true, text: lines.join(eol) + (endsWithNewline(patch, hadFinalNewline) ? eol : "") };
}

interface Hunk {
  before: string[];
  after: string[];
  /** 0-based index in the old file where `before` starts, from the `@@ -a,b` header; null without one. */
  oldStart: number | null;
  /** Context lines at the end that were empty lines of the patch text (no ` ` prefix): maybe the final newline's artefact. */
  emptyTail: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("@@")) {
      const header = HUNK_HEADER.exec(line);
      // `-a,0` (nothing removed) inserts after line a; otherwise the hunk starts at line a.
      const oldStart = header ? (header[2] === "0" ? Number(header[1]) : Number(header[1]) - 1) : null;
      current = { before: [], after: [], oldStart, emptyTail: 0 };
      hunks.push(current);
      continue;
    }
    if (line.startsWith("---") || line.startsWith("+++") || line.startsWith("diff ") || line.startsWith("index "))
      continue;
    if (line.startsWith("\\")) continue; // "\ No newline at end of file"
    if (!current) {
      if (!line.startsWith("+") && !line.startsWith("-") && !line.startsWith(" ")) continue;
      current = { before: [], after: [], oldStart: null, emptyTail: 0 };
      hunks.push(current);
    }
    const body = line.slice(1);
    if (line.startsWith("+")) current.after.push(body);
    else if (line.startsWith("-")) current.before.push(body);
    else if (line.startsWith(" ") || line === "") {
      current.before.push(body);
      current.after.push(body);
    }
    current.emptyTail = line === "" ? current.emptyTail + 1 : 0;
  }
  // A trailing empty line (no prefix) is an artefact of the final "\n" of the patch text; a blank context line
  // written as " " is a real line of the file and stays (dropping it would let a hunk match where it does not).
  for (const hunk of hunks) {
    for (; hunk.emptyTail > 0 && hunk.before.length > 0 && hunk.after.length > 0; hunk.emptyTail--) {
      hunk.before.pop();
      hunk.after.pop();
    }
  }
  return hunks.filter((h) => h.before.length > 0 || h.after.length > 0);
}

/** Where `seq` matches nearest to `hint` (the hint itself first, then one line either way, and so on). */
function findNearest(lines: readonly string[], seq: readonly string[], hint: number, min: number): number {
  const last = lines.length - seq.length;
  if (last < min) return -1;
  if (seq.length === 0) return Math.min(hint, lines.length);
  const start = Math.min(hint, last);
  for (let d = 0; start - d >= min || start + d <= last; d++) {
    if (start + d <= last && matchesAt(lines, seq, start + d)) return start + d;
    if (d > 0 && start - d >= min && matchesAt(lines, seq, start - d)) return start - d;
  }
  return -1;
}

/** Whether `seq` is found in `lines` at `i`. (A plain function: a closure here would be made, and named by tsx, per call.) */
function matchesAt(lines: readonly string[], seq: readonly string[], i: number): boolean {
  for (let k = 0; k < seq.length; k++) if (lines[i + k] !== seq[k]) return false;
  return true;
}

function findSequence(lines: readonly string[], seq: readonly string[], from: number): number {
  if (seq.length === 0) return Math.min(from, lines.length);
  for (let i = from; i + seq.length <= lines.length; i++) if (matchesAt(lines, seq, i)) return i;
  for (let i = 0; i < from && i + seq.length <= lines.length; i++) if (matchesAt(lines, seq, i)) return i;
  return -1;
}

/**
 * Whether the new text ends with a newline. A `\\ No newline at end of file` marker speaks of the line before it:
 * after a `-` line, of the old side (the patch then ends the new side with a newline); after a `+` or context
 * line, of the new side. Without a marker the patch leaves the end as it was.
 */
function endsWithNewline(patch: string, hadFinalNewline: boolean): boolean {
  let oldLacks = false;
  let newLacks = false;
  let previous = "";
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("\\")) {
      if (previous.startsWith("-")) oldLacks = true;
      else if (previous.startsWith("+")) newLacks = true;
      else {
        oldLacks = true;
        newLacks = true;
      }
      continue;
    }
    previous = line;
  }
  if (newLacks) return false;
  return oldLacks || hadFinalNewline;
}

/**
 * The file text after one logged file edit, given the replayed text before it.
 * Prefers the tool's own post-image; else re-applies the edit, by the rules
 * of `tool` (the call's name), to the logged pre-image or, failing that, to
 * the replayed text.
 */
export function postImageOf(edit: FileEdit, replayed: string, tool: string): ApplyResult {
  if (edit.kind === "delete") return { ok: true, text: "" };
  if (edit.post_image !== null) return { ok: true, text: edit.post_image };
  const before = edit.pre_image ?? replayed;
  if (edit.edits && edit.edits.length > 0) return applyToolStringEdits(tool, before, edit.edits);
  // A successful call's empty diff (a pure rename, Codex `*** Move to:` alone; an update that changed nothing) is
  // the tool's record of no change to the text. A diff with text but no hunk it can read stays unreplayable.
  if (edit.patch !== null)
    return edit.patch.trim() === "" ? { ok: true, text: before } : applyUnifiedDiff(before, edit.patch);
  if (edit.kind === "notebook")
    return { ok: false, reason: "notebook cell edits are not replayed (no post-image in the log)" };
  return { ok: false, reason: "the log records neither the result nor the edit" };
}
