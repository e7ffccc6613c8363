import { test } from "node:test";
import assert from "node:assert/strict";
import { activeSeconds, DEFAULT_IDLE_LIMIT_S, durationSeconds } from "../../src/effort";

const t0 = Date.parse("2026-01-10T09:00:00Z");
const s = (seconds: number) => t0 + seconds * 1000;

test("duration: last minus first, in seconds", () => {
  assert.equal(durationSeconds([s(0), s(60), s(1060), s(1090)]), 1090);
  assert.equal(durationSeconds([s(1090), s(0), s(60)]), 1090); // order does not matter
  assert.equal(durationSeconds([s(5)]), 0);
  assert.equal(durationSeconds([]), null);
  assert.equal(durationSeconds([Number.NaN]), null);
});

test("active time caps each gap at the idle limit", () => {
  // gaps 60 s, 1000 s (→ 300), 30 s: 60 + 300 + 30 = 390
  const times = [s(0), s(60), s(1060), s(1090)];
  assert.equal(DEFAULT_IDLE_LIMIT_S, 300);
  assert.equal(activeSeconds(times), 390);
  // With a 45 s limit: 45 + 45 + 30 = 120
  assert.equal(activeSeconds(times, 45), 120);
  // A gap exactly at the limit is kept whole: 300 + 10 = 310
  assert.equal(activeSeconds([s(0), s(300), s(310)]), 310);
  // With no limit worth the name, active time equals the duration.
  assert.equal(activeSeconds(times, 1e9), durationSeconds(times));
  assert.equal(activeSeconds(times, 0), 0);
});

test("active time edge cases", () => {
  assert.equal(activeSeconds([]), null);
  assert.equal(activeSeconds([s(7)]), 0);
  assert.equal(activeSeconds([s(10), s(0), s(20)]), 20); // sorted before gaps are taken
  assert.equal(activeSeconds([s(0), s(0), s(0)]), 0);
  assert.throws(() => activeSeconds([s(0)], -1), RangeError);
  assert.throws(() => activeSeconds([s(0)], Number.NaN), RangeError);
});
