/**
 * Claude Code JSONL transcript → normalised {@link Session}.
 *
 * Handles 1.0.x (inline `isSidechain` sub-agent records, MultiEdit with
 * `originalFileContents`) and 2.x (one record per streamed content block,
 * `agent_progress` mirrors of sub-agent messages, `subagents/agent-*.jsonl`).
 * The quirks, with real examples, are in README.md next to this file.
 *
 * Never throws on bad data: everything skipped or odd becomes a diagnostic.
 */
import {
  DiagnosticSink,
  SESSION_FORMAT_VERSION,
  type ApiCall,
  type FileEdit,
  type Session,
  type Severity,
  type StringEdit,
  type ToolCall,
  type Turn,
  type Usage,
} from "../../model";
import { emptyJsonlStats, forEachJsonl, readJsonl, type JsonlRecord } from "../jsonl";
import { notAPrompt } from "../prompt-text";
import { applyClaudeEdits } from "../../model";
import {
  parseAgentProgressData,
  parseAssistantMessage,
  parseFileToolInput,
  parseFileToolResult,
  parseQueuedCommand,
  parseRecord,
  parseTaskResult,
  parseTextBlock,
  parseToolResultBlock,
  parseToolUseBlock,
  parseUserMessage,
  type FileToolInput,
  type FileToolResult,
  type RawRecord,
  type RawStringEdit,
  type RawUsage,
} from "./schema";

export interface ClaudeCodeTranscriptInput {
  /** The session's JSONL (`~/.claude/projects/<project>/<sessionId>.jsonl`, or Entire's `full.jsonl`). */
  text: string | Uint8Array;
  /** Path of the transcript, for diagnostics and the session-id fallback. */
  file: string | null;
  /** `<sessionId>/subagents/agent-<agentId>.jsonl` files (Claude Code 2.x). */
  subagents?: { file: string; text: string | Uint8Array }[];
}

/** Tool names whose calls change files (metrics.md §3). */
export const CLAUDE_FILE_EDIT_TOOLS: readonly string[] = [
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "mcp__acp__Write",
  "mcp__acp__Edit",
];

/** Record types Claude Code writes that this adapter knows (and mostly ignores). */
const KNOWN_RECORD_TYPES = new Set([
  "user",
  "assistant",
  "progress",
  "system",
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "pr-link",
  "attachment",
  // Session metadata of 2.1+: a title, an agent name, the last prompt again (a copy), the permission mode.
  "custom-title",
  "agent-name",
  "last-prompt",
  "permission-mode",
]);

const ERROR_MAX = 200;

type Origin = "main" | "progress" | "subagent";

interface CallDraft {
  id: string;
  name: string;
  input: unknown;
  timestamp: string | null;
  record: number;
  sidechain: boolean;
  origin: Origin;
  file: string | null;
}

interface ResultDraft {
  record: number;
  timestamp: string | null;
  isError: boolean;
  text: string;
  /** The record's `toolUseResult`, when it belongs to this result alone. */
  toolUseResult: unknown;
  origin: Origin;
}

interface ApiGroup {
  messageId: string;
  requestId: string | null;
  model: string | null;
  record: number;
  timestamp: string | null;
  usage: RawUsage | undefined;
  output: number;
  total: number;
  sidechain: boolean;
}

interface Note {
  code: string;
  severity: Severity;
  count: number;
  first: number | null;
  file: string | null;
  what: string;
  /** Running sums a note's text reports. */
  extra?: { added: number; files: number };
}

/** Where a record of a sub-agent file lands in the parent transcript's line numbers. */
type LineMapper = (timestamp: string | null) => number;

class Parser {
  readonly turns: Turn[] = [];
  readonly calls = new Map<string, CallDraft>();
  readonly results = new Map<string, ResultDraft>();
  readonly orphanResults: { id: string; record: number; origin: Origin; file: string | null }[] = [];
  readonly groups = new Map<string, ApiGroup>();
  /** message.id → requestIds seen with it. */
  readonly messageRequests = new Map<string, Set<string>>();
  readonly times: number[] = [];
  readonly cwds: string[] = [];
  readonly sessionIds: string[] = [];
  readonly versions: string[] = [];
  branch: string | null = null;
  /** agentId → the Task tool_use id that started it. */
  readonly agentTask = new Map<string, string>();
  /** Sub-agents whose Task result names them (agentId → the result's line and tool-use count). */
  readonly taskResultAgents = new Map<string, { line: number; toolUses: number | null }>();
  /** Sub-agents whose own records were read (agent_progress, `subagents/agent-*.jsonl`). */
  readonly agentsWithRecords = new Set<string>();
  /** Main-transcript timestamps in line order, for placing sub-agent records. */
  readonly mainTimes: { line: number; t: number }[] = [];
  readonly notes = new Map<string, Note>();

  constructor(
    private readonly sink: DiagnosticSink,
    private readonly mainFile: string | null,
  ) {}

  // ---- diagnostics -------------------------------------------------------

  diag(
    severity: Severity,
    code: string,
    message: string,
    record: number | null,
    file: string | null = this.mainFile,
  ): void {
    this.sink.add(severity, code, message, record, file !== null ? { file } : {});
  }

