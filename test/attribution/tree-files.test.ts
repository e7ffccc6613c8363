import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { filesOfTree, readBlob } from "../../src/attribution/tree-files";
import { openRepository } from "../../src/ingest/git/repo";
import { TestRepo } from "../helpers/git-repo";

const repo = new TestRepo("sce-tree-files-");
after(() => rmSync(repo.dir, { recursive: true, force: true }));

/** `git ls-tree -r` of a commit: path → [mode, id], names as git prints them with -z (raw bytes, here UTF-8). */
function lsTree(rev: string): Map<string, [string, string]> {
  const out = execFileSync("git", ["ls-tree", "-r", "-z", rev], { cwd: repo.dir, encoding: "utf8" });
  const files = new Map<string, [string, string]>();
  for (const record of out.split("\0").filter(Boolean)) {
    const [meta, path] = record.split("\t");
    const [mode, , sha] = meta.split(" ");
    files.set(path, [mode, sha]);
  }
  return files;
}

test("a commit's files: every blob id, link and folder as git lists them, whichever folder is asked first", async () => {
  repo.write({
    "README.md": "top\n",
    "src/a.ts": "a\n",
    "src/deep/b.ts": "b\n",
    "src/deep/ünïcode name.txt": "u\n",
    "docs/guide.md": "g\n",
  });
  symlinkSync("src/a.ts", join(repo.dir, "link-to-a"));
  symlinkSync("../README.md", join(repo.dir, "src/deep/up"));
  const first = repo.commit("files, links, a non-ASCII name");
  // A second commit changes one folder only: its tree shares `docs/` and `src/deep/` with the first.
  const second = repo.commit("change src/a.ts", { "src/a.ts": "a2\n" });
  const git = await openRepository(repo.dir);
  assert.ok(git);
  try {
    for (const rev of [second, first]) {
      const listed = lsTree(rev);
      const files = await filesOfTree(git, git.gitDir, rev);
      // Asked about in reverse order of the listing, so that no folder is read before another by chance.
      for (const [path, [mode, sha]] of [...listed].reverse()) {
        assert.equal(files.blob(path), sha, `${rev.slice(0, 7)} ${path}`);
        assert.equal(files.has(path), true);
        assert.equal(files.links.has(path), mode === "120000", `${path} is a link: ${mode}`);
      }
      assert.deepEqual([...files.links].sort(), ["link-to-a", "src/deep/up"]);
      assert.equal(files.has("src/deep"), false, "a folder is not a file");
      assert.equal(files.isFolder("src/deep"), true);
      assert.equal(files.isFolder("src/deep/b.ts"), false);
      assert.equal(files.blob("src/nope.ts"), undefined);
    }
    const a2 = (await filesOfTree(git, git.gitDir, second)).blob("src/a.ts");
    assert.equal(Buffer.from((await readBlob(git, a2!))!).toString("utf8"), "a2\n");
    // Read twice (kept per worker): the same bytes.
    assert.equal(Buffer.from((await readBlob(git, a2!))!).toString("utf8"), "a2\n");
  } finally {
    await git.close();
  }
});
