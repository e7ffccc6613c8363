/** The assistant's API responses and tool calls, and sub-agents (Task), on top of `TranscriptRecords`. */
import { base58For, sha256, signatureFor } from "../seeded/ids";
import { tokensOf } from "../text";
import type { Json } from "../text";
import type { Workspace } from "../workspace";
import type { Block } from "./message";
import { TranscriptRecords } from "./records";
import { Tools } from "./tools";
import type { ToolRun } from "./tools";

export class Transcript extends TranscriptRecords {
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
    const content: Json[] = blocks.map((b) =>
      b.type === "text"
        ? { type: "text", text: b.text }
        : { type: "thinking", thinking: b.thinking, signature: signatureFor(`${this.o.key}:${n}`) },
    );
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
        this.push(
          { ...this.envelope(), message: ordered, requestId, type: "assistant", uuid, timestamp: this.clock.iso() },
          true,
        );
      } else {
        this.push(
          { ...this.envelope(), message, requestId, type: "assistant", uuid, timestamp: this.clock.iso() },
          true,
        );
      }
      this.named = true;
      recordUuids.push(uuid);
      this.last = uuid;
    });
    this.calls.push({
      messageId,
      model: this.model,
      input,
      output,
      cacheCreation,
      cacheRead,
      record: this.records.length - 1,
    });
    this.cached = this.context;
    this.context += output;

    // Which record carries each tool_use block.
    const blockRecord = (toolIndex: number): string =>
      this.o.style === "2.x" ? recordUuids[blocks.length + toolIndex] : recordUuids[0];
    tools.forEach((tool, i) => {
      this.clock.tick(0.05, 2.5);
      const assistantUuid = blockRecord(i);
      const result = tool.run({ toolUseId: toolIds[i], messageId });
      const filePath = tool.input.file_path;
      if (typeof filePath === "string" && !result.isError && (tool.name === "Write" || tool.name === "Edit"))
        this.track(filePath, assistantUuid);
      this.hook("PostToolUse", `PostToolUse:${tool.name}`, "callback", toolIds[i], assistantUuid);
      const block: Json = { tool_use_id: toolIds[i], type: "tool_result", content: result.content };
      if (result.isError) block.is_error = true;
      else if (result.explicitOk) block.is_error = false;
      const uuid = this.uuid();
      const record: Json = {
        ...this.envelope(assistantUuid),
        type: "user",
        message: { role: "user", content: [block] },
        uuid,
        timestamp: this.clock.iso(),
        toolUseResult: result.toolUseResult,
      };
      if (this.o.style === "2.x") record.sourceToolAssistantUUID = assistantUuid;
      this.push(record, true);
      this.last = uuid;
      this.context += tokensOf(typeof result.content === "string" ? result.content : JSON.stringify(result.content));
    });
  }

  /**
   * A sub-agent (`Task`). 2.x: its records go to
   * `<session>/subagents/agent-<id>.jsonl` and are mirrored into this
   * transcript as `progress` records with `data.type: "agent_progress"`.
   * 1.0.x: they are written inline with `isSidechain: true`.
   */
  task(
    spec: { description: string; prompt: string; model: string; modelAlias: string },
    ws: Workspace,
    root: string,
    body: (sub: Transcript, tools: Tools) => string,
  ): ToolRun {
    return {
      name: "Task",
      input:
        this.o.style === "2.x"
          ? {
              description: spec.description,
              prompt: spec.prompt,
              subagent_type: "general-purpose",
              model: spec.modelAlias,
            }
          : { description: spec.description, prompt: spec.prompt },
      run: (ctx) => {
        const started = this.clock.ms;
        const agentId = `a${sha256(`${this.o.key}:${ctx.toolUseId}`).slice(0, 6)}`;
        const sink: Json[] = this.o.style === "2.x" ? [] : this.records;
        let first = true;
        const mirror =
          this.o.style === "2.x"
            ? (record: Json): void => {
                const nested: Json = {
                  type: record.type,
                  message: record.message,
                  uuid: record.uuid,
                  timestamp: record.timestamp,
                };
                const message = record.message as Json;
                if (first && typeof message.content === "string")
                  nested.message = { role: "user", content: [{ type: "text", text: message.content }] };
                if (record.toolUseResult !== undefined) nested.toolUseResult = record.toolUseResult;
                if (record.requestId !== undefined) nested.requestId = record.requestId;
                const uuid = this.uuid();
                this.push({
                  ...this.envelope(),
                  type: "progress",
                  data: {
                    message: nested,
                    type: "agent_progress",
                    prompt: first ? spec.prompt : "",
                    agentId,
                    normalizedMessages: [],
                  },
                  toolUseID: `agent_${ctx.messageId}`,
                  parentToolUseID: ctx.toolUseId,
                  uuid,
                  timestamp: this.clock.iso(),
                });
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
        const usage = {
          input_tokens: lastCall.input,
          cache_creation_input_tokens: lastCall.cacheCreation,
          cache_read_input_tokens: lastCall.cacheRead,
          output_tokens: lastCall.output,
          service_tier: "standard",
        };
        const totalTokens = lastCall.input + lastCall.cacheCreation + lastCall.cacheRead + lastCall.output;
        const toolCount = sub.records.filter(
          (r) => r.type === "user" && r.toolUseResult !== undefined && r.isSidechain === true,
        ).length;
        const contentBlocks = [{ type: "text", text: final }];
        const toolUseResult =
          this.o.style === "2.x"
            ? {
                status: "completed",
                prompt: spec.prompt,
                agentId,
                content: contentBlocks,
                totalDurationMs: this.clock.ms - started,
                totalTokens,
                totalToolUseCount: toolCount,
                usage,
              }
            : {
                content: contentBlocks,
                totalDurationMs: this.clock.ms - started,
                totalTokens,
                totalToolUseCount: toolCount,
                usage,
                wasInterrupted: false,
              };
        return { content: contentBlocks, toolUseResult };
      },
    };
  }
}
