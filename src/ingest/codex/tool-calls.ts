/**
 * Codex tool calls and their outcomes → {@link ToolCall}s. Calls and results
 * are paired by `call_id`, and a call without a result is kept (Codex logs
 * none after a crash or an interrupt). The outcome, in order of authority:
 * `patch_apply_end.success` (apply_patch), `exec_command_end.exit_code`
 * (shell commands; 0 is success), `mcp_tool_call_end.result` (Ok / Err),
 * then the output text (`Process exited with code N`, a JSON
 * `{output, metadata: {exit_code}}`, or an error prefix).
 */
import type { FileEdit, Severity, ToolCall } from "../../model";
import { fileEditsFromChanges, fileEditsFromPatchText, type PatchNotes } from "./file-edits";

export interface CallDraft {
  id: string;
  name: string;
  input: unknown;
  timestamp: string | null;
  /** Transcript line (parent line for sub-agent calls). */
  record: number;
  sourceLine: number;
  sidechain: boolean;
  bare: boolean;
  /** The apply_patch text when this call applies a patch. */
  patchText: string | null;
}

export interface Outcomes {
  patchEnds: Map<
    string,
    {
      record: number;
      success: boolean | null;
      changes: unknown;
      stderr: string;
      stdout: string;
      timestamp: string | null;
    }
  >;
  execEnds: Map<string, { record: number; exitCode: number | null; stderr: string }>;
  mcpEnds: Map<string, { record: number; success: boolean | null }>;
  outputs: Map<string, { record: number; output: unknown; status: string | null }>;
}

export interface CallNote {
  code: string;
  severity: Severity;
  record: number | null;
  what: string;
  count: number;
}

const ERROR_MAX = 200;
const shorten = (s: string): string => (s.length > ERROR_MAX ? `${s.slice(0, ERROR_MAX - 1)}…` : s);
const FAILURE_PREFIX =
  /^(apply_patch verification failed|failed to parse|failed to apply|aborted|execution error|exec command rejected|error:|Error:)/i;

/** Success from an output text or payload; null when it does not tell (a command still running). */
export function outcomeOfOutput(output: unknown, status: string | null): { success: boolean | null; text: string } {
  if (status !== null)
    return { success: status === "completed" ? true : status === "failed" ? false : null, text: status };
  if (Array.isArray(output)) return { success: true, text: "" };
  if (typeof output === "object" && output !== null) {
    const o = output as Record<string, unknown>;
    return { success: o.success !== false, text: typeof o.content === "string" ? o.content : "" };
  }
  if (typeof output !== "string") return { success: null, text: "" };
  let text = output;
  if (text.trimStart().startsWith("{")) {
    try {
      const v = JSON.parse(text) as Record<string, unknown>;
      const meta = v.metadata as Record<string, unknown> | undefined;
      if (typeof v.output === "string") text = v.output;
      if (meta && typeof meta.exit_code === "number") return { success: meta.exit_code === 0, text };
    } catch {
      // not JSON: read as text
    }
  }
  const exited = /Process exited with code (-?\d+)/.exec(text) ?? /^Exit code: (-?\d+)/m.exec(text);
  if (exited) return { success: Number(exited[1]) === 0, text };
  if (/Process running with session ID/.test(text)) return { success: null, text };
  if (FAILURE_PREFIX.test(text.trimStart())) return { success: false, text };
  return { success: true, text };
}

