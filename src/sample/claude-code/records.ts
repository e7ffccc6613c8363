/**
 * A Claude Code transcript under construction: its records, ids and
 * context-size bookkeeping, and every record that is not an API response
 * (prompts, hooks, file-history snapshots, slash commands, interruptions,
 * API errors, /compact). `Transcript` adds the responses and sub-agents.
 */
import { sha256, uuidFor } from "../seeded/ids";
import type { Clock } from "../seeded/clock";
import type { Rng } from "../seeded/rng";
import { tokensOf } from "../text";
import type { Json } from "../text";
import type { ApiCall } from "./message";
import type { Style } from "./style";

export interface TranscriptOptions {
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

export class TranscriptRecords {
  readonly records: Json[];
  readonly calls: ApiCall[] = [];
  readonly subCalls: ApiCall[] = [];
  readonly subModels: string[] = [];
  readonly subagents: { agentId: string; records: Json[] }[] = [];
  readonly models: string[] = [];
  model: string;
  protected last: string | null = null;
  protected seq = 0;
  protected msgSeq = 0;
  protected context: number;
  protected cached = 0;
  protected named = false;
  protected promptAt = 0;
  protected trackedFiles: Record<string, Json> = {};

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

  protected uuid(): string {
    return uuidFor(`${this.o.key}:${this.seq++}`);
  }

  protected envelope(parentUuid: string | null = this.last): Json {
    const e: Json = {
      parentUuid,
      isSidechain: this.o.sidechain !== undefined,
      userType: "external",
      cwd: this.o.cwd,
      sessionId: this.o.sessionId,
      version: this.o.version,
    };
    if (this.o.gitBranch !== null) e.gitBranch = this.o.gitBranch;
    if (this.o.sidechain?.agentId) e.agentId = this.o.sidechain.agentId;
    if (this.o.slug !== null && this.named) e.slug = this.o.slug;
    return e;
  }

  protected push(record: Json, mirror = false): void {
    this.records.push(record);
    if (mirror && this.o.sidechain?.mirror) this.o.sidechain.mirror(record);
  }

  protected hook(event: string, name: string, command: string, toolUseId: string, parentUuid: string | null): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    const uuid = this.uuid();
    this.push({
      ...this.envelope(parentUuid),
      type: "progress",
      data: { type: "hook_progress", hookEvent: event, hookName: name, command },
      parentToolUseID: toolUseId,
      toolUseID: toolUseId,
      timestamp: this.clock.iso(),
      uuid,
    });
  }

  sessionStart(): void {
    if (this.o.style !== "2.x") return;
    const id = uuidFor(`${this.o.key}:session-start`);
    this.hook("SessionStart", "SessionStart:startup", "entire hooks claude-code session-start", id, null);
    this.last = this.records[this.records.length - 1].uuid as string;
  }

