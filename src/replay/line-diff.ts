import { diffArrays } from "diff";

/** One run of a line diff: `equal` lines are in both, `delete` only in the old, `insert` only in the new. */
export interface DiffRun {
  kind: "equal" | "delete" | "insert";
  count: number;
}

/**
 * Myers line diff (the `diff` package) of two line arrays, with the common
 * prefix and suffix trimmed first: most edits touch a few lines of a long
 * file, and trimming keeps the O(ND) core small.
 */
export function lineDiff(a: readonly string[], b: readonly string[]): DiffRun[] {
  let prefix = 0;
  const max = Math.min(a.length, b.length);
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const runs: DiffRun[] = [];
  const push = (kind: DiffRun["kind"], count: number) => {
    if (count === 0) return;
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.count += count;
    else runs.push({ kind, count });
  };
  push("equal", prefix);
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length === 0) push("insert", midB.length);
  else if (midB.length === 0) push("delete", midA.length);
  else {
    for (const change of diffArrays(midA, midB)) {
      const count = change.count ?? change.value.length;
      push(change.added ? "insert" : change.removed ? "delete" : "equal", count);
    }
  }
  push("equal", suffix);
  return runs;
}

/** Lines of `b` that a line diff a → b marks as inserted, as a boolean per line of `b`. */
export function insertedMask(a: readonly string[], b: readonly string[]): boolean[] {
  const mask = new Array<boolean>(b.length).fill(false);
  let j = 0;
  for (const run of lineDiff(a, b)) {
    if (run.kind === "insert") {
      for (let k = 0; k < run.count; k++) mask[j + k] = true;
      j += run.count;
    } else if (run.kind === "equal") j += run.count;
  }
  return mask;
}