export function buildToolCalls(
  drafts: readonly CallDraft[],
  outcomes: Outcomes,
  patchNotes: PatchNotes,
): { calls: ToolCall[]; notes: CallNote[] } {
  const notes = new Map<string, CallNote>();
  const note = (code: string, severity: Severity, record: number | null, what: string) => {
    const n = notes.get(code);
    if (n) n.count++;
    else notes.set(code, { code, severity, record, what, count: 1 });
  };
  const calls: ToolCall[] = [];
  const used = new Set<string>();
  const seen = new Set<string>();
  for (const d of drafts) {
    if (seen.has(d.id)) {
      note("codex-duplicate-call", "info", d.sourceLine, "tool call(s) repeating an earlier `call_id`, counted once");
      continue;
    }
    seen.add(d.id);
    used.add(d.id);
    const pe = outcomes.patchEnds.get(d.id);
    const ee = outcomes.execEnds.get(d.id);
    const me = outcomes.mcpEnds.get(d.id);
    const out = outcomes.outputs.get(d.id);
    let success: boolean | null = null;
    let resultRecord: number | null = null;
    let error: string | null = null;
    if (pe) {
      success = pe.success;
      resultRecord = pe.record;
      if (success === false) error = shorten((pe.stderr || pe.stdout || "patch not applied").trim());
    } else if (ee) {
      success = ee.exitCode === null ? null : ee.exitCode === 0;
      resultRecord = ee.record;
      if (success === false) error = shorten(`exit code ${ee.exitCode}${ee.stderr ? `: ${ee.stderr.trim()}` : ""}`);
    } else if (me) {
      success = me.success;
      resultRecord = me.record;
    } else if (out) {
      const o = outcomeOfOutput(out.output, out.status);
      success = o.success;
      resultRecord = out.record;
      if (success === false) error = shorten(o.text.trim());
    } else {
      note(
        "codex-tool-call-without-result",
        "warning",
        d.sourceLine,
        "tool call(s) without a logged result (cut-off log, interrupt)",
      );
    }
    const fileEdits: FileEdit[] = [];
    if ((d.patchText !== null || pe) && success !== false) {
      if (pe && pe.changes !== undefined && pe.changes !== null) {
        const { edits, invalid } = fileEditsFromChanges(pe.changes, patchNotes);
        fileEdits.push(...edits);
        if (invalid > 0)
          note(
            "codex-invalid-change",
            "warning",
            pe.record,
            "entries of `patch_apply_end.changes` with an unusable shape skipped",
          );
      } else if (d.patchText !== null) {
        fileEdits.push(...fileEditsFromPatchText(d.patchText, patchNotes));
        // Only said where they replay: a call without a result (interrupted) changes nothing.
        if (success === true)
          note(
            "codex-patch-from-input",
            "info",
            d.sourceLine,
            "apply_patch call(s) without `patch_apply_end.changes`: edits read from the patch text",
          );
      }
    }
    if ((pe || d.patchText !== null) && !/^apply_?patch$/i.test(d.name))
      note("codex-patch-via-shell", "info", d.sourceLine, "patch(es) applied through a shell call");
    // metrics.md §1b orders a group's calls by the time of their result: a patch's is its patch_apply_end's.
    const resultTimestamp = pe?.timestamp ?? null;
    calls.push({
      id: d.id,
      name: d.name,
      input: d.input,
      timestamp: d.timestamp,
      ...(resultTimestamp ? { result_timestamp: resultTimestamp } : {}),
      record: d.record,
      result_record: resultRecord,
      success,
      error,
      sidechain: d.sidechain,
      file_edits: fileEdits,
    });
  }
  // A patch_apply_end whose call is not in the log still changed files: keep it as its own apply_patch call.
  for (const [id, pe] of outcomes.patchEnds) {
    if (used.has(id)) continue;
    note(
      "codex-patch-without-call",
      "warning",
      pe.record,
      "patch_apply_end event(s) whose call is not in the log, kept as apply_patch calls",
    );
    const fileEdits = pe.success === false ? [] : fileEditsFromChanges(pe.changes, patchNotes).edits;
    calls.push({
      id,
      name: "apply_patch",
      input: null,
      timestamp: pe.timestamp,
      record: pe.record,
      result_record: pe.record,
      success: pe.success,
      error: pe.success === false ? shorten(pe.stderr.trim()) : null,
      sidechain: false,
      file_edits: fileEdits,
    });
  }
  for (const [id, o] of outcomes.outputs) {
    if (!used.has(id))
      note("codex-output-without-call", "warning", o.record, "tool output(s) whose call is not in the log");
  }
  const ordered = calls
    .map((c, i) => ({ c, i }))
    .sort((a, b) => a.c.record - b.c.record || a.i - b.i)
    .map((x) => x.c);
  return { calls: ordered, notes: [...notes.values()] };
}
