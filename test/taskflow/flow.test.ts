import assert from "node:assert/strict";
import { test } from "node:test";
import { DiagnosticSink } from "../../src/model";
import {
  bootstrapTfas,
  buildTaskFlow,
  checkTaskFlow,
  compareTaskFlows,
  readSavedTaskFlow,
  toSavedTaskFlow,
  type LabelledSession,
  type TaskLabel,
} from "../../src/taskflow";

const s = (id: string, ...labels: TaskLabel[]): LabelledSession => ({ session_id: id, labels });
const edges = (f: ReturnType<typeof buildTaskFlow>) => f.transitions.map((t) => `${t.from}>${t.to}:${t.count}`);

test("an all-excluded session: counted in P_L, absent from P_T, START→END in P_R (or nothing with all-excluded skip)", () => {
  const corpus = [s("a", "greeting", "other"), s("b", "bug-fix", "meta-question", "explain")];
  const f = buildTaskFlow(corpus);
  // Lengths are counted before label filtering: a is a 2-message session, b a 3-message one.
  assert.equal(f.lengths["2"], 1);
  assert.equal(f.lengths["3"], 1);
  // Only bug-fix and explain are retained.
  assert.equal(f.n_retained_messages, 2);
  assert.equal(f.task_types["bug-fix"], 1);
  assert.equal(f.task_types.explain, 1);
  assert.equal(f.task_types.greeting, undefined);
  // b's meta-question is skipped, so bug-fix and explain become adjacent; a gives START→END.
  assert.deepEqual(edges(f), ["START>bug-fix:1", "START>END:1", "bug-fix>explain:1", "explain>END:1"]);
  const skip = buildTaskFlow(corpus, { allExcluded: "skip" });
  assert.deepEqual(edges(skip), ["START>bug-fix:1", "bug-fix>explain:1", "explain>END:1"]);
  assert.equal(skip.lengths["2"], 1);
  assert.deepEqual(checkTaskFlow(f), []);
});

test("a session of one message: bin 1 and two edges; a corpus filter of 3 leaves it out", () => {
  const corpus = [s("one", "bug-fix"), s("three", "new-feature", "tests", "execute")];
  const all = buildTaskFlow(corpus);
  assert.equal(all.lengths["1"], 1);
  assert.deepEqual(
    edges(all).filter((e) => e.includes("bug-fix")),
    ["START>bug-fix:1", "bug-fix>END:1"],
  );
  const long = buildTaskFlow(corpus, { minMessages: 3 });
  assert.equal(long.n_sessions_in, 2);
  assert.equal(long.n_sessions, 1);
  assert.equal(long.lengths["1"], 0);
  assert.equal(long.task_types["bug-fix"], 0);
  // START→new-feature, new-feature→tests, tests→execute, execute→END.
  assert.equal(long.transitions.length, 4);
});

test("a session without messages has no bin: counted in n_empty, left out of every distribution", () => {
  const f = buildTaskFlow([s("empty"), s("a", "explain")]);
  assert.equal(f.n_empty, 1);
  assert.equal(f.n_sessions, 1);
  assert.equal(
    Object.values(f.lengths).reduce((a, b) => a + b, 0),
    1,
  );
});

test("a label absent from one side: finite divergence, worked by hand", () => {
  // Same lengths; task types: target {bug-fix ½, debug ½}, benchmark {bug-fix 1}; M = {bug-fix ¾, debug ¼}.
  // bug-fix: ¼·log₂(⅔) + ½·log₂(4/3) = 0.0612781; debug (target only): ¼·log₂(2) = ¼. JSD = 0.3112781 → S_T = 0.688722.
  const r = compareTaskFlows(
    buildTaskFlow([s("t", "bug-fix", "debug")]),
    buildTaskFlow([s("b", "bug-fix", "bug-fix")]),
  );
  assert.equal(r.S_L, 1);
  assert.equal(r.S_T!.toFixed(6), "0.688722");
  const debug = r.divergence.task_types.find((t) => t.key === "debug")!;
  assert.deepEqual([debug.p, debug.q, debug.contribution], [0.5, 0, 0.25]);
  // A side with no retained message at all has no P_T: its scores are undefined, never a made-up number.
  const none = compareTaskFlows(buildTaskFlow([s("t", "bug-fix")]), buildTaskFlow([s("b", "greeting")]));
  assert.equal(none.S_T, null);
  assert.equal(none.TFAS, null);
  assert.equal(none.S_L, 1);
});