  /** Counted diagnostics: one row per key at the end, with the count and the first line. */
  note(
    key: string,
    code: string,
    severity: Severity,
    record: number | null,
    what: string,
    file: string | null = this.mainFile,
  ): void {
    const n = this.notes.get(key);
    if (n) {
      n.count++;
      return;
    }
    this.notes.set(key, { code, severity, count: 1, first: record, file, what });
  }

  flushNotes(): void {
    for (const n of this.notes.values()) {
      const where = n.first !== null ? `; first at line ${n.first}` : "";
      this.diag(n.severity, n.code, `${n.count} ${n.what}${where}`, n.first, n.file);
    }
    this.notes.clear();
  }

  // ---- records -----------------------------------------------------------

  /** One record of the main transcript. */
  mainRecord(rec: JsonlRecord): void {
    const parsed = parseRecord(rec.value);
    if (!parsed.success) {
      this.diag(
        "warning",
        "claude-invalid-record",
        `line ${rec.line}: not a Claude Code record (${parsed.error.issues[0]?.message ?? "schema mismatch"})`,
        rec.line,
      );
      return;
    }
    const r = parsed.data;
    this.envelope(r, rec.line, "main");
    const type = r.type;
    if (type === undefined) {
      this.note(
        "no-type",
        "claude-record-without-type",
        "warning",
        rec.line,
        "record(s) without a `type` field skipped",
      );
      return;
    }
    switch (type) {
      case "assistant":
        this.assistant(r, rec.line, r.isSidechain === true, "main", this.mainFile);
        return;
      case "user":
        this.user(r, rec.line, r.isSidechain === true, "main", this.mainFile);
        return;
      case "progress":
        this.progress(r, rec.line);
        return;
      case "attachment":
        this.attachment(r, rec.line);
        return;
      default:
        if (!KNOWN_RECORD_TYPES.has(type)) {
          this.note(
            `type:${type}`,
            "claude-unknown-record-type",
            "info",
            rec.line,
            `record(s) of unknown type "${type}" skipped`,
          );
        }
    }
  }

  /** Envelope facts of a main-transcript record. */
  envelope(r: RawRecord, line: number, origin: Origin): void {
    if (r.timestamp !== undefined) {
      const t = Date.parse(r.timestamp);
      if (Number.isFinite(t)) {
        this.times.push(t);
        if (origin === "main") this.mainTimes.push({ line, t });
      } else {
        this.note("bad-ts", "claude-invalid-timestamp", "warning", line, "record(s) with an unreadable timestamp");
      }
    }
    if (r.cwd !== undefined && r.cwd !== "" && !this.cwds.includes(r.cwd)) this.cwds.push(r.cwd);
    if (origin !== "main") return;
    if (r.sessionId !== undefined && r.sessionId !== "" && !this.sessionIds.includes(r.sessionId))
      this.sessionIds.push(r.sessionId);
    if (r.version !== undefined && r.version !== "" && !this.versions.includes(r.version))
      this.versions.push(r.version);
    if (this.branch === null && r.gitBranch !== undefined && r.gitBranch !== "") this.branch = r.gitBranch;
  }

  /**
   * Claude Code 2.1.269+ can add to a Bash result a diff of the files the command changed (`bashEditDiff`:
   * `{files: [{filePath, created?, deleted?, hunks: [{lines: ["+…", "-…", " …"]}]}], moreFiles, changedFiles}`).
   * metrics.md §3 replays no shell command: those lines stay outside or human. Counted, so a reader knows
   * how much agent-written text that leaves out.
   */
  bashEditDiff(toolUseResult: unknown, line: number, file: string | null): void {
    if (!isObject(toolUseResult) || !isObject(toolUseResult.bashEditDiff)) return;
    const diff = toolUseResult.bashEditDiff;
    let added = 0;
    const files = Array.isArray(diff.files) ? diff.files : [];
    for (const f of files) {
      if (!isObject(f) || !Array.isArray(f.hunks)) continue;
      for (const h of f.hunks) {
        if (isObject(h) && Array.isArray(h.lines))
          for (const l of h.lines) if (typeof l === "string" && l.startsWith("+")) added++;
      }
    }
    const changed = Array.isArray(diff.changedFiles) ? diff.changedFiles.length : files.length;
    const n = this.notes.get("bash-edit-diff");
    const total = { added: (n?.extra?.added ?? 0) + added, files: (n?.extra?.files ?? 0) + changed };
    this.note("bash-edit-diff", "claude-bash-edit-diff", "info", line, "", file);
    const note = this.notes.get("bash-edit-diff")!;
    note.extra = total;
    note.what = `Bash result(s) carrying a diff of the files the command changed (bashEditDiff; ${total.files} file change(s), ${total.added} added line(s) shown): shell commands are not replayed (metrics.md §3), so these lines count as outside or human`;
  }

