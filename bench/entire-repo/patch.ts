/**
 * Git-style unified diffs, applied by hand: the person's commit is the
 * session's patches applied to the files' first pre-images, and a patch that
 * does not apply is a generator bug, so it throws.
 */

const linesOf = (text: string): string[] => {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
};

interface Hunk {
  oldStart: number;
  oldLines: number;
  lines: string[];
}

function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const line of patch.split("\n")) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/.exec(line);
    if (m) hunks.push({ oldStart: Number(m[1]), oldLines: m[2] === undefined ? 1 : Number(m[2]), lines: [] });
    else if (hunks.length > 0 && line !== "") hunks[hunks.length - 1].lines.push(line);
  }
  return hunks;
}

/** Applies a git-style unified diff to `base`; throws when a context or removed line does not match. */
export function applyPatch(base: string, patch: string, path: string): string {
  const old = linesOf(base);
  const out: string[] = [];
  let pos = 0;
  let noNewline = false;
  for (const h of hunksOf(patch)) {
    // `-k,0` inserts after line k (git); jsdiff writes `-1,0` for an empty old file.
    const start = h.oldLines === 0 ? Math.min(h.oldStart, old.length) : h.oldStart - 1;
    if (start < pos || start > old.length)
      throw new Error(`generator bug: ${path}: hunk at ${h.oldStart} out of order`);
    while (pos < start) out.push(old[pos++]);
    let last = "";
    for (const l of h.lines) {
      const kind = l[0];
      const text = l.slice(1);
      if (kind === "\\") {
        if (last === "+" || last === " ") noNewline = true;
        continue;
      }
      if (kind === " " || kind === "-") {
        if (old[pos] !== text) throw new Error(`generator bug: ${path}: patch does not apply at line ${pos + 1}`);
        pos++;
        if (kind === " ") out.push(text);
      } else if (kind === "+") out.push(text);
      else throw new Error(`generator bug: ${path}: unexpected patch line ${JSON.stringify(l.slice(0, 40))}`);
      last = kind;
    }
  }
  while (pos < old.length) out.push(old[pos++]);
  return out.length === 0 ? "" : out.join("\n") + (noNewline ? "" : "\n");
}

/** The old side of a patch whose hunks cover the file from line 1 (CHANGELOG.md: a file the log never saw). */
export function baseFromPatch(patch: string, path: string): string {
  const hunks = hunksOf(patch);
  if (hunks.length !== 1 || hunks[0].oldStart !== 1)
    throw new Error(`generator bug: ${path}: no pre-image in the log and the patch does not start at line 1`);
  const old = hunks[0].lines.filter((l) => l[0] === " " || l[0] === "-").map((l) => l.slice(1));
  return old.length === 0 ? "" : old.join("\n") + "\n";
}

/** Lines added by `after` over `before` counted as multisets (Entire diffs snapshots; this is its kind of number, not ours). */
export function addedLines(before: string, after: string): Map<string, number> {
  const count = new Map<string, number>();
  for (const l of linesOf(after)) count.set(l, (count.get(l) ?? 0) + 1);
  for (const l of linesOf(before)) if (count.has(l)) count.set(l, count.get(l)! - 1);
  return count;
}