test("bootstrap: seeded, whole sessions, percentile intervals; degenerate corpora give a point interval", () => {
  // Every target session is the same and so is every benchmark session: each replicate has the same shares as the data,
  // so every interval is the point estimate. Target 3 × [bug-fix, explain, bug-fix], benchmark 2 × [new-feature ×3]:
  // S_L = 1 (all length 3); task types disjoint → S_T = 0; TFAS = 0.
  const t = buildTaskFlow([1, 2, 3].map((i) => s(`t${i}`, "bug-fix", "explain", "bug-fix")));
  const b = buildTaskFlow([1, 2].map((i) => s(`b${i}`, "new-feature", "new-feature", "new-feature")));
  const ci = bootstrapTfas(t, b, { replicates: 50, seed: 7 });
  assert.deepEqual(
    [ci.S_L, ci.S_T, ci.TFAS],
    [
      [1, 1],
      [0, 0],
      [0, 0],
    ],
  );

  const T = buildTaskFlow([
    s("a", "bug-fix", "explain", "bug-fix"),
    s("b", "new-feature", "question"),
    s("c", "tests"),
    s("d", "execute", "execute", "debug"),
  ]);
  const B = buildTaskFlow([
    s("x", "new-feature", "new-feature"),
    s("y", "bug-fix", "bug-fix", "explain"),
    s("z", "execute"),
  ]);
  const one = bootstrapTfas(T, B, { replicates: 300, seed: 42 });
  assert.deepEqual(bootstrapTfas(T, B, { replicates: 300, seed: 42 }), one, "same seed, same intervals");
  assert.notDeepEqual(bootstrapTfas(T, B, { replicates: 300, seed: 43 }).S_T, one.S_T, "another seed, other draws");
  for (const k of ["S_L", "S_T", "S_R"] as const) {
    const [lo, hi] = one[k]!;
    assert.ok(lo >= 0 && lo <= hi && hi <= 1, `${k} interval ${lo}..${hi}`);
  }
  assert.ok(one.TFAS![0] >= 0 && one.TFAS![1] <= 100);
  assert.deepEqual(one.resampled, { target: true, benchmark: true });
});

test("a saved Task Flow round-trips, keeps counts and a format version, and a counts-only flow is held fixed in the bootstrap", () => {
  const f = buildTaskFlow(
    [s("a", "bug-fix", "explain", "bug-fix"), s("b", "new-feature", "greeting", "question", "new-feature")],
    { name: "target", minMessages: 3 },
  );
  const sink = new DiagnosticSink("test");
  const back = readSavedTaskFlow(toSavedTaskFlow(f), "f.json", sink);
  assert.deepEqual(back, f);
  assert.equal(back!.format_version, 1);
  assert.equal(back!.task_types["bug-fix"], 2, "counts, not shares");
  const countsOnly = readSavedTaskFlow(toSavedTaskFlow(f, { sequences: false }), "f.json", sink)!;
  assert.equal(countsOnly.sequences, undefined);
  assert.equal(sink.rows.length, 0);
  const other = buildTaskFlow([s("c", "bug-fix", "bug-fix", "explain")]);
  assert.deepEqual(compareTaskFlows(countsOnly, other), compareTaskFlows(f, other));
  const ci = bootstrapTfas(countsOnly, other, { replicates: 20 });
  assert.deepEqual(ci.resampled, { target: false, benchmark: true });
});

test("a saved Task Flow that does not add up, or is from a newer version, is a diagnostic", () => {
  const f = buildTaskFlow([s("a", "bug-fix", "explain")]);
  const sink = new DiagnosticSink("test");
  assert.equal(readSavedTaskFlow(JSON.stringify({ ...f, n_sessions: 5 }), "bad.json", sink), null);
  assert.equal(readSavedTaskFlow(JSON.stringify({ ...f, format_version: 99 }), "new.json", sink), null);
  assert.equal(readSavedTaskFlow("{not json", "x.json", sink), null);
  assert.equal(readSavedTaskFlow(JSON.stringify({ kind: "swe-chat-eval.taskflow" }), "thin.json", sink), null);
  assert.deepEqual(
    sink.rows.map((d) => d.code),
    ["taskflow-saved-inconsistent", "taskflow-saved-version", "taskflow-saved-unreadable", "taskflow-saved-invalid"],
  );
});