  /** An `attachment` record: a prompt queued mid-turn is a real prompt; the rest is context Claude Code adds. */
  attachment(r: RawRecord, line: number): void {
    const queued = parseQueuedCommand(r.attachment);
    if (!queued.success) {
      this.note(
        "attachment",
        "claude-attachment-record",
        "info",
        line,
        "attachment record(s) (hook output, skill listings, IDE and file context, …) not counted as prompts",
      );
      return;
    }
    const { prompt, commandMode, origin } = queued.data;
    if (r.isSidechain === true) {
      this.note(
        `sidechain-prompt:${this.mainFile}`,
        "claude-sidechain-prompt",
        "info",
        line,
        "sub-agent prompt or text record(s) (isSidechain, agent_progress, subagents/*.jsonl) not counted as prompts",
        this.mainFile,
      );
      return;
    }
    if (
      (commandMode !== undefined && commandMode !== "prompt") ||
      (origin?.kind !== undefined && origin.kind !== "human")
    ) {
      this.note(
        "queued-other",
        "claude-queued-command-not-prompt",
        "info",
        line,
        `queued command(s) that are not prompts (first: commandMode "${commandMode ?? ""}", origin "${origin?.kind ?? ""}"; e.g. a background task's notification, or a shell command typed with !) not counted as prompts`,
      );
      return;
    }
    this.promptText(prompt, r, line, this.mainFile, r.timestamp);
  }

  progress(r: RawRecord, line: number): void {
    const data = parseAgentProgressData(r.data);
    if (!data.success) return; // hook/bash/mcp progress: chatter, nothing to keep
    if (data.data.agentId !== undefined && r.parentToolUseID !== undefined && !this.agentTask.has(data.data.agentId)) {
      this.agentTask.set(data.data.agentId, r.parentToolUseID);
    }
    const nested = parseRecord(data.data.message);
    if (!nested.success || nested.data.type === undefined) {
      this.note(
        "progress-empty",
        "claude-agent-progress-without-message",
        "info",
        line,
        "agent_progress record(s) without a nested message",
      );
      return;
    }
    const m = nested.data;
    if (data.data.agentId !== undefined) this.agentsWithRecords.add(data.data.agentId);
    if (m.type === "assistant") this.assistant(m, line, true, "progress", this.mainFile, m.timestamp ?? r.timestamp);
    else if (m.type === "user") this.user(m, line, true, "progress", this.mainFile, m.timestamp ?? r.timestamp);
    else
      this.note(
        `progress-type:${m.type}`,
        "claude-unknown-record-type",
        "info",
        line,
        `agent_progress message(s) of unknown type "${m.type}" skipped`,
      );
  }

  /** The main thread's text blocks become the last prompt's reply (the last text before the next prompt wins). */
  private keepReply(content: unknown): void {
    const turn = this.turns[this.turns.length - 1];
    if (!turn || !Array.isArray(content)) return;
    const text = content
      .filter((b) => b && typeof b === "object" && b.type === "text" && typeof b.text === "string")
      .map((b) => b.text as string)
      .join("\n\n");
    if (text.trim() !== "") turn.reply = text;
  }

  assistant(
    r: RawRecord,
    line: number,
    sidechain: boolean,
    origin: Origin,
    file: string | null,
    timestamp: string | undefined = r.timestamp,
  ): void {
    const parsed = parseAssistantMessage(r.message);
    if (!parsed.success) {
      this.diag(
        "warning",
        "claude-invalid-record",
        `line ${line}: assistant record without a message object`,
        line,
        file,
      );
      return;
    }
    const msg = parsed.data;
    const ts = timestamp ?? null;
    if (!sidechain && origin === "main") this.keepReply(msg.content);

    // Tool calls: each tool_use block once, whichever streamed record holds it.
    if (Array.isArray(msg.content)) {
      for (const block of msg.content) {
        const tu = parseToolUseBlock(block);
        if (!tu.success) continue;
        const id = tu.data.id;
        if (this.calls.has(id)) {
          this.note(
            `dup-call:${origin}`,
            "claude-duplicate-tool-use",
            "info",
            line,
            `repeated tool_use block(s) (same id, e.g. a resumed session or a sub-agent message seen twice) counted once`,
            file,
          );
          continue;
        }
        this.calls.set(id, {
          id,
          name: tu.data.name,
          input: tu.data.input ?? null,
          timestamp: ts,
          record: line,
          sidechain,
          origin,
          file,
        });
      }
    }

    // API call: one per (message.id, requestId), usage from the record with the most output.
    if (msg.model === "<synthetic>") {
      this.note(
        "synthetic",
        "claude-synthetic-message",
        "info",
        line,
        `locally made "<synthetic>" message(s) (API errors, interruptions) not counted as API calls`,
        file,
      );
      return;
    }
    const messageId = msg.id;
    if (messageId === undefined || messageId === "") {
      this.note(
        "no-msg-id",
        "claude-assistant-without-message-id",
        "warning",
        line,
        "assistant record(s) without message.id counted as one API call each",
        file,
      );
    }
    const requestId = r.requestId ?? null;
    const key = messageId ? `${messageId}\u0000${requestId ?? ""}` : `line:${origin}:${line}`;
    const usage = msg.usage;
    const output = num(usage?.output_tokens);
    const total =
      output + num(usage?.input_tokens) + num(usage?.cache_creation_input_tokens) + num(usage?.cache_read_input_tokens);
    const existing = this.groups.get(key);
    if (existing) {
      // Later blocks of a streamed response carry later usage snapshots: keep the largest, and on a tie the later record.
      if (output > existing.output || (output === existing.output && total >= existing.total)) {
        existing.record = line;
        existing.timestamp = ts;
        existing.usage = usage;
        existing.output = output;
        existing.total = total;
        existing.model = msg.model ?? existing.model;
      }
      return;
    }
    if (messageId) {
      const requests = this.messageRequests.get(messageId);
      if (requests !== undefined && (sidechain || origin !== "main")) {
        // A sub-agent log replaying a parent message under a new requestId (ccusage #913): not a new call.
        this.note(
          "replayed-msg",
          "claude-sidechain-replayed-message",
          "info",
          line,
          "sub-agent record(s) repeating an already counted message.id under another requestId not counted again",
          file,
        );
        return;
      }
      if (requests === undefined) this.messageRequests.set(messageId, new Set([requestId ?? ""]));
      else requests.add(requestId ?? "");
    }
    this.groups.set(key, {
      messageId: messageId ?? `line-${line}`,
      requestId,
      model: msg.model ?? null,
      record: line,
      timestamp: ts,
      usage,
      output,
      total,
      sidechain,
    });
  }

