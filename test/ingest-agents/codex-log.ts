/**
 * Builds Codex rollouts line by line for tests, in the envelope shape of
 * the real samples (`c3/b191fe1158/0/full.jsonl`): session_meta,
 * turn_context, event_msg user_message, custom_tool_call apply_patch with
 * its patch_apply_end, function_call exec_command with exec_command_end,
 * token_count. Timestamps advance one second per line.
 */
export class CodexLog {
  readonly lines: string[] = [];
  private t: number;

  constructor(readonly options: { id: string; cwd: string; model?: string; start?: string }) {
    this.t = Date.parse(options.start ?? "2026-03-02T10:00:00.000Z");
  }

  private at(): string {
    this.t += 1000;
    return new Date(this.t).toISOString();
  }

  env(type: string, payload: Record<string, unknown>): this {
    this.lines.push(JSON.stringify({ timestamp: this.at(), type, payload }));
    return this;
  }

  meta(extra: Record<string, unknown> = {}): this {
    return this.env("session_meta", {
      id: this.options.id,
      timestamp: this.at(),
      cwd: this.options.cwd,
      originator: "codex-tui",
      cli_version: "0.123.0",
      source: "cli",
      git: { branch: "main" },
      ...extra,
    });
  }

  turn(model = this.options.model ?? "gpt-5.4"): this {
    return this.env("turn_context", { turn_id: "t1", cwd: this.options.cwd, model });
  }

  /** The injected AGENTS.md / environment message, then the person's prompt as both a message and the user_message event. */
  prompt(text: string): this {
    this.env("response_item", {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: `<environment_context>\n  <cwd>${this.options.cwd}</cwd>\n</environment_context>` },
      ],
    });
    this.env("response_item", { type: "message", role: "user", content: [{ type: "input_text", text }] });
    return this.env("event_msg", { type: "user_message", message: text, images: [] });
  }

  /** apply_patch as a custom tool call, its patch_apply_end (`changes` keyed by absolute path) and its output. */
  patch(callId: string, patchText: string, changes: Record<string, unknown>, success = true, stderr = ""): this {
    this.env("response_item", {
      type: "custom_tool_call",
      status: "completed",
      call_id: callId,
      name: "apply_patch",
      input: patchText,
    });
    this.env("event_msg", {
      type: "patch_apply_end",
      call_id: callId,
      turn_id: "t1",
      stdout: success ? "Success." : "",
      stderr,
      success,
      changes,
      status: success ? "completed" : "failed",
    });
    return this.env("response_item", {
      type: "custom_tool_call_output",
      call_id: callId,
      output: JSON.stringify({ output: success ? "Success." : stderr, metadata: { exit_code: success ? 0 : 1 } }),
    });
  }

  exec(callId: string, cmd: string, exitCode = 0): this {
    this.env("response_item", {
      type: "function_call",
      name: "exec_command",
      arguments: JSON.stringify({ cmd, workdir: this.options.cwd }),
      call_id: callId,
    });
    this.env("event_msg", {
      type: "exec_command_end",
      call_id: callId,
      command: ["/bin/zsh", "-lc", cmd],
      exit_code: exitCode,
      stdout: "",
      stderr: exitCode === 0 ? "" : "boom",
    });
    return this.env("response_item", {
      type: "function_call_output",
      call_id: callId,
      output: `Process exited with code ${exitCode}\nOutput:\n`,
    });
  }

  tokens(total: Usage | null, last: Usage | null = total): this {
    return this.env("event_msg", {
      type: "token_count",
      info:
        total === null && last === null
          ? null
          : { total_token_usage: total ?? undefined, last_token_usage: last ?? undefined },
    });
  }

  assistant(text: string): this {
    return this.env("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text }] });
  }

  text(): string {
    return this.lines.join("\n") + "\n";
  }
}

export interface Usage {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_output_tokens: number;
  total_tokens?: number;
}

export const usage = (input: number, cached: number, output: number, reasoning: number): Usage => ({
  input_tokens: input,
  cached_input_tokens: cached,
  output_tokens: output,
  reasoning_output_tokens: reasoning,
  total_tokens: input + output,
});
