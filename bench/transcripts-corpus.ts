/**
 * The corpus of `npm run bench` (bench/README.md): generated Claude Code 2.x
 * transcripts laid out as Claude Code does (`projects/<cwd with / and . as ->/<id>.jsonl`)
 * and the git repository they edited, built once through one `git fast-import`
 * stream (bench/entire-repo/fast-import.ts), so that `analyze --repo` links
 * sessions to commits by metrics.md §1's rule without Entire
 * (src/analyze/transcript-session-job.ts).
 *
 *   tsx bench/transcripts-corpus.ts [--mb 500] [--out DIR] [--seed 1] [--force]
 *
 * Per session, in order, on `main`: a "prepare" commit 10 minutes before its
 * first record puts every file it edits at its first pre-image in the log
 * (files the log creates are removed), then the person's commit (the
 * session's patches applied) 5 to 120 minutes after its last record. The next
 * session starts 13 to 24 hours after that commit: no commit of another
 * session falls inside a session's link window (its first edit to 12 hours
 * after its last record), so each session that commits forms one unambiguous
 * unit. `quarter/projects/` holds hard links to the sessions of the first
 * quarter of the bytes (the memory check). `manifest.json` is written last;
 * a folder whose manifest matches (version, seed, size) is reused.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { FastImport, type Change, type Person } from "./entire-repo/fast-import";
import { commitFiles, sessionLogOf } from "./entire-repo/session-log";
import { gitIn } from "./entire-repo/state";
import { generateSession, Rng } from "./generate-corpus";

export const CORPUS_VERSION = 3;
/** The project every session works in (`~/work/<PROJECT>`, some in a worktree below it). */
const PROJECT = "bench-app";
const T0_MS = Date.UTC(2023, 0, 2);
const HOUR_MS = 3600_000;
const PERSON: Person = { name: "Sam", email: "sam@example.com" };

export interface CorpusSession {
  id: string;
  /** The transcript, relative to the corpus folder. */
  file: string;
  bytes: number;
  /** The person's commit, or null when the person kept nothing of the session. */
  commit: string | null;
}

export interface CorpusManifest {
  version: number;
  seed: number;
  mb: number;
  /** `projects/` (Claude Code's layout: `CLAUDE_CONFIG_DIR` is the corpus folder). */
  projects: string;
  quarter: string;
  repo: string;
  sessions: CorpusSession[];
  /** Σ transcript bytes, and those of the quarter. */
  bytes: number;
  quarter_bytes: number;
  quarter_sessions: number;
  commits: number;
  /** Bytes by record kind (type, progress data.type, tool result kind). */
  mix: Record<string, number>;
  seconds: number;
}

export interface CorpusOptions {
  mb: number;
  out?: string;
  seed?: number;
  force?: boolean;
  log?: (line: string) => void;
}

export const defaultCorpusDir = (mb: number): string => join(tmpdir(), "swe-chat-eval-bench", `transcripts-${mb}mb`);

/** Claude Code's project folder name for a cwd. */
export const projectFolder = (cwd: string): string => cwd.replace(/[/.]/g, "-");

