import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Real sample files for the tests. `test/fixtures` holds the ones whose licence
 * allows a copy (test/fixtures/ORIGIN.md names source, commit, path and licence
 * of each), so a clone with nothing beside it passes. The shared sample corpus
 * (`../shared/corpus`, see its ORIGIN.md) also has files we may not copy (no
 * licence found: the Codex rollout of entireio/external-agents, the Aider log);
 * the tests that read those skip, with the reason printed, where it is absent.
 */
export const FIXTURES_DIR: string = resolve(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

/**
 * The shared corpus, found from a clone anywhere: `SWE_CHAT_EVAL_CORPUS` if set, else
 * beside this working copy, else beside the repository it was cloned from
 * (a local `origin`, e.g. `git clone /work/main /tmp/x`).
 */
function findSharedCorpus(): { dir: string | null; looked: string[] } {
  const candidates: string[] = [];
  if (process.env.SWE_CHAT_EVAL_CORPUS) candidates.push(resolve(process.env.SWE_CHAT_EVAL_CORPUS));
  candidates.push(resolve(process.cwd(), "..", "shared", "corpus"));
  try {
    const origin = execFileSync("git", ["config", "--get", "remote.origin.url"], {
      cwd: process.cwd(),
      encoding: "utf8",
    }).trim();
    const local = origin.startsWith("file://") ? origin.slice("file://".length) : origin;
    if (isAbsolute(local)) candidates.push(join(local.replace(/\/\.git\/?$/, ""), "..", "shared", "corpus"));
  } catch {
    // not a git working copy, or no origin
  }
  return { dir: candidates.find((dir) => existsSync(join(dir, "ORIGIN.md"))) ?? null, looked: candidates };
}

const shared = findSharedCorpus();

/** The shared corpus folder, or null where it is absent (a plain clone). */
export const SHARED_CORPUS_DIR: string | null = shared.dir;

/** A path among the sample files: in test/fixtures when the file is there, else in the shared corpus when that has it. */
export function corpusPath(...parts: string[]): string {
  const fixture = join(FIXTURES_DIR, ...parts);
  if (existsSync(fixture) || SHARED_CORPUS_DIR === null) return fixture;
  const inShared = join(SHARED_CORPUS_DIR, ...parts);
  return existsSync(inShared) ? inShared : fixture;
}

/** A path in the shared corpus itself (for files test/fixtures may not hold); guard its test with `sharedCorpusSkip`. */
export const sharedCorpusPath = (...parts: string[]): string => join(SHARED_CORPUS_DIR ?? shared.looked[0], ...parts);

/**
 * The `skip` option of a test that reads files only the shared corpus has: false when it is present,
 * else the reason, which node:test prints beside the skipped test.
 */
export const sharedCorpusSkip: string | false =
  SHARED_CORPUS_DIR === null &&
  `needs the shared corpus (../shared/corpus; looked in ${shared.looked.join(", ")}): its files from entireio/external-agents and AndrewJacop/Simple-Calulator have no licence, so test/fixtures holds no copy`;

/**
 * The development mirror of entireio/external-agents (read-only, fetched beside the project, never committed); tests
 * on it skip where it is absent. `SWE_CHAT_EVAL_MIRROR` points elsewhere (CI's plain-clone run points it at nothing).
 */
export const EXTERNAL_AGENTS_MIRROR: string =
  process.env.SWE_CHAT_EVAL_MIRROR ?? "/work/.mirror/entireio+external-agents/repo";