  user(
    r: RawRecord,
    line: number,
    sidechain: boolean,
    origin: Origin,
    file: string | null,
    timestamp: string | undefined = r.timestamp,
  ): void {
    const parsed = parseUserMessage(r.message);
    if (!parsed.success || parsed.data.content === undefined) {
      this.note(
        "user-no-content",
        "claude-invalid-record",
        "warning",
        line,
        "user record(s) without message content skipped",
        file,
      );
      return;
    }
    const content = parsed.data.content;

    if (Array.isArray(content)) {
      const toolResults = [];
      for (const block of content) {
        const tr = parseToolResultBlock(block);
        if (tr.success) toolResults.push(tr.data);
      }
      if (toolResults.length > 0) {
        const single = toolResults.length === 1;
        if (!single && r.toolUseResult !== undefined) {
          this.note(
            "multi-result",
            "claude-shared-tool-use-result",
            "info",
            line,
            "record(s) with several tool_result blocks and one toolUseResult: toolUseResult not used",
            file,
          );
        }
        for (const tr of toolResults) {
          const id = tr.tool_use_id;
          if (this.results.has(id)) {
            this.note(
              `dup-result:${origin}`,
              "claude-duplicate-tool-result",
              "info",
              line,
              "repeated tool_result(s) for an already answered call ignored",
              file,
            );
            continue;
          }
          const isError = tr.is_error === true;
          const toolUseResult = single ? r.toolUseResult : undefined;
          const task = parseTaskResult(toolUseResult);
          if (task.success && task.data.agentId !== undefined && !this.agentTask.has(task.data.agentId))
            this.agentTask.set(task.data.agentId, id);
          if (task.success && task.data.agentId !== undefined && !this.taskResultAgents.has(task.data.agentId)) {
            const uses = (toolUseResult as { totalToolUseCount?: unknown }).totalToolUseCount;
            this.taskResultAgents.set(task.data.agentId, { line, toolUses: typeof uses === "number" ? uses : null });
          }
          const call = this.calls.get(id);
          if (call === undefined) this.orphanResults.push({ id, record: line, origin, file });
          // A successful result of a call that edits no file is only a success flag:
          // not keeping its text (a Read's whole file, twice) keeps long sessions small.
          const failed = isError || typeof toolUseResult === "string";
          const slim = call !== undefined && !failed && !CLAUDE_FILE_EDIT_TOOLS.includes(call.name);
          if (!failed) this.bashEditDiff(toolUseResult, line, file);
          this.results.set(id, {
            record: line,
            timestamp: timestamp ?? null,
            isError,
            text: slim ? "" : resultText(tr.content),
            toolUseResult: slim ? undefined : toolUseResult,
            origin,
          });
        }
        return;
      }
    }

    // Not a tool result: a prompt, or something that looks like one.
    if (origin !== "main" || sidechain) {
      this.note(
        `sidechain-prompt:${file}`,
        "claude-sidechain-prompt",
        "info",
        line,
        "sub-agent prompt or text record(s) (isSidechain, agent_progress, subagents/*.jsonl) not counted as prompts",
        file,
      );
      return;
    }
    this.promptText(content, r, line, file, timestamp);
  }

  /** A user's words (a `user` record's content, or a prompt queued mid-turn): a turn, unless it only looks like a prompt. */
  promptText(
    content: string | readonly unknown[],
    r: RawRecord,
    line: number,
    file: string | null,
    timestamp: string | undefined,
  ): void {
    let text: string;
    let hasImage = false;
    if (typeof content === "string") text = content;
    else {
      const parts: string[] = [];
      for (const block of content) {
        const tb = parseTextBlock(block);
        if (tb.success) parts.push(tb.data.text);
        else if (isObject(block) && block.type === "image") hasImage = true;
      }
      text = parts.join("\n");
    }
    if (r.isMeta === true) {
      this.note(
        "meta",
        "claude-meta-record",
        "info",
        line,
        "isMeta user record(s) (caveats, skill or hook text) not counted as prompts",
        file,
      );
      return;
    }
    const why = notAPrompt(text);
    if (r.isCompactSummary === true || why === "compact") {
      this.note(
        "compact",
        "claude-compact-summary",
        "info",
        line,
        "compaction summary record(s) (model-written, not typed) not counted as prompts",
        file,
      );
      return;
    }
    if (why === "interrupt") {
      this.note(
        "interrupt",
        "claude-interrupt-marker",
        "info",
        line,
        `"[Request interrupted by user…]" marker(s) not counted as prompts`,
        file,
      );
      return;
    }
    if (why === "command") {
      this.note(
        "command",
        "claude-command-record",
        "info",
        line,
        "slash-command or local-command record(s) (<command-name>, <local-command-stdout>, …) not counted as prompts",
        file,
      );
      return;
    }
    if (why === "empty" && !hasImage) {
      this.note(
        "empty-prompt",
        "claude-empty-prompt",
        "info",
        line,
        "user record(s) with no text not counted as prompts",
        file,
      );
      return;
    }
    this.turns.push({ index: this.turns.length, text, timestamp: timestamp ?? null, record: line });
  }

