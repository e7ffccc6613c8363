/**
 * A partial clone whose checkpoints branch lacks one folder's tree object:
 * `git ls-tree -r` of the branch then fails as a whole. The reader lists the
 * readable folders object by object, names the unreadable one in a warning,
 * and reads the rest (a real repository; the subtree's loose object is
 * deleted, as a blobless or treeless clone would leave it absent).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DiagnosticSink } from "../../src/model";
import { readEntireRepository } from "../../src/ingest/entire";
import { TestRepo } from "../helpers/git-repo";

const checkpoint = (id: string, session: string) => ({
  [`${id.slice(0, 2)}/${id.slice(2)}/metadata.json`]: JSON.stringify({
    checkpoint_id: id,
    strategy: "manual-commit",
    sessions: [{ metadata: `/${id.slice(0, 2)}/${id.slice(2)}/0/metadata.json` }],
  }),
  [`${id.slice(0, 2)}/${id.slice(2)}/0/metadata.json`]: JSON.stringify({
    checkpoint_id: id,
    session_id: session,
    agent: "Claude Code",
    created_at: "2026-03-02T10:00:00Z",
  }),
  [`${id.slice(0, 2)}/${id.slice(2)}/0/full.jsonl`]: `{"type":"user","sessionId":"${session}","message":{"role":"user","content":"hi"}}\n`,
});

test("a checkpoints branch with a missing folder: the rest is read, the missing one named", async () => {
  const repo = new TestRepo("sce-partial-");
  try {
    repo.commit("initial", { "README.md": "readme\n" });
    repo.checkpointsBranch({ ...checkpoint("aa0000000001", "s-one"), ...checkpoint("bb0000000002", "s-two") });
    const branch = "refs/heads/entire/checkpoints/v1";
    const lost = repo.git("rev-parse", `${branch}:bb/0000000002`).trim();
    unlinkSync(join(repo.dir, ".git", "objects", lost.slice(0, 2), lost.slice(2)));
    assert.notEqual(spawnStatus(repo.dir, ["ls-tree", "-r", branch]), 0, "git itself cannot list the branch");

    const sink = new DiagnosticSink("entire");
    const er = await readEntireRepository(repo.dir, sink);
    assert.ok(er);
    try {
      assert.deepEqual(
        er.checkpoints.map((c) => c.checkpoint_id),
        ["aa0000000001"],
      );
      const warned = sink.rows.filter((d) => d.code === "entire-branch-partly-unreadable");
      assert.equal(warned.length, 1);
      assert.match(warned[0].message, /1 folder\(s\).*bb\/0000000002/);
      assert.equal(sink.rows.filter((d) => d.code === "entire-branch-unreadable").length, 0);
    } finally {
      await er.close();
    }
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
  }
});

function spawnStatus(cwd: string, args: string[]): number {
  try {
    execFileSync("git", args, { cwd, stdio: "ignore" });
    return 0;
  } catch (e) {
    return (e as { status?: number }).status ?? 1;
  }
}
