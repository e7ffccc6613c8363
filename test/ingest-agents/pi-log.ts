/**
 * Builds Pi session files for tests, entry by entry, in the shape Pi writes
 * them (badlogic/pi-mono session-manager.ts `appendMessage` & co.: keys in
 * that order, 8-hex ids, `parentId` = the current leaf). Written by hand for
 * this project; no Pi fixture is copied.
 */

export interface PiUsageIn {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Default: the sum of the four (what Pi's Anthropic provider writes). */
  totalTokens?: number;
}

type Part = Record<string, unknown>;

export const text = (t: string): Part => ({ type: "text", text: t });
export const thinking = (t: string): Part => ({ type: "thinking", thinking: t });
export const toolCall = (id: string, name: string, args: Record<string, unknown>): Part => ({
  type: "toolCall",
  id,
  name,
  arguments: args,
});

export class PiLog {
  readonly lines: string[] = [];
  private next = 1;
  private seconds = 0;
  private readonly start: number;
  /** The id of the last entry appended (Pi's leaf), or the entry `branchFrom` moved it to. */
  leaf: string | null = null;
  readonly model: string;
  readonly provider: string;

  constructor(opts: {
    id: string;
    cwd: string;
    start: string;
    version?: number;
    model?: string;
    provider?: string;
    parentSession?: string;
    header?: boolean;
  }) {
    this.start = Date.parse(opts.start);
    this.model = opts.model ?? "claude-sonnet-4-6";
    this.provider = opts.provider ?? "anthropic";
    if (opts.header !== false) {
      this.lines.push(
        JSON.stringify({
          type: "session",
          version: opts.version ?? 3,
          id: opts.id,
          timestamp: this.iso(),
          cwd: opts.cwd,
          ...(opts.parentSession ? { parentSession: opts.parentSession } : {}),
        }),
      );
    }
  }

  /** The next entries carry this time: `start` + `s` seconds. */
  at(s: number): this {
    this.seconds = s;
    return this;
  }

  /** Moves the leaf back to an earlier entry (Pi's `branch(id)`): the next entry is its child. */
  branchFrom(id: string | null): this {
    this.leaf = id;
    return this;
  }

  private iso(): string {
    return new Date(this.start + this.seconds * 1000).toISOString();
  }

  private entry(type: string, fields: Record<string, unknown>, id?: string): string {
    const entryId = id ?? (this.next++).toString(16).padStart(8, "0");
    this.lines.push(JSON.stringify({ type, id: entryId, parentId: this.leaf, timestamp: this.iso(), ...fields }));
    this.leaf = entryId;
    return entryId;
  }

  modelChange(modelId = this.model, provider = this.provider): string {
    return this.entry("model_change", { provider, modelId });
  }

  thinkingLevel(level: string): string {
    return this.entry("thinking_level_change", { thinkingLevel: level });
  }

  user(content: string | Part[], id?: string): string {
    return this.entry(
      "message",
      {
        message: {
          role: "user",
          content: typeof content === "string" ? [text(content)] : content,
          timestamp: this.start + this.seconds * 1000,
        },
      },
      id,
    );
  }

  assistant(
    content: Part[],
    usage: PiUsageIn,
    opts: { stopReason?: string; model?: string | null; errorMessage?: string; id?: string } = {},
  ): string {
    const u = { cacheRead: 0, cacheWrite: 0, ...usage };
    const total = usage.totalTokens ?? u.input + u.output + u.cacheRead + u.cacheWrite;
    const stop = opts.stopReason ?? (content.some((p) => p.type === "toolCall") ? "toolUse" : "stop");
    const message: Record<string, unknown> = {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: this.provider,
      ...(opts.model === null ? {} : { model: opts.model ?? this.model }),
      usage: {
        input: u.input,
        output: u.output,
        cacheRead: u.cacheRead,
        cacheWrite: u.cacheWrite,
        totalTokens: total,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: stop,
      ...(opts.errorMessage ? { errorMessage: opts.errorMessage } : {}),
      timestamp: this.start + this.seconds * 1000,
    };
    return this.entry("message", { message }, opts.id);
  }

  result(toolCallId: string, toolName: string, output: string, isError = false, details?: unknown): string {
    return this.entry("message", {
      message: {
        role: "toolResult",
        toolCallId,
        toolName,
        content: [text(output)],
        ...(details === undefined ? {} : { details }),
        isError,
        timestamp: this.start + this.seconds * 1000,
      },
    });
  }

  /** Any other entry type, with Pi's base fields added. */
  other(type: string, fields: Record<string, unknown>): string {
    return this.entry(type, fields);
  }

  /** A raw line, as given. */
  raw(line: string): this {
    this.lines.push(line);
    return this;
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}
