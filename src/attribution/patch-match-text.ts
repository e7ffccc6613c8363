/**
 * The text side of patch-match: the lines a commit's per-file patch adds,
 * an agent's unified-diff hunks as string edits, and where the repository
 * root lies under the logged paths.
 */
import type { StringEdit, ToolCall } from "../model";
import { makePathMapper } from "../replay";

/**
 * Lines a per-file unified diff adds: the `+` lines of its hunks, each hunk
 * read for as many lines as its header says (so a following file's `+++`
 * header is never taken for a line); trailing `\r` dropped. A text with no
 * hunk header is read as bare `+` lines.
 */
export function addedLines(patch: string): string[] {
  const out: string[] = [];
  const lines = patch.split("\n");
  if (!lines.some((l) => l.startsWith("@@"))) {
    for (const l of lines) if (l.startsWith("+") && !l.startsWith("+++ ")) out.push(stripCr(l.slice(1)));
    return out;
  }
  let oldLeft = 0;
  let newLeft = 0;
  let open = false;
  for (const raw of lines) {
    if (raw.startsWith("@@")) {
      const m = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(raw);
      oldLeft = m ? (m[1] === undefined ? 1 : Number(m[1])) : Infinity;
      newLeft = m ? (m[2] === undefined ? 1 : Number(m[2])) : Infinity;
      open = true;
      continue;
    }
    if (!open || raw.startsWith("\\")) continue;
    if (raw.startsWith("+")) {
      out.push(stripCr(raw.slice(1)));
      newLeft--;
    } else if (raw.startsWith("-")) oldLeft--;
    else if (raw.startsWith(" ") || raw === "") {
      oldLeft--;
      newLeft--;
    } else open = false;
    if (oldLeft <= 0 && newLeft <= 0) open = false;
  }
  return out;
}

const stripCr = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);

/** A unified diff's hunks as string edits (context and `-` lines → old text, context and `+` lines → new text). */
export function hunks(patch: string): StringEdit[] {
  const out: { before: string[]; after: string[] }[] = [];
  let cur: { before: string[]; after: string[] } | null = null;
  for (const raw of patch.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.startsWith("@@")) {
      out.push((cur = { before: [], after: [] }));
      continue;
    }
    if (
      line.startsWith("---") ||
      line.startsWith("+++") ||
      line.startsWith("diff ") ||
      line.startsWith("index ") ||
      line.startsWith("\\") ||
      line.startsWith("***")
    )
      continue;
    if (!cur) {
      if (!/^[+\- ]/.test(line)) continue;
      out.push((cur = { before: [], after: [] }));
    }
    if (line.startsWith("+")) cur.after.push(line.slice(1));
    else if (line.startsWith("-")) cur.before.push(line.slice(1));
    else if (line.startsWith(" ")) {
      cur.before.push(line.slice(1));
      cur.after.push(line.slice(1));
    }
  }
  const text = (lines: string[]) => (lines.length === 0 ? "" : lines.join("\n") + "\n");
  return out
    .filter((h) => h.before.length + h.after.length > 0)
    .map((h) => ({ old_string: text(h.before), new_string: text(h.after), replace_all: false }));
}

/**
 * Logged paths → repo-relative paths: the root under which most edited files
 * are files of the commit's patch; with no such file (the agent's edits did
 * not reach the commit) and no recorded cwd, the deepest directory common to
 * the logged paths, so those edits still count towards `agent_lines_final`.
 */
export function pathMapping(
  calls: readonly ToolCall[],
  cwds: readonly string[],
  patchPaths: Set<string>,
): { root: string | null; map: (logged: string) => string | null } {
  const logged = calls.flatMap((c) => c.file_edits.map((e) => e.path));
  const mapper = makePathMapper(logged, cwds, (p) => patchPaths.has(p));
  if (mapper.root !== null || cwds.length > 0) return { root: mapper.root, map: (p) => mapper.toRepoPath(p) };
  const absolute = logged.filter((p) => p.startsWith("/")).map((p) => p.split("/").slice(0, -1));
  let common = absolute[0] ?? [];
  for (const parts of absolute) {
    let n = 0;
    while (n < common.length && n < parts.length && common[n] === parts[n]) n++;
    common = common.slice(0, n);
  }
  const root = common.join("/");
  return {
    root: `common:${root}`,
    map: (p) => {
      if (!p.startsWith("/")) return p.replace(/^\.\//, "");
      if (root === "" || !p.startsWith(root + "/")) return null;
      return p.slice(root.length + 1);
    },
  };
}
