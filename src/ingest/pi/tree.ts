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
