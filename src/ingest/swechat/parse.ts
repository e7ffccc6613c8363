/**
 * One session's `conversations` rows → a `Session`.
 *
 * - Rows are sorted by `turn_number` (physical order regresses in real
 *   sessions), ties kept in physical order. `turn_id` is not unique: rows
 *   repeating a turn number with the same type, content and tool fields are
 *   dropped as copies; differing ones are kept (both counted in one
 *   `swechat-duplicate-turn` info row).
 * - Turns: `user_prompt` rows, except continuations (`is_continuation`:
 *   compaction summaries) and "[Request interrupted…" markers.
 * - Tool calls: `tool_use` rows (one per `tool_call_id`); the outcome from the
 *   `tool_result` row with the same id. The table has no `is_error` flag, so
 *   a result is a failure when its text starts like the agents' error
 *   results (ERROR_RESULT); results are cut at 10 KB, which does not matter
 *   for that prefix. A call without a result has `success: null`.
 * - File edits from the tool input (./tool-edits.ts); only the file tools'
 *   `tool_input_json` is parsed, other calls keep `{command, file_path,
 *   pattern}` from their own columns as input.
 * - API calls: rows with token counts. There is no message id; the rows of
 *   one model response lie between two user/tool-result rows and repeat the
 *   same input and cache counts, so rows of one such segment with equal
 *   (model, input, cache write, cache read) are one call, with the largest
 *   output count. Model `<synthetic>` is not an API call.
 */
import {
  type ApiCall,
  checkedCount,
  checkSessionTimes,
  closedLabel,
  type DiagnosticSink,
  isoTime,
  PROMPT_INTENTS,
  PROMPT_PUSHBACK,
  type PromptIntent,
  type PromptPushback,
  type Session,
  TOKEN_COUNT_MAX,
  type ToolCall,
  type Turn,
} from "../../model";
import type { ConversationRow } from "./schema";
import { editsFromInput, SWECHAT_FILE_TOOLS } from "./tool-edits";