/** Generates the corpus unless a complete one (matching manifest) is there. */
export async function ensureCorpus(
  options: CorpusOptions,
): Promise<{ dir: string; manifest: CorpusManifest; reused: boolean }> {
  const seed = options.seed ?? 1;
  const dir = resolve(options.out ?? defaultCorpusDir(options.mb));
  const manifestPath = join(dir, "manifest.json");
  if (!options.force && existsSync(manifestPath)) {
    try {
      const m = JSON.parse(readFileSync(manifestPath, "utf8")) as CorpusManifest;
      if (m.version === CORPUS_VERSION && m.seed === seed && m.mb === options.mb)
        return { dir, manifest: m, reused: true };
    } catch {
      // regenerate
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = await build(dir, options.mb, seed, options.log ?? (() => {}));
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return { dir, manifest, reused: false };
}

async function build(dir: string, mb: number, seed: number, log: (line: string) => void): Promise<CorpusManifest> {
  const t0 = Date.now();
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const git = gitIn(repo);
  git(["init", "-q", "-b", "main"]);
  git(["config", "gc.auto", "0"]);
  const fi = new FastImport(repo, join(repo, ".git", "bench-marks"));
  const rng = new Rng((seed * 0x27d4eb2d) ^ 0x7a11);
  const tree = new Map<string, string>([
    ["README.md", "# bench-app\n\nA repository written by swe-chat-eval's bench.\n"],
  ]);
  let head = await fi.commit({
    ref: "refs/heads/main",
    author: PERSON,
    time: T0_MS / 1000,
    message: "Initial commit\n",
    from: null,
    changes: [...tree].map(([path, content]) => ({ path, content })),
  });
  let clock = T0_MS;
  const target = mb * 1048576;
  const mix: Record<string, number> = {};
  const pending: (CorpusSession & { mark: number | null })[] = [];
  let bytes = 0;
  let lastLog = Date.now();
  for (let i = 0; bytes < target; i++) {
    const start = clock + 13 * HOUR_MS + rng.int(0, 11 * 60) * 60_000;
    const g = generateSession(seed, i, mix, { project: PROJECT, startMs: start });
    const s = sessionLogOf(i, g);
    const { prepare, final } = commitFiles(s);
    const sync = changesTo(tree, prepare);
    if (sync.length > 0)
      head = await fi.commit({
        ref: "refs/heads/main",
        author: PERSON,
        time: Math.floor(s.firstTs / 1000) - 600,
        message: `Sync ${sync.length} file(s) before the next change\n`,
        from: head,
        changes: sync,
      });
    const work = changesTo(tree, final);
    const committedAt = Math.floor(s.lastTs / 1000) + rng.int(5, 120) * 60;
    let mark: number | null = null;
    if (work.length > 0)
      mark = head = await fi.commit({
        ref: "refs/heads/main",
        author: PERSON,
        time: committedAt,
        message: `${subject(rng, s.prompts[0])}\n`,
        from: head,
        changes: work,
      });
    clock = Math.max(committedAt * 1000, s.lastTs);
    const file = join("projects", projectFolder(g.cwd), `${g.id}.jsonl`);
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), g.text);
    bytes += s.bytes;
    pending.push({ id: g.id, file, bytes: s.bytes, commit: null, mark });
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(`  generated ${pending.length} sessions, ${(bytes / 1048576).toFixed(0)} / ${mb} MB`);
    }
  }
  const marks = await fi.finish();
  git(["reset", "-q", "--hard", "main"]);
  rmSync(join(repo, ".git", "bench-marks"), { force: true });
  const sessions = pending.map(({ mark, ...rest }) => ({ ...rest, commit: mark === null ? null : marks.get(mark)! }));
  const quarter = quarterOf(dir, sessions, bytes / 4);
  const manifest: CorpusManifest = {
    version: CORPUS_VERSION,
    seed,
    mb,
    projects: join(dir, "projects"),
    quarter: join(dir, "quarter", "projects"),
    repo,
    sessions,
    bytes,
    quarter_bytes: quarter.bytes,
    quarter_sessions: quarter.sessions,
    commits: marks.size,
    mix,
    seconds: (Date.now() - t0) / 1000,
  };
  log(
    `  generated ${sessions.length} sessions (${(bytes / 1048576).toFixed(1)} MB) and ${marks.size} commits in ${manifest.seconds.toFixed(1)} s → ${dir}`,
  );
  return manifest;
}

/** The changes that bring `tree` to `files` (null: delete), applied to `tree`. */
function changesTo(tree: Map<string, string>, files: ReadonlyMap<string, string | null>): Change[] {
  const out: Change[] = [];
  for (const [path, content] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (content === null) {
      if (tree.delete(path)) out.push({ path, content: null });
    } else if (tree.get(path) !== content) {
      tree.set(path, content);
      out.push({ path, content });
    }
  }
  return out;
}

function subject(rng: Rng, prompt: string | undefined): string {
  const words = (prompt ?? "update")
    .toLowerCase()
    .replace(/[^a-z ]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, rng.int(3, 7))
    .join(" ");
  return `${rng.pick(["feat", "fix", "refactor", "chore", "test"])}: ${words || "update"}`;
}

/** Hard links to the first sessions up to a quarter of the bytes, in `quarter/projects/`. */
function quarterOf(
  dir: string,
  sessions: readonly CorpusSession[],
  limit: number,
): { bytes: number; sessions: number } {
  let bytes = 0;
  let n = 0;
  for (const s of sessions) {
    if (bytes >= limit) break;
    const to = join(dir, "quarter", s.file);
    mkdirSync(dirname(to), { recursive: true });
    linkSync(join(dir, s.file), to);
    bytes += s.bytes;
    n++;
  }
  return { bytes, sessions: n };
}

// ---- CLI -------------------------------------------------------------------

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const mb = Number(arg("mb") ?? 500);
  const { dir, manifest, reused } = await ensureCorpus({
    mb,
    out: arg("out"),
    seed: Number(arg("seed") ?? 1),
    force: process.argv.includes("--force"),
    log: (l) => console.log(l),
  });
  console.log(
    `${reused ? "reused" : "wrote"} ${dir}: ${manifest.sessions.length} sessions, ${(manifest.bytes / 1048576).toFixed(1)} MB, ${manifest.commits} commits`,
  );
  const total = Object.values(manifest.mix).reduce((a, b) => a + b, 0);
  for (const [k, v] of Object.entries(manifest.mix).sort((a, b) => b[1] - a[1]))
    console.log(`  ${k.padEnd(32)} ${((100 * v) / total).toFixed(1).padStart(5)} %`);
}
