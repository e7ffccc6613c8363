/**
 * Compact tool_use blocks → {@link ToolCall}s. The result is inlined in the
 * block, so a call's result record is its own line; success comes from
 * `result.status` ("success" / "error"), and a call without a result has
 * success null.
 */
import type { Severity, ToolCall } from "../../model";
import { EDIT_PROBLEM_NOTES, fileEditsOfCall } from "./file-edits";
import type { CompactResult } from "./schema";

const ERROR_MAX = 200;

export interface CallDraft {
  id: string;
  name: string;
  input: unknown;
  timestamp: string | null;
  record: number;
  result: CompactResult | undefined;
}

export interface Reporter {
  /** A counted diagnostic (one row per key, with the count and the first line). */
  note(key: string, code: string, severity: Severity, record: number | null, what: string): void;
  diag(severity: Severity, code: string, message: string, record: number | null): void;
}

export function toToolCalls(calls: Iterable<CallDraft>, r: Reporter): ToolCall[] {
  const out: ToolCall[] = [];
  for (const call of calls) {
    let success: boolean | null = null;
    let error: string | null = null;
    const status = call.result?.status;
    if (call.result === undefined) {
      r.diag(
        "warning",
        "entire-compact-tool-call-without-result",
        `${call.name} call ${call.id} (line ${call.record}) has no inlined result`,
        call.record,
      );
    } else if (status === "success") success = true;
    else if (status === "error") {
      success = false;
      error = shorten(stripErrorTags(outputText(call.result.output)));
    } else {
      r.note(
        `status:${status}`,
        "entire-compact-unknown-result-status",
        "warning",
        call.record,
        `tool result(s) with status ${status === undefined ? "missing" : `"${status}"`}: success unknown`,
      );
    }
    const read = success === false ? null : fileEditsOfCall(call.name, call.input, call.result);
    for (const problem of read?.problems ?? []) {
      const p = EDIT_PROBLEM_NOTES[problem];
      r.note(`edit:${problem}`, p.code, p.severity, call.record, p.what);
    }
    if (read !== null && (read.patchNotes.anchorsDropped > 0 || read.patchNotes.strayLines > 0)) {
      r.note(
        "patch-grammar",
        "entire-compact-patch-irregular",
        "info",
        call.record,
        "apply_patch call(s) with `@@ <anchor>` lines or lines outside the grammar (hunks located by their context lines)",
      );
    }
    out.push({
      id: call.id,
      name: call.name,
      input: call.input,
      timestamp: call.timestamp,
      record: call.record,
      // The result is inlined: it sits on the call's own line.
      result_record: call.result !== undefined ? call.record : null,
      success,
      error,
      // Sub-agent records are dropped by the compaction (agent_progress, sidechains): nothing here is a sub-agent's.
      sidechain: false,
      file_edits: read?.edits ?? [],
    });
  }
  return out;
}

function outputText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v);
}

function stripErrorTags(s: string): string {
  return s.replace(/<\/?tool_use_error>/g, "").trim();
}

function shorten(s: string, max = ERROR_MAX): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
