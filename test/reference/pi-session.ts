/**
 * Pi session files for tests (pi.test.ts and the differential fuzzer): Pi's native JSONL as
 * session-manager.ts writes it (a `session` header, then entries `{type, id, parentId, timestamp}`;
 * messages in pi-ai's shape: assistant `content` with `toolCall` blocks and `usage`, `toolResult`
 * messages with `toolCallId` and `isError`). Times are seconds after `PI_T0`.
 */
export const PI_ROOT = "/home/dev/proj";
export const PI_T0 = Date.UTC(2026, 0, 1, 10, 30, 0);
const iso = (s: number): string => new Date(PI_T0 + s * 1000).toISOString();

export type PiEntry = Record<string, unknown>;

export interface PiUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

export interface PiToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A session in file order; each entry's parent is the previous entry unless `parent` says otherwise (a branch). */
export class PiSession {
  readonly entries: PiEntry[] = [];
  private last: string | null = null;
  private n = 0;

  constructor(
    readonly id: string,
    cwd: string = PI_ROOT,
    at = 0,
  ) {
    this.entries.push({ type: "session", version: 3, id, timestamp: iso(at), cwd });
  }

  private add(at: number, fields: PiEntry, parent?: string | null): string {
    const id = `e${(this.n += 1).toString(16).padStart(7, "0")}`;
    this.entries.push({ ...fields, id, parentId: parent === undefined ? this.last : parent, timestamp: iso(at) });
    this.last = id;
    return id;
  }

  modelChange(at: number, modelId: string, provider = "anthropic"): string {
    return this.add(at, { type: "model_change", provider, modelId });
  }

  user(at: number, text: string, parent?: string | null): string {
    return this.add(
      at,
      { type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: PI_T0 + at * 1000 } },
      parent,
    );
  }

  assistant(
    at: number,
    opts: { model?: string; usage?: PiUsage; text?: string; calls?: PiToolCall[] },
    parent?: string | null,
  ): string {
    const content: unknown[] = [];
    if (opts.text) content.push({ type: "text", text: opts.text });
    for (const c of opts.calls ?? [])
      content.push({ type: "toolCall", id: c.id, name: c.name, arguments: c.arguments });
    const u = opts.usage ?? { input: 0, output: 0 };
    const usage = { input: u.input, output: u.output, cacheRead: u.cacheRead ?? 0, cacheWrite: u.cacheWrite ?? 0 };
    const message: PiEntry = {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      usage: {
        ...usage,
        totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: (opts.calls ?? []).length > 0 ? "toolUse" : "stop",
      timestamp: PI_T0 + at * 1000,
    };
    if (opts.model) message.model = opts.model;
    return this.add(at, { type: "message", message }, parent);
  }

  result(
    at: number,
    call: PiToolCall,
    opts: { isError?: boolean; text?: string } = {},
    parent?: string | null,
  ): string {
    const text =
      opts.text ??
      (opts.isError
        ? "Error"
        : call.name === "write"
          ? `Successfully wrote to ${String(call.arguments.path)}`
          : `Successfully replaced text in ${String(call.arguments.path)}.`);
    return this.add(
      at,
      {
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text }],
          isError: opts.isError === true,
          timestamp: PI_T0 + at * 1000,
        },
      },
      parent,
    );
  }

  get lastId(): string | null {
    return this.last;
  }

  /** The JSONL text of the first `lines` lines (all by default), each line ending in a newline. */
  text(lines = this.entries.length): string {
    return this.entries
      .slice(0, lines)
      .map((e) => `${JSON.stringify(e)}\n`)
      .join("");
  }
}

export const piWrite = (id: string, path: string, content: string): PiToolCall => ({
  id,
  name: "write",
  arguments: { path, content },
});
export const piEdit = (id: string, path: string, oldText: string, newText: string): PiToolCall => ({
  id,
  name: "edit",
  arguments: { path, oldText, newText },
});
export const piMultiEdit = (id: string, path: string, edits: { oldText: string; newText: string }[]): PiToolCall => ({
  id,
  name: "edit",
  arguments: { path, edits },
});
export const piBash = (id: string, command: string): PiToolCall => ({ id, name: "bash", arguments: { command } });