  protected snapshot(messageId: string, update: boolean): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    this.push({
      type: "file-history-snapshot",
      messageId,
      snapshot: { messageId, trackedFileBackups: { ...this.trackedFiles }, timestamp: this.clock.iso() },
      isSnapshotUpdate: update,
    });
  }

  /** Claude Code keeps a backup of every file the agent touches. */
  protected track(path: string, messageId: string): void {
    const rel = path.startsWith(`${this.o.cwd}/`) ? path.slice(this.o.cwd.length + 1) : path;
    const previous = this.trackedFiles[rel] as { version: number } | undefined;
    const version = previous ? previous.version + 1 : 1;
    this.trackedFiles[rel] = {
      backupFileName: `${sha256(`${this.o.sessionId}:${rel}`).slice(0, 16)}@v${version}`,
      version,
      backupTime: this.clock.iso(),
    };
    this.snapshot(messageId, true);
  }

  wait(seconds: number): void {
    this.clock.wait(seconds);
  }

  prompt(content: string, opts: { permissionMode?: string } = {}): string {
    this.clock.tick(2, 9);
    const uuid = this.uuid();
    this.snapshot(uuid, false);
    const record: Json = {
      ...this.envelope(),
      type: "user",
      message: { role: "user", content },
      uuid,
      timestamp: this.clock.iso(),
    };
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
    this.push(
      { ...this.envelope(null), type: "user", message: { role: "user", content }, uuid, timestamp: this.clock.iso() },
      true,
    );
    this.last = uuid;
    this.context += tokensOf(content);
  }

  protected usage(u: { input: number; cacheCreation: number; cacheRead: number; output: number }): Json {
    if (this.o.style === "1.0") {
      return {
        input_tokens: u.input,
        cache_creation_input_tokens: u.cacheCreation,
        cache_read_input_tokens: u.cacheRead,
        output_tokens: u.output,
        service_tier: "standard",
      };
    }
    const split =
      this.o.ttl === "1h"
        ? { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: u.cacheCreation }
        : { ephemeral_5m_input_tokens: u.cacheCreation, ephemeral_1h_input_tokens: 0 };
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

  /** End of a turn: Entire's Stop hook, its summary, and the turn's duration. */
  stop(): void {
    if (this.o.style !== "2.x" || this.o.sidechain) return;
    this.clock.tick(0.1, 0.4);
    const id = uuidFor(`${this.o.key}:stop:${this.seq}`);
    this.hook("Stop", "Stop", "entire hooks claude-code stop", id, this.last);
    this.last = this.records[this.records.length - 1].uuid as string;
    this.clock.tick(0.1, 0.4);
    let uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "system",
      subtype: "stop_hook_summary",
      hookCount: 1,
      hookInfos: [{ command: "entire hooks claude-code stop" }],
      hookErrors: [],
      preventedContinuation: false,
      stopReason: "",
      hasOutput: true,
      level: "suggestion",
      timestamp: this.clock.iso(),
      uuid,
      toolUseID: id,
    });
    this.last = uuid;
    uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "system",
      subtype: "turn_duration",
      durationMs: this.clock.ms - this.promptAt,
      timestamp: this.clock.iso(),
      uuid,
      isMeta: false,
    });
    this.last = uuid;
  }

  /** A local slash command: the caveat (isMeta), the command record and its output. */
  command(name: string, args: string, stdout: string): void {
    this.clock.tick(5, 40);
    let uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: {
        role: "user",
        content:
          "<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>",
      },
      isMeta: true,
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
    uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: {
        role: "user",
        content: `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>`,
      },
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
    if (stdout !== "") {
      uuid = this.uuid();
      this.push({
        ...this.envelope(),
        type: "user",
        message: { role: "user", content: `<local-command-stdout>${stdout}</local-command-stdout>` },
        uuid,
        timestamp: this.clock.iso(),
      });
      this.last = uuid;
    }
  }

  /** The marker Claude Code writes when the person stops the agent. */
  interrupted(forToolUse: boolean): void {
    this.clock.tick(0.5, 2);
    const uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: {
        role: "user",
        content: [
          {
            type: "text",
            text: forToolUse ? "[Request interrupted by user for tool use]" : "[Request interrupted by user]",
          },
        ],
      },
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
  }

  /** Retries of an overloaded API, then Claude Code's local `<synthetic>` error message (no API call). */
  apiFailure(status: number, errorType: string, message: string, retries: number): void {
    for (let attempt = 1; attempt <= retries; attempt++) {
      this.clock.tick(1, 4);
      const uuid = this.uuid();
      const retryInMs = Math.round(500 * 2 ** (attempt - 1) * 1.13);
      this.push({
        ...this.envelope(),
        type: "system",
        subtype: "api_error",
        level: "error",
        error: { status, headers: {}, requestID: null, error: { type: "error", error: { type: errorType, message } } },
        retryInMs,
        retryAttempt: attempt,
        maxRetries: 10,
        timestamp: this.clock.iso(),
        uuid,
      });
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
        usage: {
          input_tokens: 0,
          output_tokens: 0,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
          service_tier: null,
          cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
        },
        content: [
          {
            type: "text",
            text: `API Error: ${status} ${JSON.stringify({ type: "error", error: { type: errorType, message } })}`,
          },
        ],
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
    this.push({
      ...this.envelope(null),
      type: "system",
      subtype: "compact_boundary",
      content: "Conversation compacted",
      isMeta: false,
      timestamp: this.clock.iso(),
      uuid,
      level: "info",
      logicalParentUuid: this.last,
      compactMetadata: { trigger: "manual", preTokens },
    });
    this.last = uuid;
    uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: { role: "user", content: summary },
      isVisibleInTranscriptOnly: true,
      isCompactSummary: true,
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
    this.context = this.o.systemTokens + tokensOf(summary);
    this.cached = 0;
    this.clock.tick(0.1, 0.5);
    uuid = this.uuid();
    this.push({
      ...this.envelope(),
      type: "user",
      message: {
        role: "user",
        content: "<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>",
      },
      uuid,
      timestamp: this.clock.iso(),
    });
    this.last = uuid;
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
