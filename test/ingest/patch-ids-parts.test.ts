import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openRepository } from "../../src/ingest/git/repo";

const dir = mkdtempSync(join(tmpdir(), "sce-patch-ids-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const git = (args: string[], input?: string) =>
  execFileSync("git", args, { cwd: dir, input, encoding: "utf8", maxBuffer: 1 << 26 });

test("patch ids of a long history, read in parts at once: the same ids, and unreadable commits reported in order", async () => {
  // 600 commits (above the 512 from which the history is cut into parts), each adding one file of its own,
  // written by fast-import with fixed dates.
  git(["init", "-q", "-b", "main"]);
  let stream = "";
  for (let i = 0; i < 600; i++) {
    const text = `file ${i}\n`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter T <t@example.invalid> ${1772445600 + i * 60} +0000\n`;
    stream += `data 2\nc\n${i > 0 ? `from :${i}\n` : ""}M 100644 inline f${i}.txt\ndata ${text.length}\n${text}\n`;
  }
  git(["fast-import", "--quiet"], stream);
  const shas = git(["rev-list", "--reverse", "main"]).trim().split("\n");
  assert.equal(shas.length, 600);
  // What one pipeline over all of them gives: git's own patch ids.
  const expected = new Map<string, string>();
  const all = git(["log", "--no-walk=unsorted", "--stdin", "-p", "--format=commit %H"], `${shas.join("\n")}\n`);
  for (const line of execFileSync("git", ["patch-id", "--stable"], { cwd: dir, input: all, encoding: "utf8" })
    .trim()
    .split("\n")) {
    const [id, sha] = line.split(" ");
    expected.set(sha, id);
  }
  assert.equal(expected.size, 600);

  // Two blobs made unreadable: commit 100's (in the first part) and commit 500's (in the last). Objects are
  // unpacked to loose files so that one can be taken away.
  const packs = join(dir, ".git", "objects", "pack");
  for (const name of readdirSync(packs).filter((n) => n.endsWith(".pack"))) {
    renameSync(join(packs, name), join(dir, name));
    rmSync(join(packs, name.replace(/\.pack$/, ".idx")));
    execFileSync("git", ["unpack-objects", "-q"], { cwd: dir, input: execFileSync("cat", [join(dir, name)]) });
  }
  const blobOf = (i: number) => git(["rev-parse", `${shas[i]}:f${i}.txt`]).trim();
  for (const i of [500, 100]) {
    const blob = blobOf(i);
    rmSync(join(dir, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
  }

  const repo = await openRepository(dir);
  assert.ok(repo);
  try {
    const reported: string[] = [];
    const ids = await repo.patchIds(shas, (sha) => reported.push(sha));
    // In commit order, the earlier first, whichever part finished first.
    assert.deepEqual(reported, [shas[100], shas[500]]);
    assert.equal(ids.size, 598);
    for (const [i, sha] of shas.entries())
      assert.equal(ids.get(sha), i === 100 || i === 500 ? undefined : expected.get(sha));
  } finally {
    await repo.close();
  }
});
