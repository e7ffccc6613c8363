/**
 * A synthetic git repository with Entire checkpoints at the scale of the
 * acceptance test (several hundred sessions), built deterministically from
 * bench/generate-corpus.ts sessions (bench/entire-repo/README.md).
 *
 *   tsx bench/entire-repo/generate.ts --sessions 400 [--seed 1] [--min-kb 512] [--out DIR] [--force]
 *
 * Per session (in the order of their last record's time): a "prepare" commit
 * on main that puts every file the session edits at its first pre-image in
 * the log (files the log creates are removed), the person's commit (the
 * session's patches applied, trailer `Entire-Checkpoint: <id>`), and one
 * commit per checkpoint on the orphan branch `entire/checkpoints/v1`. About
 * a third of the sessions carry one quirk each (QUIRK_RATES). Everything goes
 * through one `git fast-import` stream with explicit dates, so one seed gives
 * the same commits. `manifest.json` (written last, git-excluded) lists
 * sessions, checkpoints, quirks, byte counts and the units `analyze` should
 * form with their expected ambiguity.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync, appendFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { generateSession, Rng } from "../generate-corpus";

export const ENTIRE_REPO_VERSION = 2;

export const QUIRK_RATES = {
  "two-checkpoints": 0.05, // one session, two checkpoints and two commits (multi-checkpoint-session)
  "two-sessions": 0.03, // two sessions in one checkpoint, one commit (multi-session-checkpoint)
  "two-commits": 0.03, // one checkpoint id on two different commits (multi-commit-checkpoint)
  "cherry-pick": 0.03, // the commit also copied onto release/1.x (same patch id: one unit)
  merge: 0.03, // the trailer is on a merge commit (merge-commit)
  "missing-blob": 0.01, // the commit adds a 4.5 MiB file whose blob is absent (commit-unreadable)
  "no-transcript": 0.02, // the session folder has metadata.json but no full.jsonl (transcript-missing)
  "unreadable-transcript": 0.01, // full.jsonl is NUL bytes (transcript-unreadable)
  "no-commit": 0.02, // the commit lost its trailer: the checkpoint is on no commit (no unit)
  "unknown-checkpoint": 0.01, // the trailer names a checkpoint that is not stored (no unit)
  "wrong-agent": 0.03, // a Claude Code transcript labelled "Gemini CLI"
  "legacy-id": 0.03, // session_id `YYYY-MM-DD-<uuid>`
  "body-mention": 0.03, // a later squash commit names the checkpoint in its body, not as a trailer
} as const;
export type Quirk = keyof typeof QUIRK_RATES;

export interface ManifestSession {
  /** `generateSession(seed, index)`. */
  index: number;
  session_id: string;
  quirk: Quirk | null;
  /** Variants of the quirk (`start-missing`, `legacy-id-first`). */
  variant: string[];
  checkpoints: string[];
  commits: string[];
  bytes: number;
  prompts: number;
  edits: number;
  patched_files: number;
}
export interface ManifestCheckpoint {
  checkpoint_id: string;
  sessions: string[];
  /** Commits carrying the trailer (copies included); empty: on no commit. */
  commits: string[];
  quirk: Quirk | null;
  /** `checkpoint_transcript_start` per session folder (null: left out). */
  transcript_start: (number | null)[];
  transcript_bytes: number;
  stored: boolean;
}
export interface ExpectedUnit {
  session_id: string;
  commit_sha: string;
  checkpoint_id: string;
  ambiguity: string | null;
  quirk: Quirk | null;
}
export interface EntireRepoManifest {
  version: number;
  seed: number;
  sessions: number;
  min_kb: number;
  repo: string;
  /** Σ bytes of every stored full.jsonl (a session in two checkpoints counts twice). */
  transcript_bytes: number;
  /** Σ bytes of each session's whole transcript once. */
  session_bytes: number;
  quirks: Record<string, number>;
  session_list: ManifestSession[];
  checkpoint_list: ManifestCheckpoint[];
  expected_units: ExpectedUnit[];
  /** Blobs deliberately deleted after the import (the missing-blob quirk). */
  missing_blobs: string[];
  seconds: number;
}

export interface EntireRepoOptions {
  sessions: number;
  seed?: number;
  minKb?: number;
  out?: string;
  force?: boolean;
  log?: (line: string) => void;
}

export const defaultEntireRepoDir = (sessions: number): string => join(tmpdir(), "swe-chat-eval-bench", `entire-${sessions}`);

/** Builds the repository unless one with a matching manifest is there. */
export async function ensureEntireRepo(options: EntireRepoOptions): Promise<{ dir: string; manifest: EntireRepoManifest; reused: boolean }> {
  const seed = options.seed ?? 1;
  const minKb = options.minKb ?? 512;
  const dir = resolve(options.out ?? defaultEntireRepoDir(options.sessions));
  const manifestPath = join(dir, "manifest.json");
  if (!options.force && existsSync(manifestPath) && existsSync(join(dir, ".git"))) {
    try {
      const m = JSON.parse(readFileSync(manifestPath, "utf8")) as EntireRepoManifest;
      if (m.version === ENTIRE_REPO_VERSION && m.seed === seed && m.sessions === options.sessions && m.min_kb === minKb) return { dir, manifest: m, reused: true };
    } catch {
      // regenerate
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest = await build(dir, options.sessions, seed, minKb, options.log ?? (() => {}));
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 1));
  return { dir, manifest, reused: false };
}

