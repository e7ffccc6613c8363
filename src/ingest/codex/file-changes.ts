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
 * `outcomes.patchEnds` their outcomes). `outputLines`: each call's output line in this file; `turnStarts`:
 * the lines where a turn starts (a call left without output, an interrupted one, holds nothing after them).
 */
export function attachFileChanges(
  calls: CallDraft[],
  outcomes: Outcomes,
  items: readonly FileChangeItem[],
  outputLines: ReadonlyMap<string, number>,
  turnStarts: readonly number[],
  notes: Notes,
  prefix: string,
): void {
  const withItems = new Set<string>();
  // Calls created here (their ids are not Codex's).
  const made = new Set<string>();
  for (const [k, item] of items.entries()) {
    const byId = item.id !== null ? calls.find((c) => c.id === item.id && !made.has(c.id)) : undefined;
    // A call that runs a patch itself (apply_patch, or a shell call running apply_patch): the item is its record.
    if (byId !== undefined && (isApplyPatch(byId.name) || byId.patchText !== null)) {
      // A direct apply_patch's own record. Codex may also write patch_apply_end for it: one record of one change.
      if (outcomes.patchEnds.has(byId.id))
        notes.add(
          "codex-file-change-repeat",
          "info",
          item.sourceLine,
          "FileChange item(s) repeating their call's patch_apply_end: counted once",
        );
      else outcomes.patchEnds.set(byId.id, endOf(item));
      withItems.add(byId.id);
      continue;
    }
    // Nested in another call (Code Mode): the last call before the item that can run patches (not an
    // apply_patch: its own item carries its id), still open then, in the same turn.
    let owner: CallDraft | undefined = byId;
    for (const call of owner === undefined ? calls : []) {
      if (call.sourceLine >= item.sourceLine) break;
      if (isApplyPatch(call.name) || call.patchText !== null || made.has(call.id)) continue;
      const out = outputLines.get(call.id);
      const open =
        out === undefined ? !turnStarts.some((t) => t > call.sourceLine && t < item.sourceLine) : out > item.sourceLine;
      if (open) owner = call;
    }
    const id =
      owner !== undefined
        ? `${owner.id}/${item.id ?? `change-${k}`}@${item.sourceLine}`
        : `${prefix}${item.id ?? "filechange"}@${item.sourceLine}`;
    if (owner !== undefined) {
      withItems.add(owner.id);
      notes.add(
        "codex-nested-file-change",
        "info",
        item.sourceLine,
        `file change(s) made inside another tool call (Code Mode \`${owner.name}\`): each kept as an apply_patch call`,
      );
    } else {
      notes.add(
        "codex-file-change-without-call",
        "info",
        item.sourceLine,
        "FileChange item(s) with no tool call around them: kept as apply_patch calls",
      );
    }
    const draft: CallDraft = {
      id,
      name: "apply_patch",
      input: null,
      timestamp: item.timestamp,
      record: item.record,
      sourceLine: item.sourceLine,
      sidechain: owner?.sidechain ?? calls[0]?.sidechain ?? false,
      bare: owner?.bare ?? false,
      patchText: null,
    };
    made.add(id);
    // Kept in line order: later items look for their owner among the calls before them.
    const at = calls.findIndex((c) => c.sourceLine > item.sourceLine);
    calls.splice(at < 0 ? calls.length : at, 0, draft);
    outcomes.patchEnds.set(id, endOf(item));
  }
  // Code Mode without any record of what its patches did: say so rather than replay nothing quietly.
  for (const call of calls) {
    if (isApplyPatch(call.name) || call.patchText !== null || withItems.has(call.id) || outcomes.patchEnds.has(call.id))
      continue;
    if (
      typeof call.input === "string" &&
      call.input.includes("*** Begin Patch") &&
      /\bapply_?patch\s*\(/.test(call.input)
    ) {
      notes.add(
        "codex-nested-patch-unrecorded",
        "warning",
        call.sourceLine,
        `tool call(s) (e.g. Code Mode \`${call.name}\`) whose input applies a patch, with no FileChange or patch_apply_end record of it: its edits are not replayed`,
      );
    }
  }
}

function endOf(item: FileChangeItem) {
  return {
    record: item.record,
    success: successOf(item.status),
    changes: item.changes,
    stderr: item.status ?? "",
    stdout: "",
    timestamp: item.timestamp,
  };
}
