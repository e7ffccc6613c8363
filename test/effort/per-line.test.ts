import { test } from "node:test";
import assert from "node:assert/strict";
import { effortPerCommittedLine, perCommittedLine } from "../../src/effort";

test("value divided by committed lines", () => {
  assert.equal(perCommittedLine(12.5, 50), 0.25);
  assert.equal(perCommittedLine(0, 10), 0);
  assert.equal(perCommittedLine(1_200_000, 400), 3_000);
});

test("null when there are no committed lines or no value", () => {
  assert.equal(perCommittedLine(10, 0), null);
  assert.equal(perCommittedLine(10, -3), null);
  assert.equal(perCommittedLine(10, Number.NaN), null);
  assert.equal(perCommittedLine(null, 10), null);
  assert.equal(perCommittedLine(Number.POSITIVE_INFINITY, 10), null);
});

test("the three figures at once", () => {
  assert.deepEqual(effortPerCommittedLine({ tokens: 90_000, cost_usd: 3, active_s: 600 }, 30), {
    tokens_per_line: 3_000,
    usd_per_line: 0.1,
    active_s_per_line: 20,
  });
  assert.deepEqual(effortPerCommittedLine({ tokens: 90_000, cost_usd: null, active_s: 600 }, 0), {
    tokens_per_line: null,
    usd_per_line: null,
    active_s_per_line: null,
  });
});
