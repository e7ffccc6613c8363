import type { StringEdit } from "./file-edit";

/*
 * Claude Code's own rules for its Edit and MultiEdit tools. The parser uses
 * them to rebuild a post-image from the logged original file; the replay uses
 * them to re-apply a Claude Code edit when the log has no post-image (older
 * logs, Entire's compact transcripts, SWE-chat's tool-call table), so that
 * the replayed file is the file the tool wrote.
 */

/** The Claude Code tools whose `edits` follow these rules (ACP's Edit is Claude Code's Edit behind the Agent Client Protocol). */
export const CLAUDE_STRING_EDIT_TOOLS: readonly string[] = ["Edit", "MultiEdit", "mcp__acp__Edit"];

const CURLY = /[\u2018\u2019\u201C\u201D]/g;
function straightenQuotes(s: string): string {
  return s.replace(CURLY, (c) => (c === "\u2018" || c === "\u2019" ? "'" : '"'));
}

export type ClaudeEditResult = { ok: true; text: string; quoteNormalized: boolean } | { ok: false; reason: string };

/**
 * Applies string edits in order the way Claude Code's Edit/MultiEdit do
 * (`applyEditToFile`): plain text, no `$` patterns; `replace_all` or the
 * first match; deleting a text that does not end in a newline also deletes
 * the newline after it when there is one; an empty old string on an empty
 * file writes the new string; curly quotes in the file match straight ones
 * in the edit.
 */
export function applyClaudeEdits(original: string, edits: readonly StringEdit[]): ClaudeEditResult {
  let text = original;
  let quoteNormalized = false;
  for (let n = 0; n < edits.length; n++) {
    const e = edits[n];
    if (e.old_string === "") {
      if (text !== "") return { ok: false, reason: `edit ${n + 1}: empty old_string on a non-empty file` };
      text = e.new_string;
      continue;
    }
    let search = e.old_string;
    if (text.indexOf(search) === -1) {
      const at = straightenQuotes(text).indexOf(straightenQuotes(search));
      if (at === -1) return { ok: false, reason: `edit ${n + 1}: old_string not found` };
      search = text.slice(at, at + search.length);
      quoteNormalized = true;
    }
    if (e.new_string === "" && !search.endsWith("\n") && text.includes(`${search}\n`)) search = `${search}\n`;
    if (e.replace_all) text = text.split(search).join(e.new_string);
    else {
      const at = text.indexOf(search);
      text = text.slice(0, at) + e.new_string + text.slice(at + search.length);
    }
  }
  return { ok: true, text, quoteNormalized };
}
