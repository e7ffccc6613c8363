/**
 * The bundled sample corpus, generated once per generator version into a
 * stable folder and reused afterwards.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SAMPLE_GENERATOR_VERSION, generateSampleCorpus } from "./generate";
import type { SampleCorpus } from "./generate";

export { SAMPLE_GENERATOR_VERSION, generateSampleCorpus } from "./generate";
export type {
  ExpectedUnit,
  SampleCheckpoint,
  SampleCheckpointSession,
  SampleCommit,
  SampleCorpus,
  SampleSession,
  SampleUsage,
} from "./generate";

/** Written last: its presence means the folder holds a complete corpus of this version. */
export const SAMPLE_MARKER = "COMPLETE";
const CORPUS_FILE = "corpus.json";
const ROOT_TOKEN = "<sample-root>";

/** `SWE_CHAT_EVAL_SAMPLE_DIR` when set, else a versioned folder in the system's temp folder. */
export function defaultSampleDir(): string {
  return process.env.SWE_CHAT_EVAL_SAMPLE_DIR || join(tmpdir(), `swe-chat-eval-sample-${SAMPLE_GENERATOR_VERSION}`);
}

/** Replace the root folder in every string of the corpus description (to store it, or to load it elsewhere). */
function rebase<T>(value: T, from: string, to: string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string")
      return v === from || v.startsWith(`${from}/`) || v.startsWith(`${from}\\`) ? to + v.slice(from.length) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

function loadComplete(dir: string): SampleCorpus | null {
  const marker = join(dir, SAMPLE_MARKER);
  if (!existsSync(marker)) return null;
  try {
    if (readFileSync(marker, "utf8").trim() !== String(SAMPLE_GENERATOR_VERSION)) return null;
    const stored = JSON.parse(readFileSync(join(dir, CORPUS_FILE), "utf8")) as SampleCorpus;
    if (stored.version !== SAMPLE_GENERATOR_VERSION) return null;
    return rebase(stored, ROOT_TOKEN, dir);
  } catch {
    return null;
  }
}

let sequence = 0;

/**
 * The sample corpus in `cacheDir` (default
 * `<tmpdir>/swe-chat-eval-sample-<version>`), generated there unless the
 * folder already holds a complete corpus of this version. Safe when several
 * processes ask at once: each generates into its own temporary sibling and
 * renames it into place; the first rename wins and the others use its result.
 */
export async function ensureSampleCorpus(cacheDir: string = defaultSampleDir()): Promise<SampleCorpus> {
  const existing = loadComplete(cacheDir);
  if (existing) return existing;

  mkdirSync(dirname(cacheDir), { recursive: true });
  const staging = `${cacheDir}.tmp-${process.pid}-${++sequence}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    mkdirSync(staging, { recursive: true });
    const generated = await generateSampleCorpus(staging);
    writeFileSync(join(staging, CORPUS_FILE), `${JSON.stringify(rebase(generated, staging, ROOT_TOKEN), null, 2)}\n`);
    writeFileSync(join(staging, SAMPLE_MARKER), `${SAMPLE_GENERATOR_VERSION}\n`);

    // An incomplete or outdated folder in the way is replaced.
    if (existsSync(cacheDir) && !loadComplete(cacheDir)) rmSync(cacheDir, { recursive: true, force: true });
    try {
      renameSync(staging, cacheDir);
    } catch (error) {
      const winner = loadComplete(cacheDir);
      if (winner) return winner;
      throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const done = loadComplete(cacheDir);
  if (!done) throw new Error(`sample corpus: ${cacheDir} is incomplete after generation`);
  return done;
}
export { defaultSwebenchSampleDir, type SampleSwebenchRuns, writeSampleSwebenchRuns } from "./swebench";
