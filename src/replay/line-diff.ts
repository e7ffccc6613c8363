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
  pushRun(runs, "equal", prefix);
  const restA = prefix === 0 ? a : a.slice(prefix);
  const restB = prefix === 0 ? b : b.slice(prefix);
  if (restA.length === 0) pushRun(runs, "insert", restB.length);
  else if (restB.length === 0) pushRun(runs, "delete", restA.length);
  else {
    // Strings compare with === exactly as in jsdiff's default comparator.
    myersLikeJsdiff(restA, restB, runs);
  }
  return runs;
}

/** Appends a run, merged into the last one of the same kind. (A plain function, not a closure made, and named by tsx, per call.) */
function pushRun(runs: DiffRun[], kind: DiffRun["kind"], count: number): void {
  if (count === 0) return;
  const last = runs.length > 0 ? runs[runs.length - 1] : undefined;
  if (last !== undefined && last.kind === kind) last.count += count;
  else runs.push({ kind, count });
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
 * object per step; both are module-level scratch space reused by every call
 * (the function is synchronous and does not call itself), so a diff of two
 * long files allocates nothing per call. `a` and `b` are non-empty.
 *
 * jsdiff's components are objects the garbage collector frees once no path
 * reaches them; the pool is compacted for the same reason (see
 * `compactComponents`): an append-only pool grows with the square of the
 * edit distance (a 20 000-line rewrite held 6 GB).
 */
let pathOld = new Int32Array(1024);
let pathComp = new Int32Array(1024);
let alive = new Uint8Array(1024);
// Component pool: kind (0 equal, 1 insert, 2 delete), count, previous (-1: none).
let kinds = new Uint8Array(1024);
let counts = new Int32Array(1024);
let prevs = new Int32Array(1024);
let components = 0;
/** Pool size at which the next compaction runs: twice what the previous one kept, and at least this. */
const MIN_COMPACT_AT = 1 << 20;
let compactAt = MIN_COMPACT_AT;
let compactAtMin = MIN_COMPACT_AT;
/** Marks and new indices while compacting (scratch, grown as needed). */
let marks = new Uint8Array(0);
let moved = new Int32Array(0);

/** For tests: the pool size from which compaction starts (compaction never changes a diff). */
export function setLineDiffCompactionThreshold(size: number | null): void {
  compactAtMin = size ?? MIN_COMPACT_AT;
}

/**
 * Keeps only the components that a live path reaches (following `prevs` from
 * each alive diagonal's `pathComp`), moved down in creation order (a
 * component's `prev` is always older), and renumbers the paths. Runs between
 * two edit lengths, when every component still needed hangs off a path.
 */
function compactComponents(lowest: number, highest: number): void {
  if (marks.length < components) {
    marks = new Uint8Array(kinds.length);
    moved = new Int32Array(kinds.length);
  } else marks.fill(0, 0, components);
  for (let d = lowest; d <= highest; d++) {
    if (alive[d] !== 1) continue;
    for (let c = pathComp[d]; c >= 0 && marks[c] === 0; c = prevs[c]) marks[c] = 1;
  }
  let kept = 0;
  for (let c = 0; c < components; c++) {
    if (marks[c] === 0) continue;
    const prev = prevs[c];
    kinds[kept] = kinds[c];
    counts[kept] = counts[c];
    prevs[kept] = prev >= 0 ? moved[prev] : -1;
    moved[c] = kept++;
  }
  for (let d = lowest; d <= highest; d++) if (alive[d] === 1 && pathComp[d] >= 0) pathComp[d] = moved[pathComp[d]];
  components = kept;
  compactAt = Math.max(compactAtMin, 2 * kept);
}

function component(kind: number, count: number, prev: number): number {
  if (components === kinds.length) {
    const k2 = new Uint8Array(components * 2);
    k2.set(kinds);
    kinds = k2;
    const c2 = new Int32Array(components * 2);
    c2.set(counts);
    counts = c2;
    const p2 = new Int32Array(components * 2);
    p2.set(prevs);
    prevs = p2;
  }
  kinds[components] = kind;
  counts[components] = count;
  prevs[components] = prev;
  return components++;
}

const KIND_NAMES: DiffRun["kind"][] = ["equal", "insert", "delete"];

function myersLikeJsdiff(a: readonly string[], b: readonly string[], runs: DiffRun[]): void {
  const oldLen = a.length;
  const newLen = b.length;
  const max = oldLen + newLen;
  const off = max + 1;
  const size = 2 * max + 3;
  if (pathOld.length < size) {
    pathOld = new Int32Array(size);
    pathComp = new Int32Array(size);
    alive = new Uint8Array(size);
  }
  components = 0;
  compactAt = compactAtMin;
  // Diagonals touched, to clear `alive` for the next call.
  let lowest = off;
  let highest = off;

  // extractCommon from diagonal 0: the common prefix.
  let baseOld = -1;
  let baseComp = -1;
  let newPos = -1;
  {
    let common = 0;
    while (newPos + 1 < newLen && baseOld + 1 < oldLen && a[baseOld + 1] === b[newPos + 1]) {
      newPos++;
      baseOld++;
      common++;
    }
    if (common > 0) baseComp = component(0, common, baseComp);
  }
  let last = -2;
  if (baseOld + 1 >= oldLen && newPos + 1 >= newLen) last = baseComp;
  else {
    pathOld[off] = baseOld;
    pathComp[off] = baseComp;
    alive[off] = 1;
    let minDiagonal = -Infinity;
    let maxDiagonal = Infinity;
    outer: for (let editLength = 1; editLength <= max; editLength++) {
      if (components >= compactAt) compactComponents(Math.max(0, lowest), Math.min(size - 1, highest));
      const dFrom = Math.max(minDiagonal, -editLength);
      const dTo = Math.min(maxDiagonal, editLength);
      if (off + dFrom - 1 < lowest) lowest = off + dFrom - 1;
      if (off + dTo + 1 > highest) highest = off + dTo + 1;
      for (let d = dFrom; d <= dTo; d += 2) {
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
        baseComp =
          fromComp !== -1 && kinds[fromComp] === kind
            ? component(kind, counts[fromComp] + 1, prevs[fromComp])
            : component(kind, 1, fromComp);
        // extractCommon along diagonal d.
        newPos = baseOld - d;
        let common = 0;
        while (newPos + 1 < newLen && baseOld + 1 < oldLen && a[baseOld + 1] === b[newPos + 1]) {
          newPos++;
          baseOld++;
          common++;
        }
        if (common > 0) baseComp = component(0, common, baseComp);
        if (baseOld + 1 >= oldLen && newPos + 1 >= newLen) {
          last = baseComp;
          break outer;
        }
        pathOld[off + d] = baseOld;
        pathComp[off + d] = baseComp;
        alive[off + d] = 1;
        if (baseOld + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, d - 1);
        if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, d + 1);
      }
    }
  }
  alive.fill(0, Math.max(0, lowest), Math.min(size, highest + 1));
  // The components from the end back to the start, emitted in order.
  const order: number[] = [];
  for (let c = last; c >= 0; c = prevs[c]) order.push(c);
  for (let k = order.length - 1; k >= 0; k--) pushRun(runs, KIND_NAMES[kinds[order[k]]], counts[order[k]]);
}
