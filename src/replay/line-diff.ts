
/** One run of a line diff: `equal` lines are in both, `delete` only in the old, `insert` only in the new. */
export interface DiffRun {
  kind: "equal" | "delete" | "insert";
  count: number;
}

/**
 * Myers line diff (the `diff` package's `diffArrays` on the whole arrays,
 * metrics.md §2), with the common prefix matched first: jsdiff's first step
 * follows the same diagonal, so this changes nothing but the cost. The
 * common suffix is NOT matched first: that would change which of several
 * equal lines is kept (e.g. `["x"] → ["}", "x", "x"]` inserts line 3 on the
 * whole arrays but line 2 once the suffix `x` is matched), and an
 * independent implementation of metrics.md would disagree.
 */
export function lineDiff(a: readonly string[], b: readonly string[]): DiffRun[] {
  let prefix = 0;
  const max = Math.min(a.length, b.length);
  while (prefix < max && a[prefix] === b[prefix]) prefix++;

  const runs: DiffRun[] = [];
  const push = (kind: DiffRun["kind"], count: number) => {
    if (count === 0) return;
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.count += count;
    else runs.push({ kind, count });
  };
  push("equal", prefix);
  const restA = prefix === 0 ? a : a.slice(prefix);
  const restB = prefix === 0 ? b : b.slice(prefix);
  if (restA.length === 0) push("insert", restB.length);
  else if (restB.length === 0) push("delete", restA.length);
  else {
    // Strings compare with === exactly as in jsdiff's default comparator.
    myersLikeJsdiff(restA, restB, push);
  }
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

/**
 * The `diff` package's `diffArrays` (diff 9, `Diff.diffWithOptionsObj` with
 * no options) ported step for step to integer arrays: the same diagonal
 * order, the same add/remove choice (`!canRemove || (canAdd && remove.oldPos
 * < add.oldPos)`), the same pruning and the same merging of components, so
 * it yields exactly jsdiff's edit script (metrics.md §2: Myers via `diff`).
 * Paths are kept in typed arrays and components in a pool instead of one
 * object per step. `a` and `b` are non-empty.
 */
function myersLikeJsdiff(a: readonly string[], b: readonly string[], emit: (kind: DiffRun["kind"], count: number) => void): void {
  const oldLen = a.length;
  const newLen = b.length;
  const max = oldLen + newLen;
  const off = max + 1;
  const pathOld = new Int32Array(2 * max + 3);
  const pathComp = new Int32Array(2 * max + 3);
  const alive = new Uint8Array(2 * max + 3);
  // Component pool: kind (0 equal, 1 insert, 2 delete), count, previous (-1: none).
  let kinds = new Uint8Array(64);
  let counts = new Int32Array(64);
  let prevs = new Int32Array(64);
  let n = 0;
  const comp = (kind: number, count: number, prev: number): number => {
    if (n === kinds.length) {
      const k2 = new Uint8Array(n * 2); k2.set(kinds); kinds = k2;
      const c2 = new Int32Array(n * 2); c2.set(counts); counts = c2;
      const p2 = new Int32Array(n * 2); p2.set(prevs); prevs = p2;
    }
    kinds[n] = kind;
    counts[n] = count;
    prevs[n] = prev;
    return n++;
  };
  // extractCommon: follow the diagonal; returns newPos, updates oldPos/component of slot.
  let baseOld = 0;
  let baseComp = -1;
  const extract = (diagonal: number): number => {
    let oldPos = baseOld;
    let newPos = oldPos - diagonal;
    let common = 0;
    while (newPos + 1 < newLen && oldPos + 1 < oldLen && a[oldPos + 1] === b[newPos + 1]) {
      newPos++;
      oldPos++;
      common++;
    }
    if (common > 0) baseComp = comp(0, common, baseComp);
    baseOld = oldPos;
    return newPos;
  };
  const finish = (last: number): void => {
    const order: number[] = [];
    for (let c = last; c !== -1; c = prevs[c]) order.push(c);
    for (let k = order.length - 1; k >= 0; k--) {
      const c = order[k];
      emit(kinds[c] === 0 ? "equal" : kinds[c] === 1 ? "insert" : "delete", counts[c]);
    }
  };

  baseOld = -1;
  baseComp = -1;
  let newPos = extract(0);
  if (baseOld + 1 >= oldLen && newPos + 1 >= newLen) return finish(baseComp);
  pathOld[off] = baseOld;
  pathComp[off] = baseComp;
  alive[off] = 1;
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  for (let editLength = 1; editLength <= max; editLength++) {
    for (let d = Math.max(minDiagonal, -editLength); d <= Math.min(maxDiagonal, editLength); d += 2) {
      const ri = off + d - 1;
      const ai = off + d + 1;
      const hasRemove = alive[ri] === 1;
      const hasAdd = alive[ai] === 1;
      const removeOld = pathOld[ri];
      const removeComp = pathComp[ri];
      if (hasRemove) alive[ri] = 0;
      let canAdd = false;
      if (hasAdd) {
        const addNewPos = pathOld[ai] - d;
        canAdd = 0 <= addNewPos && addNewPos < newLen;
      }
      const canRemove = hasRemove && removeOld + 1 < oldLen;
      if (!canAdd && !canRemove) {
        alive[off + d] = 0;
        continue;
      }
      let fromComp: number;
      let kind: number;
      if (!canRemove || (canAdd && removeOld < pathOld[ai])) {
        baseOld = pathOld[ai];
        fromComp = pathComp[ai];
        kind = 1;
      } else {
        baseOld = removeOld + 1;
        fromComp = removeComp;
        kind = 2;
      }
      baseComp = fromComp !== -1 && kinds[fromComp] === kind ? comp(kind, counts[fromComp] + 1, prevs[fromComp]) : comp(kind, 1, fromComp);
      newPos = extract(d);
      if (baseOld + 1 >= oldLen && newPos + 1 >= newLen) return finish(baseComp);
      pathOld[off + d] = baseOld;
      pathComp[off + d] = baseComp;
      alive[off + d] = 1;
      if (baseOld + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, d - 1);
      if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, d + 1);
    }
  }
}
