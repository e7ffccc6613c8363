import assert from "node:assert/strict";
import { test } from "node:test";
import { isBinaryBytes, isBinaryText } from "../../src/replay";

// metrics.md §2: "a NUL byte in its first 8000 bytes". A JS string counts UTF-16 units; the rule counts UTF-8 bytes.
test("binary: a NUL in the first 8000 bytes of the UTF-8 text, whatever the characters before it take", () => {
  const cjk = "中".repeat(3000); // 3 bytes each: 9000 bytes, 3000 units
  assert.equal(isBinaryText(cjk + "\u0000"), false, "the NUL is byte 9001 (unit 3001)");
  assert.equal(isBinaryText("中".repeat(2666) + "\u0000"), true, "2666 × 3 = 7998 bytes before it: byte 7999");
  assert.equal(isBinaryText("中".repeat(2667) + "\u0000"), false, "8001 bytes before it");
  assert.equal(isBinaryText("a".repeat(7999) + "\u0000"), true, "ASCII: byte 8000");
  assert.equal(isBinaryText("a".repeat(8000) + "\u0000"), false, "ASCII: byte 8001");
  assert.equal(isBinaryText("😀".repeat(1999) + "\u0000"), true, "a surrogate pair is 4 bytes: 7996 before it");
  assert.equal(isBinaryText("😀".repeat(2000) + "\u0000"), false, "8000 bytes before it: byte 8001");
  assert.equal(isBinaryText("no nul here"), false);
  // The same answers as the bytes themselves give.
  const enc = new TextEncoder();
  for (const text of [
    cjk + "\u0000",
    "中".repeat(2666) + "\u0000",
    "😀".repeat(1999) + "\u0000",
    "é".repeat(3999) + "\u0000",
    "é".repeat(4000) + "\u0000",
  ]) {
    assert.equal(isBinaryText(text), isBinaryBytes(enc.encode(text)), `${text.length} units`);
  }
});
