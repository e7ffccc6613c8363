import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where chart spec snapshots live, relative to the repository root (the tests' working directory). */
export const SNAPSHOT_DIR = join(process.cwd(), "test", "snapshots", "charts");

/**
 * Compares a spec with `test/snapshots/charts/<name>.vl.json`. On a mismatch
 * it writes `<name>.changed.vl.json` beside it and fails; with
 * UPDATE_SNAPSHOTS=1 it rewrites the snapshot instead (Observable Plot's
 * idiom). A missing snapshot fails too, so a new chart is never passed unseen.
 */
export function assertSnapshot(name: string, spec: unknown): void {
  mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const path = join(SNAPSHOT_DIR, `${name}.vl.json`);
  const changed = join(SNAPSHOT_DIR, `${name}.changed.vl.json`);
  const text = JSON.stringify(spec, null, 2) + "\n";
  if (process.env.UPDATE_SNAPSHOTS === "1") {
    writeFileSync(path, text);
    rmSync(changed, { force: true });
    return;
  }
  if (!existsSync(path)) {
    writeFileSync(changed, text);
    assert.fail(`no snapshot ${path}; the spec is in ${changed}: check it, then run with UPDATE_SNAPSHOTS=1`);
  }
  if (readFileSync(path, "utf8") !== text) {
    writeFileSync(changed, text);
    assert.fail(
      `spec ${name} differs from its snapshot; the new spec is in ${changed} (UPDATE_SNAPSHOTS=1 accepts it)`,
    );
  }
  rmSync(changed, { force: true });
}
