/**
 * One SpecStory markdown export (`.specstory/history/*.md`) → a `Session`:
 * prompts (user turns), agent turns with their models, tool blocks as tool
 * calls, and the file edits the export shows: Cursor diff chunks (HTML
 * entities decoded, the extra leading space removed) and Codex CLI patches.
 * Claude Code exports show no diffs, so their sessions carry prompts and
 * tool calls but nothing to attribute. Quirks: README.md.
 */
import type { DiagnosticSink, FileEdit, Session, ToolCall, Turn } from "../../model";
import { SESSION_FORMAT_VERSION } from "../../model";
import { notAPrompt } from "../prompt-text";
import {
  agentOf,
  attr,
  cursorChunkLines,
  type Fence,
  fileEdit,
  inputOf,
  isClosingFence,
  modelsByTurns,
  outcomeOf,
  STRUCTURE,
  type ToolBlock,
  turnHeader,
} from "./blocks";
import {
  CHUNK_HEADER,
  FENCE,
  GENERATOR,
  PATCH_FILE_HEADER,
  SESSION_COMMENT,
  SUMMARY_FILE,
  TOOL_CLOSE,
  TOOL_OPEN,
  TOOL_SUMMARY,
  TURN_HEADER,
  type TurnHeader,
} from "./schema";

export interface SpecStorySession {
  session: Session;
  /** The provider the header comment names ("Claude Code", "Cursor IDE", "Codex CLI", …), null when absent. */
  provider: string | null;
  markdown_version: string | null;
  /** Models of the agent turns, most turns first (ties: first seen). */
  models: string[];
  agent_turns: number;
  /** Diff lines the export shows, after decoding: `+` and `-` lines of Cursor chunks and Codex patches. */
  diff_lines: { added: number; removed: number };
  /** Whether any tool block carries a diff (else the session has nothing to attribute). */
  has_diffs: boolean;
  /** 1-based lines of the user turn headers (prompts and non-prompts), for checks. */
  user_turn_lines: number[];
}

export interface SpecStoryInput {
  text: string | Uint8Array;
  file: string;
}

