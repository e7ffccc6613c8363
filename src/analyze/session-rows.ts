import {
  activeSeconds,
  costOfCalls,
  dominantModel,
  durationSeconds,
  lengthBin,
  modelsByOutput,
  sumUsage,
} from "../effort";
import {
  type DiagnosticSink,
  type PromptRow,
  type Session,
  type SessionRow,
  type ToolCall,
  type ToolCallRow,
  isoTime,
} from "../model";
import { lineDiff, splitLines } from "../replay";
import { asksForClarification } from "../signals";
import { isFileChangingCall, toolCategory } from "./tool-category";

const iso = isoTime;

export interface SessionContext {
  repo: string | null;
  /** Idle gap cap for `active_s`, in seconds (metrics.md §5). */
  idleLimitS: number;
}

/** One `sessions` row: counts, tokens, cost and time over the whole transcript (sub-agents included). */
export function toSessionRow(session: Session, context: SessionContext, sink: DiagnosticSink): SessionRow {
  const usage = sumUsage(session.api_calls);
  const times = session.record_times;
  const editCalls = session.tool_calls.filter(isFileChangingCall);
  const models = modelsByOutput(session.api_calls);
  const prompts = session.turns.length;
  return {
    session_id: session.session_id,
    source: session.source,
    agent: session.agent,
    model: dominantModel(session.api_calls),
    models: models.join(";"),
    repo: context.repo,
    branch: session.branch,
    started_at: iso(times[0]),
    ended_at: iso(times[times.length - 1]),
    duration_s: durationSeconds(times),
    active_s: activeSeconds(times, context.idleLimitS),
    prompts,
    length_bin: lengthBin(prompts),
    tool_calls: session.tool_calls.length,
    edit_calls: editCalls.length,
    failed_edit_calls: editCalls.filter((c) => c.success === false).length,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cache_creation_tokens: usage.cache_creation_tokens,
    cache_read_tokens: usage.cache_read_tokens,
    api_calls: session.api_calls.length,
    cost_usd: costOfCalls(session.api_calls, sink),
  };
}

/** Lines a call added and removed, from its own pre/post images or string edits; null when the log cannot tell. */
export function callLineCounts(call: ToolCall): { added: number | null; removed: number | null } {
  if (call.file_edits.length === 0 || call.success !== true) return { added: null, removed: null };
  let added = 0;
  let removed = 0;
  for (const edit of call.file_edits) {
    const pairs: [string, string][] = [];
    if (edit.post_image !== null && edit.pre_image !== null) pairs.push([edit.pre_image, edit.post_image]);
    else if (edit.post_image !== null && edit.kind === "write") pairs.push(["", edit.post_image]);
    else if (edit.edits) for (const e of edit.edits) pairs.push([e.old_string, e.new_string]);
    else if (edit.patch !== null) {
      for (const line of edit.patch.split("\n")) {
        if (line.startsWith("+") && !line.startsWith("+++")) added++;
        else if (line.startsWith("-") && !line.startsWith("---")) removed++;
      }
      continue;
    } else return { added: null, removed: null };
    for (const [before, after] of pairs) {
      for (const run of lineDiff(splitLines(before), splitLines(after))) {
        if (run.kind === "insert") added += run.count;
        else if (run.kind === "delete") removed += run.count;
      }
    }
  }
  return { added, removed };
}

/** `tool_calls` rows in call order; `file` is repo-relative when it can be mapped, else as logged. */
export function toToolCallRows(
  session: Session,
  toRepoPath: (logged: string) => string | null = () => null,
): ToolCallRow[] {
  return session.tool_calls.map((call, seq) => {
    const logged = call.file_edits[0]?.path ?? filePathOf(call.input);
    const { added, removed } = callLineCounts(call);
    return {
      session_id: session.session_id,
      seq,
      tool: call.name,
      category: toolCategory(call.name, call.input),
      file: logged === null ? null : (toRepoPath(logged) ?? logged),
      success: call.success,
      lines_added: added,
      lines_removed: removed,
      timestamp: call.timestamp,
    };
  });
}

function filePathOf(input: unknown): string | null {
  if (!input || typeof input !== "object") return null;
  const r = input as Record<string, unknown>;
  for (const key of ["file_path", "path", "notebook_path", "filePath", "absolute_path"]) {
    if (typeof r[key] === "string") return r[key] as string;
  }
  return null;
}

/**
 * The session's real prompts as `prompts` rows. `replies` (the agent's last text after each prompt; default: the
 * turns' own `reply`, where the adapter keeps it) and the tool calls made before the next prompt decide
 * `agent_clarification` (src/signals).
 */
export function toPromptRows(session: Session, replies: readonly (string | null)[] = []): PromptRow[] {
  const turns = session.turns;
  return turns.map((t, index) => {
    const end = turns[index + 1]?.record ?? Infinity;
    const names = session.tool_calls
      .filter((c) => !c.sidechain && c.record > t.record && c.record < end)
      .map((c) => c.name);
    return {
      session_id: session.session_id,
      index,
      timestamp: t.timestamp,
      text: t.text,
      agent_clarification: asksForClarification(replies[index] ?? t.reply ?? null, names),
    };
  });
}

/** Replaces a row's category with the adapter's own (`onlyOther`: only where the shared categories gave "other"). */
export function withCategories(
  rows: ToolCallRow[],
  session: Session,
  categoryOf: (callId: string) => string | null,
  onlyOther = false,
): ToolCallRow[] {
  return rows.map((r) =>
    onlyOther && r.category !== "other"
      ? r
      : { ...r, category: categoryOf(session.tool_calls[r.seq].id) ?? r.category },
  );
}