// ---- one session's log, read back -----------------------------------------------

interface Edit {
  line: number;
  /** Repo-relative path; null outside the session's cwd (the plan file). */
  rel: string | null;
  /** null: the call created the file. */
  pre: string | null;
  post: string;
}

interface SessionLog {
  index: number;
  id: string;
  lines: string[];
  bytes: number;
  cwd: string;
  user: string;
  model: string;
  branch: string;
  firstTs: number;
  lastTs: number;
  /** Timestamp (ms) of each line, NaN when it has none. */
  ts: Float64Array;
  /** The line where each prompt's part begins (its file-history-snapshot). */
  promptStarts: number[];
  prompts: string[];
  edits: Edit[];
  /** Main-transcript API calls: line of the first block, usage of the block with the most output. */
  calls: { line: number; input: number; output: number; cacheCreate: number; cacheRead: number }[];
  commit: { path: string; patch: string }[];
}

/** Claude Code's Edit: one occurrence; an empty new string also takes the newline after the old one. */
function replaceOnce(text: string, oldS: string, newS: string, all: boolean, what: string): string {
  if (all) return text.split(oldS).join(newS);
  const at = text.indexOf(oldS);
  if (at < 0) throw new Error(`generator bug: ${what}: old string not found`);
  const dropNl = newS === "" && !oldS.endsWith("\n") && text[at + oldS.length] === "\n";
  return text.slice(0, at) + newS + text.slice(at + oldS.length + (dropNl ? 1 : 0));
}

/** A successful file-changing tool result → pre and post image; null for anything else. */
function toEdit(tur: Record<string, any>, what: string): { abs: string; pre: string | null; post: string } | null {
  if (typeof tur.filePath !== "string") return null;
  if (typeof tur.oldString === "string" && typeof tur.originalFile === "string") {
    return { abs: tur.filePath, pre: tur.originalFile, post: replaceOnce(tur.originalFile, tur.oldString, tur.newString, tur.replaceAll === true, what) };
  }
  if (Array.isArray(tur.edits) && typeof tur.originalFileContents === "string") {
    let post: string = tur.originalFileContents;
    for (const e of tur.edits) post = replaceOnce(post, e.old_string, e.new_string, e.replace_all === true, what);
    return { abs: tur.filePath, pre: tur.originalFileContents, post };
  }
  if ((tur.type === "create" || tur.type === "update") && typeof tur.content === "string") {
    return { abs: tur.filePath, pre: tur.type === "create" ? null : (tur.originalFile as string), post: tur.content };
  }
  return null;
}

function readSession(seed: number, index: number): SessionLog {
  const s = generateSession(seed, index);
  const lines = s.text.split("\n");
  lines.pop(); // the text ends with "\n"
  const log: SessionLog = {
    index, id: s.id, lines, bytes: Buffer.byteLength(s.text), cwd: "", user: "dev", model: "", branch: "main",
    firstTs: NaN, lastTs: NaN, ts: new Float64Array(lines.length).fill(NaN), promptStarts: [], prompts: [], edits: [], calls: [], commit: s.commit,
  };
  const byMessage = new Map<string, SessionLog["calls"][number]>();
  for (let i = 0; i < lines.length; i++) {
    const r = JSON.parse(lines[i]);
    if (typeof r.timestamp === "string") {
      log.ts[i] = Date.parse(r.timestamp);
      if (Number.isNaN(log.firstTs)) log.firstTs = log.ts[i];
      log.lastTs = log.ts[i];
    }
    if (!log.cwd && typeof r.cwd === "string") {
      log.cwd = r.cwd;
      log.user = /^\/Users\/([^/]+)/.exec(r.cwd)?.[1] ?? "dev";
      log.branch = r.gitBranch ?? "main";
    }
    if (r.type === "user" && typeof r.message?.content === "string") {
      log.promptStarts.push(i > 0 && lines[i - 1].startsWith('{"type":"file-history-snapshot"') ? i - 1 : i);
      log.prompts.push(r.message.content);
    }
    if (r.type === "assistant" && r.message?.usage) {
      if (!log.model) log.model = r.message.model;
      const u = r.message.usage;
      const call = { line: i, input: u.input_tokens ?? 0, output: u.output_tokens ?? 0, cacheCreate: u.cache_creation_input_tokens ?? 0, cacheRead: u.cache_read_input_tokens ?? 0 };
      const prev = byMessage.get(r.message.id);
      if (!prev) byMessage.set(r.message.id, call);
      else if (call.output > prev.output) Object.assign(prev, { ...call, line: prev.line });
    }
    const holder = r.type === "user" && r.toolUseResult && typeof r.toolUseResult === "object" ? r
      : r.type === "progress" && r.data?.type === "agent_progress" && r.data.message?.type === "user" && r.data.message.toolUseResult && typeof r.data.message.toolUseResult === "object" ? r.data.message
      : null;
    if (holder === null) continue;
    const blocks = holder.message?.content;
    if (Array.isArray(blocks) && blocks.some((b: any) => b?.is_error === true)) continue;
    const e = toEdit(holder.toolUseResult, `session ${index} line ${i}`);
    if (e === null) continue;
    const rel = e.abs.startsWith(log.cwd + "/") ? e.abs.slice(log.cwd.length + 1) : null;
    log.edits.push({ line: i, rel, pre: e.pre, post: e.post });
  }
  log.calls = [...byMessage.values()];
  return log;
}