export function parseSpecStory(input: SpecStoryInput, sink: DiagnosticSink): SpecStorySession | null {
  const text = (typeof input.text === "string" ? input.text : new TextDecoder("utf-8").decode(input.text)).replace(
    /\r\n?/g,
    "\n",
  );
  const lines = text.split("\n");
  let version: string | null = null;
  let provider: string | null = null;
  let sessionId: string | null = null;
  let title: string | null = null;
  const headers: TurnHeader[] = [];
  const turns: Turn[] = [];
  const calls: ToolCall[] = [];
  const notPrompts = new Map<string, number>();
  let fence: Fence | null = null;
  let diff: Fence | null = null;
  let tool: ToolBlock | null = null;
  let lastClosed: { block: ToolBlock; endLine: number } | null = null;
  let user: { header: TurnHeader; text: string[] } | null = null;
  let merged = 0;
  let added = 0;
  let removed = 0;
  let unspaced = 0;
  let hasDiffs = false;

  const finishUser = () => {
    if (!user) return;
    const body = user.text
      .join("\n")
      .replace(/\n-{3,}\s*$/, "")
      .replace(/^\s*-{3,}\s*$/, "")
      .trim();
    const why = notAPrompt(body);
    if (why === null)
      turns.push({ index: turns.length, text: body, timestamp: user.header.timestamp, record: user.header.line });
    else notPrompts.set(why, (notPrompts.get(why) ?? 0) + 1);
    user = null;
  };

  const finishTool = (block: ToolBlock) => {
    const empty = !block.body && block.summary.trim() === "" && block.chunks.length === 0 && block.patches.length === 0;
    const between = lastClosed ? lines.slice(lastClosed.endLine, block.line - 1).every((l) => l.trim() === "") : false;
    if (empty && lastClosed && between && lastClosed.block.name === block.name) {
      // Cursor exports render one call as a detailed block and an empty twin right after it.
      merged++;
      lastClosed = { block: lastClosed.block, endLine: block.endLine };
      return;
    }
    const edits: FileEdit[] = [];
    const summaryFile = SUMMARY_FILE.exec(block.summary)?.[1] ?? null;
    if (block.chunks.length > 0) {
      const patchLines: string[] = [];
      for (const chunk of block.chunks) {
        const { lines: decoded, spaced } = cursorChunkLines(chunk);
        if (!spaced) unspaced++;
        patchLines.push(...decoded);
      }
      for (const l of patchLines) {
        if (l.startsWith("+")) added++;
        else if (l.startsWith("-")) removed++;
      }
      if (summaryFile === null)
        sink.warn(
          "specstory-diff-without-path",
          `tool block at line ${block.line} shows a diff but names no file: not attributed`,
          block.line,
        );
      else edits.push(fileEdit(summaryFile, "patch", { patch: patchLines.join("\n") + "\n" }));
    }
    for (const p of block.patches) {
      for (const l of p.lines) {
        if (l.startsWith("+")) added++;
        else if (l.startsWith("-")) removed++;
      }
      // Add may overwrite an existing file (as apply_patch does): no pre-image.
      if (p.op === "Add")
        edits.push(
          fileEdit(p.path, "write", {
            post_image: p.lines
              .filter((l) => l.startsWith("+"))
              .map((l) => l.slice(1) + "\n")
              .join(""),
          }),
        );
      else if (p.op === "Delete") edits.push(fileEdit(p.path, "delete", {}));
      else edits.push(fileEdit(p.path, "patch", { patch: p.lines.join("\n") + "\n" }));
    }
    if (edits.length > 0) hasDiffs = true;
    const success = outcomeOf(block);
    const name = block.name ?? "unknown";
    calls.push({
      id: `specstory-${block.line}`,
      name,
      input: inputOf(block, summaryFile),
      timestamp: headers[headers.length - 1]?.timestamp ?? null,
      record: block.line,
      result_record: success === null ? null : block.line,
      success,
      error: success === false ? block.result.join("\n").trim().slice(0, 200) : null,
      sidechain: false,
      file_edits: success === false ? [] : edits,
    });
    lastClosed = { block, endLine: block.endLine };
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const n = i + 1;
    if (tool) {
      // Inside a tool block only `</tool-use>` ends it: tool output quotes markdown whose fences nest and do not balance.
      if (diff) {
        if (isClosingFence(line, diff)) {
          if (tool.pending?.kind === "chunk") tool.chunks.push(diff.lines);
          else if (tool.pending?.kind === "patch")
            tool.patches.push({ op: tool.pending.op, path: tool.pending.path, lines: diff.lines });
          tool.pending = null;
          diff = null;
        } else diff.lines.push(line);
        continue;
      }
      const open = FENCE.exec(line);
      const summary = TOOL_SUMMARY.exec(line);
      if (open && tool.pending && /^diff\b/.test(open[2].trim())) {
        diff = { char: open[1][0], len: open[1].length, lines: [] };
        tool.body = true;
      } else if (summary && tool.summary === "" && !tool.body) {
        tool.name = tool.name ?? summary[1];
        tool.summary = summary[2].replace(/<\/?details>|<\/summary>/g, "");
      } else if (CHUNK_HEADER.test(line)) tool.pending = { kind: "chunk" };
      else {
        const patch = PATCH_FILE_HEADER.exec(line);
        if (patch) tool.pending = { kind: "patch", op: patch[1], path: patch[2] };
        else if (n !== tool.line && !STRUCTURE.test(line)) {
          tool.body = true;
          tool.result.push(line);
        }
      }
      if (TOOL_CLOSE.test(line)) {
        tool.endLine = n;
        finishTool(tool);
        tool = null;
      }
      continue;
    }
    if (fence) {
      if (isClosingFence(line, fence)) fence = null;
      if (user) user.text.push(line);
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { char: open[1][0], len: open[1].length, lines: [] };
      if (user) user.text.push(line);
      continue;
    }
    const header = TURN_HEADER.exec(line);
    if (header) {
      finishUser();
      const h = turnHeader(header[1], header[2] ?? null, n);
      headers.push(h);
      if (h.role === "user") user = { header: h, text: [] };
      continue;
    }
    if (headers.length === 0) {
      const gen = GENERATOR.exec(line);
      if (gen) version = gen[1] ?? "1";
      const comment = SESSION_COMMENT.exec(line);
      if (comment) {
        provider = comment[1];
        sessionId = comment[2];
      }
      if (/^# /.test(line) && title === null) title = line.slice(2).trim();
      continue;
    }
    const toolOpen = TOOL_OPEN.exec(line);
    if (toolOpen) {
      finishUser();
      tool = {
        line: n,
        endLine: n,
        name: attr(toolOpen[1], "data-tool-name"),
        type: attr(toolOpen[1], "data-tool-type"),
        summary: "",
        body: false,
        result: [],
        chunks: [],
        patches: [],
        pending: null,
      };
      const summary = TOOL_SUMMARY.exec(line);
      if (summary) {
        tool.name = tool.name ?? summary[1];
        tool.summary = summary[2].replace(/<\/?details>|<\/summary>/g, "");
      }
      if (TOOL_CLOSE.test(line)) {
        finishTool(tool);
        tool = null;
      }
      continue;
    }
    const bare = /^Tool use: \*\*(.+?)\*\*(.*)$/.exec(line);
    if (bare) {
      finishUser();
      // The oldest exports write a bare line per tool use, with no block.
      finishTool({
        line: n,
        endLine: n,
        name: bare[1],
        type: null,
        summary: bare[2],
        body: true,
        result: [],
        chunks: [],
        patches: [],
        pending: null,
      });
      continue;
    }
    if (user) user.text.push(line);
  }
  if (diff) sink.warn("specstory-unclosed-fence", "the file ends inside a diff block (a truncated export?)");
  if (fence) sink.info("specstory-unclosed-fence", "the file ends inside a fenced code block of a turn's text");
  if (tool) {
    sink.warn(
      "specstory-unclosed-tool",
      `tool block at line ${tool.line} has no </tool-use> (a truncated export?)`,
      tool.line,
    );
    tool.endLine = lines.length;
    finishTool(tool);
  }
  finishUser();

  if (headers.length === 0) {
    sink.error(
      "specstory-no-turns",
      `${input.file} has no _**User**_ / _**Agent**_ turn headers: not a usable SpecStory export`,
    );
    return null;
  }
  const id = sessionId ?? (title ? `specstory:${title}` : null) ?? `specstory:${input.file}`;
  sink.sessionId = id;
  if (sessionId === null)
    sink.info(
      "specstory-no-session-id",
      `no "<!-- … Session <id> -->" comment: the session id is taken from the title`,
    );
  const userTurns = headers.filter((h) => h.role === "user");
  if (userTurns.length === 0)
    sink.warn("specstory-no-user-turn", "the export has agent turns but no user turn: a session without prompts");
  for (const [why, count] of notPrompts)
    sink.info("specstory-not-a-prompt", `${count} user turn(s) not counted as prompts (${why})`);
  if (merged > 0)
    sink.info(
      "specstory-empty-tool-block-merged",
      `${merged} empty tool block(s) directly after a block of the same tool read as part of that call`,
    );
  if (unspaced > 0)
    sink.warn(
      "specstory-chunk-unspaced",
      `${unspaced} diff chunk(s) lack the extra leading space after the markers: kept as written`,
    );
  if (
    !hasDiffs &&
    calls.some(
      (c) =>
        c.name !== "unknown" &&
        /write|edit|replace|patch/i.test(`${c.name} ${(c.input as { type?: string }).type ?? ""}`),
    )
  ) {
    sink.info(
      "specstory-no-diffs",
      "the export shows no diff for its file edits (SpecStory's Claude Code export keeps only the result text): sessions and prompts only, no attribution",
    );
  }

  const models = modelsByTurns(headers);
  const times = headers
    .map((h) => (h.timestamp === null ? NaN : Date.parse(h.timestamp)))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const session: Session = {
    format_version: SESSION_FORMAT_VERSION,
    session_id: id,
    source: "specstory",
    agent: agentOf(provider),
    agent_version: null,
    transcript: input.file,
    cwds: [],
    branch: null,
    turns,
    tool_calls: calls,
    api_calls: [],
    record_times: times,
    record_count: lines.length,
  };
  return {
    session,
    provider,
    markdown_version: version,
    models,
    agent_turns: headers.length - userTurns.length,
    diff_lines: { added, removed },
    has_diffs: hasDiffs,
    user_turn_lines: userTurns.map((h) => h.line),
  };
}
