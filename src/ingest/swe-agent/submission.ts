/**
 * A unified diff (SWE-agent `info.submission`, `git diff` / `git show`
 * output) split into one patch per file, as `patchMatch` takes it.
 */

export interface FileDiff {
  /** Repo-relative path on the new side (the old side for a deletion). */
  path: string;
  /** The file's hunks (from its first `@@`); null for a binary file. */
  patch: string | null;
  /** Lines the file's hunks add (`+` lines), counted by hunk length. */
  additions: number;
}

/** CRLF → LF (newer SWE-agent runs record the submission through a pty). */
export const normaliseNewlines = (text: string): string => text.replace(/\r\n/g, "\n");

/** Splits a multi-file unified diff; text before the first file header is ignored. */
export function splitUnifiedDiff(diff: string): FileDiff[] {
  const lines = normaliseNewlines(diff).split("\n");
  const files: FileDiff[] = [];
  let current: { oldPath: string | null; newPath: string | null; hunks: string[]; binary: boolean } | null = null;
  const flush = () => {
    if (!current) return;
    const path = current.newPath ?? current.oldPath;
    if (path !== null) {
      const patch = current.binary ? null : current.hunks.join("\n");
      files.push({ path, patch: patch === "" ? null : patch, additions: patch ? countAdded(patch) : 0 });
    }
    current = null;
  };
  const plain = !lines.some((l) => l.startsWith("diff --git "));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const git = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (git) {
      flush();
      current = { oldPath: git[1], newPath: git[2], hunks: [], binary: false };
      continue;
    }
    if (plain && line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      // A plain `diff -u` without a `diff --git` line starts a new file here.
      flush();
      current = { oldPath: null, newPath: null, hunks: [], binary: false };
    }
    if (!current) continue;
    if (current.hunks.length === 0) {
      if (line.startsWith("--- ")) current.oldPath = sidePath(line.slice(4), "a/");
      else if (line.startsWith("+++ ")) current.newPath = sidePath(line.slice(4), "b/");
      else if (line.startsWith("Binary files ") || line === "GIT binary patch") current.binary = true;
      else if (line.startsWith("@@")) current.hunks.push(line);
      continue;
    }
    current.hunks.push(line);
  }
  flush();
  return files;
}

function sidePath(raw: string, prefix: string): string | null {
  const p = raw.replace(/\t.*$/, "").trim();
  if (p === "/dev/null") return null;
  return p.startsWith(prefix) ? p.slice(prefix.length) : p;
}

function countAdded(patch: string): number {
  let n = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of patch.split("\n")) {
    const h = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (h) {
      oldLeft = h[1] === undefined ? 1 : Number(h[1]);
      newLeft = h[2] === undefined ? 1 : Number(h[2]);
      continue;
    }
    if (oldLeft <= 0 && newLeft <= 0) continue;
    if (line.startsWith("+")) {
      n++;
      newLeft--;
    } else if (line.startsWith("-")) oldLeft--;
    else if (line.startsWith(" ") || line === "") {
      oldLeft--;
      newLeft--;
    }
  }
  return n;
}
