/**
 * Comparing two systems on the instances both attempted: the 2×2 table, the
 * exact McNemar test, the seeded paired bootstrap, and the breakdowns.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import {
  compareRuns,
  evaluateRuns,
  type InstanceRow,
  mcnemarExact,
  pairedBootstrap,
  type SwebenchResult,
} from "../../src/swebench";
import { report, SUBSET, tempDir, writeDataset, writeHarnessRun, writeRunA } from "./fixtures";

test("exact McNemar p-values worked by hand", () => {
  // b = 1, c = 6: n = 7 discordant pairs, X ~ Bin(7, ½).
  // P(X ≤ 1) = (C(7,0) + C(7,1)) / 2^7 = (1 + 7) / 128 = 0.0625; two-sided p = 2 · 0.0625 = 0.125.
  assert.equal(mcnemarExact(1, 6), 0.125);
  assert.equal(mcnemarExact(6, 1), 0.125, "symmetric");
  // b = 0, c = 5: P(X ≤ 0) = 1/32; p = 2/32 = 0.0625.
  assert.equal(mcnemarExact(0, 5), 0.0625);
  // b = 2, c = 8: P(X ≤ 2) = (1 + 10 + 45) / 1024 = 56/1024; p = 112/1024 = 0.109375.
  assert.ok(Math.abs(mcnemarExact(2, 8) - 0.109375) < 1e-15);
  // b = c: P(X ≤ b) > ½, so 2·P > 1 and p is capped at 1; no discordant pair: p = 1.
  assert.equal(mcnemarExact(3, 3), 1);
  assert.equal(mcnemarExact(0, 0), 1);
});

/** 2 · Σ_{k ≤ min(b,c)} C(n,k) / 2^n with BigInt, to 30 decimal digits. */
function exactMcnemar(b: number, c: number): number {
  const n = BigInt(b + c);
  let binom = 1n;
  let sum = 0n;
  for (let k = 0n; k <= BigInt(Math.min(b, c)); k++) {
    if (k > 0n) binom = (binom * (n - k + 1n)) / k;
    sum += binom;
  }
  return Math.min(1, (2 * Number((sum * 10n ** 30n) / 2n ** n)) / 1e30);
}

test("McNemar matches exact big-integer arithmetic, below and above the n = 1000 switch to log space", () => {
  for (const [b, c] of [
    [40, 75],
    [480, 560],
    [1, 1200],
  ]) {
    const p = mcnemarExact(b, c);
    const exact = exactMcnemar(b, c);
    assert.ok(Math.abs(p - exact) <= 1e-10 * exact, `b=${b} c=${c}: ${p} vs ${exact}`);
  }
  // n = 3000: 0.5^3000 underflows a double; in log space it stays a probability.
  const big = mcnemarExact(1480, 1520);
  assert.ok(big > 0.4 && big < 0.6, String(big));
});

test("the paired bootstrap is seeded: same seed, same interval", () => {
  // 20 pairs: A only 6, B only 2, both 5, neither 7 → difference 100 · (6 − 2) / 20 = 20 pp.
  const pairs: [boolean, boolean][] = [
    ...Array.from({ length: 6 }, () => [true, false] as [boolean, boolean]),
    ...Array.from({ length: 2 }, () => [false, true] as [boolean, boolean]),
    ...Array.from({ length: 5 }, () => [true, true] as [boolean, boolean]),
    ...Array.from({ length: 7 }, () => [false, false] as [boolean, boolean]),
  ];
  const a = pairedBootstrap(pairs, { seed: 7, iterations: 500 });
  const b = pairedBootstrap(pairs, { seed: 7, iterations: 500 });
  assert.deepEqual(a, b);
  // The seed is used: one resample each, seeds 1 and 2 draw different differences (25 and 10 pp).
  assert.notDeepEqual(
    pairedBootstrap(pairs, { seed: 1, iterations: 1 }),
    pairedBootstrap(pairs, { seed: 2, iterations: 1 }),
  );
  assert.ok(a![0] < 20 && 20 < a![1], `the point estimate lies inside ${a}`);
  // Every resample difference is a multiple of 100/20 = 5 pp.
  for (const v of a!) assert.equal(Math.abs(v % 5), 0);
  // All pairs concordant: every resample gives 0.
  assert.deepEqual(
    pairedBootstrap(
      [
        [true, true],
        [false, false],
      ],
      { seed: 1 },
    ),
    [0, 0],
  );
  assert.equal(pairedBootstrap([], {}), null);
});

