/**
 * The text of committed lines for the blame view, read from the repositories
 * the report ran on: `commit:path` blobs through the project's cat-file reader
 * (git's own config runs no code here: cat-file applies no filters or
 * textconv drivers). Decoded and split as the attribution does (metrics.md §2).
 */
import { openRepository } from "../ingest/git/repo";
import type { LineRangeRow } from "../model";
import { splitLines } from "../replay/lines";

/** Lines of a committed file by `lineTextKey(commit, file)`; a file no repository had is absent. */
export type LineTexts = Map<string, string[]>;

export const lineTextKey = (commit: string, file: string): string => `${commit}\u0000${file}`;

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Reads each (commit, file) of `ranges` from the first of `repoPaths` that has it; unreadable ones are left out. */
export async function readLineTexts(repoPaths: readonly string[], ranges: readonly LineRangeRow[]): Promise<LineTexts> {
  const out: LineTexts = new Map();
  const wanted = [...new Set(ranges.map((r) => lineTextKey(r.commit_sha, r.file)))];
  if (wanted.length === 0) return out;
  for (const path of [...new Set(repoPaths)]) {
    const repo = await openRepository(path);
    if (repo === null) continue;
    try {
      await Promise.all(
        wanted
          .filter((k) => !out.has(k))
          .map(async (key) => {
            const [commit, file] = key.split("\u0000");
            const bytes = await repo.readFile(commit, file);
            if (bytes !== null) out.set(key, splitLines(decoder.decode(bytes)));
          }),
      );
    } finally {
      await repo.close();
    }
  }
  return out;
}

export interface CommitInfo {
  subject: string;
  /** Committer time, epoch seconds. */
  committed: number;
}

/** A commit object's subject (first message line) and committer time; null when it is not a commit. */
export function parseCommitObject(text: string): CommitInfo | null {
  const split = text.indexOf("\n\n");
  if (split < 0) return null;
  const committer = /^committer .* (\d+) [+-]\d{4}$/m.exec(text.slice(0, split));
  return { subject: text.slice(split + 2).split("\n", 1)[0] ?? "", committed: committer ? Number(committer[1]) : 0 };
}

/** Subjects and committer times of `shas`, from the first repository that has each. */
export async function readCommitInfo(
  repoPaths: readonly string[],
  shas: readonly string[],
): Promise<Map<string, CommitInfo>> {
  const out = new Map<string, CommitInfo>();
  for (const path of [...new Set(repoPaths)]) {
    if (out.size === shas.length) break;
    const repo = await openRepository(path);
    if (repo === null) continue;
    try {
      await Promise.all(
        shas
          .filter((s) => !out.has(s))
          .map(async (sha) => {
            const object = await repo.objects.readObject(sha).catch(() => null);
            const info = object?.type === "commit" ? parseCommitObject(decoder.decode(object.data)) : null;
            if (info) out.set(sha, info);
          }),
      );
    } finally {
      await repo.close();
    }
  }
  return out;
}