  /** One record of a `subagents/agent-*.jsonl` file, placed at a parent line. */
  subagentRecord(rec: JsonlRecord, file: string, place: LineMapper): void {
    const parsed = parseRecord(rec.value);
    if (!parsed.success) {
      this.diag("warning", "claude-invalid-record", `line ${rec.line}: not a Claude Code record`, rec.line, file);
      return;
    }
    const r = parsed.data;
    this.envelope(r, rec.line, "subagent");
    const line = place(r.timestamp ?? null);
    if (r.type === "assistant") this.assistant(r, line, true, "subagent", file);
    else if (r.type === "user") this.user(r, line, true, "subagent", file);
    else if (r.type === undefined)
      this.note(
        `no-type:${file}`,
        "claude-record-without-type",
        "warning",
        rec.line,
        "record(s) without a `type` field skipped",
        file,
      );
    else if (!KNOWN_RECORD_TYPES.has(r.type)) {
      this.note(
        `type:${file}:${r.type}`,
        "claude-unknown-record-type",
        "info",
        rec.line,
        `record(s) of unknown type "${r.type}" skipped`,
        file,
      );
    }
  }

  /**
   * Places records of a sub-agent file on the parent transcript's lines: the
   * last parent line whose timestamp is not later than the record's, kept
   * between the Task call and its result when the Task is known.
   */
  mapper(agentId: string | null, lastLine: number): { place: LineMapper; lo: number; hi: number; linked: boolean } {
    const taskId = agentId !== null ? this.agentTask.get(agentId) : undefined;
    const call = taskId !== undefined ? this.calls.get(taskId) : undefined;
    const result = taskId !== undefined ? this.results.get(taskId) : undefined;
    const lo = call?.record ?? 1;
    const hi = result?.record ?? lastLine;
    const times = this.mainTimes;
    const runMax: number[] = [];
    let m = -Infinity;
    for (const x of times) {
      m = Math.max(m, x.t);
      runMax.push(m);
    }
    const place: LineMapper = (timestamp) => {
      const t = timestamp !== null ? Date.parse(timestamp) : NaN;
      let line = hi;
      if (Number.isFinite(t) && times.length > 0) {
        let a = 0;
        let b = times.length - 1;
        let found = -1;
        while (a <= b) {
          const mid = (a + b) >> 1;
          if (runMax[mid] <= t) {
            found = mid;
            a = mid + 1;
          } else b = mid - 1;
        }
        line = found === -1 ? lo : times[found].line;
      }
      return Math.min(Math.max(line, lo), hi);
    };
    return { place, lo, hi, linked: call !== undefined };
  }

  // ---- assembly ----------------------------------------------------------

  toolCalls(): ToolCall[] {
    const out: ToolCall[] = [];
    // A call after the last logged result was still running when the copy was taken (Entire's checkpoint of a
    // commit the agent makes through Bash ends there): expected, not a lost result.
    let lastResult = -1;
    for (const r of this.results.values()) if (r.record > lastResult) lastResult = r.record;
    for (const call of this.calls.values()) {
      const result = this.results.get(call.id);
      let success: boolean | null = null;
      let error: string | null = null;
      if (result !== undefined) {
        const stringResult = typeof result.toolUseResult === "string";
        success = !(result.isError || stringResult);
        if (!success) error = shorten(stripErrorTags(stringResult ? (result.toolUseResult as string) : result.text));
      } else {
        const pending = call.record > lastResult;
        this.diag(
          pending ? "info" : "warning",
          "claude-tool-call-without-result",
          `${call.name} call ${call.id} (line ${call.record}${call.origin === "main" ? "" : `, ${call.origin}`}) has no logged result` +
            (pending
              ? ": the transcript ends while it runs (a copy taken mid-call, e.g. Entire's checkpoint of a commit the agent makes); not replayed"
              : ""),
          call.record,
          call.file,
        );
      }
      const fileEdits =
        CLAUDE_FILE_EDIT_TOOLS.includes(call.name) && success !== false ? this.fileEdits(call, result) : [];
      out.push({
        id: call.id,
        name: call.name,
        input: call.input,
        timestamp: call.timestamp,
        record: call.record,
        result_record: result?.record ?? null,
        result_timestamp: result?.timestamp ?? null,
        success,
        error,
        sidechain: call.sidechain,
        file_edits: fileEdits,
      });
    }
    for (const o of this.orphanResults) {
      if (this.calls.has(o.id)) continue; // the call came later (sub-agent mirrors can be out of order)
      this.diag(
        "warning",
        "claude-tool-result-without-call",
        `tool_result for ${o.id} at line ${o.record} has no tool_use in the log`,
        o.record,
        o.file,
      );
    }
    return stableSortBy(out, (c) => c.record);
  }

