import assert from "node:assert/strict";
import { test } from "node:test";
import { makePathMapper, resolveSymlinks } from "../../src/replay";

test("Windows paths map to repository paths like POSIX ones (the drive letter is not part of the root)", () => {
  // A Claude Code session on Windows: cwd C:\Users\me\repo, edits under it and one outside it.
  const logged = [
    "C:\\Users\\me\\repo\\src\\a.py",
    "C:\\Users\\me\\repo\\README.md",
    "C:\\Users\\me\\.claude\\plans\\p.md",
    "src\\b.py",
  ];
  const inRepo = new Set(["src/a.py", "README.md"]);
  const mapper = makePathMapper(logged, ["C:\\Users\\me\\repo"], (p) => inRepo.has(p));
  assert.equal(mapper.root, "/Users/me/repo");
  assert.deepEqual(
    logged.map((p) => mapper.toRepoPath(p)),
    ["src/a.py", "README.md", null, "src/b.py"],
  );
});

test("a session started in a subfolder finds the repository root above it from the files it touched", () => {
  const logged = ["/home/u/proj/pkg/lib.py", "/home/u/proj/README.md"];
  const mapper = makePathMapper(logged, ["/home/u/proj/pkg"], (p) => p === "pkg/lib.py" || p === "README.md");
  assert.equal(mapper.root, "/home/u/proj");
  assert.deepEqual(
    logged.map((p) => mapper.toRepoPath(p)),
    ["pkg/lib.py", "README.md"],
  );
});

test("a session started in a monorepo package: a tie between roots goes to the one whose paths the commit changes", () => {
  // cwd packages/web; the agent edits its package.json, and the repository root has a package.json too. Both roots
  // explain the one logged path (root "packages/web" → "package.json", root "/home/u/proj" → "packages/web/package.json").
  const logged = ["/home/u/proj/packages/web/package.json"];
  const inRepo = new Set(["package.json", "packages/web/package.json"]);
  const committed = new Set(["packages/web/package.json"]);
  const mapper = makePathMapper(
    logged,
    ["/home/u/proj/packages/web"],
    (p) => inRepo.has(p),
    (p) => committed.has(p),
  );
  assert.equal(mapper.root, "/home/u/proj");
  assert.equal(mapper.toRepoPath(logged[0]), "packages/web/package.json");
  // Without a preference the tie keeps the deeper root, as before (the commit may not touch the file at all).
  assert.equal(
    makePathMapper(logged, ["/home/u/proj/packages/web"], (p) => inRepo.has(p)).root,
    "/home/u/proj/packages/web",
  );
  // The preference only breaks ties: more existing paths still win.
  const more = ["/home/u/proj/packages/web/package.json", "/home/u/proj/packages/web/src/app.ts"];
  const withSrc = new Set([...inRepo, "src/app.ts"]);
  assert.equal(
    makePathMapper(
      more,
      ["/home/u/proj/packages/web"],
      (p) => withSrc.has(p),
      (p) => committed.has(p),
    ).root,
    "/home/u/proj/packages/web",
  );
});

test("on POSIX a backslash is part of a file name; on Windows it separates", () => {
  const logged = ["/home/u/proj/back\\slash.txt", "/home/u/proj/src/a.txt", "dir\\rel.txt"];
  const inRepo = new Set(["back\\slash.txt", "src/a.txt"]);
  const mapper = makePathMapper(logged, ["/home/u/proj"], (p) => inRepo.has(p));
  assert.deepEqual(
    logged.map((p) => mapper.toRepoPath(p)),
    ["back\\slash.txt", "src/a.txt", "dir\\rel.txt"],
  );
  // The same relative path from a Windows session names a folder, as does a UNC path.
  const win = makePathMapper(["dir\\rel.txt", "\\\\host\\share\\repo\\x.txt"], ["\\\\host\\share\\repo"], () => true);
  assert.equal(win.root, "/host/share/repo");
  assert.deepEqual(
    [win.toRepoPath("dir\\rel.txt"), win.toRepoPath("\\\\host\\share\\repo\\x.txt")],
    ["dir/rel.txt", "x.txt"],
  );
});

test("writes through symbolic links land on the file the chain names, or nowhere when it leaves the repository", () => {
  const links = new Map([
    ["CLAUDE.md", "AGENTS.md"], // a file link beside its target
    [".claude/skills", "../.agents/skills"], // a folder link, relative to the folder holding it
    ["docs/latest", "v2"], // a link to a folder that is itself reached through a link chain
    ["docs/v2", "./versions/2/"],
    ["up", "../outside.md"], // leaves the repository
    ["abs", "/etc/hosts"],
    ["loop-a", "loop-b"],
    ["loop-b", "loop-a"],
  ]);
  const resolve = (p: string) => resolveSymlinks(p, (q) => links.get(q));
  assert.equal(resolve("CLAUDE.md"), "AGENTS.md");
  assert.equal(resolve("AGENTS.md"), "AGENTS.md");
  assert.equal(resolve(".claude/skills/x/SKILL.md"), ".agents/skills/x/SKILL.md");
  // docs/latest → docs/v2 → docs/versions/2: the rest of the path follows the last link.
  assert.equal(resolve("docs/latest/guide.md"), "docs/versions/2/guide.md");
  assert.equal(resolve("up"), null);
  assert.equal(resolve("abs"), null);
  assert.equal(resolve("loop-a"), null);
  // A path through a folder that merely shares a link's name as a prefix of a component is not a link.
  assert.equal(resolve("CLAUDE.md.bak"), "CLAUDE.md.bak");
});

test("links resolve one component at a time, as the kernel does; keepLast leaves the last link itself", () => {
  const links = new Map([
    ["l", "a/b"],
    ["x", "l/../f"], // l is followed first (to a/b), then .. climbs to a: a/f, not f
    ["CLAUDE.md", "AGENTS.md"],
    ["dir", "real"],
    ["empty", ""],
  ]);
  const get = (q: string) => links.get(q);
  assert.equal(resolveSymlinks("x", get), "a/f");
  assert.equal(resolveSymlinks("empty", get), null);
  // Removing or renaming a link acts on the link: only the folders on the way are followed.
  assert.equal(resolveSymlinks("CLAUDE.md", get, true), "CLAUDE.md");
  assert.equal(resolveSymlinks("dir/CLAUDE.md", get, true), "real/CLAUDE.md");
  assert.equal(resolveSymlinks("dir/CLAUDE.md", get), "real/CLAUDE.md");
});
