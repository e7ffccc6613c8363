/**
 * The bundled sample corpus: a small synthetic project whose team uses the
 * Entire CLI with Claude Code, generated from scratch, deterministically.
 *
 * `generateSampleCorpus(dir)` writes
 *
 * - `dir/repo/`: a real git repository (made with the git CLI) holding
 *   `main` (a tiny TypeScript formatting library), `release/0.1` (one
 *   cherry-picked fix), `feature/slug-options` (a worktree branch, merged by
 *   fast-forward) and the orphan branch `entire/checkpoints/v1` with one
 *   sharded folder per checkpoint, as Entire writes them;
 * - `dir/claude-projects/`: a Claude Code projects folder with the raw
 *   transcripts (`-home-dev-sample-app/<uuid>.jsonl`, one
 *   `<uuid>/subagents/agent-<id>.jsonl`, a worktree project folder and a
 *   sub-folder one), so the tool can also be pointed at transcripts + `--repo`.
 *
 * Everything is simulated: the agent's tool calls really change an in-memory
 * worktree, and the same contents become the transcripts' `originalFile`,
 * `structuredPatch` and the committed blobs, so the logs and the history
 * agree exactly the way real ones do. Dates, ids and token counts come from
 * fixed seeds: two generations give byte-identical files and commit shas.
 *
 * Each scenario below carries, as comments, the attribution worked out by
 * hand from docs metrics.md §1–4; the same numbers are returned as
 * `SampleCorpus.expected` for tests to compare against.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { devNull } from "node:os";
import { dirname, join } from "node:path";
import { structuredPatch } from "diff";

/** Bumped whenever the generated corpus changes in any way. */
export const SAMPLE_GENERATOR_VERSION = 2;

// ---------------------------------------------------------------------------
// Public shape of the corpus
// ---------------------------------------------------------------------------

/** Token totals, one count per API call (streamed records counted once). */
export interface SampleUsage {
  api_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
}

export interface SampleSession {
  /** Short stable name, e.g. `s02-table`. */
  key: string;
  /** The scenario numbers (README table) this session takes part in. */
  scenarios: number[];
  /** The id inside the transcript (and the transcript's file name). */
  session_id: string;
  /** The id as Entire stored it (date-prefixed for the legacy session). */
  entire_session_id: string;
  /** Entire's `agent` label; null when the metadata has none. */
  agent_label: string | null;
  /** What the transcript really is, whatever the label says. */
  format: "claude-code";
  claude_code_version: string;
  /** Main-thread models, in order of first use. */
  models: string[];
  /** Models used by sub-agents. */
  subagent_models: string[];
  cwd: string;
  /** The Claude Code project folder name (cwd with `/` and `.` as `-`). */
  project_dir: string;
  branch: string;
  /** Absolute path of the raw transcript under `claudeProjectsDir`; null when it was lost. */
  transcript: string | null;
  subagent_transcripts: string[];
  /** Lines (records) of the whole transcript. */
  record_count: number;
  /** Records per top-level `type`. */
  record_types: Record<string, number>;
  subagent_record_counts: number[];
  /** Real user prompts (metrics.md §5), counted by hand. */
  prompts: number;
  checkpoints: string[];
  /** Main-thread usage, `<synthetic>` records excluded. */
  usage: SampleUsage;
  /** Sub-agent usage (nested `agent_progress` / sidechain records), or null. */
  subagent_usage: SampleUsage | null;
  started_at: string;
  ended_at: string;
}

export interface SampleCommit {
  /** `C0` … `C15`, `C9r` for the cherry-picked copy. */
  name: string;
  sha: string;
  branch: string;
  subject: string;
  author: string;
  committer: string;
  /** Epoch seconds. */
  author_time: number;
  committer_time: number;
  parents: string[];
  /** The `Entire-Checkpoint` trailer as git parses it; null when there is none. */
  checkpoint_id: string | null;
  /** Name of the commit this one copies (cherry-pick); null otherwise. */
  copy_of: string | null;
  scenarios: number[];
  note: string;
}

export interface SampleCheckpointSession {
  index: number;
  session_key: string;
  entire_session_id: string;
  transcript_present: boolean;
  /** 0-based first line of this checkpoint's part of the transcript. */
  transcript_start: number;
  /** Lines of the stored `full.jsonl` (what it would have had, when absent). */
  transcript_records: number;
}

export interface SampleCheckpoint {
  checkpoint_id: string;
  /** Name of the commit carrying the trailer on `main`. */
  commit: string;
  sessions: SampleCheckpointSession[];
}

/** The attribution of one unit (session, commit), worked out by hand. */
export interface ExpectedUnit {
  scenario: number;
  session_key: string;
  session_id: string;
  commit: string;
  commit_sha: string;
  checkpoint_id: string;
  ambiguity: string | null;
  ambiguity_reasons: string[];
  /** null: not computable (no transcript); an engine may also report 0 agent lines and all lines human. */
  agent_lines_produced: number | null;
  agent_lines_final: number | null;
  agent_lines_survived: number | null;
  human_lines: number | null;
  outside_lines: number | null;
  total_committed_lines: number | null;
  outside_changes: number | null;
  unreplayable_calls: number | null;
  /** Entire's own `initial_attribution`, as stored in the session metadata. */
  entire_agent_lines: number;
  entire_total_committed: number;
  why: string;
}

export interface SampleCorpus {
  version: number;
  root: string;
  repoDir: string;
  claudeProjectsDir: string;
  /** The fake home and repository root that the transcripts' absolute paths use. */
  home: string;
  repoRootInTranscripts: string;
  checkpointsBranch: string;
  branches: Record<string, string>;
  sessions: SampleSession[];
  commits: SampleCommit[];
  checkpoints: SampleCheckpoint[];
  expected: ExpectedUnit[];
}

// ---------------------------------------------------------------------------
// Deterministic ids, numbers and time
// ---------------------------------------------------------------------------