function ok(r: ReturnType<typeof evaluateRuns>): SwebenchResult {
  if ("error" in r) throw new Error(r.error);
  return r;
}

test("two synthetic systems: the 2×2 table on the instances both attempted, by repository and difficulty", () => {
  const dir = tempDir();
  const a = writeRunA(dir);
  // Run B resolves lib-3, lib-4, app-7, app-8 and app-9; fails lib-1, lib-2, lib-5, app-10; app-6 has no prediction (missing).
  const resolved = new Set(["alpha__lib-3", "alpha__lib-4", "beta__app-7", "beta__app-8", "beta__app-9"]);
  const b = writeHarnessRun(
    dir,
    "runB",
    "sysB",
    SUBSET.filter((id) => id !== "beta__app-6").map((id) => ({
      id,
      patch: "d",
      report: report(resolved.has(id) ? {} : { f2p: [0, 1] }),
    })),
  );
  const difficulty = (_id: string, i: number) => ({ difficulty: i < 5 ? "<15 min fix" : "15 min - 1 hour" });
  const dataset = writeDataset(join(dir, "verified.jsonl"), SUBSET, difficulty);
  const r = ok(evaluateRuns({ inputs: [a, b], instances: dataset }));
  const rowsOf = (run: string) => r.instances.filter((x: InstanceRow) => x.run === run);
  const c = compareRuns(rowsOf("runA/sysA"), rowsOf("runB/sysB"), { seed: 3, iterations: 400 });
  // A attempted 9 (app-8 missing), B attempted 9 (app-6 missing): both attempted 8 (all but app-6, app-8).
  // A resolved lib-1, lib-2, app-10. B resolved lib-3, lib-4, app-7, app-9 (app-8 is not shared).
  // both: none; A only: lib-1, lib-2, app-10 (3); B only: lib-3, lib-4, app-7, app-9 (4); neither: lib-5 (1).
  assert.deepEqual([c.n, c.both, c.a_only, c.b_only, c.neither], [8, 0, 3, 4, 1]);
  assert.deepEqual([c.a_only_attempted, c.b_only_attempted], [1, 1]);
  // Rates 100·3/8 = 37.5 and 100·4/8 = 50; difference −12.5 pp.
  assert.deepEqual([c.a_rate, c.b_rate, c.difference], [37.5, 50, -12.5]);
  // McNemar: b = 3, c = 4, n = 7: P(X ≤ 3) = (1 + 7 + 21 + 35) / 128 = 64/128 = ½ → p = min(1, 1) = 1.
  assert.equal(c.mcnemar_p, 1);
  assert.deepEqual(
    c.interval,
    compareRuns(rowsOf("runA/sysA"), rowsOf("runB/sysB"), { seed: 3, iterations: 400 }).interval,
  );
  // alpha/lib: lib-1..5 all shared; A only lib-1, lib-2; B only lib-3, lib-4; neither lib-5.
  // beta/app: app-7, app-9, app-10 shared; A only app-10; B only app-7, app-9.
  assert.deepEqual(
    c.by_repo.map((g) => [g.group, g.n, g.a_only, g.b_only, g.neither]),
    [
      ["alpha/lib", 5, 2, 2, 1],
      ["beta/app", 3, 1, 2, 0],
    ],
  );
  assert.deepEqual(
    c.by_difficulty.map((g) => [g.group, g.n]),
    [
      ["15 min - 1 hour", 3],
      ["<15 min fix", 5],
    ],
  );
});
