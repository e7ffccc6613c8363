/**
 * Codex 0.149+ reports a file change as an `item_completed` event whose item
 * is a `FileChange` (`{id, status, changes}`, the `changes` shaped like
 * `patch_apply_end.changes`), where older versions wrote `patch_apply_end`
 * with the call's `call_id`. A direct apply_patch call's item carries the
 * call's id; an item made inside another call has an id of its own, and is
 * tied to the call it happened in by position: the last call before it whose
 * output, if any, comes after it.
 * - In a direct `apply_patch` call it is that call's `patch_apply_end`.
 * - In Code Mode (a `custom_tool_call` named `exec` running JavaScript that
 *   calls `tools.apply_patch(…)` one or more times) each item is one nested
 *   apply_patch: kept as its own `apply_patch` call, so its edits replay.
 * - With no call around it, it is kept as an `apply_patch` call of its own.
 */
import type { Notes } from "./notes";
import type { CallDraft, Outcomes } from "./tool-calls";

export interface FileChangeItem {
  /** Transcript line (parent line for sub-agent rollouts) and the line in its own file. */
  record: number;
  sourceLine: number;
  id: string | null;
  status: string | null;
  changes: unknown;
  timestamp: string | null;
}

/** `completed` → success; `failed` / `declined` → failure; anything else unknown. */
function successOf(status: string | null): boolean | null {
  if (status === "completed") return true;
  if (status === "failed" || status === "declined") return false;
  return null;
}

const isApplyPatch = (name: string) => /^apply_?patch$/i.test(name);

/**
 * Ties the file's `FileChange` items to its calls (in place: `calls` gains the nested apply_patch calls,
 * `outcomes.patchEnds` their outcomes). `outputLines`: each call's output line in this file.
 */
export function attachFileChanges(calls: CallDraft[], outcomes: Outcomes, items: readonly FileChangeItem[], outputLines: ReadonlyMap<string, number>, notes: Notes, prefix: string): void {
  const withItems = new Set<string>();
  for (const [k, item] of items.entries()) {
    let owner: CallDraft | undefined = item.id !== null ? calls.find((c) => c.id === item.id) : undefined;
    for (const call of owner === undefined ? calls : []) {
      if (call.sourceLine >= item.sourceLine) break;
      const out = outputLines.get(call.id);
      if (out === undefined || out > item.sourceLine) owner = call;
    }
    const end = { record: item.record, success: successOf(item.status), changes: item.changes, stderr: item.status ?? "", stdout: "", timestamp: item.timestamp };
    if (owner !== undefined && isApplyPatch(owner.name) && !outcomes.patchEnds.has(owner.id)) {
      outcomes.patchEnds.set(owner.id, end);
      withItems.add(owner.id);
      continue;
    }
    const id = owner !== undefined ? `${owner.id}/${item.id ?? `change-${k}`}` : item.id ?? `${prefix}filechange:${item.sourceLine}`;
    if (owner !== undefined) {
      withItems.add(owner.id);
      notes.add("codex-nested-file-change", "info", item.sourceLine, `file change(s) made inside another tool call (Code Mode \`${owner.name}\`): each kept as an apply_patch call`);
    } else {
      notes.add("codex-file-change-without-call", "info", item.sourceLine, "FileChange item(s) with no tool call around them: kept as apply_patch calls");
    }
    const base = owner ?? { sidechain: false, bare: false };
    const draft: CallDraft = { id, name: "apply_patch", input: null, timestamp: item.timestamp, record: item.record, sourceLine: item.sourceLine, sidechain: base.sidechain, bare: base.bare, patchText: null };
    // Kept in line order: later items look for their owner among the calls before them.
    const at = calls.findIndex((c) => c.sourceLine > item.sourceLine);
    calls.splice(at < 0 ? calls.length : at, 0, draft);
    outcomes.patchEnds.set(id, end);
  }
  // Code Mode without any record of what its patches did: say so rather than replay nothing quietly.
  for (const call of calls) {
    if (isApplyPatch(call.name) || call.patchText !== null || withItems.has(call.id) || outcomes.patchEnds.has(call.id)) continue;
    if (typeof call.input === "string" && call.input.includes("*** Begin Patch")) {
      notes.add("codex-nested-patch-unrecorded", "warning", call.sourceLine, `tool call(s) (e.g. Code Mode \`${call.name}\`) whose input applies a patch, with no FileChange or patch_apply_end record of it: its edits are not replayed`);
    }
  }
}
