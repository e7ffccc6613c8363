/**
 * The git access layer against REAL repositories built with the git CLI in a
 * temporary folder (fixed identities and dates, no global or system config).
 * Every expectation below is computed by hand from the fixture, or by a
 * different git command than the one the code uses, so each can fail.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GitObjectReader } from "../../src/ingest/git/cat-file";
import { DiffTreeBatch } from "../../src/ingest/git/diff-tree-batch";
import { GitSandbox } from "../helpers/git-sandbox";
import { isExcludedFromHistory, openRepository, parseRawNumstat, type GitRepository } from "../../src/ingest/git/repo";

const T0 = 1_700_000_000; // fixed epoch seconds of the first commit

class Sandbox extends GitSandbox {
  constructor(root: string) {
    super(root, T0);
  }
}

describe("git layer on a real repository", () => {
  let box: Sandbox;
  let dir: string;
  let repo: GitRepository;
  const sha: Record<string, string> = {};
  const time: Record<string, number> = {};
  const bigBlob = Buffer.alloc(3 * 1024 * 1024 + 17);

  before(async () => {
    const root = mkdtempSync(join(tmpdir(), "sce-git-"));
    box = new Sandbox(root);
    dir = join(root, "work");
    mkdirSync(dir);
    const g = (args: string[], input?: string) => box.git(dir, args, input);
    const commit = (name: string, args: string[]) => {
      time[name] = box.nextTime();
      g(args);
      sha[name] = g(["rev-parse", "HEAD"]).trim();
    };
    g(["init", "-q"]);

    // root: two text files and a binary one
    writeFileSync(join(dir, "a.txt"), "one\ntwo\n");
    writeFileSync(join(dir, "old.txt"), "r1\nr2\nr3\nr4\nr5\n");
    writeFileSync(join(dir, "logo.bin"), Buffer.from([0, 1, 2, 0, 255]));
    // A 3 MiB blob of every byte value, with newlines and a fake cat-file header inside.
    for (let i = 0; i < bigBlob.length; i++) bigBlob[i] = (i * 7) % 256;
    bigBlob.write("\ndeadbeef blob 12\n", 1000);
    writeFileSync(join(dir, "big.dat"), bigBlob);
    writeFileSync(join(dir, "empty.txt"), "");
    g(["add", "."]);
    commit("root", ["commit", "-q", "-m", "root\n\nEntire-Checkpoint: 000000000001"]);

    // modification, deletion, rename, binary change
    writeFileSync(join(dir, "a.txt"), "one\nTWO\nthree\n");
    writeFileSync(join(dir, "logo.bin"), Buffer.from([0, 9, 9, 0]));
    g(["mv", "old.txt", "new.txt"]);
    g(["rm", "-q", "empty.txt"]);
    g(["add", "."]);
    commit("change", [
      "commit",
      "-q",
      "-m",
      // A squash-merge body: the id in a middle paragraph is not a trailer; the last paragraph is a trailer block without it.
      "squash (#2)\n\n* first part\n\nEntire-Checkpoint: 0000000000aa\n\n* second part\n\nCo-authored-by: Bob <bob@example.com>",
    ]);

    // a feature branch with a trailer block holding two ids and a lower-case key
    g(["checkout", "-q", "-b", "feature"]);
    writeFileSync(join(dir, "f.txt"), "feature\n");
    g(["add", "f.txt"]);
    commit("feature", [
      "commit",
      "-q",
      "-m",
      "feature\n\nentire-checkpoint: 0000000000bb\nEntire-Checkpoint: 0000000000cc\nSigned-off-by: Ada <ada@example.com>",
    ]);

    // main gets a commit that the cherry-pick copies, then the merge
    g(["checkout", "-q", "main"]);
    writeFileSync(join(dir, "pick.txt"), "picked\n");
    g(["add", "pick.txt"]);
    commit("pick", ["commit", "-q", "-m", "pick me\n\nEntire-Checkpoint: 0000000000dd"]);
    commit("merge", ["merge", "-q", "--no-ff", "feature", "-m", "merge feature\n\nEntire-Checkpoint: 0000000000ee"]);
    commit("empty", ["commit", "-q", "--allow-empty", "-m", "nothing"]);

    g(["checkout", "-q", "feature"]);
    commit("copy", ["cherry-pick", sha.pick]);
    g(["checkout", "-q", "main"]);

    // Refs that must NOT start the history walk, each on a commit nothing else reaches.
    const orphan = (name: string, ref: string) => {
      const tree = g(["write-tree"]).trim();
      time[name] = box.nextTime();
      sha[name] = g(["commit-tree", tree, "-m", `${name}\n\nEntire-Checkpoint: 0000000000ff`], "").trim();
      g(["update-ref", ref, sha[name]]);
    };
    orphan("shadow", "refs/heads/entire/abc1234-def456");
    orphan("cpbranch", "refs/heads/entire/checkpoints/v1");
    orphan("cpref", "refs/entire/checkpoints/01/000000000001");
    orphan("remoteEntire", "refs/remotes/origin/entire/checkpoints/v1");
    orphan("notes", "refs/notes/commits");
    // ...and refs that must: a remote-tracking branch and an annotated tag, each on their own commit.
    orphan("remoteFeature", "refs/remotes/origin/topic");
    const tagTarget = g(["commit-tree", g(["write-tree"]).trim(), "-m", "tagged only"], "").trim();
    sha.tagged = tagTarget;
    g(["tag", "-a", "-m", "a tag", "v1", tagTarget]);
    // a tag of a blob: no history to walk, must not break the log
    const blob = g(["hash-object", "-w", "--stdin"], "just a blob\n").trim();
    g(["tag", "blobtag", blob]);

    const opened = await openRepository(dir);
    assert.ok(opened);
    repo = opened;
  });

  after(async () => {
    await repo?.close();
    if (box) rmSync(box.root, { recursive: true, force: true });
  });

  test("openRepository accepts a work tree root and its .git dir, refuses other folders", async () => {
    assert.equal(repo.bare, false);
    assert.equal(repo.workTree, dir);
    assert.equal(repo.gitDir, join(dir, ".git"));
    const viaGitDir = await openRepository(join(dir, ".git"));
    assert.ok(viaGitDir);
    assert.equal(viaGitDir.gitDir, join(dir, ".git"));
    await viaGitDir.close();
    // A subfolder of a work tree is not a repository of its own (unless asked) ...
    mkdirSync(join(dir, "sub"), { recursive: true });
    assert.equal(await openRepository(join(dir, "sub")), null);
    const sub = await openRepository(join(dir, "sub"), { allowSubdirectory: true });
    assert.ok(sub);
    assert.equal(sub.gitDir, join(dir, ".git"));
    await sub.close();
    // ... and a plain folder or a missing path is none.
    const plain = join(box.root, "plain");
    mkdirSync(plain);
    assert.equal(await openRepository(plain), null);
    assert.equal(await openRepository(join(box.root, "does-not-exist")), null);
  });

  test("logCommits walks every ref except Entire's own, stash and notes", async () => {
    const commits = await repo.logCommits();
    const got = new Set(commits.map((c) => c.sha));
    for (const name of ["root", "change", "feature", "pick", "merge", "empty", "copy", "remoteFeature", "tagged"]) {
      assert.ok(got.has(sha[name]), `${name} should be listed`);
    }
    for (const name of ["shadow", "cpbranch", "cpref", "remoteEntire", "notes"]) {
      assert.ok(!got.has(sha[name]), `${name} (an Entire/notes ref) must not be listed`);
    }
    // exactly those nine commits, each once
    assert.equal(commits.length, 9);
    assert.equal(got.size, 9);
  });

  test("logCommits reads parents, times, subject and ONLY real Entire-Checkpoint trailers", async () => {
    const bySha = new Map((await repo.logCommits()).map((c) => [c.sha, c]));
    const root = bySha.get(sha.root)!;
    assert.deepEqual(root.parents, []);
    assert.equal(root.author_time, time.root);
    assert.equal(root.committer_time, time.root);
    assert.equal(root.subject, "root");
    assert.deepEqual(root.checkpoint_ids, ["000000000001"]);
    // squash-merge body: the mention in the middle is not a trailer
    assert.deepEqual(bySha.get(sha.change)!.checkpoint_ids, []);
    assert.equal(bySha.get(sha.change)!.subject, "squash (#2)");
    // two trailers in one block, the key matched case-insensitively, in message order
    assert.deepEqual(bySha.get(sha.feature)!.checkpoint_ids, ["0000000000bb", "0000000000cc"]);
    const merge = bySha.get(sha.merge)!;
    assert.deepEqual(merge.parents, [sha.pick, sha.feature]);
    assert.deepEqual(merge.checkpoint_ids, ["0000000000ee"]);
    // the cherry-pick keeps the author time and the trailer, and gets its own (later) committer time
    const copy = bySha.get(sha.copy)!;
    assert.equal(copy.author_time, time.pick);
    assert.equal(copy.committer_time, time.copy);
    assert.ok(copy.committer_time > time.pick);
    assert.deepEqual(copy.checkpoint_ids, ["0000000000dd"]);
    // patch ids are not computed unless asked
    assert.equal(root.patch_id, null);
  });

  test("logCommits onlyCheckpointed + patchIds", async () => {
    const commits = await repo.logCommits({ onlyCheckpointed: true, patchIds: true });
    const names = Object.keys(sha)
      .filter((n) => commits.some((c) => c.sha === sha[n]))
      .sort();
    // remoteFeature carries the trailer too (every orphan above does); the Entire refs' commits are not walked.
    assert.deepEqual(names, ["copy", "feature", "merge", "pick", "remoteFeature", "root"]);
    const bySha = new Map(commits.map((c) => [c.sha, c]));
    assert.equal(bySha.get(sha.merge)!.patch_id, null, "a merge has no patch id");
    assert.ok(bySha.get(sha.pick)!.patch_id);
    assert.equal(bySha.get(sha.copy)!.patch_id, bySha.get(sha.pick)!.patch_id);
  });

  test("patchIds: copies share one id, which equals `git show | git patch-id --stable`", async () => {
    const ids = await repo.patchIds([sha.root, sha.pick, sha.copy, sha.feature, sha.merge, sha.empty]);
    const direct = box.git(dir, ["show", sha.pick]);
    const expected = execFileSync("git", ["patch-id", "--stable"], { cwd: dir, input: direct })
      .toString()
      .split(" ")[0];
    assert.equal(ids.get(sha.pick), expected);
    assert.equal(ids.get(sha.copy), expected);
    assert.notEqual(ids.get(sha.feature), expected);
    assert.ok(ids.get(sha.root), "a root commit has a patch id (diff against nothing)");
    assert.equal(ids.has(sha.merge), false);
    assert.equal(ids.has(sha.empty), false);
    assert.equal(ids.size, 4);
    assert.equal((await repo.patchIds([])).size, 0);
  });

  test("changedFiles: first-parent numstat, binary, status, root against the empty tree", async () => {
    const root = await repo.changedFiles(sha.root);
    assert.ok(root);
    const r = Object.fromEntries(root.map((f) => [f.path, f]));
    assert.deepEqual(Object.keys(r).sort(), ["a.txt", "big.dat", "empty.txt", "logo.bin", "old.txt"]);
    assert.deepEqual([r["a.txt"].status, r["a.txt"].additions, r["a.txt"].binary], ["A", 2, false]);
    assert.deepEqual([r["old.txt"].additions, r["empty.txt"].additions], [5, 0]);
    assert.deepEqual([r["logo.bin"].binary, r["logo.bin"].additions], [true, null]);
    assert.equal(r["big.dat"].binary, true);

    const change = await repo.changedFiles(sha.change);
    assert.ok(change);
    const c = Object.fromEntries(change.map((f) => [f.path, f]));
    // a.txt: two→TWO and +three: numstat 2 added, 1 deleted
    assert.deepEqual([c["a.txt"].status, c["a.txt"].additions, c["a.txt"].deletions], ["M", 2, 1]);
    // without rename detection a rename is a deletion plus an addition of every line
    assert.deepEqual([c["old.txt"].status, c["new.txt"].status, c["new.txt"].additions], ["D", "A", 5]);
    assert.equal(c["empty.txt"].status, "D");
    assert.deepEqual([c["logo.bin"].status, c["logo.bin"].binary, c["logo.bin"].additions], ["M", true, null]);
    assert.equal(change.length, 5);

    const renamed = await repo.changedFiles(sha.change, { renames: true });
    const moved = renamed!.find((f) => f.path === "new.txt")!;
    assert.equal(moved.status, "R");
    assert.equal(moved.old_path, "old.txt");
    assert.equal(moved.additions, 0);

    // a merge: only what the merged branch brings relative to the FIRST parent
    const merge = await repo.changedFiles(sha.merge);
    assert.deepEqual(
      merge!.map((f) => [f.path, f.status, f.additions]),
      [["f.txt", "A", 1]],
    );
    assert.deepEqual(await repo.changedFiles(sha.empty), []);
    assert.equal(await repo.changedFiles("0123456789012345678901234567890123456789"), null);
    assert.deepEqual(await repo.parents(sha.merge), [sha.pick, sha.feature]);
  });

  test("readFile and the cat-file reader: exact bytes, missing objects, large blobs, many at once", async () => {
    assert.equal(Buffer.from((await repo.readFile(sha.change, "a.txt"))!).toString(), "one\nTWO\nthree\n");
    assert.equal(Buffer.from((await repo.readFile(sha.root, "a.txt"))!).toString(), "one\ntwo\n");
    assert.deepEqual(Buffer.from((await repo.readFile(sha.change, "logo.bin"))!), Buffer.from([0, 9, 9, 0]));
    assert.equal((await repo.readFile(sha.root, "empty.txt"))!.length, 0);
    assert.equal(await repo.readFile(sha.change, "empty.txt"), null, "deleted in that commit");
    assert.equal(await repo.readFile(sha.change, "nope/nothing.txt"), null);
    assert.equal(await repo.readFile(sha.root, ""), null, "a tree is not a file");
    assert.equal(await repo.readFile("no-such-rev", "a.txt"), null);
    assert.equal(await repo.readFile(sha.root, "a\nb"), null, "a spec with a line break cannot be asked");

    // The 3 MiB blob comes back byte for byte (it contains a fake header line).
    const big = await repo.readFile(sha.root, "big.dat");
    assert.ok(big);
    assert.equal(Buffer.compare(Buffer.from(big), bigBlob), 0);

    // 200 concurrent requests, interleaving small, large and missing ones: answers keep their order.
    const specs: Array<[string, string | null]> = [];
    for (let i = 0; i < 200; i++) {
      if (i % 3 === 0) specs.push([`${sha.change}:a.txt`, "one\nTWO\nthree\n"]);
      else if (i % 3 === 1) specs.push([`${sha.root}:a.txt`, "one\ntwo\n"]);
      else specs.push([`${sha.root}:missing-${i}.txt`, null]);
    }
    specs.splice(50, 0, [`${sha.root}:big.dat`, "BIG"]);
    const results = await Promise.all(specs.map(([spec]) => repo.objects.read(spec)));
    results.forEach((data, i) => {
      const want = specs[i][1];
      if (want === null) assert.equal(data, null, specs[i][0]);
      else if (want === "BIG") assert.equal(Buffer.compare(Buffer.from(data!), bigBlob), 0);
      else assert.equal(Buffer.from(data!).toString(), want, specs[i][0]);
    });

    const info = await repo.objects.info(`${sha.root}:big.dat`);
    assert.deepEqual([info?.type, info?.size], ["blob", bigBlob.length]);
    assert.equal(await repo.objects.info("0123456789abcdef0123456789abcdef01234567"), null);
    const commitObj = await repo.objects.readObject(sha.root);
    assert.equal(commitObj?.type, "commit");
  });

  test("changedFiles asked for every commit at once over one diff-tree process: the same files as one `git diff-tree` per commit, each answer to its own commit", async () => {
    // The expected answer of each commit comes from its own git process (the path the code used before batching).
    const oneShot = (commit: string): ReturnType<typeof parseRawNumstat> => {
      const parents = box.git(dir, ["rev-list", "--parents", "-n", "1", commit]).trim().split(" ").slice(1);
      const base = parents[0] ?? box.git(dir, ["hash-object", "-t", "tree", "/dev/null"]).trim();
      return parseRawNumstat(
        box.git(dir, ["diff-tree", "-r", "-z", "--raw", "--numstat", "--no-renames", "--no-abbrev", base, commit]),
      );
    };
    const commits = ["root", "change", "feature", "pick", "merge", "empty", "copy"].map((name) => sha[name]);
    const asked = commits.flatMap((c) => [c, c, c]).reverse();
    const answers = await Promise.all(asked.map((c) => repo.changedFiles(c)));
    asked.forEach((c, i) => assert.deepEqual(answers[i], oneShot(c), `commit ${c}`));
    // Unreadable and readable requests interleaved: an unknown commit is null, and the ones after it are still answered.
    const mixed = await Promise.all([
      repo.changedFiles("0123456789012345678901234567890123456789"),
      repo.changedFiles(sha.pick),
    ]);
    assert.equal(mixed[0], null);
    assert.deepEqual(
      mixed[1]!.map((f) => f.path),
      ["pick.txt"],
    );
  });

  test("diff-tree batch: odd file names; a git that dies on a missing blob fails that request only, and a new process answers the next", async () => {
    const odd = join(box.root, "odd");
    mkdirSync(odd);
    box.git(odd, ["init", "-q"]);
    // A name with a newline, one that looks like a sentinel line, and one that looks like a commit header.
    const names = ["line\nbreak.txt", "#swe-chat-eval-0\n", "0123456789012345678901234567890123456789"];
    for (const n of names) writeFileSync(join(odd, n), "x\n");
    box.git(odd, ["add", "."]);
    box.git(odd, ["commit", "-q", "-m", "odd names"]);
    writeFileSync(join(odd, "line\nbreak.txt"), "x\ny\n");
    writeFileSync(join(odd, "lost.txt"), "this blob will be deleted\n");
    box.git(odd, ["add", "."]);
    box.git(odd, ["commit", "-q", "-m", "grow and lose"]);
    const [head, first] = box.git(odd, ["rev-list", "HEAD"]).trim().split("\n");
    const r = await openRepository(odd);
    assert.ok(r);
    try {
      const firstFiles = await r.changedFiles(first);
      assert.deepEqual(
        firstFiles!.map((f) => [f.path, f.status, f.additions]).sort(),
        names.map((n) => [n, "A", 1]).sort(),
      );
      const grown = await r.changedFiles(head);
      assert.deepEqual(
        grown!.map((f) => [f.path, f.status, f.additions, f.deletions]),
        [
          ["line\nbreak.txt", "M", 1, 0],
          ["lost.txt", "A", 1, 0],
        ],
      );
    } finally {
      await r.close();
    }

    // A bare copy (loose objects, no work tree for git to fall back on) without the blob of lost.txt:
    // `git diff-tree --numstat` dies on it ("fatal: unable to read").
    const bareDir = join(box.root, "odd.git");
    cpSync(join(odd, ".git"), bareDir, { recursive: true });
    box.git(bareDir, ["config", "core.bare", "true"]);
    const lostSha = box.git(bareDir, ["rev-parse", "HEAD:lost.txt"]).trim();
    unlinkSync(join(bareDir, "objects", lostSha.slice(0, 2), lostSha.slice(2)));
    const batch = new DiffTreeBatch(bareDir);
    try {
      const [dying, after] = await Promise.allSettled([batch.changes(head, first), batch.changes(first, null)]);
      assert.equal(dying.status, "rejected");
      assert.match(
        String((dying as PromiseRejectedResult).reason),
        /git diff-tree ended \(exit 128\).*unable to read/s,
      );
      // The request written behind the one that killed git failed with it; asked again, a new process answers.
      assert.equal(after.status, "rejected");
      const again = parseRawNumstat(await batch.changes(first, null));
      assert.deepEqual(again.map((f) => f.path).sort(), [...names].sort());
      assert.equal(
        (await batch.changes("0123456789012345678901234567890123456789", null)).length,
        0,
        "an unknown commit: git prints nothing and goes on",
      );
      assert.equal(parseRawNumstat(await batch.changes(first, null)).length, 3);
    } finally {
      await batch.close();
    }
    const bare = await openRepository(bareDir);
    assert.ok(bare);
    try {
      assert.equal(await bare.changedFiles(head), null, "the commit git cannot diff is unreadable, not empty");
      assert.equal((await bare.changedFiles(first))!.length, 3);
    } finally {
      await bare.close();
    }
  });

  test("a blob listed in a tree but absent from the object store reads as null and lists as missing", async () => {
    // A separate repository, so the main fixture keeps all its objects.
    const lost = join(box.root, "lost");
    mkdirSync(lost);
    box.git(lost, ["init", "-q"]);
    writeFileSync(join(lost, "keep.txt"), "kept\n");
    writeFileSync(join(lost, "gone.txt"), "this blob will be deleted\n");
    box.git(lost, ["add", "."]);
    box.git(lost, ["commit", "-q", "-m", "two files"]);
    const goneSha = box.git(lost, ["rev-parse", "HEAD:gone.txt"]).trim();
    unlinkSync(join(lost, ".git", "objects", goneSha.slice(0, 2), goneSha.slice(2)));
    const r = await openRepository(lost);
    assert.ok(r);
    try {
      assert.equal(await r.readFile("HEAD", "gone.txt"), null);
      assert.equal(Buffer.from((await r.readFile("HEAD", "keep.txt"))!).toString(), "kept\n");
      const listing = await r.listTree("HEAD");
      assert.deepEqual(
        listing!.map((e) => [e.path, e.missing, e.size]),
        [
          ["gone.txt", true, null],
          ["keep.txt", false, 5],
        ],
      );
      assert.equal(await r.objects.info(goneSha), null);
    } finally {
      await r.close();
    }
  });

  test("patchIds: a commit whose diff cannot be read loses its id, not the ids of the commits after it", async () => {
    // Three commits, each changing one file; the middle one's new blob is deleted (as in a partial
    // clone). `git log -p` stops there, so one batch would leave the third without an id too.
    // Expected: ids for the first and the third (each equal to `git show | git patch-id`), none
    // for the middle one.
    const gap = join(box.root, "gap");
    mkdirSync(gap);
    box.git(gap, ["init", "-q"]);
    writeFileSync(join(gap, "a.txt"), "one\n");
    box.git(gap, ["add", "."]);
    box.git(gap, ["commit", "-q", "-m", "first"]);
    const first = box.git(gap, ["rev-parse", "HEAD"]).trim();
    writeFileSync(join(gap, "b.txt"), "this blob will be lost\n");
    box.git(gap, ["add", "."]);
    box.git(gap, ["commit", "-q", "-m", "second"]);
    const second = box.git(gap, ["rev-parse", "HEAD"]).trim();
    const lostBlob = box.git(gap, ["rev-parse", "HEAD:b.txt"]).trim();
    writeFileSync(join(gap, "a.txt"), "one\ntwo\n");
    box.git(gap, ["add", "."]);
    box.git(gap, ["commit", "-q", "-m", "third"]);
    const third = box.git(gap, ["rev-parse", "HEAD"]).trim();
    const idOf = (c: string) =>
      execFileSync("git", ["patch-id", "--stable"], { cwd: gap, input: box.git(gap, ["show", c]) })
        .toString()
        .split(" ")[0];
    const expected = { first: idOf(first), third: idOf(third) };
    unlinkSync(join(gap, ".git", "objects", lostBlob.slice(0, 2), lostBlob.slice(2)));
    const r = await openRepository(gap);
    assert.ok(r);
    try {
      const unreadable: string[] = [];
      const ids = await r.patchIds([second, first, third], (sha) => unreadable.push(sha));
      assert.deepEqual(unreadable, [second], "the unreadable commit is named, not dropped silently");
      assert.equal(ids.get(first), expected.first);
      assert.equal(ids.get(third), expected.third);
      assert.equal(ids.has(second), false);
      assert.equal(ids.size, 2);
    } finally {
      await r.close();
    }
  });

  test("damaged clones: a ref to an absent object, an absent commit inside the history, a shallow boundary", async () => {
    const dmg = join(box.root, "damaged");
    mkdirSync(dmg);
    const g = (args: string[]) => box.git(dmg, args);
    const commit = (file: string, message: string) => {
      writeFileSync(join(dmg, file), `${file}\n`);
      g(["add", file]);
      g(["commit", "-q", "-m", message]);
      return g(["rev-parse", "HEAD"]).trim();
    };
    g(["init", "-q"]);
    const base = commit("base.txt", "base");
    const lost = commit("lost.txt", "lost");
    const above = commit("above.txt", "above\n\nEntire-Checkpoint: 00000000000a");
    g(["checkout", "-q", "-b", "side", base]);
    const side = commit("side.txt", "side\n\nEntire-Checkpoint: 00000000000b");
    g(["checkout", "-q", "main"]);
    // A healthy copy for the shallow case below.
    const shallowDir = join(box.root, "shallow");
    box.git(box.root, ["clone", "-q", "--no-local", "--single-branch", "--branch", "side", dmg, shallowDir]);
    // A stale branch naming an object this clone never had.
    const ghost = "1234567890123456789012345678901234567890";
    writeFileSync(join(dmg, ".git", "refs", "heads", "ghost"), ghost + "\n");
    const r = await openRepository(dmg);
    assert.ok(r);
    try {
      // for-each-ref fails as a whole when asked for types; the refs are still listed, the ghost typed missing.
      const refs = await r.listRefs();
      assert.deepEqual(
        refs.map((x) => [x.name, x.type]),
        [
          ["refs/heads/ghost", "missing"],
          ["refs/heads/main", "commit"],
          ["refs/heads/side", "commit"],
        ],
      );
      // ...and the history of the others is read.
      const all = await r.logCommits();
      assert.deepEqual(new Set(all.map((c) => c.sha)), new Set([above, lost, base, side]));

      // The commit `lost` goes: one walk over all starts would die at it; each start is read on its own as far as it goes.
      unlinkSync(join(dmg, ".git", "objects", lost.slice(0, 2), lost.slice(2)));
      const told: string[] = [];
      const partial = await r.logCommits({ onHistoryIncomplete: (m) => told.push(m) });
      assert.equal(told.length, 1);
      assert.match(told[0], new RegExp(lost));
      // git reads a commit's parents before it shows the commit, so main shows nothing (its tip's parent is gone);
      // side still gives side and base: without the per-start reading, the failed walk gave nothing at all.
      assert.deepEqual(partial.map((c) => c.sha).sort(), [base, side].sort());
      const trailered = await r.logCommits({ onlyCheckpointed: true, onHistoryIncomplete: () => {} });
      assert.deepEqual(
        trailered.map((c) => c.checkpoint_ids),
        [["00000000000b"]],
      );
    } finally {
      await r.close();
    }

    // A clone made shallow at `side`: git shows it without parents; its commit object names `base`, which is here.
    writeFileSync(join(shallowDir, ".git", "shallow"), side + "\n");
    assert.equal(box.git(shallowDir, ["log", "--format=%P", "-1", side]).trim(), "", "git itself hides the parent");
    const sr = await openRepository(shallowDir);
    assert.ok(sr);
    try {
      const commits = await sr.logCommits();
      assert.deepEqual(
        commits.map((c) => [c.sha, c.parents]),
        [[side, [base]]],
      );
      assert.deepEqual(
        (await sr.changedFiles(side))!.map((f) => f.path),
        ["side.txt"],
        "diffed against its real parent, not as a root commit",
      );
    } finally {
      await sr.close();
    }
    // The same clone seen through a linked worktree: its git dir (.git/worktrees/wt) has no `shallow` file of its
    // own; `commondir` leads to the main git dir, which has.
    const linked = join(box.root, "linked-wt");
    box.git(shallowDir, ["worktree", "add", "-q", "--detach", linked, side]);
    const wr = await openRepository(linked);
    assert.ok(wr);
    try {
      assert.deepEqual(
        (await wr.logCommits()).map((c) => [c.sha, c.parents]),
        [[side, [base]]],
      );
    } finally {
      await wr.close();
    }
  });

  test("listTree and walkTree list the same entries", async () => {
    const listed = await repo.listTree(sha.change);
    const walked = await repo.walkTree(sha.change);
    assert.ok(listed && walked);
    assert.deepEqual(
      listed.map((e) => e.path),
      ["a.txt", "big.dat", "logo.bin", "new.txt"],
    );
    assert.deepEqual(
      walked.map((e) => [e.path, e.sha, e.mode]),
      listed.map((e) => [e.path, e.sha, e.mode]),
    );
    assert.equal(listed.find((e) => e.path === "big.dat")!.size, bigBlob.length);
    assert.equal(await repo.listTree("no-such-rev"), null);
    assert.equal(await repo.walkTree("no-such-rev"), null);
    const sub = await repo.listTree(sha.change, { path: "a.txt" });
    assert.deepEqual(
      sub!.map((e) => e.path),
      ["a.txt"],
    );
  });

  test("walkTree reports a subtree it cannot read (a partial clone) and lists the rest", async () => {
    // A tree `keep.txt` + `gone/x.txt` whose `gone` subtree object is deleted from the object store.
    const root = mkdtempSync(join(tmpdir(), "sce-git-partial-"));
    const partial = new Sandbox(root);
    const work = join(root, "work");
    mkdirSync(join(work, "gone"), { recursive: true });
    const g = (args: string[]) => partial.git(work, args);
    g(["init", "-q"]);
    writeFileSync(join(work, "keep.txt"), "kept\n");
    writeFileSync(join(work, "gone", "x.txt"), "lost\n");
    g(["add", "."]);
    g(["commit", "-q", "-m", "two folders"]);
    const subtree = g(["rev-parse", "HEAD:gone"]).trim();
    unlinkSync(join(work, ".git", "objects", subtree.slice(0, 2), subtree.slice(2)));
    const r = await openRepository(work);
    assert.ok(r);
    try {
      const unreadable: string[] = [];
      const walked = await r.walkTree("HEAD", (folder) => unreadable.push(folder));
      assert.deepEqual(
        walked?.map((e) => e.path),
        ["keep.txt"],
      );
      assert.deepEqual(unreadable, ["gone"]);
    } finally {
      await r.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("listRefs and head", async () => {
    const refs = await repo.listRefs();
    const names = refs.map((r) => r.name);
    assert.ok(names.includes("refs/heads/main"));
    assert.ok(names.includes("refs/entire/checkpoints/01/000000000001"));
    const tag = refs.find((r) => r.name === "refs/tags/v1")!;
    assert.equal(tag.type, "tag");
    assert.equal(tag.peeled, sha.tagged);
    assert.deepEqual([...names].sort(), names, "sorted by name");
    const head = await repo.head();
    assert.equal(head.symref, "refs/heads/main");
    assert.equal(head.sha, sha.empty);
  });

  test("a bare clone reads the same as its source", async () => {
    const bareDir = join(box.root, "bare.git");
    box.git(box.root, ["clone", "-q", "--bare", dir, bareDir]);
    const bare = await openRepository(bareDir);
    assert.ok(bare);
    try {
      assert.equal(bare.bare, true);
      assert.equal(bare.workTree, null);
      // a bare clone copies branches and tags (not refs/remotes, refs/entire): those commits are the reachable ones
      const got = new Set((await bare.logCommits()).map((c) => c.sha));
      const want = new Set(
        ["root", "change", "feature", "pick", "merge", "empty", "copy", "tagged"].map((n) => sha[n]),
      );
      assert.deepEqual(got, want);
      assert.equal(Buffer.compare(Buffer.from((await bare.readFile(sha.root, "big.dat"))!), bigBlob), 0);
      assert.deepEqual(await bare.changedFiles(sha.change), await repo.changedFiles(sha.change));
      assert.deepEqual(await bare.patchIds([sha.pick, sha.copy]), await repo.patchIds([sha.pick, sha.copy]));
    } finally {
      await bare.close();
    }
  });
});

describe("git layer units", () => {
  test("isExcludedFromHistory", () => {
    assert.equal(isExcludedFromHistory("refs/heads/entire/checkpoints/v1"), true);
    assert.equal(isExcludedFromHistory("refs/heads/entire/abc1234-e3b0c4"), true);
    assert.equal(isExcludedFromHistory("refs/remotes/origin/entire/checkpoints/v1"), true);
    assert.equal(isExcludedFromHistory("refs/entire/checkpoints/ZN/01KVBJCWYA4YW6J5M9GP655HZN"), true);
    assert.equal(isExcludedFromHistory("refs/stash"), true);
    assert.equal(isExcludedFromHistory("refs/notes/commits"), true);
    assert.equal(isExcludedFromHistory("refs/heads/entirely-mine"), false);
    assert.equal(isExcludedFromHistory("refs/remotes/origin/feature/entire/x"), false);
    assert.equal(isExcludedFromHistory("refs/pull/12/head"), false);
    assert.equal(isExcludedFromHistory("refs/heads/main"), false);
  });

  test("parseRawNumstat handles renames and binary records", () => {
    const z = "\0";
    const text =
      `:100644 100644 ${"a".repeat(40)} ${"b".repeat(40)} R087${z}old name.txt${z}new name.txt${z}` +
      `:000000 100644 ${"0".repeat(40)} ${"c".repeat(40)} A${z}img.png${z}` +
      `3\t1\t${z}old name.txt${z}new name.txt${z}` +
      `-\t-\timg.png${z}`;
    const files = parseRawNumstat(text);
    assert.deepEqual(
      files.map((f) => [f.path, f.old_path, f.status, f.additions, f.deletions, f.binary]),
      [
        ["new name.txt", "old name.txt", "R", 3, 1, false],
        ["img.png", null, "A", null, null, true],
      ],
    );
  });

  test("GitObjectReader on a folder that is not a repository: reads fail, they do not hang", async () => {
    const notRepo = mkdtempSync(join(tmpdir(), "sce-norepo-"));
    const reader = new GitObjectReader(notRepo);
    await assert.rejects(reader.read("HEAD:x"));
    await reader.close();
    await assert.rejects(reader.read("HEAD:x"), /closed/);
    rmSync(notRepo, { recursive: true, force: true });
  });
});