  fileEdits(call: CallDraft, result: ResultDraft | undefined): FileEdit[] {
    const inputParsed = parseFileToolInput(call.input);
    const input: FileToolInput = inputParsed.success ? inputParsed.data : {};
    const turParsed = parseFileToolResult(result?.toolUseResult);
    const tur: FileToolResult | null = turParsed.success ? turParsed.data : null;
    const path = input.file_path ?? input.abs_path ?? input.notebook_path ?? tur?.filePath;
    if (path === undefined || path === "") {
      this.diag(
        "warning",
        "claude-edit-without-path",
        `${call.name} call ${call.id} names no file; no file edit recorded`,
        call.record,
        call.file,
      );
      return [];
    }
    const userModified = tur?.userModified === true;
    const name = call.name;

    if (name === "NotebookEdit") {
      this.note(
        "notebook",
        "claude-notebook-edit",
        "info",
        call.record,
        "NotebookEdit call(s): one notebook cell changed, no post-image (unreplayable as lines)",
        call.file,
      );
      return [
        {
          path,
          kind: "notebook",
          pre_image: typeof tur?.originalFile === "string" ? tur.originalFile : null,
          post_image: null,
          edits: null,
          patch: null,
          user_modified: userModified,
        },
      ];
    }

    if (name === "Write" || name === "mcp__acp__Write") {
      const pre = tur?.type === "create" ? "" : typeof tur?.originalFile === "string" ? tur.originalFile : null;
      const post = tur?.content ?? input.content ?? null;
      if (post !== null && pre !== null && (tur?.structuredPatch?.length ?? 0) > 0)
        this.checkPatch(call, pre, post, tur);
      return [
        {
          path,
          kind: "write",
          pre_image: pre,
          post_image: post,
          edits: null,
          patch: null,
          user_modified: userModified,
        },
      ];
    }

    // Edit, MultiEdit, mcp__acp__Edit (which may carry `edits[]`).
    const multi = name === "MultiEdit" || (input.old_string === undefined && input.edits !== undefined);
    // The result's strings are what was written (metrics.md §3.2); the input's are the model's proposal, which
    // differs when the person changed it before accepting (`userModified`).
    const edits: StringEdit[] | null = multi
      ? toEdits(tur?.edits ?? input.edits)
      : tur?.oldString !== undefined && tur.newString !== undefined
        ? [
            {
              old_string: tur.oldString,
              new_string: tur.newString,
              replace_all: tur.replaceAll ?? input.replace_all ?? false,
            },
          ]
        : input.old_string !== undefined && input.new_string !== undefined
          ? [{ old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all ?? false }]
          : null;
    const pre = multi
      ? (tur?.originalFileContents ?? (typeof tur?.originalFile === "string" ? tur.originalFile : null))
      : typeof tur?.originalFile === "string"
        ? tur.originalFile
        : (tur?.originalFileContents ?? null);

    // Post-image from the tool's own record of what it replaced.
    let post: string | null = null;
    const applied: StringEdit[] | null = multi
      ? tur?.edits !== undefined
        ? toEdits(tur.edits)
        : null
      : tur?.oldString !== undefined && tur.newString !== undefined
        ? [
            {
              old_string: tur.oldString,
              new_string: tur.newString,
              replace_all: tur.replaceAll ?? input.replace_all ?? false,
            },
          ]
        : null;
    if (pre !== null && applied !== null) {
      const r = applyClaudeEdits(pre, applied);
      if (r.ok) {
        post = r.text;
        if (r.quoteNormalized) {
          this.note(
            "quotes",
            "claude-edit-quote-normalized",
            "info",
            call.record,
            "edit(s) whose old_string matched only after curly quotes were straightened (as Claude Code does)",
            call.file,
          );
        }
        if ((tur?.structuredPatch?.length ?? 0) > 0) this.checkPatch(call, pre, post, tur);
      } else {
        // Not yet a loss: replay re-applies the edit to its own state (matching a CRLF file on LF, as the
        // tools show it) and reports `edit-unreplayable` only if that fails too.
        this.diag(
          "info",
          "claude-edit-not-reproducible",
          `${name} call ${call.id}: ${r.reason} in the logged original file; no post-image from the log (replay re-applies the edit to its own state, and says so if that fails too)`,
          result?.record ?? call.record,
          call.file,
        );
      }
    }
    return [
      {
        path,
        kind: multi ? "multi-edit" : "edit",
        pre_image: pre,
        post_image: post,
        edits,
        patch: null,
        user_modified: userModified,
      },
    ];
  }

