import assert from "node:assert/strict";
import { test } from "node:test";
import { makePathMapper } from "../../src/replay";

test("Windows paths map to repository paths like POSIX ones (the drive letter is not part of the root)", () => {
  // A Claude Code session on Windows: cwd C:\Users\me\repo, edits under it and one outside it.
  const logged = ["C:\\Users\\me\\repo\\src\\a.py", "C:\\Users\\me\\repo\\README.md", "C:\\Users\\me\\.claude\\plans\\p.md", "src\\b.py"];
  const inRepo = new Set(["src/a.py", "README.md"]);
  const mapper = makePathMapper(logged, ["C:\\Users\\me\\repo"], (p) => inRepo.has(p));
  assert.equal(mapper.root, "/Users/me/repo");
  assert.deepEqual(logged.map((p) => mapper.toRepoPath(p)), ["src/a.py", "README.md", null, "src/b.py"]);
});

test("a session started in a subfolder finds the repository root above it from the files it touched", () => {
  const logged = ["/home/u/proj/pkg/lib.py", "/home/u/proj/README.md"];
  const mapper = makePathMapper(logged, ["/home/u/proj/pkg"], (p) => p === "pkg/lib.py" || p === "README.md");
  assert.equal(mapper.root, "/home/u/proj");
  assert.deepEqual(logged.map((p) => mapper.toRepoPath(p)), ["pkg/lib.py", "README.md"]);
});