/** Each repo file's first pre-image in the log (null: created by the log). */
function firstPres(log: SessionLog): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const e of log.edits) if (e.rel !== null && !out.has(e.rel)) out.set(e.rel, e.pre);
  return out;
}

/** Each repo file's content after the agent's last edit before `line`. */
function statesBefore(log: SessionLog, line: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of log.edits) if (e.rel !== null && e.line < line) out.set(e.rel, e.post);
  return out;
}

// ---- unified diffs -----------------------------------------------------------

const linesOf = (text: string): string[] => {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
};

interface Hunk { oldStart: number; oldLines: number; lines: string[] }

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
    if (start < pos || start > old.length) throw new Error(`generator bug: ${path}: hunk at ${h.oldStart} out of order`);
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
function baseFromPatch(patch: string, path: string): string {
  const hunks = hunksOf(patch);
  if (hunks.length !== 1 || hunks[0].oldStart !== 1) throw new Error(`generator bug: ${path}: no pre-image in the log and the patch does not start at line 1`);
  const old = hunks[0].lines.filter((l) => l[0] === " " || l[0] === "-").map((l) => l.slice(1));
  return old.length === 0 ? "" : old.join("\n") + "\n";
}

/** Lines added by `after` over `before` counted as multisets (Entire diffs snapshots; this is its kind of number, not ours). */
function addedLines(before: string, after: string): Map<string, number> {
  const count = new Map<string, number>();
  for (const l of linesOf(after)) count.set(l, (count.get(l) ?? 0) + 1);
  for (const l of linesOf(before)) if (count.has(l)) count.set(l, count.get(l)! - 1);
  return count;
}

// ---- git fast-import -----------------------------------------------------------

type Change = { path: string; content: string | Buffer | null } | { path: string; sha: string };

interface Person { name: string; email: string }

class FastImport {
  private readonly child;
  private readonly exited: Promise<number | null>;
  private stderr = "";
  private next = 0;
  constructor(dir: string, private readonly marksFile: string) {
    this.child = spawn("git", ["fast-import", "--quiet", "--done", `--export-marks=${marksFile}`], { cwd: dir, stdio: ["pipe", "ignore", "pipe"] });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((res) => this.child.on("close", res));
  }
  private async write(chunk: string | Buffer): Promise<void> {
    if (!this.child.stdin.write(chunk)) await once(this.child.stdin, "drain");
  }
  private async data(body: string | Buffer): Promise<void> {
    await this.write(`data ${Buffer.byteLength(body)}\n`);
    await this.write(body);
    await this.write("\n");
  }
  async commit(c: { ref: string; author: Person; time: number; authorTime?: number; message: string; from: number | null; merge?: number; changes: Change[] }): Promise<number> {
    const mark = ++this.next;
    await this.write(`commit ${c.ref}\nmark :${mark}\nauthor ${c.author.name} <${c.author.email}> ${c.authorTime ?? c.time} +0000\ncommitter ${c.author.name} <${c.author.email}> ${c.time} +0000\n`);
    await this.data(c.message);
    if (c.from !== null) await this.write(`from :${c.from}\n`);
    if (c.merge !== undefined) await this.write(`merge :${c.merge}\n`);
    for (const ch of c.changes) {
      if ("sha" in ch) await this.write(`M 100644 ${ch.sha} ${ch.path}\n`);
      else if (ch.content === null) await this.write(`D ${ch.path}\n`);
      else {
        await this.write(`M 100644 inline ${ch.path}\n`);
        await this.data(ch.content);
      }
    }
    return mark;
  }
  async finish(): Promise<Map<number, string>> {
    this.child.stdin.end("done\n");
    const code = await this.exited;
    if (code !== 0) throw new Error(`git fast-import failed (${code}): ${this.stderr.slice(-2000)}`);
    const marks = new Map<number, string>();
    for (const line of readFileSync(this.marksFile, "utf8").split("\n")) {
      const m = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
      if (m) marks.set(Number(m[1]), m[2]);
    }
    return marks;
  }
}

// ---- the build -------------------------------------------------------------------

const T_START = Date.UTC(2025, 11, 20) / 1000;
const CLAUDE: Person = { name: "Claude", email: "noreply@anthropic.com" };
const ENTIRE: Person = { name: "Entire", email: "entire@example.com" };

/** Candidate i is used when its transcript has at least `minKb` KiB, or every 10th candidate: a mix of long and short sessions. */
function selectSessions(seed: number, count: number, minKb: number, log: (l: string) => void): { index: number; end: number }[] {
  const picked: { index: number; end: number }[] = [];
  for (let i = 0; picked.length < count; i++) {
    const s = generateSession(seed, i);
    if (s.text.length < minKb * 1024 && i % 10 !== 0) continue;
    const at = s.text.lastIndexOf('"timestamp":"');
    picked.push({ index: i, end: Date.parse(s.text.slice(at + 13, at + 37)) });
    if (picked.length % 100 === 0) log(`  selected ${picked.length} / ${count} sessions (${i + 1} candidates)`);
  }
  return picked.sort((a, b) => a.end - b.end || a.index - b.index);
}