  /** The line-count change implied by `structuredPatch` must match pre → post (a cheap self-check). */
  checkPatch(call: CallDraft, pre: string, post: string, tur: FileToolResult | null): void {
    const hunks = tur?.structuredPatch ?? [];
    let delta = 0;
    for (const h of hunks) delta += h.newLines - h.oldLines;
    const actual = diffLineCount(post) - diffLineCount(pre);
    if (delta !== actual) {
      this.diag(
        "info",
        "claude-edit-patch-mismatch",
        `${call.name} call ${call.id}: structuredPatch changes the line count by ${delta}, the computed post-image by ${actual}`,
        call.record,
        call.file,
      );
    }
  }

  apiCalls(): ApiCall[] {
    const out: ApiCall[] = [];
    const usedIds = new Set<string>();
    for (const g of this.groups.values()) {
      let id = g.messageId;
      if (usedIds.has(id)) id = `${g.messageId}#${g.requestId ?? g.record}`;
      usedIds.add(id);
      out.push({
        id,
        model: g.model,
        timestamp: g.timestamp,
        record: g.record,
        sidechain: g.sidechain,
        usage: normaliseUsage(g.usage),
        speed: g.usage?.speed ?? null,
      });
    }
    return stableSortBy(out, (c) => c.record);
  }
}

/**
 * Parses one Claude Code session. Returns null (with an error diagnostic)
 * when the transcript holds no Claude Code records at all.
 */
export function parseClaudeCodeTranscript(input: ClaudeCodeTranscriptInput, sink: DiagnosticSink): Session | null {
  const firstRow = sink.rows.length;
  let session: Session | null = null;
  try {
    session = parse(input, sink);
  } catch (e) {
    sink.add(
      "error",
      "claude-internal-error",
      `the Claude Code parser failed: ${e instanceof Error ? e.message : String(e)}`,
      null,
      input.file !== null ? { file: input.file } : {},
    );
    session = null;
  }
  // Rows written before the session id was known get it now.
  const sessionId = session?.session_id ?? null;
  for (let i = firstRow; i < sink.rows.length; i++) {
    const row = sink.rows[i];
    if (row.session_id === null && sessionId !== null) row.session_id = sessionId;
    if (row.file === null && input.file !== null) row.file = input.file;
  }
  return session;
}

function parse(input: ClaudeCodeTranscriptInput, sink: DiagnosticSink): Session | null {
  const mainFile = input.file ?? sink.file;
  const p = new Parser(sink, mainFile);
  const mainSink = new DiagnosticSink(sink.source, mainFile, sink.sessionId);
  // Streamed: records are handled as they are read, never all held at once.
  const stats = emptyJsonlStats();
  let known = 0;
  let lastLine = 0;
  forEachJsonl(
    input.text,
    mainSink,
    (rec) => {
      if (typeof rec.value.type === "string" && KNOWN_RECORD_TYPES.has(rec.value.type)) known++;
      lastLine = rec.line;
      p.mainRecord(rec);
    },
    {},
    stats,
  );
  for (const row of mainSink.rows) sink.rows.push(row);
  if (stats.records === 0) {
    p.diag(
      "error",
      "claude-no-records",
      stats.prettyPrinted
        ? "the transcript is one JSON document, not Claude Code JSONL"
        : "the transcript holds no readable records",
      null,
    );
    return null;
  }
  if (known === 0) {
    p.notes.clear();
    p.diag(
      "error",
      "claude-not-claude-code",
      `none of the ${stats.records} records has a Claude Code record type`,
      null,
    );
    return null;
  }

  // Sub-agent files (2.x): placed on parent lines, deduplicated against agent_progress mirrors.
  for (const sub of input.subagents ?? []) {
    const subSink = new DiagnosticSink(sink.source, sub.file, sink.sessionId);
    const read = readJsonl(sub.text, subSink);
    for (const row of subSink.rows) sink.rows.push(row);
    if (read.records.length === 0) {
      p.diag("warning", "claude-subagent-empty", `sub-agent file has no readable records`, null, sub.file);
      continue;
    }
    const agentId = subagentId(sub.file) ?? firstString(read.records, "agentId");
    if (agentId !== null) p.agentsWithRecords.add(agentId);
    const { place, lo, hi, linked } = p.mapper(agentId, lastLine);
    const callsBefore = p.calls.size;
    const groupsBefore = p.groups.size;
    for (const rec of read.records) p.subagentRecord(rec, sub.file, place);
    p.diag(
      "info",
      linked ? "claude-subagent-lines-mapped" : "claude-subagent-unlinked",
      `${read.records.length} record(s) of sub-agent ${agentId ?? "(unknown id)"} placed on parent lines ${lo}–${hi} by timestamp` +
        (linked ? " (between its Task call and result)" : " (no Task call with this agentId found in the parent)") +
        `; ${p.calls.size - callsBefore} new tool call(s), ${p.groups.size - groupsBefore} new API call(s) after deduplication`,
      null,
      sub.file,
    );
  }

  // A sub-agent that used tools but left no records here (no agent_progress mirror, its
  // subagents/agent-<id>.jsonl not given: Entire copies only the main transcript): whatever it
  // edited is not replayed, and its committed lines count as human.
  const unseen = [...p.taskResultAgents].filter(([id, a]) => !p.agentsWithRecords.has(id) && a.toolUses !== 0);
  if (unseen.length > 0) {
    p.diag(
      "info",
      "claude-subagent-records-missing",
      `${unseen.length} sub-agent(s) (${unseen.map(([id]) => id).join(", ")}) with no records in the inputs (no agent_progress, no subagents/agent-<id>.jsonl): any file they edited is not replayed; first at line ${unseen[0][1].line}`,
      unseen[0][1].line,
    );
  }

  const toolCalls = p.toolCalls();
  const apiCalls = p.apiCalls();
  p.flushNotes();

  // Session id: the file name when it is one of the logged ids, else the first logged id, else the file name.
  const base = input.file !== null ? baseName(input.file) : null;
  let sessionId: string;
  if (base !== null && p.sessionIds.includes(base)) sessionId = base;
  else if (p.sessionIds.length > 0) sessionId = p.sessionIds[0];
  else if (base !== null && base !== "") {
    sessionId = base;
    p.diag("warning", "claude-no-session-id", `no record names a sessionId; using the file name "${base}"`, null);
  } else {
    sessionId = "unknown";
    p.diag(
      "warning",
      "claude-no-session-id",
      'no record names a sessionId and there is no file name; session id set to "unknown"',
      null,
    );
  }
  if (p.sessionIds.length > 1) {
    p.diag(
      "info",
      "claude-multiple-session-ids",
      `records name ${p.sessionIds.length} session ids (${p.sessionIds.slice(0, 3).join(", ")}${p.sessionIds.length > 3 ? ", …" : ""}), e.g. a resumed session; using ${sessionId}`,
      null,
    );
  }
  if (p.versions.length > 1) {
    p.diag(
      "info",
      "claude-multiple-versions",
      `records name ${p.versions.length} Claude Code versions (${p.versions.join(", ")}); agent_version is the first`,
      null,
    );
  }

  const times = p.times.slice().sort((a, b) => a - b);
  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: "claude-code",
    agent: "Claude Code",
    agent_version: p.versions[0] ?? null,
    transcript: input.file,
    cwds: p.cwds,
    branch: p.branch,
    turns: p.turns,
    tool_calls: toolCalls,
    api_calls: apiCalls,
    record_times: times,
    record_count: stats.lines,
  };
}

