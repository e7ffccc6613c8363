/**
 * Real git repositories with Entire checkpoints built as a timeline (metrics.md §1b's cases): sessions
 * whose Claude Code 2.x transcripts grow call by call, a person who edits files and commits, branches,
 * merges. One clock orders everything: every transcript record, every commit and every session folder's
 * `created_at` (a second after its commit, as Entire writes it). Each commit that names sessions carries one
 * `Entire-Checkpoint` trailer whose checkpoint holds one folder per session: the session's transcript so
 * far, with `checkpoint_transcript_start` at the end of its copy in its previous checkpoint.
 *
 * Used by the reference's group tests and the product's hand-worked and property tests; it imports nothing
 * of the product.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Where the sessions say they run (the repository root in their logs). */
export const WORLD_ROOT = "/home/dev/world";

interface WorldSession {
  sessionId: string;
  lines: string[];
  /** Lines of its copy at its previous checkpoint. */
  lastCheckpointLines: number;
  calls: number;
}

export class GroupWorld {
  readonly dir: string;
  /** Epoch ms. */
  private clock = Date.UTC(2026, 0, 5, 9, 0, 0);
  private readonly sessions = new Map<string, WorldSession>();
  private readonly folders = new Map<
    string,
    { sessionId: string; transcript: string | null; meta: Record<string, unknown> }[]
  >();
  private checkpointCount = 0;
  readonly checkpointIds: string[] = [];
  /** Commits that carry a trailer, in the order made. */
  readonly linked: string[] = [];

  /**
   * `dated`: sessions stored as old Entire stored them (metrics.md §1b): the id `YYYY-MM-DD-<uuid>`, and each
   * checkpoint's copy holding only its own part of the transcript.
   */
  constructor(
    base: Record<string, string>,
    private readonly dated: ReadonlySet<string> = new Set(),
  ) {
    this.dir = mkdtempSync(join(tmpdir(), "group-world-"));
    this.git(["init", "-q", "-b", "main"]);
    this.writeFiles(base);
    this.git(["add", "-A"]);
    this.git(["commit", "-q", "--allow-empty", "-m", "base"]);
  }

  /** Moves the clock on (default 5 s); `0` keeps the time (ties). */
  tick(seconds = 5): number {
    this.clock += seconds * 1000;
    return this.clock;
  }

  get now(): string {
    return new Date(this.clock).toISOString();
  }

