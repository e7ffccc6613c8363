import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

/**
 * The shared sample corpus (`../shared/corpus` beside the repository, see its
 * ORIGIN.md), found from a clone anywhere: `SWE_CHAT_EVAL_CORPUS` if set, else
 * beside this working copy, else beside the repository it was cloned from
 * (a local `origin`, e.g. `git clone /work/main /tmp/x`). Absent everywhere,
 * the tests that need it fail with this message instead of skipping.
 */
function findCorpus(): string {
  const candidates: string[] = [];
  if (process.env.SWE_CHAT_EVAL_CORPUS) candidates.push(resolve(process.env.SWE_CHAT_EVAL_CORPUS));
  candidates.push(resolve(process.cwd(), "..", "shared", "corpus"));
  try {
    const origin = execFileSync("git", ["config", "--get", "remote.origin.url"], { cwd: process.cwd(), encoding: "utf8" }).trim();
    const local = origin.startsWith("file://") ? origin.slice("file://".length) : origin;
    if (isAbsolute(local)) candidates.push(join(local.replace(/\/\.git\/?$/, ""), "..", "shared", "corpus"));
  } catch {
    // not a git working copy, or no origin
  }
  const found = candidates.find((dir) => existsSync(join(dir, "ORIGIN.md")));
  if (found === undefined) {
    throw new Error(`the shared corpus (../shared/corpus) was not found; looked in: ${candidates.join(", ")}. Set SWE_CHAT_EVAL_CORPUS to its folder.`);
  }
  return found;
}

export const CORPUS_DIR: string = findCorpus();

/** A path inside the shared corpus. */
export const corpusPath = (...parts: string[]): string => join(CORPUS_DIR, ...parts);