// ---- helpers ---------------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: number | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
}

/** Claude usage → the model's Usage (input is uncached already; cache writes split 5 min / 1 h). */
export function normaliseUsage(u: RawUsage | undefined): Usage {
  const cc = u?.cache_creation;
  const fiveMin = num(cc?.ephemeral_5m_input_tokens);
  const oneHour = num(cc?.ephemeral_1h_input_tokens);
  const creation =
    u?.cache_creation_input_tokens !== undefined ? num(u.cache_creation_input_tokens) : fiveMin + oneHour;
  return {
    input_tokens: num(u?.input_tokens),
    output_tokens: num(u?.output_tokens),
    cache_creation_tokens: creation,
    cache_creation_1h_tokens: Math.min(oneHour, creation),
    cache_read_tokens: num(u?.cache_read_input_tokens),
    reasoning_tokens: 0,
  };
}

/** Text of a tool_result's content: a string, or the text blocks joined. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const b of content) if (isObject(b) && typeof b.text === "string") parts.push(b.text);
    return parts.join("\n");
  }
  return "";
}

function stripErrorTags(s: string): string {
  return s.replace(/<\/?tool_use_error>/g, "").trim();
}

export function shorten(s: string, max = ERROR_MAX): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function toEdits(raw: RawStringEdit[] | undefined): StringEdit[] | null {
  if (raw === undefined) return null;
  return raw.map((e) => ({ old_string: e.old_string, new_string: e.new_string, replace_all: e.replace_all ?? false }));
}

/** Lines as jsdiff's structuredPatch counts them: a final newline ends the last line, it does not start another. */
function diffLineCount(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * Sorted by `key`, ties in input order. Usually the input is in order already
 * and comes back as is. Built with `push` so the array stays packed:
 * `Array.prototype.map` can return a holey array, and one holey `tool_calls`
 * among packed ones made V8 throw away the optimized code of everything that
 * reads sessions (a measured warm-up cost per worker thread).
 */
function stableSortBy<T>(items: T[], key: (t: T) => number): T[] {
  let inOrder = true;
  for (let i = 1; i < items.length && inOrder; i++) inOrder = key(items[i - 1]) <= key(items[i]);
  if (inOrder) return items;
  const keyed: { item: T; i: number; k: number }[] = [];
  for (let i = 0; i < items.length; i++) keyed.push({ item: items[i], i, k: key(items[i]) });
  keyed.sort((a, b) => a.k - b.k || a.i - b.i);
  const out: T[] = [];
  for (const x of keyed) out.push(x.item);
  return out;
}

function baseName(file: string): string {
  const name = file.split(/[\\/]/).pop() ?? file;
  return name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
}

/** `agent-<agentId>.jsonl` → agentId. */
function subagentId(file: string): string | null {
  const m = /(?:^|[\\/])agent-([^\\/]+)\.jsonl$/.exec(file);
  return m !== null ? m[1] : null;
}

function firstString(records: JsonlRecord[], key: string): string | null {
  for (const r of records) {
    const v = r.value[key];
    if (typeof v === "string" && v !== "") return v;
  }
  return null;
}
