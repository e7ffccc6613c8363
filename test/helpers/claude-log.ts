/** Builds Claude Code 2.x transcript records for tests, shaped after the real records of formats.md §2. */

let clock = Date.parse("2026-03-02T10:00:00.000Z");
const tick = (seconds = 5) => new Date((clock += seconds * 1000)).toISOString();

export interface LogContext {
  sessionId: string;
  cwd: string;
  version?: string;
}

export class ClaudeLog {
  readonly lines: string[] = [];
  private n = 0;
  constructor(readonly ctx: LogContext) {}

  private env() {
    return {
      parentUuid: null,
      isSidechain: false,
      userType: "external",
      cwd: this.ctx.cwd,
      sessionId: this.ctx.sessionId,
      version: this.ctx.version ?? "2.1.30",
      gitBranch: "main",
      uuid: `u-${++this.n}`,
      timestamp: tick(),
    };
  }

  prompt(text: string): this {
    this.lines.push(JSON.stringify({ ...this.env(), type: "user", message: { role: "user", content: text } }));
    return this;
  }

  /** One tool call streamed as two records (text block, then tool_use block with the final usage). */
  call(id: string, name: string, input: unknown, output = 40): this {
    const msg = `msg_${id}`;
    const usage = (out: number) => ({
      input_tokens: 10,
      cache_creation_input_tokens: 100,
      cache_read_input_tokens: 1000,
      output_tokens: out,
    });
    const base = { type: "assistant", requestId: `req_${id}` };
    this.lines.push(
      JSON.stringify({
        ...this.env(),
        ...base,
        message: {
          id: msg,
          model: "claude-sonnet-4-5-20250929",
          role: "assistant",
          type: "message",
          content: [{ type: "text", text: "Working on it." }],
          usage: usage(3),
        },
      }),
    );
    this.lines.push(
      JSON.stringify({
        ...this.env(),
        ...base,
        message: {
          id: msg,
          model: "claude-sonnet-4-5-20250929",
          role: "assistant",
          type: "message",
          content: [{ type: "tool_use", id, name, input }],
          usage: usage(output),
        },
      }),
    );
    return this;
  }

  result(id: string, toolUseResult: unknown, isError = false): this {
    const content = isError ? `<tool_use_error>${String(toolUseResult)}</tool_use_error>` : "ok";
    this.lines.push(
      JSON.stringify({
        ...this.env(),
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
        },
        toolUseResult,
      }),
    );
    return this;
  }

  /** A sub-agent's call and result mirrored into the parent as `agent_progress` records. */
  subagentCall(id: string, name: string, input: unknown, toolUseResult: unknown): this {
    const nested = (message: unknown) => ({
      ...this.env(),
      type: "progress",
      data: { type: "agent_progress", agentId: "a1", prompt: "help", normalizedMessages: [], message },
      toolUseID: "agent_msg_1",
      parentToolUseID: "toolu_task",
    });
    this.lines.push(
      JSON.stringify(
        nested({
          type: "assistant",
          requestId: `req_${id}`,
          uuid: `n-${id}`,
          timestamp: tick(1),
          message: {
            id: `msg_${id}`,
            model: "claude-haiku-4-5",
            role: "assistant",
            content: [{ type: "tool_use", id, name, input }],
            usage: { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 20 },
          },
        }),
      ),
    );
    this.lines.push(
      JSON.stringify(
        nested({
          type: "user",
          uuid: `r-${id}`,
          timestamp: tick(1),
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
          toolUseResult,
        }),
      ),
    );
    return this;
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

export const editResult = (filePath: string, originalFile: string, oldString: string, newString: string) => ({
  filePath,
  oldString,
  newString,
  originalFile,
  structuredPatch: [],
  userModified: false,
  replaceAll: false,
});
export const writeResult = (filePath: string, content: string, originalFile: string | null) => ({
  type: originalFile === null ? "create" : "update",
  filePath,
  content,
  structuredPatch: [],
  originalFile,
});