export const ERROR_RESULT =
  /^\s*(<tool_use_error>|Error:|error:|ERROR:|The user doesn't want to (proceed|take this action)|User rejected|Failed to apply patch|Exit code [1-9]|Command failed)/;
const INTERRUPT = /^\s*\[Request interrupted/;
const SHELL_NAMES = new Set([
  "bash",
  "shell",
  "exec_command",
  "run_shell_command",
  "shell_command",
  "local_shell",
  "exec",
]);
const BREAKS = new Set(["user_prompt", "tool_result", "system_injected", "system_event"]);

export interface SessionContext {
  agent: string | null;
  branch: string | null;
}

/** The dataset's own labels of one prompt (a turn), and the agent's last text before the next prompt. */
export interface PromptLabels {
  prompt_intent: PromptIntent | null;
  prompt_pushback: PromptPushback | null;
  /** The last `assistant_response` text after this prompt and before the next one; null when there is none. */
  reply: string | null;
}

export interface BuiltSession {
  session: Session;
  /** One entry per turn, in turn order. */
  prompts: PromptLabels[];
  /** `bash_category` of each tool call that has one (SWE-chat's categories use it when the command is empty). */
  bashCategory: Map<string, string>;
}

const iso = isoTime;

export function sessionFromRows(
  sessionId: string,
  input: readonly ConversationRow[],
  context: SessionContext,
  sink: DiagnosticSink,
): BuiltSession {
  const rows = input.slice().sort((a, b) => a.turn_number - b.turn_number || a.position - b.position);
  const kept: ConversationRow[] = [];
  let copies = 0;
  let distinct = 0;
  for (const row of rows) {
    const prev = kept[kept.length - 1];
    if (prev && prev.turn_number === row.turn_number) {
      if (sameRow(prev, row)) {
        copies++;
        continue;
      }
      distinct++;
    }
    kept.push(row);
  }
  if (copies + distinct > 0) {
    sink.info(
      "swechat-duplicate-turn",
      `${copies + distinct} row(s) repeat a turn number (turn_id is not unique): ${copies} identical copies dropped, ${distinct} differing rows kept in physical order`,
    );
  }

  const turns: Turn[] = [];
  const calls = new Map<string, ToolCall>();
  const bashCategory = new Map<string, string>();
  const api: ApiCall[] = [];
  const times: number[] = [];
  const segmentCalls = new Map<string, ApiCall>();
  let badInputs = 0;
  let orphans = 0;
  let continuations = 0;
  const prompts: PromptLabels[] = [];
  const unknown = { prompt_intent: new Map<string, number>(), prompt_pushback: new Map<string, number>() };

  for (const row of kept) {
    if (row.timestamp !== null) times.push(row.timestamp);
    const record = row.turn_number + 1;
    const type = row.turn_type;
    if (type !== null && BREAKS.has(type)) {
      segmentCalls.clear();
    }
    if (type === "user_prompt") {
      if (row.is_continuation) continuations++;
      else if (!INTERRUPT.test(row.content ?? "")) {
        turns.push({ index: turns.length, text: row.content ?? "", timestamp: iso(row.timestamp), record });
        prompts.push({
          prompt_intent: readLabel(PROMPT_INTENTS, row.prompt_intent, unknown.prompt_intent),
          prompt_pushback: readLabel(PROMPT_PUSHBACK, row.prompt_pushback, unknown.prompt_pushback),
          reply: null,
        });
      }
    } else if (type === "assistant_response") {
      if (prompts.length > 0 && row.content !== null && row.content.trim() !== "")
        prompts[prompts.length - 1].reply = row.content;
    } else if (type === "tool_use") {
      const id = row.tool_call_id ?? `${sessionId}#${row.turn_number}`;
      if (calls.has(id)) continue;
      const name = row.tool_name ?? "unknown";
      const lower = name.toLowerCase();
      let parsed: unknown = null;
      if (SWECHAT_FILE_TOOLS.has(lower)) {
        try {
          parsed = JSON.parse(row.tool_input_json ?? row.content ?? "");
        } catch {
          badInputs++;
        }
      }
      const columnsInput: Record<string, string> = {};
      if (row.command !== null) columnsInput.command = row.command;
      if (row.file_path !== null) columnsInput.file_path = row.file_path;
      calls.set(id, {
        id,
        name,
        input: parsed ?? columnsInput,
        timestamp: iso(row.timestamp),
        record,
        result_record: null,
        success: null,
        error: null,
        sidechain: false,
        file_edits: [],
      });
      if (row.bash_category !== null) bashCategory.set(id, row.bash_category);
    } else if (type === "tool_result") {
      const call = row.tool_call_id !== null ? calls.get(row.tool_call_id) : undefined;
      if (!call) {
        orphans++;
        continue;
      }
      if (call.result_record !== null) continue;
      const text = row.content ?? "";
      call.result_record = record;
      call.success = !ERROR_RESULT.test(text);
      if (!call.success)
        call.error = text
          .replace(/<\/?tool_use_error>/g, "")
          .trim()
          .slice(0, 200);
    }
    const count = (
      field: "input_tokens" | "output_tokens" | "cache_creation_input_tokens" | "cache_read_input_tokens",
    ) => checkedCount(row[field], `conversations.${field}`, { record }, sink, TOKEN_COUNT_MAX);
    const [input, output] = [count("input_tokens"), count("output_tokens")];
    const [cacheWrite, cacheRead] = [count("cache_creation_input_tokens"), count("cache_read_input_tokens")];
    const hasTokens = [input, output, cacheWrite, cacheRead].some((t) => t !== null);
    if (hasTokens && row.model !== "<synthetic>" && type !== "user_prompt" && type !== "tool_result") {
      const usage = {
        input_tokens: input ?? 0,
        output_tokens: output ?? 0,
        cache_creation_tokens: cacheWrite ?? 0,
        cache_creation_1h_tokens: 0,
        cache_read_tokens: cacheRead ?? 0,
        reasoning_tokens: 0,
      };
      const key = `${row.model}|${usage.input_tokens}|${usage.cache_creation_tokens}|${usage.cache_read_tokens}`;
      const same = segmentCalls.get(key);
      if (same) {
        if (usage.output_tokens > same.usage.output_tokens) same.usage.output_tokens = usage.output_tokens;
      } else {
        const call: ApiCall = {
          id: `${sessionId}#${row.turn_number}`,
          model: row.model,
          timestamp: iso(row.timestamp),
          record,
          sidechain: false,
          usage,
          speed: null,
        };
        segmentCalls.set(key, call);
        api.push(call);
      }
    }
  }

  for (const call of calls.values()) {
    if (call.success === false) continue;
    const lower = call.name.toLowerCase();
    if (!SWECHAT_FILE_TOOLS.has(lower) && !SHELL_NAMES.has(lower)) continue;
    const outcome = editsFromInput(call.name, call.input);
    if (outcome.ok) call.file_edits = outcome.edits;
    else badInputs++;
  }
  if (badInputs > 0)
    sink.warn(
      "swechat-tool-input-unreadable",
      `${badInputs} file tool call(s) whose tool_input_json is not a usable input: no file edits taken from them`,
    );
  if (orphans > 0)
    sink.info(
      "swechat-tool-result-without-call",
      `${orphans} tool_result row(s) with no tool_use row of the same tool_call_id`,
    );
  for (const [column, values] of Object.entries(unknown)) {
    if (values.size === 0) continue;
    const n = [...values.values()].reduce((a, b) => a + b, 0);
    const shown = [...values]
      .slice(0, 3)
      .map(([v, k]) => `"${v.slice(0, 40)}" ×${k}`)
      .join(", ");
    sink.warn(
      "swechat-label-unknown",
      `${n} ${column} value(s) outside the documented set (${shown}): read as no label`,
    );
  }
  if (continuations > 0)
    sink.info(
      "swechat-continuation-prompt",
      `${continuations} continuation prompt(s) (compaction summaries) not counted as prompts`,
    );

  times.sort((a, b) => a - b);
  const session: Session = {
    format_version: 1,
    session_id: sessionId,
    source: "swechat",
    agent: context.agent ?? "unknown",
    agent_version: null,
    transcript: null,
    cwds: [],
    branch: context.branch,
    turns,
    tool_calls: [...calls.values()].sort((a, b) => a.record - b.record),
    api_calls: api,
    record_times: times,
    record_count: kept.length,
  };
  checkSessionTimes(session, sink);
  return { session, prompts, bashCategory };
}

/** A label of a closed set, or null; values outside it counted by value (one diagnostic per session and column). */
function readLabel<T extends string>(
  allowed: readonly T[],
  value: string | null,
  unknown: Map<string, number>,
): T | null {
  const { label, unknown: isUnknown } = closedLabel(allowed, value);
  if (isUnknown) unknown.set(value!, (unknown.get(value!) ?? 0) + 1);
  return label;
}

function sameRow(a: ConversationRow, b: ConversationRow): boolean {
  return (
    a.turn_type === b.turn_type &&
    a.content === b.content &&
    a.tool_call_id === b.tool_call_id &&
    a.tool_input_json === b.tool_input_json &&
    a.timestamp === b.timestamp
  );
}