type Json = Record<string, unknown>;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function uuidFor(key: string): string {
  const h = sha256(`uuid:${key}`);
  const variant = "89ab"[parseInt(h[16], 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58For(key: string, length: number): string {
  let out = "";
  for (let round = 0; out.length < length; round++) {
    const bytes = createHash("sha256").update(`b58:${round}:${key}`).digest();
    for (let i = 0; i < bytes.length && out.length < length; i++) out += BASE58[bytes[i] % 58];
  }
  return out;
}

function signatureFor(key: string): string {
  const parts: Buffer[] = [];
  for (let i = 0; i < 5; i++) parts.push(createHash("sha256").update(`sig:${i}:${key}`).digest());
  return `Eq${Buffer.concat(parts).toString("base64")}`;
}

/** mulberry32 on a fixed seed: varied-looking but reproducible numbers. */
class Rng {
  private state: number;
  constructor(seed: string) {
    this.state = parseInt(sha256(`seed:${seed}`).slice(0, 8), 16) >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
}

class Clock {
  constructor(
    public ms: number,
    private readonly rng: Rng,
  ) {}
  iso(): string {
    return new Date(this.ms).toISOString();
  }
  /** Advance by a reproducible amount between min and max seconds. */
  tick(minSeconds: number, maxSeconds: number): void {
    this.ms += Math.round(this.rng.between(minSeconds, maxSeconds) * 1000);
  }
  wait(seconds: number): void {
    this.ms += Math.round(seconds * 1000);
  }
}

function at(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad date ${iso}`);
  return ms;
}

/** Entire writes microsecond timestamps. */
function microIso(ms: number, rng: Rng): string {
  return new Date(ms).toISOString().replace(/Z$/, `${String(rng.int(0, 999)).padStart(3, "0")}Z`);
}

function tokensOf(text: string): number {
  return Math.ceil(text.length / 3.7);
}

/** A text from lines, each ended by `\n`. */
function L(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

function replaceOnce(text: string, oldString: string, newString: string): string {
  const i = text.indexOf(oldString);
  return text.slice(0, i) + newString + text.slice(i + oldString.length);
}

function projectDirName(cwd: string): string {
  return cwd.replace(/[/.]/g, "-");
}

// ---------------------------------------------------------------------------
// The worktree and the agent's tools
// ---------------------------------------------------------------------------

class Workspace {
  /** Repo-relative path → content of the (shared) worktree. */
  readonly files = new Map<string, string>();
  /** Absolute path → content, for files outside the repository (plans). */
  readonly outside = new Map<string, string>();

  text(rel: string): string {
    const t = this.files.get(rel);
    if (t === undefined) throw new Error(`sample: no file ${rel}`);
    return t;
  }

  /** A person's (or a tool's) change outside any logged agent edit. */
  change(rel: string, oldString: string, newString: string): void {
    const before = this.text(rel);
    if (countOccurrences(before, oldString) !== 1) throw new Error(`sample: edit of ${rel} does not match once`);
    this.files.set(rel, replaceOnce(before, oldString, newString));
  }
}

type Style = "2.x" | "1.0";

interface ToolResult {
  content: string | Json[];
  toolUseResult: unknown;
  isError?: boolean;
  /** Bash-like results carry an explicit `is_error: false`. */
  explicitOk?: boolean;
}

interface RunContext {
  toolUseId: string;
  messageId: string;
}

interface ToolRun {
  name: string;
  input: Json;
  run: (ctx: RunContext) => ToolResult;
}

function catN(text: string): string {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line, i) => `${String(i + 1).padStart(6)}\u2192${line}`).join("\n");
}

function hunks(path: string, before: string, after: string): Json[] {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: 3 });
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

class Tools {
  constructor(
    readonly ws: Workspace,
    /** The repository root as this session sees it (a worktree root for worktree sessions). */
    readonly root: string,
    readonly style: Style,
  ) {}

  abs(path: string): string {
    return path.startsWith("/") ? path : `${this.root}/${path}`;
  }

  /** Repo-relative path, or null for a path outside the repository. */
  private rel(path: string): string | null {
    if (!path.startsWith("/")) return path;
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : null;
  }

  private current(path: string): string | undefined {
    const rel = this.rel(path);
    return rel === null ? this.ws.outside.get(path) : this.ws.files.get(rel);
  }

  private store(path: string, text: string): void {
    const rel = this.rel(path);
    if (rel === null) this.ws.outside.set(path, text);
    else this.ws.files.set(rel, text);
  }

  read(path: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Read",
      input: { file_path: file },
      run: () => {
        const text = this.current(file);
        if (text === undefined) throw new Error(`sample: Read of missing ${file}`);
        const n = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
        return {
          content: catN(text),
          toolUseResult: { type: "text", file: { filePath: file, content: text, numLines: n, startLine: 1, totalLines: n } },
        };
      },
    };
  }

  write(path: string, content: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Write",
      input: { file_path: file, content },
      run: () => {
        const before = this.current(file);
        this.store(file, content);
        if (this.style === "1.0") {
          return {
            content: before === undefined ? `File created successfully at: ${file}` : `The file ${file} has been updated.`,
            toolUseResult: { type: before === undefined ? "create" : "update", filePath: file, content, structuredPatch: before === undefined ? [] : hunks(file, before, content) },
          };
        }
        if (before === undefined) {
          return {
            content: `File created successfully at: ${file}`,
            toolUseResult: { type: "create", filePath: file, content, structuredPatch: [], originalFile: null },
          };
        }
        return {
          content: `The file ${file} has been updated successfully.`,
          toolUseResult: { type: "update", filePath: file, content, structuredPatch: hunks(file, before, content), originalFile: before },
        };
      },
    };
  }

  /**
   * A successful Edit. With `userText`, the person rewrote the proposal in
   * the IDE before accepting it: the file gets `userText`, the result says
   * `userModified: true`, and `input.new_string` keeps the agent's proposal.
   */
  edit(path: string, oldString: string, newString: string, opts: { replaceAll?: boolean; userText?: string } = {}): ToolRun {
    const file = this.abs(path);
    const replaceAll = opts.replaceAll ?? false;
    const input: Json = this.style === "1.0" ? { file_path: file, old_string: oldString, new_string: newString } : { replace_all: replaceAll, file_path: file, old_string: oldString, new_string: newString };
    return {
      name: "Edit",
      input,
      run: () => {
        const before = this.current(file);
        if (before === undefined) throw new Error(`sample: Edit of missing ${file}`);
        const n = countOccurrences(before, oldString);
        if (n === 0 || (n > 1 && !replaceAll)) throw new Error(`sample: Edit of ${file} matches ${n} times`);
        const applied = opts.userText ?? newString;
        const after = replaceAll ? before.split(oldString).join(applied) : replaceOnce(before, oldString, applied);
        this.store(file, after);
        const result: Json = {
          filePath: file,
          oldString,
          newString: applied,
          originalFile: before,
          structuredPatch: hunks(file, before, after),
          userModified: opts.userText !== undefined,
        };
        if (this.style === "2.x") result.replaceAll = replaceAll;
        const content = opts.userText !== undefined ? `The user modified your proposed changes before accepting them. The file ${file} has been updated successfully.` : `The file ${file} has been updated successfully.`;
        return { content, toolUseResult: result };
      },
    };
  }

  /** An Edit whose old_string is not in the file: is_error, string toolUseResult. */
  editNotFound(path: string, oldString: string, newString: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Edit",
      input: { replace_all: false, file_path: file, old_string: oldString, new_string: newString },
      run: () => {
        const before = this.current(file);
        if (before === undefined || before.includes(oldString)) throw new Error(`sample: editNotFound of ${file} would apply`);
        const message = `String to replace not found in file.\nString: ${oldString}`;
        return { content: `<tool_use_error>${message}</tool_use_error>`, toolUseResult: `Error: ${message}`, isError: true };
      },
    };
  }

  /** A Write the user rejected in the permission prompt: nothing is written. */
  writeRejected(path: string, content: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Write",
      input: { file_path: file, content },
      run: () => ({
        content:
          "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        toolUseResult: "User rejected tool use",
        isError: true,
      }),
    };
  }

  /** Claude Code 1.0.x MultiEdit: edits applied in order, `originalFileContents` in the result. */
  multiEdit(path: string, edits: { old_string: string; new_string: string }[]): ToolRun {
    const file = this.abs(path);
    return {
      name: "MultiEdit",
      input: { file_path: file, edits },
      run: () => {
        const before = this.current(file);
        if (before === undefined) throw new Error(`sample: MultiEdit of missing ${file}`);
        let after = before;
        for (const e of edits) {
          if (countOccurrences(after, e.old_string) !== 1) throw new Error(`sample: MultiEdit of ${file} does not match once`);
          after = replaceOnce(after, e.old_string, e.new_string);
        }
        this.store(file, after);
        const summary = edits.map((e, i) => `${i + 1}. Replaced "${e.old_string.split("\n")[0]}..." with "${e.new_string.split("\n")[0]}..."`).join("\n");
        return {
          content: `Applied ${edits.length} edits to ${file}:\n${summary}`,
          toolUseResult: {
            filePath: file,
            edits: edits.map((e) => ({ old_string: e.old_string, new_string: e.new_string, replace_all: false })),
            originalFileContents: before,
            structuredPatch: hunks(file, before, after),
            userModified: false,
          },
        };
      },
    };
  }

  /** A shell command; `effect` is whatever it does to files (no structured record of it). */
  bash(command: string, description: string, stdout: string, effect?: () => void): ToolRun {
    return {
      name: "Bash",
      input: { command, description },
      run: () => {
        if (effect) effect();
        return { content: stdout, toolUseResult: { stdout, stderr: "", interrupted: false, isImage: false }, explicitOk: true };
      },
    };
  }

  glob(pattern: string, prefix: string, suffix: string): ToolRun {
    return {
      name: "Glob",
      input: { pattern },
      run: () => {
        const names: string[] = [];
        this.ws.files.forEach((_, rel) => {
          if (rel.startsWith(prefix) && rel.endsWith(suffix)) names.push(this.abs(rel));
        });
        names.sort();
        return { content: names.join("\n"), toolUseResult: { filenames: names, durationMs: 14, numFiles: names.length, truncated: false } };
      },
    };
  }

  grep(pattern: string, rels: string[]): ToolRun {
    return {
      name: "Grep",
      input: { pattern, output_mode: "files_with_matches" },
      run: () => ({
        content: `Found ${rels.length} file${rels.length === 1 ? "" : "s"}\n${rels.join("\n")}`,
        toolUseResult: { mode: "files_with_matches", filenames: rels, numFiles: rels.length },
      }),
    };
  }

  exitPlanMode(plan: string): ToolRun {
    return {
      name: "ExitPlanMode",
      input: { plan },
      run: () => ({
        content: "User has approved your plan. You can now start coding.",
        toolUseResult: { plan, isAgent: false },
      }),
    };
  }
}

// ---------------------------------------------------------------------------
// Claude Code transcript builder
// ---------------------------------------------------------------------------

type Block = { type: "text"; text: string } | { type: "thinking"; thinking: string };

const text = (t: string): Block => ({ type: "text", text: t });
const thinking = (t: string): Block => ({ type: "thinking", thinking: t });

interface ApiCall {
  messageId: string;
  model: string;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** 0-based index of the record carrying the final usage. */
  record: number;
}

interface TranscriptOptions {
  key: string;
  sessionId: string;
  cwd: string;
  version: string;
  /** null for 1.0.x transcripts, which have no `gitBranch`. */
  gitBranch: string | null;
  slug: string | null;
  model: string;
  style: Style;
  clock: Clock;
  rng: Rng;
  ttl: "5m" | "1h";
  systemTokens: number;
  /** Set for a sub-agent's own records. */
  sidechain?: { agentId: string | null; sink: Json[]; mirror: ((record: Json) => void) | null };
}

class Transcript {
  readonly records: Json[];
  readonly calls: ApiCall[] = [];
  readonly subCalls: ApiCall[] = [];
  readonly subModels: string[] = [];
  readonly subagents: { agentId: string; records: Json[] }[] = [];
  readonly models: string[] = [];
  model: string;
  private last: string | null = null;
  private seq = 0;
  private msgSeq = 0;
  private context: number;
  private cached = 0;
  private named = false;
  private promptAt = 0;
  private trackedFiles: Record<string, Json> = {};

  constructor(readonly o: TranscriptOptions) {
    this.records = o.sidechain ? o.sidechain.sink : [];
    this.model = o.model;
    this.context = o.systemTokens;
  }

  get clock(): Clock {
    return this.o.clock;
  }

  get length(): number {
    return this.records.length;
  }

  /** uuid of the last record that has one, before index `end`. */
  uuidBefore(end: number): string | null {
    for (let i = end - 1; i >= 0; i--) {
      const uuid = this.records[i].uuid;
      if (typeof uuid === "string") return uuid;
    }
    return null;
  }

  private uuid(): string {
    return uuidFor(`${this.o.key}:${this.seq++}`);
  }

  private envelope(parentUuid: string | null = this.last): Json {
    const e: Json = { parentUuid, isSidechain: this.o.sidechain !== undefined, userType: "external", cwd: this.o.cwd, sessionId: this.o.sessionId, version: this.o.version };
    if (this.o.gitBranch !== null) e.gitBranch = this.o.gitBranch;
    if (this.o.sidechain?.agentId) e.agentId = this.o.sidechain.agentId;
    if (this.o.slug !== null && this.named) e.slug = this.o.slug;
    return e;
  }

  private push(record: Json, mirror = false): void {
    this.records.push(record);
    if (mirror && this.o.sidechain?.mirror) this.o.sidechain.mirror(record);
  }

  private hook(event: string, name: string, command: string, toolUseId: string, parentUuid: string | null): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    const uuid = this.uuid();
    this.push({ ...this.envelope(parentUuid), type: "progress", data: { type: "hook_progress", hookEvent: event, hookName: name, command }, parentToolUseID: toolUseId, toolUseID: toolUseId, timestamp: this.clock.iso(), uuid });
  }

  sessionStart(): void {
    if (this.o.style !== "2.x") return;
    const id = uuidFor(`${this.o.key}:session-start`);
    this.hook("SessionStart", "SessionStart:startup", "entire hooks claude-code session-start", id, null);
    this.last = this.records[this.records.length - 1].uuid as string;
  }

  private snapshot(messageId: string, update: boolean): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    this.push({ type: "file-history-snapshot", messageId, snapshot: { messageId, trackedFileBackups: { ...this.trackedFiles }, timestamp: this.clock.iso() }, isSnapshotUpdate: update });
  }

  /** Claude Code keeps a backup of every file the agent touches. */
  private track(path: string, messageId: string): void {
    const rel = path.startsWith(`${this.o.cwd}/`) ? path.slice(this.o.cwd.length + 1) : path;
    const previous = this.trackedFiles[rel] as { version: number } | undefined;
    const version = previous ? previous.version + 1 : 1;
    this.trackedFiles[rel] = { backupFileName: `${sha256(`${this.o.sessionId}:${rel}`).slice(0, 16)}@v${version}`, version, backupTime: this.clock.iso() };
    this.snapshot(messageId, true);
  }

  wait(seconds: number): void {
    this.clock.wait(seconds);
  }

  prompt(content: string, opts: { permissionMode?: string } = {}): string {
    this.clock.tick(2, 9);
    const uuid = this.uuid();
    this.snapshot(uuid, false);
    const record: Json = { ...this.envelope(), type: "user", message: { role: "user", content }, uuid, timestamp: this.clock.iso() };
    if (this.o.style === "2.x") {
      record.thinkingMetadata = { maxThinkingTokens: 31999 };
      record.todos = [];
      record.permissionMode = opts.permissionMode ?? "default";
    }
    this.push(record);
    this.last = uuid;
    this.promptAt = this.clock.ms;
    this.context += tokensOf(content);
    return uuid;
  }

  /** A sub-agent's task prompt: the first record of its thread. */
  taskPrompt(content: string): void {
    this.clock.tick(0.02, 0.08);
    const uuid = this.uuid();
    this.push({ ...this.envelope(null), type: "user", message: { role: "user", content }, uuid, timestamp: this.clock.iso() }, true);
    this.last = uuid;
    this.context += tokensOf(content);
  }

  private usage(u: { input: number; cacheCreation: number; cacheRead: number; output: number }): Json {
    if (this.o.style === "1.0") {
      return { input_tokens: u.input, cache_creation_input_tokens: u.cacheCreation, cache_read_input_tokens: u.cacheRead, output_tokens: u.output, service_tier: "standard" };
    }
    const split = this.o.ttl === "1h" ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: u.cacheCreation } : { ephemeral_5m_input_tokens: u.cacheCreation, ephemeral_1h_input_tokens: 0 };
    return {
      input_tokens: u.input,
      cache_creation_input_tokens: u.cacheCreation,
      cache_read_input_tokens: u.cacheRead,
      cache_creation: split,
      output_tokens: u.output,
      service_tier: "standard",
      inference_geo: "not_available",
    };
  }

  /**
   * One API response. Claude Code 2.x writes one record per content block,
   * all with the same `message.id` and `requestId`, the usage a snapshot
   * taken while streaming (only the last record has the final output
   * count); 1.0.x writes one record with every block and a real
   * `stop_reason`. The tools then run, in order, each result a `user`
   * record with `toolUseResult`.
   */
  assistant(blocks: Block[], tools: ToolRun[] = []): void {
    this.clock.tick(1.5, 7);
    const n = this.msgSeq++;
    const messageId = `msg_01${base58For(`${this.o.key}:msg:${n}`, 22)}`;
    const requestId = `req_011C${base58For(`${this.o.key}:req:${n}`, 20)}`;
    const content: Json[] = blocks.map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "thinking", thinking: b.thinking, signature: signatureFor(`${this.o.key}:${n}`) }));
    const toolIds = tools.map((_, i) => `toolu_01${base58For(`${this.o.key}:tool:${n}:${i}`, 22)}`);
    tools.forEach((tool, i) => content.push({ type: "tool_use", id: toolIds[i], name: tool.name, input: tool.input }));
    if (content.length === 0) throw new Error("sample: empty assistant message");

    const output = 14 + content.reduce((sum, c) => sum + tokensOf(JSON.stringify(c)), 0);
    const first = this.calls.length === 0;
    const input = first ? this.o.rng.int(3, 12) : this.o.rng.int(1, 6);
    const cacheRead = this.cached;
    const cacheCreation = Math.max(0, this.context - this.cached);
    const streamed = Math.min(output, this.o.rng.int(1, 12));
    if (!this.models.includes(this.model)) this.models.push(this.model);

    const recordUuids: string[] = [];
    const stop = tools.length > 0 ? "tool_use" : "end_turn";
    const parts = this.o.style === "2.x" ? content.map((c) => [c]) : [content];
    parts.forEach((part, i) => {
      if (i > 0) this.clock.tick(0.2, 2.2);
      const final = i === parts.length - 1;
      const uuid = this.uuid();
      const message: Json = {
        model: this.model,
        id: messageId,
        type: "message",
        role: "assistant",
        content: part,
        stop_reason: this.o.style === "1.0" ? stop : null,
        stop_sequence: null,
        usage: this.usage({ input, cacheCreation, cacheRead, output: final ? output : streamed }),
      };
      if (this.o.style === "1.0") {
        // 1.0.x put `model` after `role`.
        delete message.model;
        const ordered: Json = { id: messageId, type: "message", role: "assistant", model: this.model };
        Object.assign(ordered, message);
        this.push({ ...this.envelope(), message: ordered, requestId, type: "assistant", uuid, timestamp: this.clock.iso() }, true);
      } else {
        this.push({ ...this.envelope(), message, requestId, type: "assistant", uuid, timestamp: this.clock.iso() }, true);
      }
      this.named = true;
      recordUuids.push(uuid);
      this.last = uuid;
    });
    this.calls.push({ messageId, model: this.model, input, output, cacheCreation, cacheRead, record: this.records.length - 1 });
    this.cached = this.context;
    this.context += output;

    // Which record carries each tool_use block.
    const blockRecord = (toolIndex: number): string => (this.o.style === "2.x" ? recordUuids[blocks.length + toolIndex] : recordUuids[0]);
    tools.forEach((tool, i) => {
      this.clock.tick(0.05, 2.5);
      const assistantUuid = blockRecord(i);
      const result = tool.run({ toolUseId: toolIds[i], messageId });
      const filePath = tool.input.file_path;
      if (typeof filePath === "string" && !result.isError && (tool.name === "Write" || tool.name === "Edit")) this.track(filePath, assistantUuid);
      this.hook("PostToolUse", `PostToolUse:${tool.name}`, "callback", toolIds[i], assistantUuid);
      const block: Json = { tool_use_id: toolIds[i], type: "tool_result", content: result.content };
      if (result.isError) block.is_error = true;
      else if (result.explicitOk) block.is_error = false;
      const uuid = this.uuid();
      const record: Json = { ...this.envelope(assistantUuid), type: "user", message: { role: "user", content: [block] }, uuid, timestamp: this.clock.iso(), toolUseResult: result.toolUseResult };
      if (this.o.style === "2.x") record.sourceToolAssistantUUID = assistantUuid;
      this.push(record, true);
      this.last = uuid;
      this.context += tokensOf(typeof result.content === "string" ? result.content : JSON.stringify(result.content));
    });
  }

  /** End of a turn: Entire's Stop hook, its summary, and the turn's duration. */
  stop(): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    this.clock.tick(0.1, 0.4);
    const id = uuidFor(`${this.o.key}:stop:${this.seq}`);
    this.hook("Stop", "Stop", "entire hooks claude-code stop", id, this.last);
    this.last = this.records[this.records.length - 1].uuid as string;
    this.clock.tick(0.1, 0.4);
    let uuid = this.uuid();
    this.push({ ...this.envelope(), type: "system", subtype: "stop_hook_summary", hookCount: 1, hookInfos: [{ command: "entire hooks claude-code stop" }], hookErrors: [], preventedContinuation: false, stopReason: "", hasOutput: true, level: "suggestion", timestamp: this.clock.iso(), uuid, toolUseID: id });
    this.last = uuid;
    uuid = this.uuid();
    this.push({ ...this.envelope(), type: "system", subtype: "turn_duration", durationMs: this.clock.ms - this.promptAt, timestamp: this.clock.iso(), uuid, isMeta: false });
    this.last = uuid;
  }

  /** A local slash command: the caveat (isMeta), the command record and its output. */
  command(name: string, args: string, stdout: string): void {
    this.clock.tick(5, 40);
    let uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: { role: "user", content: "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>" },
      isMeta: true,
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
    uuid = this.uuid();
    this.push({ ...this.envelope(), type: "user", message: { role: "user", content: `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>` }, uuid, timestamp: this.clock.iso() });
    this.last = uuid;
    if (stdout !== "") {
      uuid = this.uuid();
      this.push({ ...this.envelope(), type: "user", message: { role: "user", content: `<local-command-stdout>${stdout}</local-command-stdout>` }, uuid, timestamp: this.clock.iso() });
      this.last = uuid;
    }
  }

  /** The marker Claude Code writes when the person stops the agent. */
  interrupted(forToolUse: boolean): void {
    this.clock.tick(0.5, 2);
    const uuid = this.uuid();
    this.push({ ...this.envelope(), type: "user", message: { role: "user", content: [{ type: "text", text: forToolUse ? "[Request interrupted by user for tool use]" : "[Request interrupted by user]" }] }, uuid, timestamp: this.clock.iso() });
    this.last = uuid;
  }

  /** Retries of an overloaded API, then Claude Code's local `<synthetic>` error message (no API call). */
  apiFailure(status: number, errorType: string, message: string, retries: number): void {
    for (let attempt = 1; attempt <= retries; attempt++) {
      this.clock.tick(1, 4);
      const uuid = this.uuid();
      const retryInMs = Math.round(500 * 2 ** (attempt - 1) * 1.13);
      this.push({ ...this.envelope(), type: "system", subtype: "api_error", level: "error", error: { status, headers: {}, requestID: null, error: { type: "error", error: { type: errorType, message } } }, retryInMs, retryAttempt: attempt, maxRetries: 10, timestamp: this.clock.iso(), uuid });
      this.last = uuid;
      this.clock.wait(retryInMs / 1000);
    }
    this.clock.tick(0.5, 1.5);
    const uuid = this.uuid();
    this.push({
      ...this.envelope(),
      message: {
        id: uuidFor(`${this.o.key}:synthetic:${this.seq}`),
        container: null,
        model: "<synthetic>",
        role: "assistant",
        stop_reason: "stop_sequence",
        stop_sequence: "",
        type: "message",
        usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 }, service_tier: null, cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 } },
        content: [{ type: "text", text: `API Error: ${status} ${JSON.stringify({ type: "error", error: { type: errorType, message } })}` }],
      },
      type: "assistant",
      uuid,
      timestamp: this.clock.iso(),
      isApiErrorMessage: true,
    });
    this.last = uuid;
  }

  /** `/compact`: the boundary (a new root), then the model-written summary as a user record. */
  compact(summary: string): void {
    this.command("compact", "", "");
    this.clock.tick(25, 60);
    const preTokens = this.context;
    let uuid = this.uuid();
    this.push({ ...this.envelope(null), type: "system", subtype: "compact_boundary", content: "Conversation compacted", isMeta: false, timestamp: this.clock.iso(), uuid, level: "info", logicalParentUuid: this.last, compactMetadata: { trigger: "manual", preTokens } });
    this.last = uuid;
    uuid = this.uuid();
    this.push({ ...this.envelope(), type: "user", message: { role: "user", content: summary }, isVisibleInTranscriptOnly: true, isCompactSummary: true, uuid, timestamp: this.clock.iso() });
    this.last = uuid;
    this.context = this.o.systemTokens + tokensOf(summary);
    this.cached = 0;
    this.clock.tick(0.1, 0.5);
    uuid = this.uuid();
    this.push({ ...this.envelope(), type: "user", message: { role: "user", content: "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>" }, uuid, timestamp: this.clock.iso() });
    this.last = uuid;
  }

  /**
   * A sub-agent (`Task`). 2.x: its records go to
   * `<session>/subagents/agent-<id>.jsonl` and are mirrored into this
   * transcript as `progress` records with `data.type: "agent_progress"`.
   * 1.0.x: they are written inline with `isSidechain: true`.
   */
  task(spec: { description: string; prompt: string; model: string; modelAlias: string }, ws: Workspace, root: string, body: (sub: Transcript, tools: Tools) => string): ToolRun {
    return {
      name: "Task",
      input: this.o.style === "2.x" ? { description: spec.description, prompt: spec.prompt, subagent_type: "general-purpose", model: spec.modelAlias } : { description: spec.description, prompt: spec.prompt },
      run: (ctx) => {
        const started = this.clock.ms;
        const agentId = `a${sha256(`${this.o.key}:${ctx.toolUseId}`).slice(0, 6)}`;
        const sink: Json[] = this.o.style === "2.x" ? [] : this.records;
        let first = true;
        const mirror =
          this.o.style === "2.x"
            ? (record: Json): void => {
                const nested: Json = { type: record.type, message: record.message, uuid: record.uuid, timestamp: record.timestamp };
                const message = record.message as Json;
                if (first && typeof message.content === "string") nested.message = { role: "user", content: [{ type: "text", text: message.content }] };
                if (record.toolUseResult !== undefined) nested.toolUseResult = record.toolUseResult;
                if (record.requestId !== undefined) nested.requestId = record.requestId;
                const uuid = this.uuid();
                this.push({ ...this.envelope(), type: "progress", data: { message: nested, type: "agent_progress", prompt: first ? spec.prompt : "", agentId, normalizedMessages: [] }, toolUseID: `agent_${ctx.messageId}`, parentToolUseID: ctx.toolUseId, uuid, timestamp: this.clock.iso() });
                this.last = uuid;
                first = false;
              }
            : null;
        const sub = new Transcript({
          ...this.o,
          key: `${this.o.key}:${agentId}`,
          model: spec.model,
          systemTokens: 9400,
          sidechain: { agentId: this.o.style === "2.x" ? agentId : null, sink, mirror },
        });
        const before = this.last;
        sub.taskPrompt(spec.prompt);
        const final = body(sub, new Tools(ws, root, this.o.style));
        if (this.o.style === "1.0") this.last = before;
        else this.subagents.push({ agentId, records: sink });
        this.subCalls.push(...sub.calls);
        sub.models.forEach((m) => {
          if (!this.subModels.includes(m)) this.subModels.push(m);
        });
        const lastCall = sub.calls[sub.calls.length - 1];
        const usage = { input_tokens: lastCall.input, cache_creation_input_tokens: lastCall.cacheCreation, cache_read_input_tokens: lastCall.cacheRead, output_tokens: lastCall.output, service_tier: "standard" };
        const totalTokens = lastCall.input + lastCall.cacheCreation + lastCall.cacheRead + lastCall.output;
        const toolCount = sub.records.filter((r) => r.type === "user" && r.toolUseResult !== undefined && r.isSidechain === true).length;
        const contentBlocks = [{ type: "text", text: final }];
        const toolUseResult =
          this.o.style === "2.x"
            ? { status: "completed", prompt: spec.prompt, agentId, content: contentBlocks, totalDurationMs: this.clock.ms - started, totalTokens, totalToolUseCount: toolCount, usage }
            : { content: contentBlocks, totalDurationMs: this.clock.ms - started, totalTokens, totalToolUseCount: toolCount, usage, wasInterrupted: false };
        return { content: contentBlocks, toolUseResult };
      },
    };
  }

  /** Records per top-level type. */
  types(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const r of this.records) {
      const t = String(r.type);
      out[t] = (out[t] ?? 0) + 1;
    }
    return out;
  }

  jsonl(end = this.records.length): string {
    return this.records
      .slice(0, end)
      .map((r) => `${JSON.stringify(r)}\n`)
      .join("");
  }
}

function sumUsage(calls: ApiCall[]): SampleUsage {
  const u: SampleUsage = { api_calls: 0, input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0 };
  for (const c of calls) {
    u.api_calls += 1;
    u.input_tokens += c.input;
    u.output_tokens += c.output;
    u.cache_creation_tokens += c.cacheCreation;
    u.cache_read_tokens += c.cacheRead;
  }
  return u;
}

// ---------------------------------------------------------------------------
// git, through the CLI
// ---------------------------------------------------------------------------

interface Person {
  name: string;
  email: string;
  /** Numeric UTC offset for dates, e.g. `+0100`. */
  tz: string;
}

const ZERO_SHA = "0000000000000000000000000000000000000000";

class Git {
  constructor(readonly dir: string) {}

  run(args: string[], opts: { input?: string; env?: Record<string, string>; ident?: Person } = {}): string {
    // No reflogs: they would record the local user and the wall-clock time.
    const pre = ["-c", "core.autocrlf=false", "-c", "core.logAllRefUpdates=false", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"];
    if (opts.ident) pre.push("-c", `user.name=${opts.ident.name}`, "-c", `user.email=${opts.ident.email}`);
    return execFileSync("git", [...pre, ...args], {
      cwd: this.dir,
      env: {
        PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        HOME: this.dir,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: devNull,
        GIT_TERMINAL_PROMPT: "0",
        LC_ALL: "C",
        TZ: "UTC",
        ...(opts.env ?? {}),
      },
      input: opts.input ?? "",
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  blob(content: string): string {
    return this.run(["hash-object", "-w", "--stdin"], { input: content }).trim();
  }

  /** Apply file changes (null = delete) to an index file and write its tree. */
  tree(indexFile: string, changes: [string, string | null][]): string {
    if (changes.length > 0) {
      const lines = changes.map(([path, content]) => (content === null ? `0 ${ZERO_SHA}\t${path}` : `100644 ${this.blob(content)}\t${path}`));
      this.run(["update-index", "--add", "--index-info"], { input: `${lines.join("\n")}\n`, env: { GIT_INDEX_FILE: indexFile } });
    }
    return this.run(["write-tree"], { env: { GIT_INDEX_FILE: indexFile } }).trim();
  }

  commitTree(tree: string, parents: string[], message: string, author: Person, authorMs: number, committer: Person, committerMs: number): string {
    const date = (ms: number, p: Person): string => `${Math.floor(ms / 1000)} ${p.tz}`;
    const args = ["commit-tree", tree];
    for (const p of parents) args.push("-p", p);
    args.push("-F", "-");
    return this.run(args, {
      input: message,
      ident: committer,
      env: { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_AUTHOR_DATE: date(authorMs, author), GIT_COMMITTER_DATE: date(committerMs, committer) },
    }).trim();
  }
}

// ---------------------------------------------------------------------------
// The sample project
// ---------------------------------------------------------------------------

const HOME = "/home/dev";
const ROOT = `${HOME}/sample-app`;
const WORKTREE = `${ROOT}/.worktrees/2`;
const CHECKPOINTS_BRANCH = "entire/checkpoints/v1";

const MAYA: Person = { name: "Maya Chen", email: "maya.chen@example.com", tz: "+0100" };
const TOM: Person = { name: "Tom Reyes", email: "tom.reyes@example.org", tz: "+0000" };

const SONNET = "claude-sonnet-4-5-20250929";
const OPUS = "claude-opus-4-6";
const HAIKU = "claude-haiku-4-5-20251001";
const SONNET_4 = "claude-sonnet-4-20250514";

const PACKAGE_JSON = L(
  "{",
  '  "name": "sample-app",',
  '  "version": "0.1.0",',
  '  "description": "Small formatting helpers for command-line tools",',
  '  "type": "module",',
  '  "main": "dist/index.js",',
  '  "scripts": {',
  '    "build": "tsc -p .",',
  '    "test": "node --test"',
  "  },",
  '  "devDependencies": {',
  '    "typescript": "^5.7.2"',
  "  }",
  "}",
);

const TSCONFIG = L("{", '  "compilerOptions": {', '    "target": "ES2022",', '    "module": "NodeNext",', '    "outDir": "dist",', '    "strict": true', "  },", '  "include": ["src"]', "}");

const GITIGNORE = L("node_modules/", "dist/");

const README = L("# sample-app", "", "Small formatting helpers for command-line tools.", "", "## Install", "", "    npm install sample-app");

const INDEX_TS = L('export { formatBytes } from "./bytes";', 'export { parseDuration } from "./duration";');

const BYTES_TS = L(
  'const UNITS = ["B", "KB", "MB", "GB", "TB"];',
  "",
  "export function formatBytes(n: number): string {",
  "  let value = n;",
  "  let unit = 0;",
  "  while (value >= 1024 && unit < UNITS.length - 1) {",
  "    value /= 1024;",
  "    unit += 1;",
  "  }",
  "  return `${value.toFixed(1)} ${UNITS[unit]}`;",
  "}",
);

// Line 9 ends with a space and line 10 uses single quotes: the formatter of
// scenario 3 fixes both.
const DURATION_TS = L(
  "const FACTORS: Record<string, number> = {",
  "  ms: 1,",
  "  s: 1000,",
  "  m: 60_000,",
  "  h: 3_600_000,",
  "};",
  "",
  "export function parseDuration(text: string): number {",
  "  const match = /^(\\d+)(ms|s|m|h)$/.exec(text.trim()); ",
  "  if (!match) throw new Error('bad duration: ' + text);",
  "  return Number(match[1]) * FACTORS[match[2]];",
  "}",
);

const SLUGIFY_TS = L(
  "const COMBINING_MARKS = /[\\u0300-\\u036f]/g;",
  "",
  '/** Lowercase ASCII slug: "H\u00e9llo, World!" \u2192 "hello-world". */',
  "export function slugify(text: string, maxLength = 80): string {",
  "  const slug = text",
  '    .normalize("NFKD")',
  '    .replace(COMBINING_MARKS, "")',
  "    .toLowerCase()",
  '    .replace(/[^a-z0-9]+/g, "-")',
  '    .replace(/^-+|-+$/g, "");',
  '  return slug.slice(0, maxLength).replace(/-+$/, "");',
  "}",
);

const TABLE_TS = L(
  "export type Row = readonly string[];",
  "",
  "function columnWidths(rows: Row[]): number[] {",
  "  const widths: number[] = [];",
  "  for (const row of rows) {",
  "    row.forEach((cell, i) => {",
  "      widths[i] = Math.max(widths[i] ?? 0, cell.length);",
  "    });",
  "  }",
  "  return widths;",
  "}",
  "",
  "export function formatTable(rows: Row[]): string {",
  '  if (rows.length === 0) return "";',
  "  const widths = columnWidths(rows);",
  '  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  "));',
  '  const rule = widths.map((w) => "-".repeat(w)).join("  ");',
  "  lines.splice(1, 0, rule);",
  '  return lines.join("\\n");',
  "}",
);

const SLUGIFY_TEST_TS = L(
  'import { test } from "node:test";',
  'import assert from "node:assert/strict";',
  'import { slugify } from "../src/slugify";',
  "",
  'test("lowercases and joins words with dashes", () => {',
  '  assert.equal(slugify("Hello World"), "hello-world");',
  "});",
  "",
  'test("strips accents and punctuation", () => {',
  '  assert.equal(slugify("Cr\u00e8me Br\u00fbl\u00e9e!"), "creme-brulee");',
  "});",
  "",
  'test("trims dashes at both ends", () => {',
  '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");',
  "});",
);

const BENCH_TS = L(
  'import { formatTable } from "../src/table";',
  "",
  'const rows = [["name", "size"]];',
  "for (let i = 0; i < 10_000; i++) rows.push([`file-${i}.txt`, String(i * 37)]);",
  "",
  "const started = performance.now();",
  "for (let run = 0; run < 20; run++) formatTable(rows);",
  "const elapsed = (performance.now() - started) / 20;",
  "console.log(`formatTable: ${elapsed.toFixed(2)} ms per 10k rows`);",
);

const TRUNCATE_TS = L(
  "/** Shortens text to at most `max` characters, ending with an ellipsis. */",
  "export function truncate(text: string, max: number): string {",
  "  if (text.length <= max) return text;",
  '  if (max <= 1) return "\u2026".slice(0, max);',
  '  return text.slice(0, max - 1).trimEnd() + "\u2026";',
  "}",
);

const CSV_TS = L(
  "const NEEDS_QUOTES = /[\",\\n\\r]/;",
  "",
  "function quote(field: string): string {",
  "  return NEEDS_QUOTES.test(field) ? `\"${field.replace(/\"/g, '\"\"')}\"` : field;",
  "}",
  "",
  "export function toCsv(rows: readonly (readonly string[])[]): string {",
  '  return rows.map((row) => row.map(quote).join(",")).join("\\r\\n");',
  "}",
);

// ---------------------------------------------------------------------------
// The builder: worktree + git + Entire + transcripts
// ---------------------------------------------------------------------------

interface SessionHandle {
  key: string;
  scenarios: number[];
  t: Transcript;
  tools: Tools;
  sessionId: string;
  entireSessionId: string;
  agentLabel: string | null;
  cwd: string;
  branch: string;
  /** Worktree id for Entire's shadow branch name ("" for the main worktree). */
  worktree: string;
  prompts: number;
  lost: boolean;
  checkpoints: string[];
  startedAt: string;
}

interface EntireAttribution {
  agent_lines: number;
  human_added: number;
  human_modified: number;
  human_removed: number;
  total_committed: number;
}

interface EntireEntry {
  session: SessionHandle;
  /** Record range [start, end) of this checkpoint's part; full.jsonl holds [0, end). */
  start: number;
  end: number;
  filesTouched: string[];
  attribution: EntireAttribution;
  /** Prompts of this part, as Entire lists them in prompt.txt. */
  promptTexts: string[];
  turns: number;
  cliVersion: string | null;
  legacy?: boolean;
  withModel?: boolean;
}

class SampleBuilder {
  readonly ws = new Workspace();
  readonly git: Git;
  readonly commits: SampleCommit[] = [];
  readonly checkpoints: SampleCheckpoint[] = [];
  readonly expected: ExpectedUnit[] = [];
  readonly handles: SessionHandle[] = [];
  private readonly heads = new Map<string, string>();
  private readonly indexes = new Map<string, string>();
  private readonly committed = new Map<string, Map<string, string>>();
  private checkpointsHead: string | null = null;
  private readonly rng = new Rng("entire");

  constructor(
    readonly repoDir: string,
    readonly projectsDir: string,
  ) {
    this.git = new Git(repoDir);
  }

  private indexFor(branch: string): string {
    let file = this.indexes.get(branch);
    if (!file) {
      file = join(this.repoDir, ".git", `sample-${branch.replace(/[^A-Za-z0-9]+/g, "-")}.index`);
      this.indexes.set(branch, file);
    }
    return file;
  }

  commitByName(name: string): SampleCommit {
    const c = this.commits.find((x) => x.name === name);
    if (!c) throw new Error(`sample: no commit ${name}`);
    return c;
  }

  session(o: { key: string; scenarios: number[]; cwd: string; root: string; version: string; branch: string; slug: string | null; model: string; start: string; style?: Style; ttl?: "5m" | "1h"; agentLabel?: string | null; worktree?: string; entireDatePrefix?: string; lost?: boolean }): SessionHandle {
    const style = o.style ?? "2.x";
    const rng = new Rng(o.key);
    const clock = new Clock(at(o.start), rng);
    const sessionId = uuidFor(`session:${o.key}`);
    const t = new Transcript({ key: o.key, sessionId, cwd: o.cwd, version: o.version, gitBranch: style === "1.0" ? null : o.branch, slug: o.slug, model: o.model, style, clock, rng, ttl: o.ttl ?? "1h", systemTokens: 17000 + rng.int(0, 6000) });
    const handle: SessionHandle = {
      key: o.key,
      scenarios: o.scenarios,
      t,
      tools: new Tools(this.ws, o.root, style),
      sessionId,
      entireSessionId: o.entireDatePrefix ? `${o.entireDatePrefix}-${sessionId}` : sessionId,
      agentLabel: o.agentLabel === undefined ? "Claude Code" : o.agentLabel,
      cwd: o.cwd,
      branch: o.branch,
      worktree: o.worktree ?? "",
      prompts: 0,
      lost: o.lost ?? false,
      checkpoints: [],
      startedAt: clock.iso(),
    };
    this.handles.push(handle);
    return handle;
  }

  /** Commit the worktree's versions of `paths` (absent = deleted) onto `branch`. */
  commit(o: { name: string; branch?: string; subject: string; body?: string; checkpoint?: string; author: Person; committer?: Person; atMs: number; authorMs?: number; paths: string[]; scenarios: number[]; note: string; contents?: Map<string, string | null> }): SampleCommit {
    const branch = o.branch ?? "main";
    const parent = this.heads.get(branch) ?? null;
    const files = this.committed.get(branch) ?? new Map<string, string>();
    const changes: [string, string | null][] = o.paths.map((p) => {
      const content = o.contents ? (o.contents.get(p) ?? null) : (this.ws.files.get(p) ?? null);
      return [p, content];
    });
    for (const [p, content] of changes) {
      if (content === null) files.delete(p);
      else files.set(p, content);
    }
    this.committed.set(branch, files);
    const tree = this.git.tree(this.indexFor(branch), changes);
    let message = o.subject;
    if (o.body) message += `\n\n${o.body}`;
    if (o.checkpoint) message += `\n\nEntire-Checkpoint: ${o.checkpoint}`;
    message += "\n";
    const committer = o.committer ?? o.author;
    const authorMs = o.authorMs ?? o.atMs;
    const sha = this.git.commitTree(tree, parent ? [parent] : [], message, o.author, authorMs, committer, o.atMs);
    this.git.run(["update-ref", `refs/heads/${branch}`, sha]);
    this.heads.set(branch, sha);
    const c: SampleCommit = {
      name: o.name,
      sha,
      branch,
      subject: o.subject,
      author: `${o.author.name} <${o.author.email}>`,
      committer: `${committer.name} <${committer.email}>`,
      author_time: Math.floor(authorMs / 1000),
      committer_time: Math.floor(o.atMs / 1000),
      parents: parent ? [parent] : [],
      checkpoint_id: o.checkpoint ?? null,
      copy_of: null,
      scenarios: o.scenarios,
      note: o.note,
    };
    this.commits.push(c);
    return c;
  }

  /** A new branch starting at another branch's head (its files included). */
  branchFrom(branch: string, from: string): void {
    const head = this.heads.get(from);
    if (!head) throw new Error(`sample: no branch ${from}`);
    this.heads.set(branch, head);
    this.committed.set(branch, new Map(this.committed.get(from)));
    this.git.run(["read-tree", head], { env: { GIT_INDEX_FILE: this.indexFor(branch) } });
    this.git.run(["update-ref", `refs/heads/${branch}`, head]);
  }

  committedFile(branch: string, path: string): string | undefined {
    return this.committed.get(branch)?.get(path);
  }

  /**
   * Entire's condensation after a code commit: one commit per session on
   * the checkpoints branch, each adding `<id[:2]>/<id[2:]>/<n>/` and
   * rewriting the checkpoint's root `metadata.json`.
   */
  checkpoint(id: string, commit: SampleCommit, entries: EntireEntry[]): void {
    if (this.checkpointsHead === null) {
      const empty = this.git.tree(this.indexFor(CHECKPOINTS_BRANCH), []);
      const firstAt = commit.committer_time * 1000 - 60_000;
      this.checkpointsHead = this.git.commitTree(empty, [], "Initialize metadata branch\n\nThis branch stores session metadata.\n", MAYA, firstAt, MAYA, firstAt);
    }
    const dir = `${id.slice(0, 2)}/${id.slice(2)}`;
    const summaries: Json[] = [];
    const cp: SampleCheckpoint = { checkpoint_id: id, commit: commit.name, sessions: [] };
    const totals = { input_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, output_tokens: 0, api_call_count: 0 };
    const touched: string[] = [];
    let when = commit.committer_time * 1000 + 350;
    entries.forEach((e, index) => {
      const s = e.session;
      const t = s.t;
      const full = t.jsonl(e.end);
      const calls = t.calls.filter((c) => c.record >= e.start && c.record < e.end);
      const usage = sumUsage(calls);
      const tokenUsage = { input_tokens: usage.input_tokens, cache_creation_tokens: usage.cache_creation_tokens, cache_read_tokens: usage.cache_read_tokens, output_tokens: usage.output_tokens, api_call_count: usage.api_calls };
      totals.input_tokens += usage.input_tokens;
      totals.cache_creation_tokens += usage.cache_creation_tokens;
      totals.cache_read_tokens += usage.cache_read_tokens;
      totals.output_tokens += usage.output_tokens;
      totals.api_call_count += usage.api_calls;
      for (const f of e.filesTouched) if (!touched.includes(f)) touched.push(f);
      when += this.rng.int(150, 400);
      const createdAt = microIso(when, this.rng);
      const calculatedAt = microIso(when - this.rng.int(20, 240), this.rng);
      const a = e.attribution;
      const attribution = {
        calculated_at: calculatedAt,
        agent_lines: a.agent_lines,
        human_added: a.human_added,
        human_modified: a.human_modified,
        human_removed: a.human_removed,
        total_committed: a.total_committed,
        agent_percentage: a.total_committed > 0 ? (a.agent_lines / a.total_committed) * 100 : 0,
      };
      const meta: Json = {};
      if (e.cliVersion) meta.cli_version = e.cliVersion;
      Object.assign(meta, { checkpoint_id: id, session_id: s.entireSessionId, strategy: "manual-commit", created_at: createdAt, branch: s.branch, checkpoints_count: e.turns, files_touched: e.filesTouched });
      if (s.agentLabel !== null) meta.agent = s.agentLabel;
      if (e.withModel) meta.model = t.models[t.models.length - 1];
      if (e.legacy) {
        meta.transcript_lines_at_start = e.start;
      } else {
        meta.transcript_identifier_at_start = e.start > 0 ? t.uuidBefore(e.start) : t.uuidBefore(1);
        if (e.start > 0) {
          meta.checkpoint_transcript_start = e.start;
          meta.transcript_lines_at_start = e.start;
        }
      }
      meta.token_usage = tokenUsage;
      if (!e.legacy) meta.session_metrics = { turn_count: e.promptTexts.filter((x) => !x.startsWith("This session is being continued")).length };
      meta.initial_attribution = attribution;
      if (!e.legacy) meta.transcript_path = `.claude/projects/${projectDirName(s.cwd)}/${s.sessionId}.jsonl`;

      const base = `${dir}/${index}`;
      const summary: Json = { metadata: `/${base}/metadata.json`, transcript: `/${base}/full.jsonl`, content_hash: `/${base}/content_hash.txt`, prompt: `/${base}/prompt.txt` };
      summaries.push(summary);
      const root: Json = {};
      if (e.cliVersion) root.cli_version = e.cliVersion;
      Object.assign(root, { checkpoint_id: id, strategy: "manual-commit", branch: s.branch, checkpoints_count: entries.slice(0, index + 1).reduce((n, x) => n + x.turns, 0), files_touched: touched.slice(), sessions: summaries.slice(), token_usage: { ...totals } });

      const changes: [string, string | null][] = [
        [`${base}/metadata.json`, `${JSON.stringify(meta, null, 2)}\n`],
        [`${base}/prompt.txt`, e.promptTexts.join("\n\n---\n\n")],
        [`${base}/content_hash.txt`, `sha256:${sha256(full)}`],
        [`${dir}/metadata.json`, `${JSON.stringify(root, null, 2)}\n`],
      ];
      // A lost transcript: the folder keeps its metadata, hash and prompts, the file is gone.
      if (!s.lost) changes.splice(1, 0, [`${base}/full.jsonl`, full]);
      const tree = this.git.tree(this.indexFor(CHECKPOINTS_BRANCH), changes);
      const parentOfCode = commit.parents[0] ?? ZERO_SHA;
      const shadow = `entire/${parentOfCode.slice(0, 7)}-${sha256(s.worktree).slice(0, 6)}`;
      let message = `Checkpoint: ${id}\n\nEntire-Session: ${s.entireSessionId}\nEntire-Strategy: manual-commit\n`;
      if (s.agentLabel !== null) message += `Entire-Agent: ${s.agentLabel}\n`;
      message += `Ephemeral-branch: ${shadow}\n`;
      const committer = MAYA;
      this.checkpointsHead = this.git.commitTree(tree, this.checkpointsHead ? [this.checkpointsHead] : [], message, committer, when, committer, when);
      if (!s.checkpoints.includes(id)) s.checkpoints.push(id);
      cp.sessions.push({ index, session_key: s.key, entire_session_id: s.entireSessionId, transcript_present: !s.lost, transcript_start: e.start, transcript_records: e.end });
    });
    this.git.run(["update-ref", `refs/heads/${CHECKPOINTS_BRANCH}`, this.checkpointsHead as string]);
    this.checkpoints.push(cp);
  }

  unit(o: Omit<ExpectedUnit, "session_id" | "commit_sha" | "checkpoint_id" | "entire_agent_lines" | "entire_total_committed" | "ambiguity_reasons" | "session_key"> & { session: SessionHandle; entire: EntireAttribution }): void {
    const commit = this.commitByName(o.commit);
    const { session, entire, ...rest } = o;
    this.expected.push({
      ...rest,
      session_key: session.key,
      session_id: session.sessionId,
      commit_sha: commit.sha,
      checkpoint_id: commit.checkpoint_id as string,
      ambiguity_reasons: o.ambiguity ? [o.ambiguity] : [],
      entire_agent_lines: entire.agent_lines,
      entire_total_committed: entire.total_committed,
    });
  }

  /** Write the transcripts into the Claude Code projects folder. */
  writeProjects(): SampleSession[] {
    return this.handles.map((h) => {
      const t = h.t;
      const projectDir = projectDirName(h.cwd);
      let transcript: string | null = null;
      const subPaths: string[] = [];
      if (!h.lost) {
        transcript = join(this.projectsDir, projectDir, `${h.sessionId}.jsonl`);
        mkdirSync(dirname(transcript), { recursive: true });
        writeFileSync(transcript, t.jsonl());
        for (const sub of t.subagents) {
          const p = join(this.projectsDir, projectDir, h.sessionId, "subagents", `agent-${sub.agentId}.jsonl`);
          mkdirSync(dirname(p), { recursive: true });
          writeFileSync(p, sub.records.map((r) => `${JSON.stringify(r)}\n`).join(""));
          subPaths.push(p);
        }
      }
      const timed = t.records.filter((r) => typeof r.timestamp === "string").map((r) => r.timestamp as string);
      return {
        key: h.key,
        scenarios: h.scenarios,
        session_id: h.sessionId,
        entire_session_id: h.entireSessionId,
        agent_label: h.agentLabel,
        format: "claude-code",
        claude_code_version: t.o.version,
        models: t.models.slice(),
        subagent_models: t.subModels.slice(),
        cwd: h.cwd,
        project_dir: projectDir,
        branch: h.branch,
        transcript,
        subagent_transcripts: subPaths,
        record_count: t.records.length,
        record_types: t.types(),
        subagent_record_counts: t.subagents.map((s) => s.records.length),
        prompts: h.prompts,
        checkpoints: h.checkpoints.slice(),
        usage: sumUsage(t.calls),
        subagent_usage: t.subCalls.length > 0 ? sumUsage(t.subCalls) : null,
        started_at: h.startedAt,
        ended_at: timed.length > 0 ? timed[timed.length - 1] : h.startedAt,
      };
    });
  }

  finish(): Record<string, string> {
    this.git.run(["symbolic-ref", "HEAD", "refs/heads/main"]);
    this.git.run(["reset", "-q", "--hard", "main"]);
    this.indexes.forEach((file) => rmSync(file, { force: true }));
    const branches: Record<string, string> = {};
    this.heads.forEach((sha, branch) => {
      branches[branch] = sha;
    });
    branches[CHECKPOINTS_BRANCH] = this.checkpointsHead as string;
    return branches;
  }
}

function checkpointId(name: string): string {
  return sha256(`checkpoint:${name}`).slice(0, 12);
}

/** Commit time: a few minutes after the session's last record. */
function after(h: SessionHandle, seconds: number): number {
  return h.t.clock.ms + seconds * 1000;
}

// ---------------------------------------------------------------------------
// The scenarios, in the order the project's history happened
// ---------------------------------------------------------------------------

function buildHistory(b: SampleBuilder): void {
  const ws = b.ws;
  const put = (rel: string, content: string): void => {
    ws.files.set(rel, content);
  };

  // C0: the project before anyone used an agent on it. No trailer, no unit.
  put("package.json", PACKAGE_JSON);
  put("tsconfig.json", TSCONFIG);
  put(".gitignore", GITIGNORE);
  put("README.md", README);
  put("src/index.ts", INDEX_TS);
  put("src/bytes.ts", BYTES_TS);
  put("src/duration.ts", DURATION_TS);
  b.commit({ name: "C0", subject: "Initial commit: bytes and duration helpers", author: MAYA, atMs: at("2026-01-05T08:12:40Z"), paths: [".gitignore", "README.md", "package.json", "src/bytes.ts", "src/duration.ts", "src/index.ts", "tsconfig.json"], scenarios: [], note: "base of the history; human only, no checkpoint" });

  // -------------------------------------------------------------------------
  // Scenario 13 (legacy): Claude Code 1.0.x transcript, early Entire metadata
  // (date-prefixed session id, no agent label, `transcript_lines_at_start`),
  // a MultiEdit with `originalFileContents`, an inline sidechain (Task).
  //
  // By hand: MultiEdit on bytes.ts changes the UNITS line (+1) and appends
  // parseBytes after formatBytes (+7: blank, signature, 4 body lines, "}"),
  // so +8; the Edit on index.ts changes line 1 (+1). Produced 9, all of it
  // committed unchanged: final 9, survived 9, total 9, human 0, outside 0.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s13-legacy", scenarios: [13], cwd: ROOT, root: ROOT, version: "1.0.128", branch: "main", slug: null, model: SONNET_4, start: "2026-01-06T13:02:11Z", style: "1.0", ttl: "5m", agentLabel: null, entireDatePrefix: "2026-01-06" });
    const { t, tools } = s;
    const p1 = 'add a parseBytes function next to formatBytes that accepts strings like "1.5 MB" and export it from the index';
    t.prompt(p1);
    s.prompts = 1;
    t.assistant([text("I'll start by reading the current bytes helper.")], [tools.read("src/bytes.ts")]);
    t.assistant([text("Before changing the units list, let me check who else relies on it.")], [
      t.task({ description: "Find formatBytes callers", prompt: "List every file in this repository that imports or calls formatBytes or uses the UNITS constant from src/bytes.ts. Report paths only.", model: SONNET_4, modelAlias: "sonnet" }, ws, ROOT, (sub, st) => {
        sub.assistant([text("Searching for formatBytes and UNITS.")], [st.grep("formatBytes|UNITS", ["src/bytes.ts", "src/index.ts"])]);
        const answer = "formatBytes is defined in src/bytes.ts and re-exported from src/index.ts. UNITS is only used inside src/bytes.ts.";
        sub.assistant([text(answer)]);
        return answer;
      }),
    ]);
    t.assistant([text("Only bytes.ts uses UNITS, so I can extend it safely. I'll add PB and the parser in one go.")], [
      tools.multiEdit("src/bytes.ts", [
        { old_string: 'const UNITS = ["B", "KB", "MB", "GB", "TB"];', new_string: 'const UNITS = ["B", "KB", "MB", "GB", "TB", "PB"];' },
        {
          old_string: "  return `${value.toFixed(1)} ${UNITS[unit]}`;\n}",
          new_string:
            "  return `${value.toFixed(1)} ${UNITS[unit]}`;\n}\n\nexport function parseBytes(text: string): number {\n  const match = /^(\\d+(?:\\.\\d+)?)\\s*([KMGTP]?B)$/i.exec(text.trim());\n  if (!match) throw new Error(`bad size: ${text}`);\n  const unit = UNITS.indexOf(match[2].toUpperCase());\n  return Math.round(Number(match[1]) * 1024 ** unit);\n}",
        },
      ]),
    ]);
    t.assistant([], [tools.edit("src/index.ts", 'export { formatBytes } from "./bytes";', 'export { formatBytes, parseBytes } from "./bytes";')]);
    t.assistant([text('Added `parseBytes` to src/bytes.ts (case-insensitive units, decimals allowed, so "1.5 MB" gives 1572864) and exported it from src/index.ts. I also added PB to the units so both functions cover the same range.')]);
    const c1 = b.commit({ name: "C1", subject: "Add parseBytes", checkpoint: checkpointId("s13"), author: MAYA, atMs: after(s, 240), paths: ["src/bytes.ts", "src/index.ts"], scenarios: [13], note: "legacy 1.0.x session; Entire metadata of the early format" });
    const entire = { agent_lines: 9, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 9 };
    b.checkpoint(c1.checkpoint_id as string, c1, [{ session: s, start: 0, end: t.length, filesTouched: ["src/bytes.ts", "src/index.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: null, legacy: true }]);
    b.unit({ scenario: 13, session: s, commit: "C1", ambiguity: null, agent_lines_produced: 9, agent_lines_final: 9, agent_lines_survived: 9, human_lines: 0, outside_lines: 0, total_committed_lines: 9, outside_changes: 0, unreplayable_calls: 0, entire, why: "1.0.x MultiEdit (+8) and Edit (+1), committed unchanged; date-prefixed Entire session id is the same session" });
  }

  // Tom cuts the 0.1 release branch right after parseBytes landed.
  b.branchFrom("release/0.1", "main");

  // -------------------------------------------------------------------------
  // Scenario 1: the agent Writes a new file; the human commits it unchanged.
  // Also: streamed records, a Glob/Read/Bash, the /exit command with its
  // isMeta caveat.
  //
  // By hand: Write create of src/slugify.ts, 12 lines, all agent. The commit
  // adds exactly that file: produced 12, final 12, survived 12, total 12.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s01-slugify", scenarios: [1], cwd: ROOT, root: ROOT, version: "2.1.1", branch: "main", slug: "tidy-humming-lantern", model: SONNET, start: "2026-01-08T09:41:07Z", ttl: "5m" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "Add a slugify(text) helper in src/slugify.ts: lowercase, strip accents, collapse everything that isn't a-z or 0-9 into single dashes and trim dashes at both ends. Keep an optional max length. Don't wire it into the index yet.";
    t.prompt(p1);
    s.prompts = 1;
    t.assistant([thinking("Small single-purpose modules under src/. Check one for conventions (named exports, no default export) before writing."), text("Let me look at how the existing helpers are laid out.")], [tools.glob("src/**/*.ts", "src/", ".ts")]);
    t.assistant([], [tools.read("src/bytes.ts")]);
    t.assistant([text("Named exports, no dependencies. I'll follow the same style.")], [tools.write("src/slugify.ts", SLUGIFY_TS)]);
    t.assistant([], [tools.bash("npx tsc --noEmit -p .", "Type-check the project", "")]);
    t.assistant([text("Added `src/slugify.ts`:\n\n- NFKD-normalises and drops combining marks, so accents disappear\n- lowercases, turns every run of other characters into one dash, trims dashes\n- `maxLength` (default 80) cuts the slug without leaving a trailing dash\n\nIt type-checks; I left `src/index.ts` alone as you asked.")]);
    t.stop();
    t.command("exit", "", "Bye!");
    const c2 = b.commit({ name: "C2", subject: "Add slugify helper", checkpoint: checkpointId("s01"), author: MAYA, atMs: after(s, 200), paths: ["src/slugify.ts"], scenarios: [1], note: "agent-written file committed unchanged" });
    const entire = { agent_lines: 12, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 12 };
    b.checkpoint(c2.checkpoint_id as string, c2, [{ session: s, start: 0, end: t.length, filesTouched: ["src/slugify.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.3.12" }]);
    b.unit({ scenario: 1, session: s, commit: "C2", ambiguity: null, agent_lines_produced: 12, agent_lines_final: 12, agent_lines_survived: 12, human_lines: 0, outside_lines: 0, total_committed_lines: 12, outside_changes: 0, unreplayable_calls: 0, entire, why: "Write create, 12 lines, committed unchanged" });
  }

  // -------------------------------------------------------------------------
  // Scenario 2: Write, then the agent Edits part of its own file
  // (self-overwrite), then the person edits 2 lines before committing.
  //
  // By hand: Write creates src/table.ts, 20 lines (+20). The Edit replaces
  // its 4 lines 16–19 with 5 new lines, none equal to an old one (+5, -4):
  // produced 25, final 21 agent lines. Maya then changes 2 agent lines (the
  // signature gets `gap = "  "`, the pad line uses `gap`): 2 agent lines
  // lost, 2 human lines. The commit adds the whole 21-line file: survived 19,
  // human 2, outside 0, total 21.
  // Entire: base→shadow adds 21, shadow→head removes 2 and adds 2
  // (human_modified 2), agent_lines = 21 - 2 = 19 of 21.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s02-table", scenarios: [2], cwd: ROOT, root: ROOT, version: "2.1.2", branch: "main", slug: "brisk-folding-abacus", model: OPUS, start: "2026-01-09T10:05:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "I need a formatTable(rows) helper that renders an array of string arrays as an aligned plain-text table, with a dashed separator under the header row. Put it in src/table.ts.";
    t.prompt(p1);
    t.assistant([thinking("Compute column widths in one pass, pad each cell, insert a rule after the header. Two spaces between columns."), text("I'll write it as a standalone module.")], [tools.write("src/table.ts", TABLE_TS)]);
    t.assistant([text("Created `src/table.ts` with `formatTable(rows)` and a `Row` type. Widths come from the longest cell per column; the header separator uses dashes of the same width.")]);
    t.stop();
    t.wait(260);
    const p2 = "trailing spaces on the last column look bad in diffs and tests - can you trim each rendered line?";
    t.prompt(p2);
    s.prompts = 2;
    t.assistant([text("Good point. I'll pad through one helper that trims the end, and use it for the rule too.")], [
      tools.edit(
        "src/table.ts",
        '  const lines = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  "));\n  const rule = widths.map((w) => "-".repeat(w)).join("  ");\n  lines.splice(1, 0, rule);\n  return lines.join("\\n");',
        '  const pad = (row: Row) => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();\n  const body = rows.map(pad);\n  const rule = pad(widths.map((w) => "-".repeat(w)));\n  body.splice(1, 0, rule);\n  return body.join("\\n");',
      ),
    ]);
    t.assistant([text("Every line, including the separator, now goes through `pad`, which trims trailing spaces.")]);
    t.stop();
    t.command("exit", "", "See ya!");
    // Maya makes the gap configurable by hand before committing (2 lines).
    ws.change("src/table.ts", "export function formatTable(rows: Row[]): string {", 'export function formatTable(rows: Row[], gap = "  "): string {');
    ws.change("src/table.ts", '.join("  ").trimEnd();', ".join(gap).trimEnd();");
    const c3 = b.commit({ name: "C3", subject: "Add formatTable for aligned plain-text output", checkpoint: checkpointId("s02"), author: MAYA, atMs: after(s, 540), paths: ["src/table.ts"], scenarios: [2], note: "self-overwrite by the agent, then 2 lines changed by hand" });
    const entire = { agent_lines: 19, human_added: 0, human_modified: 2, human_removed: 0, total_committed: 21 };
    b.checkpoint(c3.checkpoint_id as string, c3, [{ session: s, start: 0, end: t.length, filesTouched: ["src/table.ts"], attribution: entire, promptTexts: [p1, p2], turns: 2, cliVersion: "0.3.12" }]);
    b.unit({ scenario: 2, session: s, commit: "C3", ambiguity: null, agent_lines_produced: 25, agent_lines_final: 21, agent_lines_survived: 19, human_lines: 2, outside_lines: 0, total_committed_lines: 21, outside_changes: 0, unreplayable_calls: 0, entire, why: "Write +20, self Edit +5/-4, person changes 2 agent lines before the commit" });
  }

  // -------------------------------------------------------------------------
  // Scenario 3: a shell command (prettier) changes the file between two
  // agent edits; the third Edit's `originalFile` shows it. Also an API
  // failure: `system/api_error` retries and a `<synthetic>` assistant
  // record, then the person types "continue".
  //
  // By hand (src/duration.ts, base = C0):
  //   Edit 1: +2 agent (`d:` and `w:` in FACTORS).
  //   Edit 2: the regex line, +1 agent (it keeps the old trailing space).
  //   Bash `npx prettier --write`: strips that trailing space (the agent's
  //     line) and turns the single-quoted error line (base) into double
  //     quotes. No structured record.
  //   Edit 3: `originalFile` differs from the replayed state by those 2 lines:
  //     outside_changes 1, the 2 new lines are `outside`; then +1 agent (doc
  //     comment).
  // Produced 2+1+1 = 4. Final agent lines: d, w, doc = 3 (the regex line is
  // now outside). Committed (base→commit adds 5): d, w, doc (agent 3), the
  // regex and error lines (outside 2). Human 0. Total 5.
  // Entire counts all 5 as agent (it diffs snapshots of files the agent touched).
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s03-duration", scenarios: [3], cwd: ROOT, root: ROOT, version: "2.1.5", branch: "main", slug: "quiet-sorting-heron", model: SONNET, start: "2026-01-12T14:20:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = 'parseDuration should also accept days and weeks ("2d", "1w"). Run prettier on the file when you\'re done, it never went through it.';
    t.prompt(p1);
    t.assistant([text("Let me read the parser first.")], [tools.read("src/duration.ts")]);
    t.assistant([thinking("Add d and w to FACTORS, then extend the regex alternation. Keep everything else."), text("Adding the two units to the factor table.")], [tools.edit("src/duration.ts", "  h: 3_600_000,\n};", "  h: 3_600_000,\n  d: 86_400_000,\n  w: 604_800_000,\n};")]);
    t.assistant([text("Now the pattern.")], [tools.edit("src/duration.ts", "  const match = /^(\\d+)(ms|s|m|h)$/.exec(text.trim()); ", "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim()); ")]);
    t.assistant([text("Running prettier on it as asked.")], [
      tools.bash("npx prettier --write src/duration.ts", "Format duration.ts with prettier", "src/duration.ts 41ms", () => {
        ws.change("src/duration.ts", "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim()); ", "  const match = /^(\\d+)(ms|s|m|h|d|w)$/.exec(text.trim());");
        ws.change("src/duration.ts", "  if (!match) throw new Error('bad duration: ' + text);", '  if (!match) throw new Error("bad duration: " + text);');
      }),
    ]);
    t.apiFailure(529, "overloaded_error", "Overloaded", 2);
    t.stop();
    t.wait(95);
    const p2 = "continue";
    t.prompt(p2);
    s.prompts = 2;
    t.assistant([text("Prettier reformatted two lines. One last touch: a doc comment with examples.")], [tools.edit("src/duration.ts", "export function parseDuration(text: string): number {", '/** Parses "90s", "15m", "2d"\u2026 into milliseconds. */\nexport function parseDuration(text: string): number {')]);
    t.assistant([text("Done: `d` (days) and `w` (weeks) are accepted, the file is prettier-formatted (it dropped a trailing space and switched the error message to double quotes), and `parseDuration` has a short doc comment.")]);
    t.stop();
    const c4 = b.commit({ name: "C4", subject: "parseDuration: accept days and weeks", checkpoint: checkpointId("s03"), author: MAYA, atMs: after(s, 310), paths: ["src/duration.ts"], scenarios: [3], note: "formatter run through Bash between agent edits" });
    const entire = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
    b.checkpoint(c4.checkpoint_id as string, c4, [{ session: s, start: 0, end: t.length, filesTouched: ["src/duration.ts"], attribution: entire, promptTexts: [p1, p2], turns: 2, cliVersion: "0.3.12" }]);
    b.unit({ scenario: 3, session: s, commit: "C4", ambiguity: null, agent_lines_produced: 4, agent_lines_final: 3, agent_lines_survived: 3, human_lines: 0, outside_lines: 2, total_committed_lines: 5, outside_changes: 1, unreplayable_calls: 0, entire, why: "Bash (prettier) rewrote an agent line and a base line between edits: seen at the next originalFile" });
  }

  // -------------------------------------------------------------------------
  // Scenario 4: a failed Edit (string not found: is_error, string
  // toolUseResult), a rejected Write and the `[Request interrupted by user
  // for tool use]` marker. Neither failed call is replayed.
  //
  // By hand: only the second Edit of src/index.ts succeeds (+2 export
  // lines). The rejected src/cli.ts never exists. Produced 2, final 2,
  // survived 2, total 2.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s04-exports", scenarios: [4], cwd: ROOT, root: ROOT, version: "2.1.6", branch: "main", slug: "amber-leaning-otter", model: OPUS, start: "2026-01-13T09:15:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "export slugify and formatTable from the index, and add a tiny CLI in src/cli.ts that prints formatBytes(argv[2])";
    t.prompt(p1);
    t.assistant([text("I'll add the exports first.")], [tools.editNotFound("src/index.ts", 'export { formatBytes } from "./bytes";', 'export { formatBytes } from "./bytes";\nexport { slugify } from "./slugify";')]);
    t.assistant([text("The index changed since I last saw it. Reading it again.")], [tools.read("src/index.ts")]);
    t.assistant([], [tools.edit("src/index.ts", 'export { parseDuration } from "./duration";', 'export { parseDuration } from "./duration";\nexport { slugify } from "./slugify";\nexport { formatTable, type Row } from "./table";')]);
    t.assistant([text("Now the CLI entry point.")], [
      tools.writeRejected("src/cli.ts", L("#!/usr/bin/env node", 'import { formatBytes } from "./bytes";', "", "const n = Number(process.argv[2]);", "if (Number.isNaN(n)) {", '  console.error("usage: sample-app <bytes>");', "  process.exit(2);", "}", "console.log(formatBytes(n));")),
    ]);
    t.interrupted(true);
    t.wait(20);
    const p2 = "no CLI for now, just the exports";
    t.prompt(p2);
    s.prompts = 2;
    t.assistant([text("Understood, no CLI. `src/index.ts` now also exports `slugify`, `formatTable` and the `Row` type.")]);
    t.stop();
    const c5 = b.commit({ name: "C5", subject: "Export slugify and formatTable", checkpoint: checkpointId("s04"), author: MAYA, atMs: after(s, 150), paths: ["src/index.ts"], scenarios: [4], note: "failed Edit and rejected Write are not replayed" });
    const entire = { agent_lines: 2, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 2 };
    b.checkpoint(c5.checkpoint_id as string, c5, [{ session: s, start: 0, end: t.length, filesTouched: ["src/index.ts"], attribution: entire, promptTexts: [p1, p2], turns: 2, cliVersion: "0.3.12" }]);
    b.unit({ scenario: 4, session: s, commit: "C5", ambiguity: null, agent_lines_produced: 2, agent_lines_final: 2, agent_lines_survived: 2, human_lines: 0, outside_lines: 0, total_committed_lines: 2, outside_changes: 0, unreplayable_calls: 0, entire, why: "failed Edit (not found) and rejected Write skipped; one successful Edit +2" });
  }

  // -------------------------------------------------------------------------
  // Scenario 5: a sub-agent (Task, haiku) writes and edits a test file; its
  // calls exist only as `agent_progress` records in the main transcript (and
  // in subagents/agent-<id>.jsonl). The main agent edits package.json.
  //
  // By hand: sub-agent Write test/slugify.test.ts (+15), sub-agent Edit
  // appends a 4-line test (+4), main Edit of the test script (+1).
  // Produced 20, final 20, survived 20, total 20.
  // Entire only saw package.json as touched (sub-agent calls are nested), so
  // it counts the test file as human: agent 1 of 20.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s05-subagent", scenarios: [5], cwd: ROOT, root: ROOT, version: "2.1.6", branch: "main", slug: "velvet-roaming-compass", model: OPUS, start: "2026-01-14T15:30:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "Add node:test tests for slugify. Hand the test writing to a subagent on haiku, it's simple enough, and make `npm test` run them.";
    t.prompt(p1);
    s.prompts = 1;
    t.assistant([text("I'll delegate the tests to a haiku subagent and fix up the npm script myself.")], [
      t.task(
        {
          description: "Write slugify tests",
          prompt: "Write node:test unit tests for src/slugify.ts in test/slugify.test.ts. Cover lowercasing, accents and punctuation, trimming of dashes and maxLength. Use node:assert/strict. Run them with `npx tsx --test` and fix anything that fails.",
          model: HAIKU,
          modelAlias: "haiku",
        },
        ws,
        ROOT,
        (sub, st) => {
          sub.assistant([text("Reading the implementation.")], [st.read("src/slugify.ts")]);
          sub.assistant([], [st.write("test/slugify.test.ts", SLUGIFY_TEST_TS)]);
          sub.assistant([], [st.bash("npx tsx --test test/slugify.test.ts", "Run the slugify tests", "\u2714 lowercases and joins words with dashes (0.71ms)\n\u2714 strips accents and punctuation (0.14ms)\n\u2714 trims dashes at both ends (0.09ms)\n\u2139 tests 3\n\u2139 pass 3\n\u2139 fail 0")]);
          sub.assistant([text("maxLength is not covered yet; adding a case.")], [st.edit("test/slugify.test.ts", '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");\n});', '  assert.equal(slugify("  --Already Slugged--  "), "already-slugged");\n});\n\ntest("cuts at maxLength without a trailing dash", () => {\n  assert.equal(slugify("one two three", 7), "one-two");\n});')]);
          sub.assistant([], [st.bash("npx tsx --test test/slugify.test.ts", "Run the slugify tests again", "\u2714 lowercases and joins words with dashes (0.68ms)\n\u2714 strips accents and punctuation (0.15ms)\n\u2714 trims dashes at both ends (0.08ms)\n\u2714 cuts at maxLength without a trailing dash (0.07ms)\n\u2139 tests 4\n\u2139 pass 4\n\u2139 fail 0")]);
          const summary = "Created test/slugify.test.ts with 4 node:test cases (lowercasing, accents and punctuation, trimming dashes, maxLength). All 4 pass with `npx tsx --test test/slugify.test.ts`.";
          sub.assistant([text(summary)]);
          return summary;
        },
      ),
    ]);
    t.assistant([text("Tests are in. Pointing `npm test` at them.")], [tools.edit("package.json", '    "test": "node --test"', '    "test": "node --import tsx --test test/*.test.ts"')]);
    t.assistant([text("The subagent added `test/slugify.test.ts` (4 cases, all passing) and `npm test` now runs `test/*.test.ts` through tsx. You'll want `tsx` in devDependencies if it isn't installed globally.")]);
    t.stop();
    const c6 = b.commit({ name: "C6", subject: "Test slugify", checkpoint: checkpointId("s05"), author: MAYA, atMs: after(s, 420), paths: ["package.json", "test/slugify.test.ts"], scenarios: [5], note: "sub-agent edits via agent_progress" });
    const entire = { agent_lines: 1, human_added: 19, human_modified: 0, human_removed: 0, total_committed: 20 };
    b.checkpoint(c6.checkpoint_id as string, c6, [{ session: s, start: 0, end: t.length, filesTouched: ["package.json"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.3.13" }]);
    b.unit({ scenario: 5, session: s, commit: "C6", ambiguity: null, agent_lines_produced: 20, agent_lines_final: 20, agent_lines_survived: 20, human_lines: 0, outside_lines: 0, total_committed_lines: 20, outside_changes: 0, unreplayable_calls: 0, entire, why: "sub-agent Write +15 and Edit +4 (agent_progress), main Edit +1" });
  }

  // -------------------------------------------------------------------------
  // Scenario 6: plan mode writes ~/.claude/plans/<slug>.md (outside the
  // repo: ignored), the agent creates a scratch benchmark that is never
  // committed, and edits src/table.ts. The session runs in the `src/`
  // sub-folder (cwd /home/dev/sample-app/src, its own project folder).
  //
  // By hand: Edit replaces 1 line of table.ts with 3 (+3); Write
  // scripts/bench-table.ts (+9), not committed; the plan file does not
  // count. Produced 12, final 12, survived 3, total 3.
  // -------------------------------------------------------------------------
  {
    const cwd = `${ROOT}/src`;
    const s = b.session({ key: "s06-plan", scenarios: [6], cwd, root: ROOT, version: "2.1.7", branch: "main", slug: "patient-drifting-quill", model: OPUS, start: "2026-01-15T10:00:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "Plan first: formatTable should right-align columns that are all numbers (header excluded). I'd also like a quick benchmark script I can run locally - don't commit that one.";
    t.prompt(p1, { permissionMode: "plan" });
    t.assistant([text("Let me read the current implementation.")], [tools.read("src/table.ts")]);
    const plan = L(
      "# Right-align numeric columns in formatTable",
      "",
      "1. In `formatTable`, mark a column numeric when every body cell matches `^-?\\d+(\\.\\d+)?$`.",
      "2. Pad numeric cells with `padStart`, others with `padEnd`; keep `trimEnd()` per line.",
      "3. Leave the header row and the dashed rule as they are.",
      "4. Add `scripts/bench-table.ts` (10k rows, 20 runs) for local timing; not committed.",
    );
    t.assistant([thinking("Detect numeric columns from body rows only; alignment per column; rule stays dashes."), text("Here is the plan.")], [tools.write(`${HOME}/.claude/plans/patient-drifting-quill.md`, plan)]);
    t.assistant([], [tools.exitPlanMode(plan)]);
    t.assistant([text("Implementing the alignment.")], [
      tools.edit(
        "src/table.ts",
        "  const pad = (row: Row) => row.map((cell, i) => cell.padEnd(widths[i])).join(gap).trimEnd();",
        '  const numeric = widths.map((_, i) => rows.slice(1).every((row) => /^-?\\d+(?:\\.\\d+)?$/.test(row[i] ?? "")));\n  const align = (cell: string, i: number) => (numeric[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]));\n  const pad = (row: Row) => row.map(align).join(gap).trimEnd();',
      ),
    ]);
    t.assistant([text("And the local benchmark.")], [tools.write("scripts/bench-table.ts", BENCH_TS)]);
    t.assistant([text("Numeric columns are right-aligned now. `scripts/bench-table.ts` is in place but not staged; run it with `npx tsx scripts/bench-table.ts`.")]);
    t.stop();
    t.wait(70);
    const p2 = "run the bench once so I see the numbers";
    t.prompt(p2);
    s.prompts = 2;
    t.assistant([], [tools.bash("npx tsx ../scripts/bench-table.ts", "Run the formatTable benchmark", "formatTable: 4.81 ms per 10k rows")]);
    t.assistant([text("About 4.8 ms per call for 10k rows.")]);
    t.stop();
    const c7 = b.commit({ name: "C7", subject: "formatTable: right-align numeric columns", checkpoint: checkpointId("s06"), author: MAYA, atMs: after(s, 380), paths: ["src/table.ts"], scenarios: [6], note: "plan file outside the repo, scratch file never committed, sub-folder cwd" });
    const entire = { agent_lines: 3, human_added: 0, human_modified: 0, human_removed: 9, total_committed: 3 };
    b.checkpoint(c7.checkpoint_id as string, c7, [{ session: s, start: 0, end: t.length, filesTouched: ["scripts/bench-table.ts", "src/table.ts"], attribution: entire, promptTexts: [p1, p2], turns: 2, cliVersion: "0.3.13" }]);
    b.unit({ scenario: 6, session: s, commit: "C7", ambiguity: null, agent_lines_produced: 12, agent_lines_final: 12, agent_lines_survived: 3, human_lines: 0, outside_lines: 0, total_committed_lines: 3, outside_changes: 0, unreplayable_calls: 0, entire, why: "Edit +3 committed; scratch Write +9 never committed; plan file outside the repo ignored" });
  }

  // -------------------------------------------------------------------------
  // Scenario 7: two sessions in one checkpoint (ambiguous:
  // multi-session-checkpoint). Opus documents usage in README.md while a
  // haiku session in another terminal edits package.json.
  //
  // By hand: README Edit +7 (blank, "## Usage", blank, 4 more lines after
  // the last old line); package.json Edit +2. The commit adds 9 lines.
  // Unit (G1): produced 7, final 7, survived 7; package.json lines are in a
  // file G1 never touched, so human 2; total 9.
  // Unit (G2): produced 2, final 2, survived 2, human 7, total 9.
  // -------------------------------------------------------------------------
  {
    const g1 = b.session({ key: "s07a-readme", scenarios: [7], cwd: ROOT, root: ROOT, version: "2.1.9", branch: "main", slug: "gentle-weaving-kestrel", model: OPUS, start: "2026-01-16T09:02:00Z" });
    const g2 = b.session({ key: "s07b-package", scenarios: [7], cwd: ROOT, root: ROOT, version: "2.1.9", branch: "main", slug: "sunny-tracing-marmot", model: HAIKU, start: "2026-01-16T09:06:30Z" });
    {
      const { t, tools } = g1;
      t.sessionStart();
      g1.prompts = 1;
      t.prompt("Add a short Usage section to the README showing formatBytes and slugify.");
      t.assistant([], [tools.read("README.md")]);
      t.assistant([text("Adding a Usage section after Install.")], [tools.edit("README.md", "    npm install sample-app\n", '    npm install sample-app\n\n## Usage\n\n    import { formatBytes, slugify } from "sample-app";\n\n    formatBytes(1536); // "1.5 KB"\n    slugify("Hello, World"); // "hello-world"\n')]);
      t.assistant([text("The README now has a Usage section with one example per helper.")]);
      t.stop();
    }
    {
      const { t, tools } = g2;
      t.sessionStart();
      g2.prompts = 1;
      t.prompt("package.json: add the types entry and limit the published files to dist");
      t.assistant([], [tools.read("package.json")]);
      t.assistant([], [tools.edit("package.json", '  "main": "dist/index.js",', '  "main": "dist/index.js",\n  "types": "dist/index.d.ts",\n  "files": ["dist"],')]);
      t.assistant([text('Added `"types": "dist/index.d.ts"` and `"files": ["dist"]`.')]);
      t.stop();
    }
    const end = Math.max(g1.t.clock.ms, g2.t.clock.ms);
    const c8 = b.commit({ name: "C8", subject: "Document usage; publish only dist", checkpoint: checkpointId("s07"), author: MAYA, atMs: end + 300_000, paths: ["README.md", "package.json"], scenarios: [7], note: "one checkpoint, two sessions" });
    const e1 = { agent_lines: 7, human_added: 2, human_modified: 0, human_removed: 0, total_committed: 9 };
    const e2 = { agent_lines: 2, human_added: 7, human_modified: 0, human_removed: 0, total_committed: 9 };
    b.checkpoint(c8.checkpoint_id as string, c8, [
      { session: g1, start: 0, end: g1.t.length, filesTouched: ["README.md"], attribution: e1, promptTexts: ["Add a short Usage section to the README showing formatBytes and slugify."], turns: 1, cliVersion: "0.3.13" },
      { session: g2, start: 0, end: g2.t.length, filesTouched: ["package.json"], attribution: e2, promptTexts: ["package.json: add the types entry and limit the published files to dist"], turns: 1, cliVersion: "0.3.13" },
    ]);
    b.unit({ scenario: 7, session: g1, commit: "C8", ambiguity: "multi-session-checkpoint", agent_lines_produced: 7, agent_lines_final: 7, agent_lines_survived: 7, human_lines: 2, outside_lines: 0, total_committed_lines: 9, outside_changes: 0, unreplayable_calls: 0, entire: e1, why: "checkpoint with two session folders; the other session's lines count as human here" });
    b.unit({ scenario: 7, session: g2, commit: "C8", ambiguity: "multi-session-checkpoint", agent_lines_produced: 2, agent_lines_final: 2, agent_lines_survived: 2, human_lines: 7, outside_lines: 0, total_committed_lines: 9, outside_changes: 0, unreplayable_calls: 0, entire: e2, why: "checkpoint with two session folders; the other session's lines count as human here" });
  }

  // -------------------------------------------------------------------------
  // Scenario 8: a fix on main, cherry-picked by Tom onto release/0.1 the
  // next day. Same `git patch-id --stable`, same trailer: one commit
  // (the earliest committer time, C9 on main), not multi-commit-checkpoint.
  //
  // By hand: two Edits of src/bytes.ts, +1 and +3. Produced 4, final 4,
  // survived 4, total 4.
  // -------------------------------------------------------------------------
  {
    const bytesBeforeFix = b.committedFile("main", "src/bytes.ts");
    const s = b.session({ key: "s08-bytes-fix", scenarios: [8], cwd: ROOT, root: ROOT, version: "2.1.10", branch: "main", slug: "steady-mapping-finch", model: SONNET, start: "2026-01-19T11:11:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    s.prompts = 1;
    const p1 = 'formatBytes(512) prints "512.0 B" - plain bytes should never have a decimal. Also negative sizes loop forever... no wait, they just print "-512.0 B". Make both sane.';
    t.prompt(p1);
    t.assistant([], [tools.read("src/bytes.ts")]);
    t.assistant([thinking("Work on the absolute value, reattach the sign at the end; bytes unit gets integer formatting."), text("Two small changes: divide the absolute value, and only use a decimal above plain bytes.")], [tools.edit("src/bytes.ts", "  let value = n;", "  let value = Math.abs(n);")]);
    t.assistant([], [tools.edit("src/bytes.ts", "  return `${value.toFixed(1)} ${UNITS[unit]}`;", '  const sign = n < 0 ? "-" : "";\n  const digits = unit === 0 ? String(value) : value.toFixed(1);\n  return `${sign}${digits} ${UNITS[unit]}`;')]);
    t.assistant([text('`formatBytes(512)` now gives "512 B", and `formatBytes(-2048)` gives "-2.0 KB" (the loop runs on the absolute value, the sign is added back).')]);
    t.stop();
    const c9 = b.commit({ name: "C9", subject: "formatBytes: no decimals for bytes, keep the sign", checkpoint: checkpointId("s08"), author: MAYA, atMs: after(s, 260), paths: ["src/bytes.ts"], scenarios: [8], note: "cherry-picked later onto release/0.1 (C9r)" });
    const entire = { agent_lines: 4, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 4 };
    b.checkpoint(c9.checkpoint_id as string, c9, [{ session: s, start: 0, end: t.length, filesTouched: ["src/bytes.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.3.13" }]);
    // The cherry-pick: same change on release/0.1 (whose bytes.ts equals C9's parent's), same message.
    const fixed = ws.text("src/bytes.ts");
    if (b.committedFile("release/0.1", "src/bytes.ts") !== bytesBeforeFix) throw new Error("sample: release/0.1 diverged, the cherry-pick would not be a copy");
    const copy = b.commit({
      name: "C9r",
      branch: "release/0.1",
      subject: c9.subject,
      checkpoint: c9.checkpoint_id as string,
      author: MAYA,
      authorMs: c9.author_time * 1000,
      committer: TOM,
      atMs: at("2026-01-20T08:31:12Z"),
      paths: ["src/bytes.ts"],
      contents: new Map([["src/bytes.ts", fixed]]),
      scenarios: [8],
      note: "cherry-pick of C9 (same patch id, same trailer)",
    });
    copy.copy_of = "C9";
    b.unit({ scenario: 8, session: s, commit: "C9", ambiguity: null, agent_lines_produced: 4, agent_lines_final: 4, agent_lines_survived: 4, human_lines: 0, outside_lines: 0, total_committed_lines: 4, outside_changes: 0, unreplayable_calls: 0, entire, why: "checkpoint on C9 and its cherry-pick C9r: same patch id, counted once (C9, earliest committer time)" });
  }

  // -------------------------------------------------------------------------
  // Scenario 9: Entire labels the session "Gemini CLI" but the transcript is
  // Claude Code JSONL (a real Entire bug): the format is read by content.
  //
  // By hand: one Edit appends formatDuration (+7). Produced, final,
  // survived 7, total 7.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s09-mislabeled", scenarios: [9], cwd: ROOT, root: ROOT, version: "2.1.11", branch: "main", slug: "crisp-echoing-walrus", model: SONNET, start: "2026-01-20T13:45:00Z", agentLabel: "Gemini CLI" });
    const { t, tools } = s;
    t.sessionStart();
    s.prompts = 1;
    const p1 = "add formatDuration(ms), the inverse of parseDuration: use the biggest unit that divides the value exactly";
    t.prompt(p1);
    t.assistant([], [tools.read("src/duration.ts")]);
    t.assistant([text("FACTORS already has every unit; I'll pick the largest one that divides evenly.")], [
      tools.edit(
        "src/duration.ts",
        "  return Number(match[1]) * FACTORS[match[2]];\n}",
        '  return Number(match[1]) * FACTORS[match[2]];\n}\n\n/** Formats milliseconds with the largest unit that divides them exactly. */\nexport function formatDuration(ms: number): string {\n  const units = Object.entries(FACTORS).sort((a, b) => b[1] - a[1]);\n  const [name, factor] = units.find(([, f]) => ms % f === 0) ?? ["ms", 1];\n  return `${ms / factor}${name}`;\n}',
      ),
    ]);
    t.assistant([text('Added `formatDuration`: `formatDuration(5_400_000)` is "90m", `formatDuration(172_800_000)` is "2d".')]);
    t.stop();
    const c10 = b.commit({ name: "C10", subject: "Add formatDuration", checkpoint: checkpointId("s09"), author: MAYA, atMs: after(s, 190), paths: ["src/duration.ts"], scenarios: [9], note: "metadata says Gemini CLI, transcript is Claude Code" });
    const entire = { agent_lines: 7, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 7 };
    b.checkpoint(c10.checkpoint_id as string, c10, [{ session: s, start: 0, end: t.length, filesTouched: ["src/duration.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.3.13" }]);
    b.unit({ scenario: 9, session: s, commit: "C10", ambiguity: null, agent_lines_produced: 7, agent_lines_final: 7, agent_lines_survived: 7, human_lines: 0, outside_lines: 0, total_committed_lines: 7, outside_changes: 0, unreplayable_calls: 0, entire, why: "label Gemini CLI, content Claude Code JSONL; one Edit +7" });
  }

  // -------------------------------------------------------------------------
  // Scenario 10: the transcript is missing from the checkpoint (the session
  // folder keeps metadata.json, prompt.txt and content_hash.txt; full.jsonl
  // is gone) and from the projects folder: `transcript-missing`.
  //
  // The session did write src/truncate.ts (6 lines, Entire says 6 agent
  // lines), but nothing can be replayed: the agent columns are null here
  // (an engine may report 0 agent / 6 human instead); total 6 from git.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s10-lost", scenarios: [10], cwd: ROOT, root: ROOT, version: "2.1.12", branch: "main", slug: "hollow-sifting-pebble", model: SONNET, start: "2026-01-21T16:05:00Z", lost: true });
    const { t, tools } = s;
    t.sessionStart();
    s.prompts = 1;
    const p1 = "add truncate(text, max) that ends with an ellipsis when it cuts";
    t.prompt(p1);
    t.assistant([text("A single helper, in its own module.")], [tools.write("src/truncate.ts", TRUNCATE_TS)]);
    t.assistant([text("Added `src/truncate.ts`; it trims trailing spaces before adding the ellipsis so the result never ends in a space.")]);
    t.stop();
    const c11 = b.commit({ name: "C11", subject: "Add truncate helper", checkpoint: checkpointId("s10"), author: MAYA, atMs: after(s, 150), paths: ["src/truncate.ts"], scenarios: [10], note: "its checkpoint has no full.jsonl" });
    const entire = { agent_lines: 6, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 6 };
    b.checkpoint(c11.checkpoint_id as string, c11, [{ session: s, start: 0, end: t.length, filesTouched: ["src/truncate.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.4.0" }]);
    b.unit({ scenario: 10, session: s, commit: "C11", ambiguity: "transcript-missing", agent_lines_produced: null, agent_lines_final: null, agent_lines_survived: null, human_lines: null, outside_lines: null, total_committed_lines: null, outside_changes: null, unreplayable_calls: null, entire, why: "session folder without full.jsonl; Entire's own count (6 agent lines) is still there" });
  }

  // -------------------------------------------------------------------------
  // Scenario 11: a session in a worktree (/home/dev/sample-app/.worktrees/2,
  // branch feature/slug-options, fast-forwarded into main) with one
  // `userModified: true` edit: the person rewrote the proposal in the IDE.
  //
  // By hand: Edit 1 changes the signature (+1 agent). Edit 2 replaces 3
  // lines with the person's 4 lines (userModified: +4 human, not agent).
  // Produced 1, final 1, survived 1, human 4, total 5.
  // Entire cannot tell: 5 agent lines.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s11-worktree", scenarios: [11], cwd: WORKTREE, root: WORKTREE, version: "2.1.14", branch: "feature/slug-options", slug: "bold-knitting-sparrow", model: OPUS, start: "2026-01-22T10:20:00Z", worktree: "2" });
    const { t, tools } = s;
    t.sessionStart();
    s.prompts = 1;
    const p1 = 'slugify: let callers pick the separator (default "-")';
    t.prompt(p1);
    t.assistant([], [tools.read("src/slugify.ts")]);
    t.assistant([text("Adding a `separator` parameter after `maxLength` so existing calls keep working.")], [tools.edit("src/slugify.ts", "export function slugify(text: string, maxLength = 80): string {", 'export function slugify(text: string, maxLength = 80, separator = "-"): string {')]);
    t.assistant([text("Now using it in the pipeline.")], [
      tools.edit(
        "src/slugify.ts",
        '    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/^-+|-+$/g, "");\n  return slug.slice(0, maxLength).replace(/-+$/, "");',
        "    .replace(/[^a-z0-9]+/g, separator)\n    .split(separator)\n    .filter(Boolean)\n    .join(separator);\n  return slug.slice(0, maxLength).split(separator).filter(Boolean).join(separator);",
        { userText: '    .replace(/[^a-z0-9]+/g, " ")\n    .trim()\n    .replaceAll(" ", separator);\n  return slug.slice(0, maxLength).replace(/[^a-z0-9]+$/, "");' },
      ),
    ]);
    t.assistant([text("I see you adjusted the pipeline to go through spaces and `trim()` instead; that reads better. The separator is now configurable.")]);
    t.stop();
    const c12 = b.commit({ name: "C12", subject: "slugify: configurable separator", checkpoint: checkpointId("s11"), author: MAYA, atMs: after(s, 330), paths: ["src/slugify.ts"], scenarios: [11], note: "made in the worktree on feature/slug-options, fast-forwarded into main" });
    b.branchFrom("feature/slug-options", "main");
    const entire = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
    b.checkpoint(c12.checkpoint_id as string, c12, [{ session: s, start: 0, end: t.length, filesTouched: ["src/slugify.ts"], attribution: entire, promptTexts: [p1], turns: 1, cliVersion: "0.4.0", withModel: true }]);
    b.unit({ scenario: 11, session: s, commit: "C12", ambiguity: null, agent_lines_produced: 1, agent_lines_final: 1, agent_lines_survived: 1, human_lines: 4, outside_lines: 0, total_committed_lines: 5, outside_changes: 0, unreplayable_calls: 0, entire, why: "userModified edit: the 4 inserted lines are the person's; one normal Edit +1" });
  }

  // -------------------------------------------------------------------------
  // Scenario 12: one session, two checkpoints. The second checkpoint's
  // full.jsonl holds the whole transcript, `checkpoint_transcript_start`
  // says where its part begins. Also: /model switch, a manual /compact
  // (compact_boundary + isCompactSummary), the final /exit.
  // Both units are `multi-checkpoint-session`.
  //
  // Part 1 (C13, slice [0, n1)): Write src/csv.ts (+9), Edit src/index.ts
  // (+1, toCsv export). Maya commits only csv.ts. Produced 10, final 10,
  // survived 9, total 9.
  // Part 2 (C14, slice [n1, end)): base is C13, whose index.ts lacks the
  // toCsv line. Edit csv.ts (+3, header option). Edit index.ts: its
  // originalFile has the toCsv line the replay (from base) does not:
  // outside_changes 1, that line `outside`; then +1 agent (truncate export).
  // Produced 4, final 4, survived 4, outside 1, total 5.
  // -------------------------------------------------------------------------
  {
    const s = b.session({ key: "s12-csv", scenarios: [12], cwd: ROOT, root: ROOT, version: "2.1.20", branch: "main", slug: "lucid-rowing-badger", model: SONNET, start: "2026-01-26T09:30:00Z" });
    const { t, tools } = s;
    t.sessionStart();
    const p1 = "Add toCsv(rows) in src/csv.ts: quote fields that contain commas, quotes or newlines (RFC 4180 style, CRLF between records) and export it from the index.";
    t.prompt(p1);
    t.assistant([thinking("Quote only when needed; double embedded quotes; CRLF separators per RFC 4180."), text("Writing the module.")], [tools.write("src/csv.ts", CSV_TS)]);
    t.assistant([], [tools.read("src/index.ts")]);
    t.assistant([], [tools.edit("src/index.ts", 'export { formatTable, type Row } from "./table";', 'export { formatTable, type Row } from "./table";\nexport { toCsv } from "./csv";')]);
    t.assistant([text("`toCsv` is in `src/csv.ts` and exported from the index.")]);
    t.stop();
    const n1 = t.length;
    // Maya stages and commits only the new module.
    const c13 = b.commit({ name: "C13", subject: "Add toCsv", checkpoint: checkpointId("s12a"), author: MAYA, atMs: t.clock.ms + 180_000, paths: ["src/csv.ts"], scenarios: [12], note: "first checkpoint of the session; index.ts left unstaged" });
    t.wait(3 * 3600);
    t.command("model", "opus", "Set model to opus (claude-opus-4-6)");
    t.model = OPUS;
    t.compact(
      "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis:\nThe user asked for a CSV serializer. I created src/csv.ts with toCsv(rows), quoting fields that contain commas, quotes, CR or LF and doubling embedded quotes, joined with CRLF. I exported it from src/index.ts.\n\nSummary:\n1. Primary Request and Intent: add toCsv in src/csv.ts and export it from the index.\n2. Files and Code Sections: src/csv.ts (new), src/index.ts (one export line added).\n3. Pending Tasks: none.\n4. Current Work: the task is complete; the user has committed src/csv.ts.",
    );
    const p2 = "Give toCsv an optional header row (written first when given). And truncate is missing from the index, export it too.";
    t.prompt(p2);
    s.prompts = 2;
    t.assistant([], [tools.read("src/csv.ts")]);
    t.assistant([text("Adding the optional header.")], [
      tools.edit(
        "src/csv.ts",
        'export function toCsv(rows: readonly (readonly string[])[]): string {\n  return rows.map((row) => row.map(quote).join(",")).join("\\r\\n");',
        'export function toCsv(rows: readonly (readonly string[])[], header?: readonly string[]): string {\n  const all = header ? [header, ...rows] : rows;\n  return all.map((row) => row.map(quote).join(",")).join("\\r\\n");',
      ),
    ]);
    t.assistant([], [tools.read("src/index.ts")]);
    t.assistant([text("Exporting truncate next to toCsv.")], [tools.edit("src/index.ts", 'export { toCsv } from "./csv";', 'export { toCsv } from "./csv";\nexport { truncate } from "./truncate";')]);
    t.assistant([text('`toCsv(rows, header)` writes the header first when given; `truncate` is exported from `src/index.ts`.')]);
    t.stop();
    const n2 = t.length;
    const c14 = b.commit({ name: "C14", subject: "toCsv: optional header; export truncate and toCsv", checkpoint: checkpointId("s12b"), author: MAYA, atMs: t.clock.ms + 240_000, paths: ["src/csv.ts", "src/index.ts"], scenarios: [12], note: "second checkpoint of the same session, slice from checkpoint_transcript_start" });
    t.wait(400);
    t.command("exit", "", "Goodbye!");
    const ea = { agent_lines: 9, human_added: 0, human_modified: 0, human_removed: 1, total_committed: 9 };
    const eb = { agent_lines: 5, human_added: 0, human_modified: 0, human_removed: 0, total_committed: 5 };
    // Entire condenses at each commit: the first full.jsonl ends at the first commit.
    b.checkpoint(c13.checkpoint_id as string, c13, [{ session: s, start: 0, end: n1, filesTouched: ["src/csv.ts", "src/index.ts"], attribution: ea, promptTexts: [p1], turns: 1, cliVersion: "0.4.0", withModel: true }]);
    const compactSummary = t.records.find((r) => r.isCompactSummary === true) as Json;
    const summaryText = (compactSummary.message as Json).content as string;
    b.checkpoint(c14.checkpoint_id as string, c14, [{ session: s, start: n1, end: n2, filesTouched: ["src/csv.ts", "src/index.ts"], attribution: eb, promptTexts: [summaryText, p2], turns: 1, cliVersion: "0.4.0", withModel: true }]);
    b.unit({ scenario: 12, session: s, commit: "C13", ambiguity: "multi-checkpoint-session", agent_lines_produced: 10, agent_lines_final: 10, agent_lines_survived: 9, human_lines: 0, outside_lines: 0, total_committed_lines: 9, outside_changes: 0, unreplayable_calls: 0, entire: ea, why: "first checkpoint: Write +9 committed, index.ts Edit +1 left unstaged" });
    b.unit({ scenario: 12, session: s, commit: "C14", ambiguity: "multi-checkpoint-session", agent_lines_produced: 4, agent_lines_final: 4, agent_lines_survived: 4, human_lines: 0, outside_lines: 1, total_committed_lines: 5, outside_changes: 1, unreplayable_calls: 0, entire: eb, why: "second checkpoint's slice starts at checkpoint_transcript_start; the earlier unstaged agent line shows up as outside" });
  }

  // -------------------------------------------------------------------------
  // Scenario 14: a squash-merge style message that quotes
  // `Entire-Checkpoint: <scenario 1's id>` in its body, not in the trailer
  // block: not a link (git's trailer parser returns nothing). Human only.
  // -------------------------------------------------------------------------
  {
    ws.change("README.md", "Small formatting helpers for command-line tools.", "Small, dependency-free formatting helpers for command-line tools.");
    b.commit({
      name: "C15",
      subject: "Docs polish (#14)",
      body: `* Mention that the helpers have no dependencies\n\nEntire-Checkpoint: ${checkpointId("s01")}\n\n* Reword the README intro line`,
      author: TOM,
      atMs: at("2026-01-28T17:20:05Z"),
      paths: ["README.md"],
      scenarios: [14],
      note: "Entire-Checkpoint text in the body, not a trailer: no link",
    });
  }
}

/**
 * Generate the sample corpus into `dir` (its `repo/` and `claude-projects/`
 * are replaced). Deterministic: the same version gives the same bytes and
 * commit shas.
 */
export async function generateSampleCorpus(dir: string): Promise<SampleCorpus> {
  const repoDir = join(dir, "repo");
  const projectsDir = join(dir, "claude-projects");
  rmSync(repoDir, { recursive: true, force: true });
  rmSync(projectsDir, { recursive: true, force: true });
  mkdirSync(repoDir, { recursive: true });
  mkdirSync(projectsDir, { recursive: true });
  const b = new SampleBuilder(repoDir, projectsDir);
  b.git.run(["init", "-q"]);
  b.git.run(["config", "core.logAllRefUpdates", "false"]);
  buildHistory(b);
  const branches = b.finish();
  const sessions = b.writeProjects();
  return {
    version: SAMPLE_GENERATOR_VERSION,
    root: dir,
    repoDir,
    claudeProjectsDir: projectsDir,
    home: HOME,
    repoRootInTranscripts: ROOT,
    checkpointsBranch: CHECKPOINTS_BRANCH,
    branches,
    sessions,
    commits: b.commits,
    checkpoints: b.checkpoints,
    expected: b.expected,
  };
}