/** The quirk schedule: each quirk's share of the sessions, spread by a seeded shuffle. */
function schedule(rng: Rng, count: number): (Quirk | null)[] {
  const out: (Quirk | null)[] = [];
  for (const [q, rate] of Object.entries(QUIRK_RATES) as [Quirk, number][]) for (let n = Math.max(1, Math.round(rate * count)); n > 0; n--) out.push(q);
  while (out.length < count) out.push(null);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

async function build(dir: string, count: number, seed: number, minKb: number, log: (l: string) => void): Promise<EntireRepoManifest> {
  const t0 = Date.now();
  const git = (args: string[], input?: string | Buffer) => execFileSync("git", args, { cwd: dir, input, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" }, maxBuffer: 1 << 26 }).toString();
  git(["init", "-q", "-b", "main"]);
  git(["config", "gc.auto", "0"]);
  appendFileSync(join(dir, ".git", "info", "exclude"), "/manifest.json\n");

  const order = selectSessions(seed, count, minKb, log);
  const rng = new Rng((seed * 0x2545f491) ^ 0xe17e);
  const plan = schedule(rng, order.length);
  const usedIds = new Set<string>();
  const checkpointId = () => {
    let id: string;
    do id = rng.hex(12);
    while (usedIds.has(id) || /^\d+$/.test(id));
    usedIds.add(id);
    return id;
  };

  const fi = new FastImport(dir, join(dir, ".git", "bench-marks"));
  const tree = new Map<string, string>(); // main's files
  let time = T_START;
  const tick = (atLeast = 0) => (time = Math.max(time + 60, Math.floor(atLeast)));
  let head = await fi.commit({ ref: "refs/heads/main", author: { name: "Sam", email: "sam@example.com" }, time: tick(), message: "Initial commit\n", from: null, changes: [{ path: "README.md", content: "# demo\n\nA repository written by swe-chat-eval's bench.\n" }] });
  tree.set("README.md", "# demo\n\nA repository written by swe-chat-eval's bench.\n");
  let checkpointsTip: number | null = null;
  let releaseTip = head;
  const release = new Map<string, string>(tree);

  // Marks stand in for shas until the import ends.
  type PendingUnit = Omit<ExpectedUnit, "commit_sha"> & { commit: number };
  const sessions: (ManifestSession & { commitMarks: number[] })[] = [];
  const checkpoints: (ManifestCheckpoint & { commitMarks: number[] })[] = [];
  const expected: PendingUnit[] = [];
  const missingBlobs: string[] = [];
  const quirks: Record<string, number> = {};
  let transcriptBytes = 0;
  let sessionBytes = 0;
  const deferred: Quirk[] = [];

  /** Sets main's files; returns the fast-import changes. */
  const setFiles = (files: Map<string, string | null>): Change[] => {
    const changes: Change[] = [];
    for (const [path, content] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (content === null) {
        if (tree.delete(path)) changes.push({ path, content: null });
      } else if (tree.get(path) !== content) {
        tree.set(path, content);
        changes.push({ path, content });
      }
    }
    return changes;
  };

  /** Base (prepare) and final (committed) text of every file of the session's commit. */
  const commitFiles = (s: SessionLog) => {
    const pres = firstPres(s);
    const prepare = new Map<string, string | null>(pres);
    const final = new Map<string, string>();
    for (const { path, patch } of s.commit) {
      let base: string;
      if (pres.has(path)) base = pres.get(path) ?? "";
      else {
        base = baseFromPatch(patch, path);
        prepare.set(path, base);
      }
      final.set(path, applyPatch(base, patch, path));
    }
    return { prepare, final };
  };

  const personOf = (s: SessionLog): Person => ({ name: s.user[0].toUpperCase() + s.user.slice(1), email: `${s.user}@example.com` });
  const subject = (s: SessionLog) => {
    const words = (s.prompts[0] ?? "update").toLowerCase().replace(/[^a-z ]/g, " ").split(/\s+/).filter(Boolean).slice(0, rng.int(3, 7)).join(" ");
    return `${rng.pick(["feat", "fix", "refactor", "chore", "test"])}: ${words || "update"}`;
  };
  const trailer = (id: string) => `Entire-Checkpoint: ${id}${rng.chance(0.3) ? "\nCo-authored-by: Claude <noreply@anthropic.com>" : ""}\n`;

  /** One checkpoint commit on entire/checkpoints/v1 with the given session folders. */
  const writeCheckpoint = async (
    id: string,
    folders: { s: SessionLog; start: number | null; end: number; files: string[]; agent?: string; legacyId?: boolean; transcript: "full" | "none" | "nul"; attribution?: { agent: number; total: number } | null }[],
    time: number,
    quirk: Quirk | null,
    commitMarks: number[],
  ) => {
    const base = `${id.slice(0, 2)}/${id.slice(2)}`;
    const changes: Change[] = [];
    const summaryUsage = { input_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0, api_call_count: 0 };
    let bytes = 0;
    let promptWindows = 0;
    folders.forEach((f, n) => {
      const s = f.s;
      const from = f.start ?? 0;
      const calls = s.calls.filter((c) => c.line >= from && c.line < f.end);
      const usage = {
        input_tokens: calls.reduce((a, c) => a + c.input, 0),
        cache_creation_tokens: calls.reduce((a, c) => a + c.cacheCreate, 0),
        cache_read_tokens: calls.reduce((a, c) => a + c.cacheRead, 0),
        output_tokens: calls.reduce((a, c) => a + c.output, 0),
        api_call_count: calls.length,
      };
      for (const k of Object.keys(summaryUsage) as (keyof typeof usage)[]) summaryUsage[k] += usage[k];
      const prompts = s.promptStarts.map((p, i) => ({ p, text: s.prompts[i] })).filter((x) => x.p >= from && x.p < f.end);
      promptWindows += prompts.length;
      const created = new Date(s.firstTs).toISOString();
      const meta: Record<string, unknown> = {
        cli_version: "0.4.7",
        checkpoint_id: id,
        session_id: f.legacyId ? `${created.slice(0, 10)}-${s.id}` : s.id,
        strategy: "manual-commit",
        created_at: created,
        branch: s.branch,
        checkpoints_count: prompts.length,
        files_touched: f.files,
        agent: f.agent ?? "Claude Code",
        model: s.model,
        transcript_path: `.claude/projects/${s.cwd.replace(/[/.]/g, "-")}/${s.id}.jsonl`,
      };
      if (f.start !== null) meta.checkpoint_transcript_start = f.start;
      if (f.attribution) {
        meta.initial_attribution = {
          calculated_at: new Date(time * 1000).toISOString(),
          agent_lines: f.attribution.agent,
          human_added: f.attribution.total - f.attribution.agent,
          human_modified: 0,
          human_removed: 0,
          total_committed: f.attribution.total,
          agent_percentage: f.attribution.total > 0 ? Math.round((1000 * f.attribution.agent) / f.attribution.total) / 10 : 0,
        };
      }
      if (n % 2 === 0 || calls.length > 0) meta.token_usage = usage;
      changes.push({ path: `${base}/${n}/metadata.json`, content: JSON.stringify(meta, null, 2) });
      changes.push({ path: `${base}/${n}/prompt.txt`, content: prompts.map((x) => x.text).join("\n\n---\n\n") });
      if (f.transcript !== "none") {
        const text = f.transcript === "nul" ? Buffer.alloc(Math.min(65536, s.bytes)) : Buffer.from(s.lines.slice(0, f.end).join("\n") + "\n");
        bytes += text.length;
        changes.push({ path: `${base}/${n}/full.jsonl`, content: text });
        changes.push({ path: `${base}/${n}/content_hash.txt`, content: `sha256:${createHash("sha256").update(text).digest("hex")}` });
      }
    });
    const summary = {
      cli_version: "0.4.7",
      checkpoint_id: id,
      strategy: "manual-commit",
      branch: folders[0].s.branch,
      // Entire: the sum of the sessions' prompt-window counts.
      checkpoints_count: promptWindows,
      files_touched: [...new Set(folders.flatMap((f) => f.files))].sort(),
      sessions: folders.map((_, n) => ({ metadata: `/${base}/${n}/metadata.json`, transcript: `/${base}/${n}/full.jsonl`, content_hash: `/${base}/${n}/content_hash.txt`, prompt: `/${base}/${n}/prompt.txt` })),
      token_usage: summaryUsage,
    };
    changes.unshift({ path: `${base}/metadata.json`, content: JSON.stringify(summary, null, 2) });
    const s0 = folders[0].s;
    checkpointsTip = await fi.commit({
      ref: "refs/heads/entire/checkpoints/v1",
      author: ENTIRE,
      time,
      message: `Checkpoint: ${id}\n\nEntire-Session: ${s0.id}\nEntire-Strategy: manual-commit\nEntire-Agent: ${folders[0].agent ?? "Claude Code"}\n`,
      from: checkpointsTip,
      changes,
    });
    transcriptBytes += bytes;
    checkpoints.push({
      checkpoint_id: id, sessions: folders.map((f) => f.s.id), commits: [], commitMarks, quirk,
      transcript_start: folders.map((f) => f.start), transcript_bytes: bytes, stored: true,
    });
  };

  /** Entire-style attribution of one commit: committed added lines that the agent's text also added. */
  const attribution = (s: SessionLog, before: Map<string, string>, after: Map<string, string>, upto: number) => {
    const agent = statesBefore(s, upto);
    const pres = firstPres(s);
    let total = 0;
    let agentLines = 0;
    for (const [path, text] of after) {
      const added = addedLines(before.get(path) ?? "", text);
      const byAgent = agent.has(path) ? addedLines(pres.get(path) ?? "", agent.get(path)!) : new Map<string, number>();
      for (const [l, n] of added) {
        if (n <= 0) continue;
        total += n;
        agentLines += Math.min(n, Math.max(0, byAgent.get(l) ?? 0));
      }
    }
    return rng.chance(0.7) ? { agent: agentLines, total } : null;
  };

  const touched = (s: SessionLog, from: number, to: number) => [...new Set(s.edits.filter((e) => e.rel !== null && e.line >= from && e.line < to).map((e) => e.rel!))].sort();

  let lastLog = Date.now();
  for (let k = 0; k < order.length; k++) {
    const s = readSession(seed, order[k].index);
    sessionBytes += s.bytes;
    let quirk: Quirk | null = deferred.length > 0 && plan[k] === null ? deferred.shift()! : plan[k];
    const { prepare, final } = commitFiles(s);
    const paths = new Set([...prepare.keys(), ...final.keys()]);

    // Feasibility: a quirk that does not fit this session waits for the next one.
    let partner: SessionLog | null = null;
    let split = -1;
    if (quirk === "two-sessions") {
      partner = k + 1 < order.length ? readSession(seed, order[k + 1].index) : null;
      const p = partner ? commitFiles(partner) : null;
      if (!partner || !p || [...p.prepare.keys(), ...p.final.keys()].some((x) => paths.has(x))) partner = null;
    } else if (quirk === "two-checkpoints") {
      const ok = s.promptStarts.slice(1).filter((L) => s.edits.some((e) => e.rel !== null && e.line < L) && s.edits.some((e) => e.rel !== null && e.line > L));
      if (ok.length > 0) split = ok[Math.floor(ok.length / 2)];
    }
    const feasible =
      quirk === null ||
      (quirk === "two-sessions" ? partner !== null
        : quirk === "two-checkpoints" ? split > 0
        : quirk === "two-commits" ? final.size >= 2
        : ["cherry-pick", "merge", "missing-blob", "body-mention"].includes(quirk) ? final.size >= 1
        : true);
    if (!feasible) {
      deferred.push(quirk!);
      quirk = null;
    }
    if (quirk) quirks[quirk] = (quirks[quirk] ?? 0) + 1;
    const variant: string[] = [];
    const person = personOf(s);
    const entry: ManifestSession & { commitMarks: number[] } = {
      index: s.index, session_id: s.id, quirk, variant, checkpoints: [], commits: [], commitMarks: [], bytes: s.bytes,
      prompts: s.prompts.length, edits: s.edits.length, patched_files: final.size,
    };
    sessions.push(entry);

    // 1. prepare: the session's files at their first pre-image (partner's too).
    const prep = new Map(prepare);
    let partnerFiles: ReturnType<typeof commitFiles> | null = null;
    if (partner) {
      partnerFiles = commitFiles(partner);
      for (const [p, c] of partnerFiles.prepare) prep.set(p, c);
    }
    const prepChanges = setFiles(prep);
    if (prepChanges.length > 0) {
      head = await fi.commit({ ref: "refs/heads/main", author: { name: "Sam", email: "sam@example.com" }, time: tick(s.firstTs / 1000 - 600), message: `Sync ${prepChanges.length} file(s) before the next change\n`, from: head, changes: prepChanges });
    }
    const prepareMark = head;
    const beforeCommit = new Map<string, string>();
    for (const p of final.keys()) beforeCommit.set(p, tree.get(p) ?? "");
    const commitTime = () => tick(s.lastTs / 1000 + rng.int(60, 900));
    const id = checkpointId();
    const folder = { s, start: 0 as number | null, end: s.lines.length, files: touched(s, 0, s.lines.length), transcript: "full" as "full" | "none" | "nul" };
    const unit = (commit: number, ambiguity: string | null, cp = id, sid = s.id) => expected.push({ session_id: sid, commit, checkpoint_id: cp, ambiguity, quirk });

    if (quirk === "two-checkpoints") {
      // Commit A carries the agent's files as they were when the split prompt came; commit B the session's commit.
      const idA = id;
      const stateA = statesBefore(s, split);
      const beforeA = new Map<string, string>();
      for (const p of stateA.keys()) beforeA.set(p, tree.get(p) ?? "");
      const tA = tick(s.ts.slice(0, split).reduce((m, t) => (t > m ? t : m), 0) / 1000 + 120);
      const a = await fi.commit({ ref: "refs/heads/main", author: person, time: tA, message: `${subject(s)}\n\n${trailer(idA)}`, from: head, changes: setFiles(new Map(stateA)) });
      head = a;
      const legacyFirst = sessions.filter((x) => x.quirk === "two-checkpoints").length % 4 === 0;
      if (legacyFirst) variant.push("legacy-id-first");
      await writeCheckpoint(idA, [{ ...folder, end: split, files: touched(s, 0, split), legacyId: legacyFirst, attribution: attribution(s, beforeA, stateA, split) }], tA + 5, quirk, [a]);
      const idB = checkpointId();
      const beforeB = new Map<string, string>();
      for (const p of final.keys()) beforeB.set(p, tree.get(p) ?? "");
      const b = await fi.commit({ ref: "refs/heads/main", author: person, time: commitTime(), message: `${subject(s)}\n\n${trailer(idB)}`, from: head, changes: setFiles(final) });
      head = b;
      const startMissing = sessions.filter((x) => x.quirk === "two-checkpoints").length % 3 === 0;
      if (startMissing) variant.push("start-missing");
      await writeCheckpoint(idB, [{ ...folder, start: startMissing ? null : split, files: touched(s, split, s.lines.length), attribution: attribution(s, beforeB, final, s.lines.length) }], time + 5, quirk, [b]);
      entry.checkpoints.push(idA, idB);
      entry.commitMarks.push(a, b);
      unit(a, "multi-checkpoint-session", idA);
      unit(b, "multi-checkpoint-session", idB);
    } else if (quirk === "two-sessions" && partner && partnerFiles) {
      const all = new Map<string, string>([...final, ...partnerFiles.final]);
      for (const p of partnerFiles.final.keys()) beforeCommit.set(p, tree.get(p) ?? "");
      const c = await fi.commit({ ref: "refs/heads/main", author: person, time: tick(Math.max(s.lastTs, partner.lastTs) / 1000 + 300), message: `${subject(s)}\n\n${trailer(id)}`, from: head, changes: setFiles(all) });
      head = c;
      const pFolder = { s: partner, start: 0, end: partner.lines.length, files: touched(partner, 0, partner.lines.length), transcript: "full" as const };
      await writeCheckpoint(id, [{ ...folder, attribution: attribution(s, beforeCommit, final, s.lines.length) }, pFolder], time + 5, quirk, [c]);
      entry.checkpoints.push(id);
      entry.commitMarks.push(c);
      unit(c, "multi-session-checkpoint");
      unit(c, "multi-session-checkpoint", id, partner.id);
      sessionBytes += partner.bytes;
      sessions.push({
        index: partner.index, session_id: partner.id, quirk, variant: ["partner"], checkpoints: [id], commits: [], commitMarks: [c], bytes: partner.bytes,
        prompts: partner.prompts.length, edits: partner.edits.length, patched_files: partnerFiles.final.size,
      });
      k++; // the partner is used up
    } else if (quirk === "two-commits") {
      const paths2 = [...final.keys()].sort();
      const half = Math.ceil(paths2.length / 2);
      const msg = `${subject(s)}\n\n${trailer(id)}`;
      const c1 = await fi.commit({ ref: "refs/heads/main", author: person, time: commitTime(), message: msg, from: head, changes: setFiles(new Map(paths2.slice(0, half).map((p) => [p, final.get(p)!]))) });
      const c2 = await fi.commit({ ref: "refs/heads/main", author: person, time: tick(), message: `${subject(s)}\n\n${trailer(id)}`, from: c1, changes: setFiles(new Map(paths2.slice(half).map((p) => [p, final.get(p)!]))) });
      head = c2;
      await writeCheckpoint(id, [{ ...folder, attribution: null }], time + 5, quirk, [c1, c2]);
      entry.checkpoints.push(id);
      entry.commitMarks.push(c1, c2);
      unit(c1, "multi-commit-checkpoint");
      unit(c2, "multi-commit-checkpoint");
    } else if (quirk === "merge") {
      // A side branch with a note, merged by the commit that carries the session's work and the trailer.
      const side = await fi.commit({ ref: `refs/heads/feature/notes-${k}`, author: { name: "Kim", email: "kim@example.com" }, time: tick(), message: "docs: release notes draft\n", from: prepareMark, changes: [{ path: `docs/notes/release-${k}.md`, content: `# Release notes ${k}\n\n- ${s.prompts[0]?.slice(0, 60) ?? "notes"}\n` }] });
      const changes = setFiles(new Map([...final, [`docs/notes/release-${k}.md`, `# Release notes ${k}\n\n- ${s.prompts[0]?.slice(0, 60) ?? "notes"}\n`]]));
      const m = await fi.commit({ ref: "refs/heads/main", author: person, time: commitTime(), message: `Merge branch 'feature/notes-${k}'\n\n${subject(s)}\n\n${trailer(id)}`, from: head, merge: side, changes });
      head = m;
      await writeCheckpoint(id, [{ ...folder, attribution: null }], time + 5, quirk, [m]);
      entry.checkpoints.push(id);
      entry.commitMarks.push(m);
      unit(m, "merge-commit");
    } else {
      // One commit (the trailer left out for no-commit, naming an unstored checkpoint for unknown-checkpoint).
      const changes = setFiles(final);
      if (quirk === "missing-blob") {
        // Written as a loose object so fast-import can name it; deleted after the import (a mirror that dropped a large file).
        const big = Buffer.alloc(4.5 * 1048576);
        const r = new Rng(seed + k);
        for (let i = 0; i < big.length; i += 4) big.writeUInt32LE(Math.floor(r.next() * 4294967296), i);
        const sha = git(["hash-object", "-w", "--stdin"], big).trim();
        missingBlobs.push(sha);
        changes.push({ path: `assets/fixtures-${k}.bin`, sha });
      }
      const msg = quirk === "no-commit" ? `${subject(s)}\n` : `${subject(s)}\n\n${trailer(id)}`;
      const c = await fi.commit({ ref: "refs/heads/main", author: person, time: commitTime(), message: msg, from: head, changes });
      head = c;
      if (quirk !== "unknown-checkpoint") {
        await writeCheckpoint(id, [{
          ...folder,
          agent: quirk === "wrong-agent" ? "Gemini CLI" : undefined,
          legacyId: quirk === "legacy-id",
          transcript: quirk === "no-transcript" ? "none" : quirk === "unreadable-transcript" ? "nul" : "full",
          attribution: attribution(s, beforeCommit, final, s.lines.length),
        }], time + 5, quirk, quirk === "no-commit" ? [] : [c]);
      } else {
        checkpoints.push({ checkpoint_id: id, sessions: [s.id], commits: [], commitMarks: [c], quirk, transcript_start: [0], transcript_bytes: 0, stored: false });
      }
      entry.checkpoints.push(id);
      entry.commitMarks.push(c);
      const ambiguity = { "missing-blob": "commit-unreadable", "no-transcript": "transcript-missing", "unreadable-transcript": "transcript-unreadable" }[quirk as string] ?? null;
      if (quirk !== "no-commit" && quirk !== "unknown-checkpoint") unit(c, ambiguity);
      if (quirk === "cherry-pick") {
        // release/1.x: a sync commit puts the touched files at their pre-commit content, then the copy (same diff, same patch id).
        const sync: Change[] = [];
        const copy: Change[] = [];
        for (const [p, text] of [...final].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
          const before = beforeCommit.get(p);
          const had = prepare.has(p) ? prepare.get(p) !== null : before !== "";
          if ((had ? before : undefined) !== release.get(p)) {
            if (had) release.set(p, before!);
            else release.delete(p);
            sync.push({ path: p, content: had ? before! : null });
          }
          release.set(p, text);
          copy.push({ path: p, content: text });
        }
        if (sync.length > 0) releaseTip = await fi.commit({ ref: "refs/heads/release/1.x", author: { name: "Sam", email: "sam@example.com" }, time: time + 1800, message: "Sync release branch\n", from: releaseTip, changes: sync });
        releaseTip = await fi.commit({ ref: "refs/heads/release/1.x", author: person, authorTime: time, time: time + 3600, message: msg, from: releaseTip, changes: copy });
        entry.commitMarks.push(releaseTip);
        checkpoints[checkpoints.length - 1].commitMarks.push(releaseTip);
      }
      if (quirk === "body-mention") {
        const readme = (tree.get("README.md") ?? "") + `- ${s.prompts[0]?.slice(0, 50) ?? "docs"}\n`;
        head = await fi.commit({
          ref: "refs/heads/main", author: { name: "Jo", email: "jo@example.com" }, time: tick(time + 1800),
          message: `docs: squash of review fixes (#${100 + k})\n\nSquashed commits:\n\n* fix typo\nEntire-Checkpoint: ${id}\n* update README\n\nCo-authored-by: Sam <sam@example.com>\n`,
          from: head, changes: setFiles(new Map([["README.md", readme]])),
        });
      }
    }
    if (Date.now() - lastLog > 5000) {
      lastLog = Date.now();
      log(`  wrote ${k + 1} / ${order.length} sessions, ${(transcriptBytes / 1048576).toFixed(0)} MB of transcripts`);
    }
  }
  for (const q of deferred) log(`  quirk ${q} found no session that fits`);

  const marks = await fi.finish();
  const sha = (m: number) => {
    const s = marks.get(m);
    if (!s) throw new Error(`fast-import exported no sha for mark ${m}`);
    return s;
  };
  git(["reset", "-q", "--hard", "main"]);
  for (const blob of missingBlobs) unlinkSync(join(dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
  rmSync(join(dir, ".git", "bench-marks"), { force: true });

  const manifest: EntireRepoManifest = {
    version: ENTIRE_REPO_VERSION,
    seed,
    sessions: count,
    min_kb: minKb,
    repo: dir,
    transcript_bytes: transcriptBytes,
    session_bytes: sessionBytes,
    quirks,
    session_list: sessions.map(({ commitMarks, ...rest }) => ({ ...rest, commits: commitMarks.map(sha) })),
    checkpoint_list: checkpoints.map(({ commitMarks, ...rest }) => ({ ...rest, commits: commitMarks.map(sha) })),
    expected_units: expected.map(({ commit, ...rest }) => ({ ...rest, commit_sha: sha(commit) })),
    missing_blobs: missingBlobs,
    seconds: (Date.now() - t0) / 1000,
  };
  log(`  ${sessions.length} sessions, ${checkpoints.length} checkpoints, ${(transcriptBytes / 1048576).toFixed(1)} MB of transcripts in ${manifest.seconds.toFixed(1)} s → ${dir}`);
  return manifest;
}

// ---- CLI -------------------------------------------------------------------------

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { dir, manifest, reused } = await ensureEntireRepo({
    sessions: Number(arg("sessions") ?? 400),
    seed: Number(arg("seed") ?? 1),
    minKb: Number(arg("min-kb") ?? 512),
    out: arg("out"),
    force: process.argv.includes("--force"),
    log: (l) => console.log(l),
  });
  console.log(`${reused ? "reused" : "wrote"} ${dir}: ${manifest.session_list.length} sessions, ${manifest.checkpoint_list.length} checkpoints, ${manifest.expected_units.length} expected units, ${(manifest.transcript_bytes / 1048576).toFixed(1)} MB of transcripts`);
  console.log(`  quirks: ${Object.entries(manifest.quirks).sort().map(([q, n]) => `${q} ${n}`).join(", ")}`);
}
