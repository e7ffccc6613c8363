/**
 * Pi's conversation tree. Entries link to their parent by `parentId`; going
 * back in the conversation (`/tree`, editing an earlier message) starts a new
 * child of an earlier entry and leaves the old path in the file. The active
 * branch is the path from the leaf to the root, and the leaf of a loaded file
 * is its last entry (session-manager.ts `_buildIndex`: `leafId = entry.id` for
 * every entry in file order). Entire's Pi agent takes the last `message`
 * entry instead (transcript.go `resolveActiveBranch`); the two differ only
 * when a non-message entry (a label, a branch summary, a model change) ends
 * the file.
 *
 * The adapter counts everything in file order (files written on an abandoned
 * branch stay written, every API call was billed, every prompt typed); the
 * active branch is only reported, in diagnostics.
 */
import type { ApiCall, ToolCall } from "../../model";

export interface TreeNode {
  id: string;
  parentId: string | null;
}

/**
 * Ids on the active branch, or null when the file has no tree (v1 files
 * without ids, or no entry naming a parent): then every entry is on it.
 */
export function activeBranch(nodes: readonly TreeNode[]): Set<string> | null {
  if (nodes.length === 0) return null;
  const parentOf = new Map<string, string | null>();
  let hasTree = false;
  for (const n of nodes) {
    parentOf.set(n.id, n.parentId);
    if (n.parentId !== null) hasTree = true;
  }
  if (!hasTree) return null;
  const active = new Set<string>();
  // A cycle or a dangling parent ends the walk (Pi's getBranch stops at an unknown parent too).
  let cur: string | null | undefined = nodes[nodes.length - 1].id;
  while (typeof cur === "string" && parentOf.has(cur) && !active.has(cur)) {
    active.add(cur);
    cur = parentOf.get(cur);
  }
  return active;
}

/** How much lies off the active branch, counted all the same; null when nothing does. */
export function branchReport(
  nodes: readonly TreeNode[],
  prompts: readonly string[],
  calls: Map<ToolCall, string>,
  api: readonly ApiCall[],
): string | null {
  const active = activeBranch(nodes);
  if (active === null) return null;
  const off = nodes.filter((n) => !active.has(n.id)).length;
  if (off === 0) return null;
  const offPrompts = prompts.filter((id) => !active.has(id)).length;
  let offCalls = 0;
  for (const id of calls.values()) if (!active.has(id)) offCalls++;
  const offApi = api.filter((c) => !active.has(c.id)).length;
  return `branched conversation: ${off} of ${nodes.length} entries lie off the active branch (the path from the last entry to the root), among them ${offPrompts} prompt(s), ${offCalls} tool call(s) and ${offApi} API call(s); all are counted (files written there stay written, every call was billed), while Entire's Pi agent counts prompts and tokens on the active branch only`;
}
