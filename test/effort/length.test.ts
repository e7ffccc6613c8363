import { test } from "node:test";
import assert from "node:assert/strict";
import { ALL_LENGTH_BINS, LENGTH_BINS, lengthBin, ZERO_PROMPT_BIN } from "../../src/effort";

test("bins and their order", () => {
  assert.deepEqual([...LENGTH_BINS], ["1", "2", "3", "4", "5", "6-10", "11+"]);
  assert.deepEqual([...ALL_LENGTH_BINS], ["0", "1", "2", "3", "4", "5", "6-10", "11+"]);
});

test("boundaries 5, 6, 10, 11", () => {
  assert.equal(lengthBin(1), "1");
  assert.equal(lengthBin(2), "2");
  assert.equal(lengthBin(3), "3");
  assert.equal(lengthBin(4), "4");
  assert.equal(lengthBin(5), "5");
  assert.equal(lengthBin(6), "6-10");
  assert.equal(lengthBin(10), "6-10");
  assert.equal(lengthBin(11), "11+");
  assert.equal(lengthBin(500), "11+");
});

test("zero prompts get their own bin, outside the paper's seven", () => {
  assert.equal(lengthBin(0), ZERO_PROMPT_BIN);
  assert.equal(lengthBin(0), "0");
  assert.ok(!(LENGTH_BINS as readonly string[]).includes(lengthBin(0)));
});

test("counts that are not whole numbers ≥ 0 are refused", () => {
  assert.throws(() => lengthBin(-1), RangeError);
  assert.throws(() => lengthBin(1.5), RangeError);
  assert.throws(() => lengthBin(Number.NaN), RangeError);
});
