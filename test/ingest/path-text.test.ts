import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeGitPath, decodeGitPathAt } from "../../src/ingest/git/path-text";

describe("git path names from a tree object's bytes", () => {
  // A tree object's entries as the reader meets them: `<mode> <name>\0<id>`, the name at [space + 1, nul).
  const names = [
    Buffer.from("src/index.ts"),
    Buffer.from("résumé.md"), // UTF-8: two bytes per accented letter
    Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]), // Latin-1 `café.txt`: not UTF-8
    Buffer.from(""),
  ];
  const object = Buffer.concat(names.flatMap((name) => [Buffer.from("100644 "), name, Buffer.from([0])]));

  test("a name read in place is the name decoded on its own", () => {
    let at = 0;
    const read: string[] = [];
    for (const name of names) {
      const from = at + "100644 ".length;
      read.push(decodeGitPathAt(object, from, from + name.length));
      at = from + name.length + 1;
    }
    assert.deepEqual(read, ["src/index.ts", "résumé.md", "caf\\351.txt", ""]);
    assert.deepEqual(
      read,
      names.map((name) => decodeGitPath(name)),
    );
  });
});
