/**
 * The reference and `swe-chat-eval analyze` on one built repository (gemini.test.ts, pi.test.ts):
 * the product's rows, and an assertion that both sides agree in every column.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type ProductUnit, compareSessions, compareUnits } from "./compare";
import { type ReferenceUnit, runReference } from "./reference";
import { buildRepo, type RepoSpec } from "./repo-fixture";
import { type ReferenceSession, runReferenceSessions } from "./sessions";

/** `swe-chat-eval analyze REPO --out <tmp> --quiet`; its units.json and sessions.json rows. */
export function runCli(repo: string): { units: ProductUnit[]; sessions: ProductUnit[] } {
  const out = mkdtempSync(join(tmpdir(), "ref-cli-"));
  try {
    const r = spawnSync(
      process.execPath,
      [resolve(process.cwd(), "bin/swe-chat-eval.js"), "analyze", repo, "--out", out, "--quiet"],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, `analyze failed: ${r.stderr}`);
    const read = (name: string) => JSON.parse(readFileSync(join(out, name), "utf8")) as ProductUnit[];
    return { units: read("units.json"), sessions: read("sessions.json") };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The reference (with the product's readings of the open points) and the product on one repository; they must agree. */
export function both(spec: RepoSpec): { units: ReferenceUnit[]; sessions: ReferenceSession[] } {
  const { repo, cleanup } = buildRepo(spec);
  try {
    const units = runReference(repo, {
      inferSliceStart: true,
      unitModel: "slice",
      multiSessionCommit: true,
      followSymlinks: true,
    }).units;
    const sessions = runReferenceSessions(repo, { modelsWithMain: true });
    const product = runCli(repo);
    const u = compareUnits(units, product.units);
    assert.deepEqual([u.onlyReference, u.onlyProduct, u.diffs], [[], [], []], "units agree");
    const s = compareSessions(sessions, product.sessions);
    assert.deepEqual([s.onlyReference, s.onlyProduct, s.diffs], [[], [], []], "sessions agree");
    assert.equal(s.referenceSessions, sessions.length);
    return { units, sessions };
  } finally {
    cleanup();
  }
}

export const counts = (u: ReferenceUnit) => [
  u.agent_lines_produced,
  u.agent_lines_final,
  u.agent_lines_survived,
  u.human_lines,
  u.outside_lines,
  u.total_committed_lines,
  u.unreplayable_calls,
  u.outside_changes,
];