  git(args: string[], allowFail = false): string {
    const date = `${Math.floor(this.clock / 1000)} +0000`;
    const r = spawnSync("git", args, {
      cwd: this.dir,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Person",
        GIT_AUTHOR_EMAIL: "person@example.com",
        GIT_COMMITTER_NAME: "Person",
        GIT_COMMITTER_EMAIL: "person@example.com",
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_CONFIG_SYSTEM: "/dev/null",
      },
    });
    if (r.status !== 0 && !allowFail) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
    return r.status === 0 ? r.stdout : "\0failed";
  }

  private writeFiles(files: Record<string, string | null>): void {
    for (const [path, text] of Object.entries(files)) {
      const full = join(this.dir, path);
      if (text === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
  }

  /** The working tree's text of `path`, null when absent. */
  read(path: string): string | null {
    const full = join(this.dir, path);
    return existsSync(full) ? readFileSync(full, "utf8") : null;
  }

  private session(name: string): WorldSession {
    let s = this.sessions.get(name);
    if (!s) {
      const hex = [...name]
        .map((ch) => ch.charCodeAt(0).toString(16))
        .join("")
        .padEnd(12, "0")
        .slice(0, 12);
      s = {
        sessionId: `${this.dated.has(name) ? "2026-01-05-" : ""}0000aaaa-bbbb-4ccc-8ddd-${hex}`,
        lines: [],
        lastCheckpointLines: 0,
        calls: 0,
      };
      this.sessions.set(name, s);
      this.record(s, { type: "user", message: { role: "user", content: `session ${name}: go` } });
    }
    return s;
  }

  /** Starts a Codex session `name` (a rollout: `session_meta`, `turn_context`), to be written with `raw`. */
  codexSession(name: string, sessionId: string): void {
    const s: WorldSession = { sessionId, lines: [], lastCheckpointLines: 0, calls: 0 };
    this.sessions.set(name, s);
    this.raw(name, {
      type: "session_meta",
      payload: {
        id: sessionId,
        timestamp: this.now,
        cwd: WORLD_ROOT,
        originator: "codex_exec",
        cli_version: "0.125.0",
        source: "exec",
        model_provider: "openai",
      },
    });
    this.raw(name, {
      type: "turn_context",
      payload: { turn_id: "turn-1", cwd: WORLD_ROOT, model: "gpt-5.4", approval_policy: "never" },
    });
  }

  /** Appends one record (stamped with the clock, a second on) to session `name`'s transcript as given. */
  raw(name: string, record: Record<string, unknown>): void {
    const s = this.sessions.get(name);
    if (!s) throw new Error(`no session ${name}`);
    this.tick(1);
    s.calls += record.type === "response_item" ? 1 : 0;
    s.lines.push(JSON.stringify({ timestamp: this.now, ...record }));
  }

  hasSession(name: string): boolean {
    return this.sessions.has(name);
  }

  sessionId(name: string): string {
    return this.session(name).sessionId;
  }

  private record(s: WorldSession, body: Record<string, unknown>, seconds = 1): void {
    this.tick(seconds);
    s.lines.push(
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        userType: "external",
        cwd: WORLD_ROOT,
        sessionId: s.sessionId,
        version: "2.1.30",
        gitBranch: "main",
        uuid: `${s.sessionId.slice(-4)}-${s.lines.length}`,
        timestamp: this.now,
        ...body,
      }),
    );
  }

  /** Sessions whose calls are made by a sub-agent: records nested in `agent_progress` (formats.md §2.6), their own times earlier than the outer record's. */
  readonly subagent = new Set<string>();

  private call(
    name: string,
    tool: string,
    input: Record<string, unknown>,
    result: Record<string, unknown>,
    resultDelay: number,
  ): string {
    const s = this.session(name);
    const id = `toolu_${name}_${++s.calls}`;
    // A result with no delay shares its call's time, and the call the time before it: ties between sessions.
    // A negative delay drops timestamps: -1 from both records (a call without a time), -2 from the result only.
    const untimed = { timestamp: undefined };
    const use = {
      ...(resultDelay === -1 ? untimed : {}),
      type: "assistant",
      requestId: `req_${id}`,
      message: {
        id: `msg_${id}`,
        model: "claude-sonnet-4-5-20250929",
        role: "assistant",
        type: "message",
        content: [{ type: "tool_use", id, name: tool, input }],
        usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 },
      },
    };
    const body = {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
      toolUseResult: result,
    };
    const done = resultDelay < 0 ? { ...body, ...untimed } : body;
    if (this.subagent.has(name)) {
      // The nested message keeps its own time (now); the progress record around it is written 3 s later.
      const nest = (message: Record<string, unknown>, seconds: number) => {
        this.tick(seconds);
        const own = "timestamp" in message ? {} : { timestamp: this.now };
        this.record(
          s,
          {
            type: "progress",
            data: {
              type: "agent_progress",
              agentId: "sub",
              prompt: "help",
              normalizedMessages: [],
              message: { uuid: `n-${id}-${seconds}`, ...own, ...message },
            },
            toolUseID: `agent_${id}`,
            parentToolUseID: "toolu_task",
            timestamp: new Date(Date.parse(this.now) + 3000).toISOString(),
          },
          0,
        );
      };
      nest(use, resultDelay === 0 ? 0 : 1);
      nest(done, resultDelay < 0 ? 1 : resultDelay);
      return id;
    }
    this.record(s, use, resultDelay === 0 ? 0 : 1);
    this.record(s, done, resultDelay < 0 ? 1 : resultDelay);
    return id;
  }

  /** The agent of session `name` writes `path` whole (Claude Code's Write: `create`, or `update` with the file before it). */
  write(name: string, path: string, content: string, resultDelay = 1): string {
    const before = this.read(path);
    const abs = `${WORLD_ROOT}/${path}`;
    const id = this.call(
      name,
      "Write",
      { file_path: abs, content },
      {
        type: before === null ? "create" : "update",
        filePath: abs,
        content,
        structuredPatch: [],
        originalFile: before,
      },
      resultDelay,
    );
    this.writeFiles({ [path]: content });
    return id;
  }

  /** The agent of session `name` replaces the first `oldString` of `path` (Claude Code's Edit, `originalFile` logged). */
  edit(name: string, path: string, oldString: string, newString: string, resultDelay = 1): string {
    const before = this.read(path);
    if (before === null || !before.includes(oldString)) throw new Error(`edit: ${oldString} not in ${path}`);
    const abs = `${WORLD_ROOT}/${path}`;
    const id = this.call(
      name,
      "Edit",
      { file_path: abs, old_string: oldString, new_string: newString },
      {
        filePath: abs,
        oldString,
        newString,
        originalFile: before,
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
      },
      resultDelay,
    );
    this.writeFiles({ [path]: before.replace(oldString, newString) });
    return id;
  }

  /** A person (or a shell command) changes files; no log records it. */
  person(files: Record<string, string | null>): void {
    this.tick(2);
    this.writeFiles(files);
  }

  /**
   * A commit of `paths` (default: everything) on the current branch. With sessions, it carries one new
   * checkpoint holding one folder per session (its copy so far). Returns the sha.
   */
  commit(
    message: string,
    sessions: string[] = [],
    paths: string[] | null = null,
    meta: Record<string, Record<string, unknown>> = {},
  ): string {
    this.tick(10);
    if (paths === null) this.git(["add", "-A"]);
    else this.git(["add", "-A", "--", ...paths]);
    let trailer = "";
    if (sessions.length > 0) {
      const id = (0xc0ffee000000 + ++this.checkpointCount).toString(16);
      this.checkpointIds.push(id);
      trailer = `\n\nEntire-Checkpoint: ${id}`;
      const created = new Date(this.clock + 1000).toISOString();
      // A dated session with nothing new has no part to store (Entire wrote no empty part).
      const stored = sessions.filter(
        (name) => !this.dated.has(name) || this.session(name).lines.length > this.session(name).lastCheckpointLines,
      );
      this.folders.set(
        id,
        stored.map((name) => {
          const s = this.session(name);
          const part = this.dated.has(name);
          const folder = {
            sessionId: s.sessionId,
            transcript: `${(part ? s.lines.slice(s.lastCheckpointLines) : s.lines).join("\n")}\n`,
            meta: {
              ...(part ? {} : { checkpoint_transcript_start: s.lastCheckpointLines }),
              created_at: created,
              ...meta[name],
            },
          };
          s.lastCheckpointLines = s.lines.length;
          return folder;
        }),
      );
    }
    this.git(["commit", "-q", "--allow-empty", "-m", `${message}${trailer}`]);
    if (trailer) this.linked.push(this.head());
    return this.head();
  }

  /** Paths whose working-tree state differs from HEAD (untracked included). */
  dirty(): string[] {
    return this.git(["status", "--porcelain", "-uall", "--no-renames"])
      .split("\n")
      .filter(Boolean)
      .map((l) => l.slice(3))
      .filter((p) => !p.startsWith(".git"));
  }

  /** Names of the sessions that have called a tool since their last checkpoint. */
  activeSessions(): string[] {
    return [...this.sessions]
      .filter(([, s]) => s.lines.length > s.lastCheckpointLines && s.calls > 0)
      .map(([name]) => name);
  }

  head(): string {
    return this.git(["rev-parse", "HEAD"]).trim();
  }

  branch(): string {
    return this.git(["rev-parse", "--abbrev-ref", "HEAD"]).trim();
  }

  /** `git checkout [-b name] [from]`; false (nothing changed) when git refuses (a dirty file in the way). */
  checkout(name: string, create = false, from: string | null = null): boolean {
    this.tick(1);
    const args = create ? ["checkout", "-q", "-b", name, ...(from ? [from] : [])] : ["checkout", "-q", name];
    return this.git(args, true) !== "\0failed";
  }

  /**
   * `git merge --no-ff` of `branch` into the current one; with sessions, the merge commit carries their
   * checkpoint (as `commit`), else no trailer (the merge is in no group). False on a conflict (aborted).
   */
  merge(branch: string, sessions: string[] = []): boolean {
    this.tick(10);
    if (this.git(["merge", "-q", "--no-ff", "--no-commit", branch], true) === "\0failed") {
      this.git(["merge", "--abort"], true);
      return false;
    }
    // "Already up to date": nothing to merge, no commit.
    if (!existsSync(join(this.dir, ".git", "MERGE_HEAD"))) return false;
    this.commit(`merge ${branch}`, sessions);
    return true;
  }

  /** A commit of everything carrying the trailer of an existing checkpoint `id` (no new folder): one checkpoint on several commits. */
  commitReusing(id: string): string {
    this.tick(10);
    this.git(["add", "-A"]);
    this.git(["commit", "-q", "--allow-empty", "-m", `again\n\nEntire-Checkpoint: ${id}`]);
    this.linked.push(this.head());
    return this.head();
  }

  /** The folder of session `name` in checkpoint `id` keeps its metadata and loses its transcript (or gets `text` instead). */
  replaceTranscript(id: string, name: string, text: string | null = null): void {
    const folder = this.folders.get(id)?.find((f) => f.sessionId === this.sessionId(name));
    if (!folder) throw new Error(`no folder of ${name} in ${id}`);
    folder.transcript = text;
  }

  /** `git cherry-pick` of `sha` (its trailer too: a copy, metrics.md §1); false (aborted) on a conflict or an empty pick. */
  cherryPick(sha: string): boolean {
    this.tick(10);
    if (this.git(["cherry-pick", "--allow-empty", sha], true) === "\0failed") {
      this.git(["cherry-pick", "--abort"], true);
      return false;
    }
    return true;
  }

  /** Writes the `entire/checkpoints/v1` branch (without touching the work tree); the repository is then ready. */
  finish(): string {
    if (this.folders.size === 0) return this.dir;
    const files: Record<string, string> = {};
    for (const [id, folders] of this.folders) {
      const dir = `${id.slice(0, 2)}/${id.slice(2)}`;
      files[`${dir}/metadata.json`] = JSON.stringify({
        checkpoint_id: id,
        strategy: "manual-commit",
        branch: "main",
        checkpoints_count: 1,
        sessions: folders.map((_, n) => ({
          metadata: `/${dir}/${n}/metadata.json`,
          transcript: `/${dir}/${n}/full.jsonl`,
        })),
      });
      folders.forEach((f, n) => {
        files[`${dir}/${n}/metadata.json`] = JSON.stringify({
          checkpoint_id: id,
          session_id: f.sessionId,
          strategy: "manual-commit",
          branch: "main",
          checkpoints_count: 1,
          agent: "Claude Code",
          ...f.meta,
        });
        if (f.transcript !== null) files[`${dir}/${n}/full.jsonl`] = f.transcript;
      });
    }
    const entries = Object.entries(files).map(([path, text]) => {
      const sha = execFileSync("git", ["hash-object", "-w", "--stdin"], {
        cwd: this.dir,
        input: text,
        encoding: "utf8",
      }).trim();
      return `100644 blob ${sha}\t${path}`;
    });
    const index = join(this.dir, ".git", "world-index");
    const env = { ...process.env, GIT_INDEX_FILE: index };
    execFileSync("git", ["update-index", "--add", "--index-info"], {
      cwd: this.dir,
      input: `${entries.join("\n")}\n`,
      env,
    });
    const tree = execFileSync("git", ["write-tree"], { cwd: this.dir, env, encoding: "utf8" }).trim();
    const commit = this.git(["commit-tree", tree, "-m", "Checkpoints"]).trim();
    this.git(["update-ref", "refs/heads/entire/checkpoints/v1", commit]);
    rmSync(index, { force: true });
    return this.dir;
  }

  /**
   * Transcripts without Entire (a folder of transcripts plus `--repo`): each session's whole transcript as
   * `<session id>.jsonl` in a folder beside the repository, which gets no checkpoints branch (its commits'
   * trailers then name no checkpoint). Returns the folder.
   */
  writeTranscripts(): string {
    const dir = `${this.dir}-transcripts`;
    mkdirSync(dir, { recursive: true });
    for (const s of this.sessions.values()) writeFileSync(join(dir, `${s.sessionId}.jsonl`), `${s.lines.join("\n")}\n`);
    return dir;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(`${this.dir}-transcripts`, { recursive: true, force: true });
  }
}
