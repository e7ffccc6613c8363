/**
 * The commits' `patch` column: split per file, fingerprinted (to recognise
 * rebased or cherry-picked copies, like `git patch-id`), and spooled.
 *
 * The patches are the second-largest data of the dataset and are needed per
 * unit, in conversation order rather than commit order. Holding them would
 * cost gigabytes at the v2 scale, so one pass over the commits table (in
 * row ranges, `PATCH_BATCH_ROWS` at a time) writes each needed patch to a
 * temporary spool file and keeps only its offset and length; a unit reads
 * its patch back with one positioned read (from the OS page cache).
 */
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readColumns } from "./parquet";
import type { SwechatFiles } from "./paths";
import { COMMIT_PATCH_COLUMNS, str } from "./schema";

export const PATCH_BATCH_ROWS = 2048;

/** One file of a commit: repo-relative path and its unified diff (hunks), null for a binary file. */
export interface FilePatch {
  path: string;
  patch: string | null;
}

export interface PatchRef {
  offset: number;
  length: number;
}

export interface SpooledPatch {
  ref: PatchRef | null;
  /** Same text changes as another commit of the checkpoint → a copy. */
  fingerprint: string | null;
  /** A combined diff (`diff --cc`): the commit is a merge. */
  merge: boolean;
}

export interface PatchSpool {
  file: string;
  patches: Map<string, SpooledPatch>;
  close(): void;
}

/**
 * Writes the patches of the `wanted` commits to a spool file in a fresh
 * temporary folder; fingerprints only where `mayHaveCopies` says a copy is
 * possible (a checkpoint with several commits).
 */
export async function spoolPatches(
  files: SwechatFiles,
  wanted: ReadonlySet<string>,
  mayHaveCopies: (sha: string) => boolean = () => true,
): Promise<PatchSpool> {
  const dir = mkdtempSync(join(tmpdir(), "swechat-patches-"));
  const file = join(dir, "patches.bin");
  const fd = openSync(file, "w");
  const patches = new Map<string, SpooledPatch>();
  let offset = 0;
  try {
    for (const part of files.tables.commits) {
      for (const rg of part.rowGroups) {
        for (let a = rg.start; a < rg.start + rg.rows; a += PATCH_BATCH_ROWS) {
          const b = Math.min(a + PATCH_BATCH_ROWS, rg.start + rg.rows);
          const cols = await readColumns(part, COMMIT_PATCH_COLUMNS, a, b);
          for (let i = 0; i < b - a; i++) {
            const sha = str(cols.commit_sha[i]);
            if (sha === null || !wanted.has(sha) || patches.has(sha)) continue;
            const text = str(cols.patch[i]);
            if (text === null) {
              patches.set(sha, { ref: null, fingerprint: null, merge: false });
              continue;
            }
            const bytes = Buffer.from(text, "utf8");
            writeSync(fd, bytes, 0, bytes.length, offset);
            patches.set(sha, {
              ref: { offset, length: bytes.length },
              fingerprint: mayHaveCopies(sha) ? fingerprint(text) : null,
              merge: /^diff --(cc|combined) /m.test(text),
            });
            offset += bytes.length;
          }
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return { file, patches, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Reads spooled patches back; keeps one file descriptor open. */
export class PatchReader {
  private fd: number | null = null;
  constructor(private readonly file: string) {}
  read(ref: PatchRef): string {
    if (this.fd === null) this.fd = openSync(this.file, "r");
    const buf = Buffer.allocUnsafe(ref.length);
    let done = 0;
    while (done < ref.length) {
      const n = readSync(this.fd, buf, done, ref.length - done, ref.offset + done);
      if (n === 0) break;
      done += n;
    }
    return buf.toString("utf8", 0, done);
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Like `git patch-id`: the changed lines and file names, without line numbers, index lines or context. */
export function fingerprint(patch: string): string {
  const kept: string[] = [];
  for (const line of patch.split("\n")) {
    const c = line.charCodeAt(0);
    if (c !== 43 && c !== 45) continue; // "+" or "-"
    if (line.startsWith("+++ ") || line.startsWith("--- ")) kept.push(line.trimEnd());
    else if (line.length > 1) kept.push(line.replace(/\s+/g, ""));
  }
  return createHash("sha1").update(kept.join("\n")).digest("hex");
}

/**
 * A commit's patch (`git show` / `git diff` output) as one unified diff per
 * file, paths repo-relative (the `b/` side; the `a/` side for a deletion).
 * Binary files (`Binary files … differ`, `GIT binary patch`) get `patch: null`.
 */
export function splitGitPatch(patch: string): FilePatch[] {
  const out: FilePatch[] = [];
  const lines = patch.split("\n");
  let cur: { header: string; minus: string | null; plus: string | null; body: string[]; binary: boolean } | null = null;
  const flush = () => {
    if (!cur) return;
    while (cur.body.length > 0 && cur.body[cur.body.length - 1] === "") cur.body.pop(); // the patch's final newline
    const path = pathOf(cur.plus) ?? pathOf(cur.minus) ?? headerPath(cur.header);
    if (path !== null)
      out.push({ path, patch: cur.binary ? null : cur.body.join("\n") + (cur.body.length ? "\n" : "") });
    cur = null;
  };
  for (const line of lines) {
    if (line.startsWith("diff --git ") || line.startsWith("diff --cc ") || line.startsWith("diff --combined ")) {
      flush();
      cur = { header: line, minus: null, plus: null, body: [], binary: false };
      continue;
    }
    if (!cur) {
      if (!line.startsWith("--- ")) continue;
      cur = { header: "", minus: null, plus: null, body: [], binary: false }; // a plain `diff -u` without git headers
    }
    if (cur.body.length === 0) {
      if (line.startsWith("--- ")) {
        if (cur.minus !== null) {
          flush();
          cur = { header: "", minus: line.slice(4), plus: null, body: [], binary: false };
        } else cur.minus = line.slice(4);
        continue;
      }
      if (line.startsWith("+++ ")) {
        cur.plus = line.slice(4);
        continue;
      }
      if (line.startsWith("Binary files ") || line.startsWith("GIT binary patch")) {
        cur.binary = true;
        continue;
      }
      if (!line.startsWith("@@")) continue; // index, mode, rename, similarity lines
    }
    cur.body.push(line);
  }
  flush();
  return out;
}

function unquote(p: string): string {
  const t = p.replace(/\t.*$/, "").trim();
  if (t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return t;
}

function pathOf(side: string | null): string | null {
  if (side === null) return null;
  const p = unquote(side);
  if (p === "/dev/null") return null;
  return p.replace(/^[ab]\//, "");
}

function headerPath(header: string): string | null {
  const m =
    /^diff --git (?:"?a\/)(.+?)"? (?:"?b\/)(.+?)"?$/.exec(header) ?? /^diff --(?:cc|combined) (.+)$/.exec(header);
  if (!m) return null;
  return m[2] ?? m[1];
}
